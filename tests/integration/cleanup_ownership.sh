# What claimbench may drop: cleanup --db drops a table only when
# that table itself carries the note of a dead run written for it (its name, and its oid
# on PostgreSQL), never a table a note names; a run whose CREATE TABLE loses to another
# session's never drops the table that session made.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db
# This host as an owner note names it (letters, digits, '.' and '-').
host=$(hostname | tr -cd 'A-Za-z0-9.-')

# ---- SQLite: a decoy's note names the user's payroll ----
lite=$dir/user.db
sqlite3 "$lite" "CREATE TABLE payroll (who TEXT); INSERT INTO payroll VALUES ('alice');
	CREATE TABLE decoy /* claimbench run: pid 4000000 on $host started 0; tables payroll */ (x)"
out=$("$CLAIMBENCH" cleanup --db "sqlite:$lite")
check "sqlite: cleanup --db leaves payroll, which a decoy's note names" \
	test "$(sqlite3 "$lite" "SELECT who FROM payroll")" = alice
check "sqlite: and the decoy, which no claimbench made (the note does not mark it)" \
	eval 'sqlite3 "$lite" "SELECT 1 FROM decoy LIMIT 0" && grep -q "left alone: table decoy" <<<"$out"'

# ---- SQLite: a session creates the run's table while the run is about to ----
lite=$dir/race.db
sqlite3 "$lite" "PRAGMA journal_mode = WAL" >/dev/null
(echo ".timeout 10000"; echo "BEGIN IMMEDIATE; CREATE TABLE race_jobs (id INTEGER PRIMARY KEY, what TEXT); INSERT INTO race_jobs VALUES (1, 'theirs');"
	sleep 2; echo "COMMIT;") | sqlite3 "$lite" &
session=$!
# locked: whether another connection holds the file's write lock (the session's open CREATE).
# The session waits for the lock (.timeout): without it, its BEGIN IMMEDIATE failed whenever it
# met one of these probes' own brief BEGIN IMMEDIATE, and the session made nothing at all.
locked() {
	! sqlite3 -cmd ".timeout 0" "$lite" "BEGIN IMMEDIATE; ROLLBACK" >/dev/null 2>&1
}
check "sqlite: the session holds the file's write lock with its CREATE open" wait_for 10 locked
expect_exit 3 'a table race_jobs exists already' \
	"sqlite: a run whose CREATE loses to another session's says the table exists" \
	run --db "sqlite:$lite" --table-prefix race_ --strategy update-returning --jobs 5 --work-ms 1 \
	--sqlite-busy-timeout-ms 10000 --no-progress --results "$store"
wait "$session"
check "sqlite: the session's table and its row survive" test "$(sqlite3 "$lite" "SELECT what FROM race_jobs")" = theirs

# ---- SQLite: a guarded run's control table made by a session while the run makes its cache ----
sqlite3 "$lite" "DROP TABLE race_jobs"
(echo ".timeout 10000"; echo "BEGIN IMMEDIATE; CREATE TABLE gr_control (what TEXT); INSERT INTO gr_control VALUES ('theirs');"
	sleep 2; echo "COMMIT;") | sqlite3 "$lite" &
session=$!
check "sqlite: the session holds the file's write lock with its control table's CREATE open" wait_for 10 locked
expect_exit 3 'a table gr_(cache|control) exists already' \
	"sqlite: a guarded run whose CREATE loses to another session's says the table exists" \
	run --db "sqlite:$lite" --table-prefix gr_ --workload refresh --guard row-lock --workers 2 --duration 1 \
	--sqlite-busy-timeout-ms 10000 --no-progress --results "$store"
wait "$session"
check "sqlite: the session's control table and its row survive, and the run's cache is gone" \
	eval '[ "$(sqlite3 "$lite" "SELECT what FROM gr_control")" = theirs ] &&
	[ "$(sqlite3 "$lite" "SELECT count(*) FROM sqlite_master WHERE name = '"'gr_cache'"'")" = 0 ]'

if ! start_test_server; then
	echo "not ok - cannot start a test PostgreSQL server"
	exit 0
fi

# ---- PostgreSQL: a decoy whose note names the user's table, and a note copied onto another table ----
test_sql "CREATE TABLE payroll (who text); INSERT INTO payroll VALUES ('alice');
	CREATE TABLE decoy (x int);
	COMMENT ON TABLE decoy IS 'claimbench run: pid 4000000 on $host started 0; tables payroll'"
copied_oid=$(test_sql "SELECT 'payroll'::regclass::oid")
test_sql "CREATE TABLE copy (x int);
	COMMENT ON TABLE copy IS 'claimbench run: pid 4000000 on $host started 0; table payroll oid $copied_oid'"
out=$("$CLAIMBENCH" cleanup --db "$TEST_DB")
check "cleanup --db leaves payroll, which a decoy's note lists" \
	test "$(test_sql "SELECT who FROM payroll")" = alice
check "and the decoy, which no claimbench made, saying why" \
	eval 'test "$(test_sql "SELECT to_regclass('"'decoy'"') IS NOT NULL")" = t && grep -q "left alone: table decoy (an older claimbench" <<<"$out"'
check "a note copied onto another table (payroll's name and oid) condemns neither" \
	eval 'test "$(test_sql "SELECT count(*) FROM pg_class WHERE relname IN ('"'copy'"', '"'payroll'"')")" = 2 &&
	grep -q "left alone: table copy (its owner note was written for another table" <<<"$out"'
