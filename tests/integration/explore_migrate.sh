# A result store that the claimbench of d411741 wrote (schema 14: explore in four tables,
# fixtures/explore_store_v14.sql, made by fixtures/make_explore_store.sh with that binary) opens
# in this one, migrated to explore_results: history and show inv:N print, byte for byte, what
# that binary printed of it (fixtures/explore_store_v14.history, .show1 to .show3: explores
# with findings, a shown schedule with blocked steps and a crash, a sample with its seed,
# verdicts held and failed); the four old tables are gone and each document is explore's JSON;
# compare still refuses the explore invocation (exit 2). A crafted row whose document is not
# JSON: show says which row and why and exits 3, as other crafted stores do.
# tier: fast
. "$(dirname "$0")/lib.sh"

fixtures=$(cd "$(dirname "$0")/fixtures" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! command -v sqlite3 >/dev/null; then
	echo "ok - # SKIP the sqlite3 shell is not installed: the old store cannot be made from its dump"
	exit 0
fi
store=$dir/store.db
sqlite3 "$store" <"$fixtures/explore_store_v14.sql"
check "the old store is at schema 14 with 4 explores in the old tables" test \
	"$(sqlite3 "$store" "PRAGMA user_version; SELECT count(*) FROM explores")" = "14
4"
old_counts=$(sqlite3 "$store" "SELECT group_concat(n, ' ') FROM (SELECT (SELECT count(*) FROM explore_expects
	WHERE explore_id = e.id) || '/' || (SELECT count(*) FROM explore_events WHERE explore_id = e.id) || '/' ||
	(SELECT count(*) FROM explore_findings WHERE explore_id = e.id) AS n FROM explores e ORDER BY e.id)")

"$CLAIMBENCH" history --results "$store" >"$dir/history" 2>"$dir/history.err"
status=$?
check "history of the old store exits 0 (got $status: $(head -c 200 "$dir/history.err"))" test "$status" -eq 0
check "history prints what d411741's printed of it, line for line" \
	diff -u "$fixtures/explore_store_v14.history" "$dir/history"
for i in 1 2 3; do
	"$CLAIMBENCH" show inv:$i --results "$store" | sed "s|$dir/|DIR/|g" >"$dir/show$i"
	check "show inv:$i prints what d411741's printed of it, line for line" \
		diff -u "$fixtures/explore_store_v14.show$i" "$dir/show$i"
done
# the schema this claimbench makes: a store of its own, made by a run of one job
"$CLAIMBENCH" run --db "sqlite:$dir/q.db" --strategy update-returning --jobs 1 --no-progress \
	--results "$dir/current.db" >/dev/null 2>&1
current=$(sqlite3 "$dir/current.db" "PRAGMA user_version" 2>/dev/null)
check "the store is at this claimbench's schema ($current, 15 at least), the four old tables gone, 4 rows in explore_results" \
	test "$(sqlite3 "$store" "SELECT user_version = ${current:-0} AND user_version >= 15 FROM pragma_user_version;
		SELECT count(*) FROM sqlite_master WHERE name IN ('explores', 'explore_findings', 'explore_events',
		'explore_expects'); SELECT count(*) FROM explore_results")" = "1
0
4"
check "each migrated document is valid JSON with its old rows' verdicts, events and findings ($old_counts)" test \
	"$(sqlite3 "$store" "SELECT group_concat(n, ' ') FROM (SELECT json_array_length(document, '$.expects') || '/' ||
		coalesce(json_array_length(document, '$.shown.events'), 0) || '/' ||
		(SELECT count(*) FROM json_each(document, '$.with')) AS n FROM explore_results
		WHERE json_valid(document) ORDER BY id)")" = "$old_counts"
check "the sample's seed is kept whole" test \
	"$(sqlite3 "$store" "SELECT json_extract(document, '$.seed') FROM explore_results WHERE id = 2")" = 9223372036854775783
expect_exit 2 "invocation 2 is claimbench explore's \(2 strategy and modes\)" \
	"compare refuses the migrated explore invocation" compare inv:2 inv:1 --results "$store"

sqlite3 "$store" "UPDATE explore_results SET document = '{\"strategy\": \"naive\", ' WHERE id = 3"
expect_exit 3 "inv:2: explore_results row 3: its document does not read: it is not a JSON object" \
	"show of a row whose document is cut short names it" show inv:2 --results "$store"
sqlite3 "$store" "UPDATE explore_results SET document = json_set(document, '$.shown.events[0].statement', 5) WHERE id = 1"
expect_exit 3 "explore_results row 1: its document does not read: its \"statement\" is not a string" \
	"show of a row whose event's statement is a number names the key" show inv:1 --results "$store"
