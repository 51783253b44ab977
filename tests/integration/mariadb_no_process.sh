# A MariaDB account with every privilege on its database but not PROCESS (so it cannot read
# InnoDB's table ids, information_schema.INNODB_SYS_TABLES), on a server the test starts itself:
# it runs as any other, its tables' notes carrying no id, and cleanup drops a killed run's tables
# by their notes alone. Before, every run failed, misreported as "a table exists already", and
# left its queue table behind.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
store=$dir/results.db
finish() {
	stop_test_mariadb
	rm -rf "$dir"
}
trap finish EXIT

check "the test's own MariaDB server starts" start_test_mariadb
test_mariadb_sql -e "CREATE USER plain@localhost IDENTIFIED BY 'pw'; GRANT ALL ON q.* TO plain@localhost"
db="mariadb:host=$TEST_MARIADB_SOCK user=plain password=pw dbname=q"
tables() {
	test_mariadb_sql -e "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'q' AND $1"
}

run_json plain --db "$db" --strategy skip-locked,for-update --jobs 30 --workers 3 --work-ms 1
check "an account without PROCESS runs: exit 0 (got $(cat "$dir/plain.status"); $(head -c 300 "$dir/plain.err"))" \
	test "$(cat "$dir/plain.status")" -eq 0
check_each "$dir/plain.json" true '.completed == 30 and .race_duplicates == 0 and .lost == 0 and
	.ledger_mismatches == 0' "both strategies drain the queue on it, the ledger agreeing"
check "and says that its server sampling stopped, in the server's words (docs/mariadb.md)" \
	grep -q "the server's sampling stopped: sampling the server: .*PROCESS" "$dir/plain.err"
check "the run leaves no table behind (found $(tables "TABLE_NAME LIKE 'claimbench%'"))" \
	test "$(tables "TABLE_NAME LIKE 'claimbench%'")" -eq 0

# ---- a SIGKILLed run's table: its note has no id, and cleanup drops it by the note ----
"$CLAIMBENCH" run --db "$db" --strategy skip-locked --jobs 20 --workers 2 --work-ms 20000 --no-progress \
	--results "$store" >/dev/null 2>&1 &
pid=$!
wait_for 20 eval '[ "$(tables "TABLE_COMMENT LIKE '"'claimbench run: pid $pid %'"'")" -ge 1 ]'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
note=$(test_mariadb_sql -e "SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'q' AND
	TABLE_NAME = 'claimbench_${pid}_jobs'")
check "the killed run's table carries its note, with no table id (note: $note)" \
	eval '[[ "$note" == "claimbench run: pid $pid "* && "$note" != *" oid "* ]]'
out=$("$CLAIMBENCH" cleanup --db "$db" 2>&1)
status=$?
check "cleanup as the same account drops the killed run's queue table ($out)" \
	grep -q "dropped table claimbench_${pid}_jobs" <<<"$out"
check "and, the account making no accounts, does not ask after one it cannot read: exit 0, nothing failed (exit $status)" \
	eval '[ "$status" -eq 0 ] && grep -q " 0 could not be removed" <<<"$out"'
check "no claimbench table is left (found $(tables "TABLE_NAME LIKE 'claimbench%'"))" \
	test "$(tables "TABLE_NAME LIKE 'claimbench%'")" -eq 0
