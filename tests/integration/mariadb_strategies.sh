# Every strategy and mode MariaDB offers, on a MariaDB server the test starts itself
# (standing for a user's own, --db mariadb:KEY=VALUE): each run's ledger checked against
# the table, naive's duplicates where they are the point, InnoDB's deadlocks at REPEATABLE
# READ and none at READ COMMITTED, the faults, the refusals with their reasons, and
# `cleanup` dropping a killed run's tables and nothing else.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
store=$dir/results.db
finish() {
	stop_test_mariadb
	rm -rf "$dir"
}
trap finish EXIT

# ---- the server: its own data directory and socket, no TCP (lib.sh's start_test_mariadb) ----
check "the test's own MariaDB server starts" start_test_mariadb
sql() { test_mariadb_sql "$@"; }
db=$TEST_MARIADB

# ---- every strategy MariaDB runs, in each of its modes, at REPEATABLE READ (InnoDB's default) ----
run_json rr --db "$db" --jobs 40 --workers 5 --work-ms 5 --tries 50 --backoff-ms 5 \
	--strategy naive,for-update,for-update:flip,nowait-backoff,nowait-backoff:hold,skip-locked,skip-locked:flip,ticket,ticket:hold,advisory,cas,delete-returning,move-table,batch,batch:hold
