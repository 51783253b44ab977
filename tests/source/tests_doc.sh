# tests/README.md's table of the tests is current: it is what scripts/gen-tests-doc writes from
# the tests' own header comments and tests/durations (run `scripts/gen-tests-doc readme`), and
# every test has a header that says what it checks.
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp tests/README.md "$tmp/README.md"
if ! scripts/gen-tests-doc readme "$tmp/README.md" 2>"$tmp/err"; then
	echo "not ok - scripts/gen-tests-doc readme runs on tests/README.md: $(head -c 300 "$tmp/err")"
elif diff -u tests/README.md "$tmp/README.md" >"$tmp/diff"; then
	echo "ok - tests/README.md's table is the one the tests' headers and tests/durations give"
else
	echo "not ok - tests/README.md's table is not current (run scripts/gen-tests-doc readme): $(grep '^[-+]|' "$tmp/diff" | head -n 4 | cut -c1-120 | tr '\n' ' ')"
fi
scripts/gen-tests-doc table | awk -F' \\| ' 'NR > 2 && $2 == "" { print $1 }' | sed 's/^| //' >"$tmp/bare"
if [ -s "$tmp/bare" ]; then
	echo "not ok - every test has a header comment saying what it checks; these have none: $(tr '\n' ' ' <"$tmp/bare")"
else
	echo "ok - every test has a header comment saying what it checks"
fi
# A header the generator misread (a one-line comment once came out as the file's first lines of code).
scripts/gen-tests-doc table | awk -F' \\| ' 'NR > 2 && $2 ~ /^#include|int main\(/ { print $1 }' | sed 's/^| //' >"$tmp/code"
if [ -s "$tmp/code" ]; then
	echo "not ok - every test is described by its comment, not its code; these read as code: $(tr '\n' ' ' <"$tmp/code")"
else
	echo "ok - every test is described by its comment, not its code"
fi
