# graphile-worker behind the adapter contract (docs/adapters.md) on a server the test starts,
# when make adapters installed it: a drain at 2 replicas of 4 workers does every job once, no
# race, its own table (a completed job's row deleted: absent_state = done) agreeing with the
# lines and --verify's record of it, and read as a table that keeps its rows, every job lost; seed 001's classic beside
# skip-locked; a replica SIGKILLed leaves its jobs locked by its worker pool,
# given back by graphile-worker's forceUnlockWorkers once the adapter sees the pool's process
# gone (GRAPHILE_WORKER_UNLOCK_DEAD_MS), each redone once and counted as a redelivery after a
# crash, not a race, the record agreeing; without that, they stay locked (the library's 4-hour timeout), the
# watchdog stops the run and the table says they were lost; the run's schema is dropped and a
# graphile_worker schema the server already had is left alone; its install missing, the run is
# refused naming make adapters (exit 3) and the checks skip.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db
adapters=$dir/adapters
tree=$(cd "$(dirname "$0")/../.." && pwd)
export CLAIMBENCH_ADAPTERS="$tree/adapters:$adapters"

if ! start_test_server; then
	skip_missing initdb "graphile-worker on a test server" scripts/install-deps
	exit 0
fi
if ! command -v node >/dev/null; then
	skip_missing node "graphile-worker behind the adapter contract" scripts/install-test-deps
	exit 0
fi

# no_run_schema: whether the test server holds no schema of an adapter's run (claimbench_PID_aN)
no_run_schema() {
	[ "$(test_sql "SELECT count(*) FROM pg_namespace WHERE nspname ~ '^claimbench_[0-9]+_a[0-9]+'")" -eq 0 ]
}

# ---- its install missing: refused, naming what installs it ----
mkdir -p "$adapters/graphile-bare"
sed -e 's/^name = .*/name = graphile-bare/' "$tree/adapters/graphile-worker/adapter.ini" \
	>"$adapters/graphile-bare/adapter.ini"
cp "$tree/adapters/graphile-worker/adapter.js" "$adapters/graphile-bare/"
expect_exit 3 'adapter graphile-bare: it is not installed: no node_modules/graphile-worker/package.json in .*graphile-bare \(it needs: Node 20 and graphile-worker 0.17.3 .*; make adapters\)' \
	"graphile-worker's adapter without its node_modules is refused, naming make adapters" \
	run --db "$TEST_DB" --strategy adapter:graphile-bare --jobs 5 --no-progress --results "$store"

if [ ! -e "$tree/adapters/graphile-worker/node_modules/graphile-worker/package.json" ]; then
	skip_missing "adapters/graphile-worker/node_modules" "graphile-worker behind the adapter contract" \
		"scripts/install-test-deps (make adapters)"
	exit 0
fi

# A schema of graphile-worker's default name the server already holds, with a table in it: no run may drop it.
test_sql "CREATE SCHEMA graphile_worker; CREATE TABLE graphile_worker.kept (id int); INSERT INTO graphile_worker.kept VALUES (7)"

# ---- a drain at 2 replicas of 4 workers: every job done once, no race, the table agreeing ----
run_json drain --db "$TEST_DB" --strategy adapter:graphile-worker --replicas 2 --workers 4 --jobs 400 --work-ms 2 --verify
check "graphile-worker: a drain at 2 replicas x 4 workers (exit $(cat "$dir/drain.status"))" \
	test "$(cat "$dir/drain.status")" -eq 0
check_each "$dir/drain.json" 'true' '.complete and .claim_mode == "flip" and .completed == 400 and
	.executions == 400 and .duplicates == 0 and .race_duplicates == 0 and .redeliveries == 0 and .lost == 0 and
	.ledger_mismatches == 0 and .integrity_errors == 0 and .workers == 8 and (.per_worker | length) == 8 and
	([.per_worker[].completed] | add) == 400' \
	"graphile-worker: 400 jobs by 8 seats, each done once, no race, none lost, its table (rows deleted once done) agrees with the lines"
check_each "$dir/drain.json" 'true' '.verified and (.verify_differences | length) == 0' \
	"--verify: the server's record of _private_jobs (rows locked, then deleted once done) agrees with the lines"
check_jq "$dir/drain.json" '.results[0].per_worker | ([.[0:4][].completed] | add) > 0 and ([.[4:8][].completed] | add) > 0' \
	"both replicas did jobs ($(jq -c '[.results[0].per_worker[].completed]' "$dir/drain.json" 2>/dev/null))"
check "graphile-worker's schema is dropped after its run" no_run_schema

# The table's record is what counts: read as a table whose rows stay (absent_state = missing),
# graphile-worker's deleted rows are every job lost and a ledger mismatch.
mkdir -p "$adapters/graphile-kept"
sed -e 's/^name = .*/name = graphile-kept/; s/^absent_state = .*/absent_state = missing/' \
	"$tree/adapters/graphile-worker/adapter.ini" >"$adapters/graphile-kept/adapter.ini"