check "every strategy and mode on a user's MariaDB (exit 0)" test "$(cat "$dir/rr.status")" -eq 0
check_jq "$dir/rr.json" '.results | length == 15' "15 runs"
check_jq "$dir/rr.json" '.settings.tx_isolation == "REPEATABLE-READ"' "the server's isolation: REPEATABLE READ"
for sm in for-update:flip nowait-backoff:flip nowait-backoff:hold skip-locked:flip ticket:flip ticket:hold \
	advisory:flip cas:flip delete-returning:flip move-table:flip batch:flip; do
	s=${sm%:*} m=${sm#*:}
	check_each "$dir/rr.json" ".strategy == \"$s\" and .claim_mode == \"$m\"" \
		".completed == 40 and .duplicates == 0 and .lost == 0 and .ledger_mismatches == 0 and .complete and
		.errors.other == 0" "mariadb $s $m: 40 jobs, no duplicates or losses, the ledger agrees with the table"
done
# hold mode at REPEATABLE READ: a completion that deadlocks on the claim index's gap locks
# is rolled back by InnoDB with the claim, and the job is done again: each duplicate is one
# such deadlock, never more (a batch claim's deadlock rolls back its transaction's 10 jobs: 10 each).
for s in for-update skip-locked batch; do
	per=1
	[ "$s" = batch ] && per=10
	check_each "$dir/rr.json" ".strategy == \"$s\" and .claim_mode == \"hold\"" \
		".completed == 40 and .lost == 0 and .ledger_mismatches == 0 and .complete and .errors.other == 0 and
		.duplicates <= .errors.deadlock * $per" \
		"mariadb $s hold: 40 jobs, nothing lost, every duplicate a deadlock's rollback"
done
check_each "$dir/rr.json" '.strategy == "naive"' '.completed == 40 and .lost == 0 and
	.ledger_mismatches == 0 and .duplicates > 0' "mariadb naive: its race shows as duplicates, nothing lost"
check_jq "$dir/rr.json" '[.results[] | select(.strategy == "for-update") | .errors.deadlock] | add > 0' \
	"for-update at REPEATABLE READ: InnoDB's deadlocks, counted as such"

# ---- READ COMMITTED: no gap locks on the claim's search, no deadlocks, no duplicates ----
run_json rc --db "$db" --isolation read-committed --jobs 40 --workers 5 --work-ms 5 \
	--strategy for-update,skip-locked
check "for-update and skip-locked at READ COMMITTED (exit 0)" test "$(cat "$dir/rc.status")" -eq 0
check_jq "$dir/rc.json" '.settings.tx_isolation == "READ-COMMITTED"' "the isolation --isolation set is the one stored"
check_each "$dir/rc.json" 'true' '.completed == 40 and .duplicates == 0 and .lost == 0 and
	.ledger_mismatches == 0 and .errors.deadlock == 0' \
	"READ COMMITTED: no deadlocks, no duplicates, the ledgers agree"

# ---- batch's completion under the attempt fence, failed jobs among the batch ----
run_json batch --db "$db" --strategy batch --batch 4 --fence attempt --fail-rate 0.2 --jobs 40 --workers 4 --work-ms 5
check "batch with --fence attempt and --fail-rate (exit 0)" test "$(cat "$dir/batch.status")" -eq 0
check_each "$dir/batch.json" true '.completed + .failed == 40 and .failed > 0 and .duplicates == 0 and
	.lost == 0 and .ledger_mismatches == 0 and .errors.other == 0' \
	"mariadb batch: each batch's failed jobs marked error, the rest done, the ledger agrees"

# ---- faults: a crash, a killed connection (KILL CONNECTION), counted and recovered ----
run_json faults --db "$db" --strategy skip-locked:flip --lease-ms 300 --crash-exec 5 --kill-backend-exec 12 \
	--jobs 30 --workers 3 --work-ms 10
check "a crash and a killed connection on MariaDB (exit 0)" test "$(cat "$dir/faults.status")" -eq 0
check_each "$dir/faults.json" true '.completed == 30 and .lost == 0 and .ledger_mismatches == 0 and
	.faults_injected == 2 and .errors.connection_lost >= 1 and .reconnects >= 1' \
	"the faults were injected, the killed connection counted as lost and reconnected, every job done"

# ---- a lock wait that outlasts --lock-timeout-ms: InnoDB's 1205, counted as lock_wait_timeout ----
run_json wait --db "$db" --strategy for-update --jobs 2 --workers 2 --work-ms 1200 --lock-timeout-ms 1000
check_each "$dir/wait.json" true '.completed == 2 and .errors.lock_wait_timeout > 0 and .errors.other == 0' \
	"for-update waiting 1 s at most behind a 1.2 s job: lock wait timeouts counted as such, not as other errors"

# ---- the reaper's UPDATE ... RETURNING, which may match many rows: exactly the expired ones ----
run_json longlease --db "$db" --strategy skip-locked:flip --jobs 40 --workers 4 --work-ms 10 --lease-ms 5000 \
	--reaper-ms 50
check_each "$dir/longlease.json" true '.completed == 40 and .reaped == 0 and .redeliveries == 0 and
	.ledger_mismatches == 0' "a lease no job outlives: the reaper reaps nothing (it counted stale rows before)"
# (a live job the machine held up past its lease is the reaper's too: --verify holds the count
# to the give-backs the table's own record shows, whatever their number)
run_json reap --db "$db" --strategy skip-locked:flip --jobs 40 --workers 4 --work-ms 10 --crash-exec 5,12,20 \
	--respawn-ms 50 --lease-ms 200 --reaper-ms 50 --verify
check "3 crashes, a 200 ms lease, --verify: exit 0 (got $(cat "$dir/reap.status"))" test "$(cat "$dir/reap.status")" -eq 0
check_each "$dir/reap.json" true '.completed == 40 and .lost == 0 and .stuck == 0 and .faults_injected == 3 and
	.reaped >= 3 and .redeliveries >= 3 and .ledger_mismatches == 0 and
	.verified and .verify_differences == []' \
	"3 crashes, a 200 ms lease: the reaper gives back the 3 crashed jobs, its count the table's record of give-backs, the ledger agreeing"

# ---- a template's statements after an UPDATE ... RETURNING that matched no row still run ----
# (its completion matches jobs 1-5 only: 6-10 are fenced, and the INSERT after it notes all ten)
cat >"$dir/after.ini" <<'INI'
[strategy complete-then-note]
summary = a completion whose UPDATE ... RETURNING (jobs 1-5 only) is followed by a statement noting it
claim = SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
complete = UPDATE {jobs} SET status = 'done', done_at = {now} WHERE id = :id AND claimed_by = :worker AND id <= 5
    RETURNING id;
    INSERT INTO seen VALUES (:id)
modes = flip
backends = mariadb

[notes]
strategy = complete-then-note
jobs = 10
workers = 2
work-ms = 5
INI
sql q -e "CREATE TABLE seen (id int)"
"$CLAIMBENCH" run --trust-scenario --db "$db" --scenario "$dir/after.ini" --results "$store" --format json \
	>"$dir/after.json" 2>"$dir/after.err"
check_each "$dir/after.json" true '.completed == 5 and .fenced == 5' \
	"a completion's UPDATE ... RETURNING matching 5 of 10 jobs: 5 done, 5 fenced (refused before: its last statement's 0 columns)"
check "and the statement after it ran for all 10, the 5 that matched no row too" \
	test "$(sql q -e "SELECT count(DISTINCT id) FROM seen")" -eq 10
sql q -e "DROP TABLE seen"

# ---- the SQL-defined claim docs/scenarios.md and docs/ci.md teach: UPDATE ... RETURNING id, attempts ----
# MariaDB describes the stand-in's session variables as blobs (type 251) before they hold a
# value: refused as "no integer" before the fix, though it returns id and attempts. And its
# WHERE reads its own table, which makes it a multi-table UPDATE whose assignments all read
# the row as it was: a capture of attempts after attempts + 1 read (and wrote back) the old
# value. The completion notes the attempt the claim returned: 1 for every job.
cat >"$dir/returning.ini" <<'INI'
[strategy seed-002]
summary = seed 002's claim: one UPDATE of the first new row, picked FOR UPDATE SKIP LOCKED
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, claimed_at = now(),
    attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'
                ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, attempts
complete = UPDATE {jobs} SET status = 'done', done_at = now()
    WHERE id = :id AND status = 'active' AND claimed_by = :worker AND attempts = :attempt
    RETURNING id;
    INSERT INTO attempted VALUES (:id, :attempt)
modes = flip
backends = mariadb

[drain]
strategy = seed-002
jobs = 40
workers = 3
work-ms = 5
INI
sql q -e "CREATE TABLE attempted (id int, attempt int)"
"$CLAIMBENCH" run --trust-scenario --db "$db" --scenario "$dir/returning.ini" --results "$store" --format json \
	>"$dir/returning.json" 2>"$dir/returning.err"
status=$?
attempts=$(sql q -e "SELECT count(DISTINCT id), min(attempt), max(attempt) FROM attempted" | tr '\t' ' ')
sql q -e "DROP TABLE attempted"
check "a SQL-defined UPDATE ... RETURNING id, attempts claim runs on MariaDB (exit $status: $(grep claimbench "$dir/returning.err" | head -c 300))" \
	test "$status" -eq 0
check_each "$dir/returning.json" true '.strategy == "seed-002" and .completed == 40 and .duplicates == 0 and
	.lost == 0 and .ledger_mismatches == 0 and .errors.other == 0' \
	"and its run: 40 jobs, no duplicates or losses, the ledger agrees with the table"
check "each claim returned the attempts it set, 1, and the completion matched it (jobs, min, max: $attempts)" \
	test "$attempts" = "40 1 1"
# a RETURNING whose first column holds text: refused by its value, as it comes, not read as 0
sed -e 's/RETURNING id, attempts/RETURNING status, attempts/' -e 's/^jobs = 40/jobs = 5/' -e '/INSERT INTO attempted/d' \
	-e 's/RETURNING id;/RETURNING id/' "$dir/returning.ini" >"$dir/returning_text.ini"
"$CLAIMBENCH" run --trust-scenario --db "$db" --scenario "$dir/returning_text.ini" --results "$store" \
	--format json >"$dir/returning_text.json" 2>"$dir/returning_text.err"
status=$?
check "a RETURNING of a text column on MariaDB fails its run, saying the value is no integer (exit $status)" \
	eval '[ "$status" -ne 0 ] && grep -q "RETURNING.s column 1 returned .active., which is no integer" "$dir/returning_text.err"'

# ---- a server whose sql_mode has SIMULTANEOUS_ASSIGNMENT and NO_BACKSLASH_ESCAPES: each session sets its own ----
sql -e "SET GLOBAL sql_mode = CONCAT(@@GLOBAL.sql_mode, ',SIMULTANEOUS_ASSIGNMENT,NO_BACKSLASH_ESCAPES')"
run_json mode --db "$db" --strategy cas --jobs 20 --workers 2 --work-ms 5
sql -e "SET GLOBAL sql_mode = DEFAULT"
check_each "$dir/mode.json" true '.completed == 20 and .errors.other == 0 and .ledger_mismatches == 0' \
	"cas on a server with SIMULTANEOUS_ASSIGNMENT and NO_BACKSLASH_ESCAPES: every job done (0 before: error 4140)"

# ---- Ctrl-C while another session holds the queue table in an open transaction ----
# The drop of the tables waits on that session's metadata lock a second at most (lock_wait_timeout;
# a day before), then leaves them to cleanup (below).
"$CLAIMBENCH" run --db "$db" --table-prefix mdl_ --strategy skip-locked --jobs 2000 --workers 2 --work-ms 20 \
	--no-progress --results "$store" >/dev/null 2>"$dir/mdl.err" &
pid=$!
wait_for 20 eval '[ "$(sql q -e "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"'q'"' AND TABLE_NAME = '"'mdl_jobs'"'")" -eq 1 ]'
sql q -e "BEGIN; SELECT count(*) FROM mdl_jobs; SELECT SLEEP(30)" >/dev/null 2>&1 &
locker=$!
wait_for 20 eval '[ "$(sql -e "SELECT count(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '"'SELECT SLEEP(30)%'"'")" -ge 1 ]'
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
status=$?
took=$(elapsed_ms "$start")
sql -e "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(30)%'" |
	while read -r id; do sql -e "KILL CONNECTION $id"; done
