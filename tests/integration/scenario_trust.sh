# What a scenario file may do without the user's say (--trust-scenario), and what a SQL
# strategy's statements must return: on a server of the test's own holding tables of a
# user's (payroll, audit_log) and a function of theirs, and on a SQLite file of a user's.
# Every refusal names the file and line, comes before anything runs, and leaves the user's
# tables as they were; the same files run with --trust-scenario. A run in which nothing
# completes prints no makespan, throughput or fairness it does not have.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

# strategy_file NAME [KEY = VALUE]...: $dir/NAME.ini, a drain of 20 jobs by 2 workers running
# strategy "mine" defined by the given lines (its claim at line 6 when given first).
strategy_file() {
	local name=$1
	shift
	{
		printf '[global]\njobs = 20\nworkers = 2\nwork-ms = 1\n[strategy mine]\n'
		printf '%s\n' "$@"
		printf '[g]\nstrategy = mine\n'
	} >"$dir/$name.ini"
}

# ---- a scenario file may not run a shell command, nor choose a server, without the user's say ----
printf '[global]\njobs = 10\nrestart-command = touch %s/ran\n' "$dir" >"$dir/shell.ini"
expect_exit 2 "shell\.ini:3: restart-command: a scenario file may not run a shell command .*--trust-scenario" \
	"a scenario file's restart-command is refused without --trust-scenario, at its line" \
	run --no-progress --results "$store" "$dir/shell.ini"
check "and the command did not run" test ! -e "$dir/ran"
printf '[global]\ntrust-scenario = true\n' >"$dir/self.ini"
expect_exit 2 "self\.ini:2: \"trust-scenario\" in \[global\]: --trust-scenario is the command line's to give" \
	"a scenario file cannot trust itself" run --no-progress --results "$store" "$dir/self.ini"
printf '[global]\njobs = 10\ndb = host=%s port=1 dbname=postgres\n' "$dir" >"$dir/server.ini"
expect_exit 2 "server\.ini:3: db: a scenario file may name a file or a throwaway \(sqlite:PATH, mariadb:\), not a postgresql server" \
	"a scenario file's PostgreSQL server is refused without --trust-scenario" \
	run --no-progress --results "$store" "$dir/server.ini"

# ---- --restart-command where nothing would run it is refused, not ignored ----
expect_exit 2 "--restart-command restarts a server of your own \(--db CONNINFO\).*the throwaway server" \
	"--restart-command with the throwaway server is refused" \
	run --no-progress --results "$store" --jobs 10 --restart-at 0.5 --restart-command "touch $dir/ran"
expect_exit 2 "--restart-command restarts a server of your own .*sqlite has no server" \
	"--restart-command on SQLite is refused" \
	run --no-progress --results "$store" --db "sqlite:$dir/q.db" --strategy for-update --jobs 10 \
	--restart-command "touch $dir/ran"
check "and the command never ran" test ! -e "$dir/ran"

# ---- a user's SQLite file: the authorizer sees every table and statement kind ----
lite=$dir/user.db
sqlite3 "$lite" "CREATE TABLE audit_log (x); INSERT INTO audit_log VALUES (1), (2);"
lite_file() { # lite_file NAME CLAIM: a SQLite definition with that claim, at line 7
	strategy_file "$1" "backends = sqlite" "claim = $2"
	sed -i "2i db = sqlite:$lite" "$dir/$1.ini"
}
lite_file ldrop "DROP TABLE audit_log"
expect_exit 2 "ldrop\.ini:8: claim of strategy mine drops a table: without --trust-scenario, a scenario file's SQL" \
	"SQLite: a claim that drops a table is refused at its line" run --no-progress --results "$store" "$dir/ldrop.ini"
lite_file lread "SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' AND (SELECT count(*) FROM audit_log) > 0 LIMIT 1"
expect_exit 2 "lread\.ini:8: claim of strategy mine reads table audit_log" \
	"SQLite: a claim reading another table is refused" run --no-progress --results "$store" "$dir/lread.ini"
