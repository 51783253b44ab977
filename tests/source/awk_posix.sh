# Every awk program the scripts under scripts/ and tests/ (and .ci/run, the Makefile) write
# inline parses under mawk, a fresh Debian machine's awk, which lacks gawk's extensions
# (gensub, arrays of arrays, a newline after '?' ...): scripts/awk-programs extracts them and
# `mawk -W dump` compiles each without running it. tests/run also gives every test mawk as its
# awk, so programs written any other way run under mawk too.
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v mawk >/dev/null; then
	echo "not ok - mawk is not installed (Debian's required awk): the awk programs cannot be checked"
	exit 0
fi
mapfile -t files < <(grep -rlE '(^|[^A-Za-z0-9_.-])awk[ 	]' scripts tests/run tests/integration tests/source .ci/run Makefile |
	grep -vx tests/source/awk_posix.sh) # its planted programs below are gawk's on purpose
scripts/awk-programs "$tmp/p" "${files[@]}" >"$tmp/list"
count=$(wc -l <"$tmp/list")
bad=0
while read -r path where; do
	if ! mawk -W dump -f "$path" >/dev/null 2>"$tmp/err"; then
		echo "not ok - the awk program at $where parses under mawk: $(head -n 2 "$tmp/err" | tr '\n' ' ')"
		bad=$((bad + 1))
	fi
done <"$tmp/list"
# The scripts hold over 30 programs today: far fewer means the extractor lost them.
if [ "$count" -ge 30 ] && [ "$bad" -eq 0 ]; then
	echo "ok - all $count awk programs of ${#files[@]} scripts parse under mawk"
elif [ "$count" -lt 30 ]; then
	echo "not ok - only $count awk programs found in ${#files[@]} scripts (over 30 expected): scripts/awk-programs lost some"
fi

# The check itself: a planted script with gawk-only programs (gensub, an array of arrays, a
# newline after '?') and a POSIX one is told apart, program by program.
cat >"$tmp/planted.sh" <<'PLANTED'
x=$(echo a | awk -F'\t' '{ print gensub(/a/, "b", "g") }')
awk -v n=1 'BEGIN { t[1][2] = n }'
awk 'BEGIN { print 1 ?
	2 : 3 }'
echo a | awk -F: -- '{ print $1 }'
PLANTED
scripts/awk-programs "$tmp/q" "$tmp/planted.sh" >"$tmp/qlist"
verdicts=$(while read -r path where; do
	mawk -W dump -f "$path" >/dev/null 2>&1 && echo "${where##*:}=posix" || echo "${where##*:}=gawk"
done <"$tmp/qlist" | tr '\n' ' ')
if [ "$verdicts" = "1=gawk 2=gawk 3=gawk 5=posix " ]; then
	echo "ok - a planted script's gensub, array of arrays and newline after '?' are refused, its POSIX program accepted"
else
	echo "not ok - the planted script's programs judged '$verdicts', want '1=gawk 2=gawk 3=gawk 5=posix '"
fi