wait "$locker" 2>/dev/null
check "Ctrl-C with the queue table held open elsewhere: exit 4 in under 10 s (exit $status, $took ms)" \
	eval '[ "$status" -eq 4 ] && [ "$took" -lt 10000 ]'

# ---- the refusals, with their reasons ----
refused=$(unoffered mariadb)
check "claimbench list names strategies MariaDB cannot run (got: $(echo $refused))" test -n "$refused"
for s in $refused; do
	expect_exit 2 "strategy $s cannot run on mariadb: .{20}" "$s on MariaDB is refused with the reason" \
		run --db "$db" --strategy "$s" --jobs 5 --no-progress --results "$store"
done

# ---- a SIGKILLed run's tables: cleanup drops them, and leaves a table of the user's alone ----
sql q -e "CREATE TABLE myapp_jobs (id int PRIMARY KEY) COMMENT = 'not claimbench''s'; INSERT INTO myapp_jobs VALUES (1)"
"$CLAIMBENCH" run --db "$db" --strategy skip-locked --jobs 20 --workers 2 --work-ms 20000 --no-progress \
	--results "$store" >/dev/null 2>&1 &
pid=$!
# Killed once its queue table's note is sealed with InnoDB's table id (" oid ID", the mark's
# second step): killed between the CREATE and the seal, the table's note names no id, and
# cleanup rightly cannot tell it from a user's copy (a full run killed it there once).
wait_for 20 eval '[ "$(sql q -e "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"'q'"' AND TABLE_NAME = '"'claimbench_${pid}_jobs'"' AND TABLE_COMMENT LIKE '"'claimbench run: pid $pid % oid %'"'")" -ge 1 ]'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
# The user renames the dead run's table and makes one of their own LIKE it (the note copied with
# it, a table of the same name), and forges a note naming a table of a dead pid: not claimbench's.
sql q -e "RENAME TABLE claimbench_${pid}_jobs TO kept_jobs; CREATE TABLE claimbench_${pid}_jobs LIKE kept_jobs;
	INSERT INTO claimbench_${pid}_jobs (id, queue) VALUES (1, 'mine');
	CREATE TABLE forged (id int) COMMENT = 'claimbench run: pid $pid on $(hostname) started 1; table forged';
	INSERT INTO forged VALUES (1)"