lite_file lpragma "PRAGMA table_info(audit_log)"
expect_exit 2 "lpragma\.ini:8: claim of strategy mine runs a PRAGMA" "SQLite: a PRAGMA is refused" \
	run --no-progress --results "$store" "$dir/lpragma.ini"
lite_file lexplain "EXPLAIN SELECT id FROM {jobs} LIMIT 1"
expect_exit 2 "lexplain\.ini:8: claim of strategy mine is an EXPLAIN" "SQLite: an EXPLAIN is refused" \
	run --no-progress --results "$store" "$dir/lexplain.ini"
lite_file lext "SELECT load_extension('$dir/none') AS id"
expect_exit 2 "lext\.ini:8: claim of strategy mine loads an extension" "SQLite: load_extension is refused" \
	run --no-progress --results "$store" "$dir/lext.ini"
check "the user's SQLite table is still there, rows and all" \
	test "$(sqlite3 "$lite" "SELECT count(*) FROM audit_log")" = 2
lite_file lnoret "UPDATE {jobs} SET status = 'active' WHERE queue = :queue AND status = 'new'"
expect_exit 2 "lnoret\.ini:8: claim of strategy mine: returns 0 columns; the harness reads the job's id first" \
	"SQLite: a claim that returns nothing is refused when prepared, saying what it must return" \
	run --no-progress --results "$store" "$dir/lnoret.ini"
expect_exit 2 "lnoret\.ini:8: claim of strategy mine: returns 0 columns" \
	"and --trust-scenario does not lift the result contract" \
	run --no-progress --results "$store" --trust-scenario "$dir/lnoret.ini"

lite_file lfine "SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' AND (SELECT count(*) FROM {jobs}) > 0 ORDER BY id LIMIT 1"
run_json lfine "$dir/lfine.ini"
check "SQLite: confined SQL runs without the flag (exit 0)" test "$(cat "$dir/lfine.status")" -eq 0
check_jq "$dir/lfine.json" '.results[0] | .completed == 20' \
	"SQLite: a claim reading the run's table alone (a count(*) of it too) runs without the flag"

# ---- a run in which nothing completes: its completion figures are unknown, not perfect ----
lite_file never "SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' ORDER BY id LIMIT 1"
printf 'complete = UPDATE {jobs} SET status = %s WHERE id = :id AND 0 RETURNING id\n' "'done'" >"$dir/complete.line"
sed -i "/^claim = /r $dir/complete.line" "$dir/never.ini"
run_json never "$dir/never.ini"
check "a run where every completion is refused ends (exit 0)" test "$(cat "$dir/never.status")" -eq 0
check_jq "$dir/never.json" '.results[0] | .completed == 0 and .fenced == 20 and .makespan_s == null and
	.throughput_jps == null and .makespan_ratio == null and .fairness.jain == null and .fairness.cv == null and
	.fairness.min == 0 and .fairness.max == 0' \
	"nothing completed: makespan, throughput, makespan / ideal, Jain and cv are null, min and max 0"
"$CLAIMBENCH" run --no-progress --results "$store" "$dir/never.ini" >"$dir/never.txt" 2>/dev/null
check "and the table prints - for them, not 1.000 or 0.000" \
	awk '$1 == "mine" { exit !($4 == "-" && $6 == "-" && $7 == "-" && $16 == "-") } ' "$dir/never.txt"

# ---- a server of the test's own, with a user's tables and function ----
if ! start_test_server; then
	echo "not ok - cannot start a PostgreSQL server for the test (initdb, pg_ctl)"
	exit 0
fi
test_sql "CREATE TABLE payroll (x int); CREATE TABLE audit_log (x int); INSERT INTO audit_log VALUES (1), (2);
	CREATE SEQUENCE invoice_no; CREATE FUNCTION mine() RETURNS int LANGUAGE plpgsql AS 'BEGIN RETURN 1; END'"