test_sql "DROP TABLE decoy, copy"

# ---- PostgreSQL: a run killed by SIGKILL, then the user makes app_tickets ----
"$CLAIMBENCH" run --db "$TEST_DB" --table-prefix app_ --strategy skip-locked --workers 2 --jobs 50 \
	--work-ms 20000 --no-progress --results "$store" >/dev/null 2>"$dir/killed.err" &
pid=$!
# noted TABLE: whether TABLE exists on the test server with an owner note.
noted() {
	[ "$(test_sql "SELECT obj_description(to_regclass('$1'), 'pg_class') LIKE 'claimbench run: %'" 2>/dev/null)" = t ]
}
# busy_workers N: whether N of the run's sessions are at work (in hold mode: a claim's transaction open).
busy_workers() {
	[ "$(test_sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'claimbench'
		AND state = 'idle in transaction'" 2>/dev/null)" -ge "$1" ]
}
wait_for 30 busy_workers 2
note=$(test_sql "SELECT obj_description('app_jobs'::regclass, 'pg_class')")
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "the queue table's note marks it alone, by name and oid ($note)" \
	eval '[[ $note == "claimbench run: pid $pid on $host started "*"; table app_jobs oid $(test_sql "SELECT '"'app_jobs'"'::regclass::oid")" ]]'
test_sql "CREATE TABLE app_tickets (id int); INSERT INTO app_tickets VALUES (7)"
out=$("$CLAIMBENCH" cleanup --db "$TEST_DB")
check "cleanup --db drops the killed run's queue table" \
	eval 'grep -q "dropped table app_jobs" <<<"$out" && test "$(test_sql "SELECT to_regclass('"'app_jobs'"') IS NULL")" = t'
check "and leaves the user's own app_tickets, which the run never made" \
	test "$(test_sql "SELECT id FROM app_tickets")" = 7
test_sql "DROP TABLE app_tickets"

# ---- PostgreSQL: a killed ticket run's two tables each carry their own note; a live run's are left alone ----
"$CLAIMBENCH" run --db "$TEST_DB" --table-prefix tk_ --strategy ticket:hold --workers 2 --jobs 20 \
	--work-ms 20000 --no-progress --results "$store" >/dev/null 2>&1 &
pid=$!
wait_for 30 noted tk_tickets
check "the ticket table carries a note of its own" \
	eval '[[ $(test_sql "SELECT obj_description('"'tk_tickets'"'::regclass, '"'pg_class'"')") == *"; table tk_tickets oid "* ]]'
out=$("$CLAIMBENCH" cleanup --db "$TEST_DB")
check "cleanup --db leaves a running run's tables alone" \
	eval 'grep -q "left alone: table tk_jobs (claimbench pid $pid is running)" <<<"$out" && noted tk_jobs && noted tk_tickets'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
out=$("$CLAIMBENCH" cleanup --db "$TEST_DB")
check "cleanup --db drops a dead run's queue and ticket tables" \
	eval 'grep -q "dropped table tk_jobs" <<<"$out" && grep -q "dropped table tk_tickets" <<<"$out"'

# ---- PostgreSQL: a session creates the run's table a moment before the run's CREATE ----
psql "$TEST_DB" -Xq -c "BEGIN; CREATE TABLE race_jobs (id bigint PRIMARY KEY, what text);
	INSERT INTO race_jobs VALUES (1, 'theirs'); SELECT pg_sleep(2); COMMIT" >/dev/null &
session=$!
# the session has created race_jobs, uncommitted, and sleeps
wait_for 10 eval '[ "$(test_sql "SELECT count(*) FROM pg_stat_activity WHERE wait_event = '"'PgSleep'"'
	AND pid <> pg_backend_pid()")" -gt 0 ]'
expect_exit 3 'a table race_jobs exists already' \
	"a run whose CREATE waits on another session's and loses says the table exists" \
	run --db "$TEST_DB" --table-prefix race_ --strategy skip-locked --jobs 5 --work-ms 1 --no-progress \
	--results "$store"
wait "$session"
check "the session's table and its row survive" test "$(test_sql "SELECT what FROM race_jobs")" = theirs
test_sql "DROP TABLE race_jobs"

# ---- PostgreSQL: two runs with one --table-prefix: one wins, the loser leaves its table alone ----
for try in 1 2 3; do
	for n in 1 2; do
		"$CLAIMBENCH" run --db "$TEST_DB" --table-prefix duo_ --strategy skip-locked --workers 2 --jobs 2000 \
			--work-ms 1 --format json --no-progress --results "$store" >"$dir/duo$n.json" 2>"$dir/duo$n.err" &
		eval "duo$n=\$!"
	done
	wait "$duo1"; s1=$?
	wait "$duo2"; s2=$?
	if [ "$s1" -eq 0 ]; then win=1 lose=2; else win=2 lose=1; fi
	check "two runs, one prefix (try $try): one exits 0, the loser 3 saying the table exists (exits $s1, $s2)" \
		eval '[ $((s1 + s2)) -eq 3 ] && grep -q "a table duo_jobs exists already" "$dir/duo$lose.err"'
	check_jq "$dir/duo$win.json" '.results[0] | .completed == 2000 and .lost == 0 and .duplicates == 0' \
		"two runs, one prefix (try $try): the winner's table survived: all 2000 jobs done, none lost"
done
check "and neither left a table behind" test "$(test_sql "SELECT count(*) FROM pg_class WHERE relname LIKE 'duo_%'")" = 0
