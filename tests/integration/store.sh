# The result store's commands refuse what they cannot read, each with its message and exit status.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
empty="$tmp/empty.db"
: >"$empty"

expect_exit 3 'no result store at /nonexistent/dir/x\.db' "history on a missing store" \
	history --results /nonexistent/dir/x.db
expect_exit 2 'RUN: expected a run id .*got "abc"' "show with a bad run id" show abc
expect_exit 2 'missing RUN' "show without a run id" show
expect_exit 3 "no run 12345 in $empty" "show of a run the store does not hold" show 12345 --results "$empty"
expect_exit 3 "no run 12345" "export of a run the store does not hold" export 12345 --format json --results "$empty"
expect_exit 2 '--format: expected one of csv, json, got "xml"' "export in an unknown format" export 1 --format xml
expect_exit 2 'option --format needs a value' "export with --format and no value" export 1 --format
expect_exit 2 'missing --format' "export without --format" export 1
expect_exit 2 'unknown option --bogus' "history with an unknown option" history --bogus
expect_exit 2 '--limit: expected a whole number' "history with a negative limit" history --limit -1

echo "not a database, just text" >"$tmp/text.db"
expect_exit 3 'file is not a database' "history on a file that is not SQLite" history --results "$tmp/text.db"

check "history on an empty store prints the header and exits 0" eval \
	'[ "$("$CLAIMBENCH" history --results "$empty")" = "$("$CLAIMBENCH" history --results "$empty" | head -n 1)" ] &&
	 "$CLAIMBENCH" history --results "$empty" | grep -q "makespan_s"'
check "history, show and export document their options" eval \
	'"$CLAIMBENCH" history --help | grep -q -- "--limit" && "$CLAIMBENCH" show --help | grep -q -- "--results" &&
	 "$CLAIMBENCH" export --help | grep -q -- "--format csv|json"'
check "the usage lists history, show and export" eval \
	'[ "$("$CLAIMBENCH" --help | grep -Ec "^  (history|show|export) ")" -eq 3 ]'