pg() { # pg NAME PATTERN WHAT: runs $dir/NAME.ini on the test server, refused (exit 2) with PATTERN
	expect_exit 2 "$1\.ini:$2" "$3" run --no-progress --results "$store" --db "$TEST_DB" "$dir/$1.ini"
}
head="SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'"
strategy_file drop "claim = DROP TABLE payroll"
pg drop "6: claim of strategy mine is not a SELECT, INSERT, UPDATE or DELETE \(a utility statement\): without --trust-scenario" \
	"a claim that drops a table (a utility statement, which prepares fine) is refused at its line"
strategy_file explain "claim = EXPLAIN ANALYZE DELETE FROM audit_log"
pg explain "6: claim of strategy mine is not a SELECT, INSERT, UPDATE or DELETE" \
	"a claim that is a utility statement returning rows (EXPLAIN ANALYZE of a DELETE) is refused"
strategy_file cte "claim = WITH gone AS (DELETE FROM audit_log RETURNING 1) $head ORDER BY id LIMIT 1"
pg cte "6: claim of strategy mine deletes from table public\.audit_log: without --trust-scenario, a scenario file's SQL may only read and write the run's queue table \{jobs\}" \
	"a claim whose WITH deletes from another table is refused, naming it"
strategy_file read "claim = $head AND (SELECT count(*) FROM payroll) >= 0 LIMIT 1"
pg read "6: claim of strategy mine reads table public\.payroll" "a claim reading another table is refused"
strategy_file func "claim = $head AND mine() = 1 LIMIT 1"
pg func "6: claim of strategy mine calls mine\(\), a function outside pg_catalog" \
	"a claim calling a user's function is refused"
strategy_file seq "claim = $head AND nextval('invoice_no') > 0 LIMIT 1"
pg seq "6: claim of strategy mine calls nextval\(\), which reaches beyond the run's rows" \
	"a claim moving a sequence (a pg_catalog function beyond the transaction) is refused"
strategy_file complete "claim = $head LIMIT 1" "complete = UPDATE audit_log SET x = 0 WHERE x = :id RETURNING x"
pg complete "7: complete of strategy mine updates table public\.audit_log" \
	"a complete statement writing another table is refused at its own line"
strategy_file limitseq "claim = $head ORDER BY id LIMIT 1 + 0 * nextval('invoice_no') FOR UPDATE SKIP LOCKED"
pg limitseq "6: claim of strategy mine calls nextval\(\), which reaches beyond the run's rows" \
	"a claim moving a sequence in its LIMIT (which EXPLAIN does not print) is refused"
check "and the user's sequence did not move" test "$(test_sql "SELECT is_called FROM invoice_no")" = f
strategy_file limitset "claim = $head ORDER BY id LIMIT length(set_config('application_name', 'x', false))"
pg limitset "6: claim of strategy mine calls set_config\(\), which reaches beyond the run's rows" \
	"a claim setting a setting in its LIMIT is refused"
strategy_file rewrite "claim = $head AND ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, ''b''::tsquery FROM audit_log') IS NOT NULL LIMIT 1"
pg rewrite "6: claim of strategy mine calls ts_rewrite\(\), which reaches beyond the run's rows" \
	"a claim running a query given as text (ts_rewrite's text form, reading audit_log) is refused"
strategy_file advisory "claim = $head AND pg_try_advisory_lock(42) LIMIT 1"
pg advisory "6: claim of strategy mine calls pg_try_advisory_lock\(\), which reaches beyond the run's rows" \
	"a claim taking a session-level advisory lock is refused"
strategy_file notify "claim = $head AND pg_notify('chan', 'x') IS NULL LIMIT 1"
pg notify "6: claim of strategy mine calls pg_notify\(\), which reaches beyond the run's rows" \
	"a claim sending a notification is refused"
test_sql "CREATE TYPE mood AS ENUM ('ok'); CREATE FUNCTION folded(int) RETURNS int IMMUTABLE LANGUAGE plpgsql
	AS 'BEGIN RAISE WARNING ''folded ran''; RETURN \$1; END'"
strategy_file folded "claim = $head AND folded(1) = 1 LIMIT 1"
pg folded "6: claim of strategy mine calls folded\(integer\), a function outside pg_catalog" \
	"a claim calling a user's immutable function with a constant is refused"