cp "$tree/adapters/graphile-worker/adapter.js" "$adapters/graphile-kept/"
ln -s "$tree/adapters/graphile-worker/node_modules" "$adapters/graphile-kept/node_modules"
run_json kept --db "$TEST_DB" --strategy adapter:graphile-kept --workers 2 --jobs 20 --work-ms 0
check_each "$dir/kept.json" 'true' '.completed == 20 and .lost == 20 and .ledger_mismatches == 20' \
	"read with absent_state = missing, graphile-worker's deleted rows are 20 jobs lost, 20 ledger mismatches"

# ---- seed 001's classic beside skip-locked, in one invocation ----
run_json classic --db "$TEST_DB" --strategy skip-locked,adapter:graphile-worker --jobs 200 --workers 10 --work-ms 100
check "skip-locked and adapter:graphile-worker in one invocation (exit $(cat "$dir/classic.status"))" \
	test "$(cat "$dir/classic.status")" -eq 0
check_each "$dir/classic.json" '.strategy == "adapter:graphile-worker"' '.complete and .completed == 200 and
	.executions == 200 and .race_duplicates == 0 and .lost == 0 and .ledger_mismatches == 0 and
	(.per_worker | length) == 10 and ([.per_worker[].completed] | add) == 200' \
	"graphile-worker on the classic: 200 jobs by 10 workers, no duplicate or loss, the table agrees"

# The crashed executions a run's stderr (file $1) names: the jobs in hand of every replica that died, the killed
# one's and any the watchdog's stop killed (each such job is redone, done unseen or lost).
crashed_in_hand() {
	sed -n 's/.*replica [0-9]* died with \([0-9]*\) jobs in hand.*/\1/p' "$1" | awk '{ n += $1 } END { print n + 0 }'
}

# ---- a replica killed: its jobs unlocked once its pool's process is gone, each redone once ----
GRAPHILE_WORKER_UNLOCK_DEAD_MS=100 run_json crash --db "$TEST_DB" --strategy adapter:graphile-worker --replicas 2 \
	--workers 2 --jobs 40 --work-ms 100 --crash-replica-at 0.5 --verify
crashed=$(crashed_in_hand "$dir/crash.err")
check "graphile-worker: the killed replica's jobs in hand are named (${crashed:-?})" test "${crashed:-0}" -ge 1
check "graphile-worker: replica 1 unlocked the dead pool's jobs with forceUnlockWorkers" \
	grep -q "replica 1: pool pool-[0-9a-f]*'s process ended; its jobs unlocked (forceUnlockWorkers)" "$dir/crash.err"
check_each "$dir/crash.json" 'true' ".complete and .completed + .completions_unknown == 40 and .lost == 0 and
	.integrity_errors == 0 and .redeliveries_crash == ${crashed:-0} - .completions_unknown and
	.redeliveries == .redeliveries_crash and .executions == 40 + .redeliveries_crash and .race_duplicates == 0 and
	.faults_injected == 1" \
	"graphile-worker: the ${crashed:-?} crashed executions each redone once (or done unseen), counted as redeliveries after a crash, no race, none lost"
check_each "$dir/crash.json" 'true' '.verified and (.verify_differences | length) == 0' \
	"--verify: the record agrees, what the killed replica committed with no line at most in doubt"
check "the crash run's schema is dropped" no_run_schema

# ---- without the unlock: the library's 4-hour lock keeps them, the watchdog ends the run ----
run_json locked --db "$TEST_DB" --strategy adapter:graphile-worker --replicas 2 --workers 2 --jobs 40 --work-ms 100 \
	--crash-replica-at 0.5 --adapter-silence-ms 1500
crashed=$(crashed_in_hand "$dir/locked.err")
check "graphile-worker without the unlock: the watchdog stops the run (exit $(cat "$dir/locked.status"), want 4)" \
	test "$(cat "$dir/locked.status")" -eq 4
# Besides the jobs in hand, a killed replica's worker may have taken one more whose claimed
# line the kill cut (graphile's claim committed, its line never written): lost, and no
# execution of it in the ledger. At most one per worker of the replica killed (--workers 2);
# the sanitized pass, slower, saw one (2 in hand, 2 lost and 1 done unseen).
check_each "$dir/locked.json" 'true' ".complete == false and .redeliveries == 0 and .race_duplicates == 0 and
	.lost + .completions_unknown >= ${crashed:-0} and .lost + .completions_unknown <= ${crashed:-0} + 2 and
	.completed + .completions_unknown == 40 - .lost and .lost >= 1" \
	"graphile-worker without the unlock: the ${crashed:-?} crashed jobs (and at most one claim per worker of the killed replica whose line the kill cut) stay locked, not redone, lost by its table's record (or done unseen)"
check "the locked run's schema is dropped" no_run_schema

check "the server's own graphile_worker schema is left with its table" \
	test "$(test_sql "SELECT id FROM graphile_worker.kept")" = 7