out=$("$CLAIMBENCH" cleanup --db "$db")
check "cleanup leaves the user's table made LIKE claimbench's, its note copied (dropped before)" \
	test "$(sql q -e "SELECT count(*) FROM claimbench_${pid}_jobs")" -eq 1
check "and the user's table with a forged claimbench-like note" test "$(sql q -e "SELECT count(*) FROM forged")" -eq 1
sql q -e "DROP TABLE claimbench_${pid}_jobs, forged; RENAME TABLE kept_jobs TO claimbench_${pid}_jobs"
out=$("$CLAIMBENCH" cleanup --db "$db")
check "cleanup drops the killed run's queue table" grep -q "dropped table claimbench_${pid}_jobs" <<<"$out"
check "and leaves the user's table alone" test "$(sql q -e "SELECT count(*) FROM myapp_jobs")" -eq 1
check "no claimbench table is left" \
	test "$(sql q -e "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'q' AND TABLE_NAME LIKE 'claimbench%'")" -eq 0

# ---- scenarios/innodb.ini's InnoDB groups and their expectations, scaled down, on this server ----
# (its [classic] group, seed 001's 100 ms jobs, is left out for time, with the expectations on it;
# so is the filesort's makespan ratio, a bound on times that a loaded machine can squeeze: the
# counts of empty claims below show the pitfall)
awk '/^\[/ { skip = ($0 == "[classic]") } !skip && !/classic|nowait-backoff|cas\.|ticket|delete-returning|move-table|advisory|filesort is slower/' \
	"$(dirname "$0")/../../scenarios/innodb.ini" >"$dir/innodb.ini"
# (without --trust-scenario: its SQL runs as the run's own account, tests/integration/mariadb_confine.sh)
"$CLAIMBENCH" run --db "$db" --results "$store" --arrival-rate 300 --arrival-s 1 \
	--scenario "$dir/innodb.ini" >"$dir/innodb.out" 2>&1
status=$?
why=
[ "$status" -eq 0 ] || why=" -- $(grep -E 'FAIL|claimbench:' "$dir/innodb.out" | head -3 | tr -s ' \n' ' ')"
check "innodb.ini's deadlock and filesort groups meet their expectations (exit $status)$why" test "$status" -eq 0
for what in "gap locks deadlock claims at REPEATABLE READ" "far fewer at READ COMMITTED" \
	"at READ COMMITTED skip-locked never runs a job twice" "the filesort leaves workers empty-handed with a backlog" \
	"the index that serves the order does not"; do
	check "innodb.ini: $what" grep -q "PASS  $what" "$dir/innodb.out"
done