check "and the function never ran (nothing planned it: no warning in the server's log)" \
	test "$(grep -c 'folded ran' "$TEST_SERVER_DIR/log")" -eq 0
strategy_file mood "claim = $head AND 'ok'::mood IS NOT NULL LIMIT 1"
pg mood "6: claim of strategy mine uses type mood, outside pg_catalog" "a claim using a user's type is refused"
check "the user's tables are as they were" \
	test "$(test_sql "SELECT count(*) FROM audit_log WHERE x > 0; SELECT to_regclass('payroll') IS NOT NULL" | tr '\n' ' ')" = "2 t "

# ---- what the harness reads from the statements: refused when prepared, with what they must return ----
strategy_file noret "claim = UPDATE {jobs} SET status = 'active' WHERE queue = :queue AND status = 'new'"
pg noret "6: claim of strategy mine: returns 0 columns; the harness reads the job's id first" \
	"a claim without RETURNING is refused when prepared, not run"
strategy_file noattempt "claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, attempts = attempts + 1 WHERE id = (SELECT min(id) FROM {jobs} WHERE status = 'new') RETURNING id"
pg noattempt "6: claim of strategy mine: returns 1 column; the harness reads the job's id and attempts" \
	"a claim that marks the job itself and returns only its id is refused when prepared"
strategy_file textid "claim = SELECT status FROM {jobs} WHERE queue = :queue AND status = 'new' LIMIT 1"
pg textid "6: claim of strategy mine: its column 1, status \(text\), is no integer; the harness reads the job's id first" \
	"a claim whose first column cannot hold a job id is refused, naming the column and its type"
strategy_file nofence "claim = $head LIMIT 1" "complete = UPDATE {jobs} SET status = 'done' WHERE id = :id"
pg nofence "7: complete of strategy mine: returns 0 columns; the harness reads a row when it marked the job" \
	"a complete statement without RETURNING is refused"

# ---- confined SQL runs; the user's say lets the rest run ----
strategy_file fine "claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, claimed_at = now(),
    attempts = attempts + 1 WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'
    ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, attempts" \
	"complete = UPDATE {jobs} SET status = 'done', done_at = clock_timestamp() WHERE id = :id AND claimed_by = :worker RETURNING status"
run_json fine --db "$TEST_DB" "$dir/fine.ini"
check "confined SQL runs without the flag (exit 0)" test "$(cat "$dir/fine.status")" -eq 0
check_jq "$dir/fine.json" '.results[0] | .completed == 20 and .lost == 0 and .duplicates == 0' \
	"a claim and completion on the run's table alone, with pg_catalog's functions, run without the flag (a completion returns any column)"
run_json trusted --db "$TEST_DB" --trust-scenario "$dir/read.ini"
check "with --trust-scenario the same file runs (exit 0)" test "$(cat "$dir/trusted.status")" -eq 0
check_jq "$dir/trusted.json" '.results[0] | .completed == 20' "with --trust-scenario the claim reading payroll runs"

# ---- what the server resolved is judged, not names: an operator named alike is no refusal ----
test_sql "CREATE EXTENSION pg_trgm SCHEMA public" >/dev/null
strategy_file resolved "claim = WITH c AS (UPDATE {jobs} SET status = 'active', claimed_by = :worker,
    claimed_at = clock_timestamp() - interval '1 second' * 0, attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' AND id % 4 >= 0
    AND now() > now() - interval '1 day' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, attempts)
    SELECT id, attempts FROM c" \
	"complete = UPDATE {jobs} SET status = 'done', done_at = clock_timestamp() WHERE id = :id AND claimed_by = :worker RETURNING id"
run_json resolved --db "$TEST_DB" "$dir/resolved.ini"
check "pg_trgm in public (its % on text): a claim with id % 4 runs without the flag (exit 0)" \
	test "$(cat "$dir/resolved.status")" -eq 0
check_jq "$dir/resolved.json" '.results[0] | .completed == 20 and .lost == 0 and .duplicates == 0' \
	"a CTE with UPDATE ... RETURNING, FOR UPDATE SKIP LOCKED, now(), clock_timestamp() and interval arithmetic run confined"
