# PgQ behind the adapter contract (docs/adapters.md), when scripts/install-test-deps installed
# postgresql-15-pgq3, pgqd and python3-pgq: on a server the test starts, which has no pgq
# extension, the run is refused naming CREATE EXTENSION pgq (exit 3), claimbench creating the
# extension only in its own throwaway server; once the test has created it, seed 001's classic
# beside skip-locked gives the same counts (200 jobs, 20 per worker: a batch holds one event per
# worker), PgQ's own record (the events visible in the snapshot of the consumer's last finished
# tick) agreeing with the lines; 3 replicas of zero work stay exact; a replica SIGKILLed with its
# batch in hand: the batch, never finished, is what the next replica's pgq.next_batch returns,
# so each of its events is done once more (redeliveries after a crash), none lost; through a
# server restart or a kill of its backends the open batch's events are lost lines, the consumer
# connects anew and each is redelivered after the fault; a user's own
# PgQ queue on the same database is not ticked (pgqd runs on the throwaway server alone); the run's
# queue (pgq.drop_queue), schema and scratch folder are gone after each run, a lone replica's crash
# included (replaced by --replica-respawn-ms, the replacement finishes the drain); on the throwaway server the adapter creates the extension itself; a runtime not there
# is refused (exit 3), a cleanup not naming {queue} (exit 2), --verify (no row of PgQ changes
# state: its manifest says so) before anything runs (exit 2).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db
adapters=$dir/adapters
tree=$(cd "$(dirname "$0")/../.." && pwd)
export CLAIMBENCH_ADAPTERS="$tree/adapters:$adapters"

if ! start_test_server; then
	skip_missing initdb "PgQ on a test server" scripts/install-deps
	exit 0
fi
# The run's scratch folder goes under TMPDIR: a TMPDIR of the test's own (once its server, which the
# server's account must reach, is made) shows what is left there
outer_tmp=${TMPDIR:-/tmp}
export TMPDIR=$dir/tmp
mkdir -p "$TMPDIR"
if ! command -v pgqd >/dev/null; then
	skip_missing pgqd "PgQ behind the adapter contract" scripts/install-test-deps
	exit 0
fi
if ! /usr/bin/python3 -c 'import pgq, psycopg2' 2>/dev/null; then
	skip_missing python3-pgq "PgQ behind the adapter contract" scripts/install-test-deps
	exit 0
fi
if [ "$(test_sql "SELECT count(*) FROM pg_available_extensions WHERE name = 'pgq'")" != 1 ]; then
	skip_missing postgresql-15-pgq3 "PgQ behind the adapter contract" scripts/install-test-deps
	exit 0
fi

# run_left: what the test server holds of an adapter's run (claimbench_PID_aN: its queues
# and schemas) and TMPDIR of its scratch folders, one a line; nothing when none is left
run_left() {
	test_sql "SELECT 'queue ' || queue_name FROM pgq.queue WHERE queue_name ~ '^claimbench_[0-9]+_a[0-9]+'
		UNION ALL SELECT 'schema ' || nspname FROM pg_namespace WHERE nspname ~ '^claimbench_[0-9]+_a[0-9]+'"
	compgen -G "$TMPDIR/claimbench-adapter-*"
}

# check_none_left WHAT: ok when run_left finds nothing, else not ok naming what it found
check_none_left() {
	local left
	left=$(run_left | tr '\n' ' ')
	check "$1${left:+ (left: $left)}" test -z "$left"
}

# ---- a server of the user's without the extension: refused, the extension not made ----
expect_exit 3 'adapter pgq: the database has no pgq extension.*CREATE EXTENSION pgq' \
	"a server without the pgq extension is refused, naming CREATE EXTENSION pgq" \
	run --db "$TEST_DB" --strategy adapter:pgq --jobs 5 --no-progress --results "$store"
check "claimbench did not create the extension on a server of the user's" \
	test "$(test_sql "SELECT count(*) FROM pg_extension WHERE extname = 'pgq'")" -eq 0

test_sql "CREATE EXTENSION pgq" >/dev/null
# A queue of the user's own, with a consumer and an event not ticked yet: a run must not tick it.
test_sql "SELECT pgq.create_queue('userq'); SELECT pgq.register_consumer('userq', 'app');
	SELECT pgq.insert_event('userq', 'user', 'payload')" >/dev/null
user_ticks() { test_sql "SELECT count(*) FROM pgq.tick t JOIN pgq.queue q ON q.queue_id = t.tick_queue
	WHERE q.queue_name = 'userq'"; }
ticks_before=$(user_ticks)

# ---- seed 001's classic beside the built-in skip-locked ----
run_json classic --db "$TEST_DB" --strategy skip-locked,adapter:pgq --jobs 200 --workers 10 --work-ms 100
check "skip-locked and adapter:pgq in one invocation (exit 0)" test "$(cat "$dir/classic.status")" -eq 0
check_each "$dir/classic.json" '.strategy == "adapter:pgq"' '.complete and .claim_mode == "flip" and
	.completed == 200 and .executions == 200 and .duplicates == 0 and .lost == 0 and .ledger_mismatches == 0 and
	(.per_worker | length) == 10' \
	"PgQ: 200 jobs by 10 workers, no duplicate or loss, its own record (the consumer's last tick) agrees with the lines"
for figure in .duplicates .lost .completed .executions; do
	check_jq "$dir/classic.json" "[.results[] | $figure] | (.[0] == .[1])" \
		"PgQ's $figure equals the built-in skip-locked's ($(jq -c "[.results[] | $figure]" "$dir/classic.json" 2>/dev/null))"
done
# Per-worker counts: a batch holds one event per worker, so each of PgQ's 10 workers does
# exactly 20; the built-in's shares move by a job or two on a loaded machine (adapters.sh).
check_jq "$dir/classic.json" '[.results[] | [.per_worker[].completed]] |
	((.[1] | all(. == 20)) and (.[0] | add) == 200)' \
	"per-worker counts: PgQ's 20 each, the built-in skip-locked's adding up to 200 ($(jq -c \
	'[.results[] | [.per_worker[].completed]]' "$dir/classic.json" 2>/dev/null))"
check_none_left "the run's queue, schema and scratch folder are gone"
check "the user's own PgQ queue on the same database is not ticked by the run (ticks before $ticks_before, after $(user_ticks))" \
	test "$(user_ticks)" = "$ticks_before"

# ---- three replicas of zero work: one holds the consumer, every job once ----
run_json replicas --db "$TEST_DB" --strategy adapter:pgq --replicas 3 --jobs 600 --workers 4 --work-ms 0
check_each "$dir/replicas.json" 'true' '.complete and .completed == 600 and .duplicates == 0 and .lost == 0 and
	.ledger_mismatches == 0 and .workers == 12 and (.per_worker | length) == 12 and
	([.per_worker[].completed] | add) == 600' \
	"3 replicas of 4 workers, zero work: 600 jobs, a per-worker row per seat, no duplicate or loss"

# ---- the server restarted: the open batch's events lost, the consumer connects anew, the batch given again ----
run_json restart --db "$TEST_DB" --strategy adapter:pgq --jobs 200 --workers 4 --work-ms 20 --restart-at 0.5 \
	--restart-command "$(test_restart_command)"
check_each "$dir/restart.json" 'true' '.complete and .completed + .completions_unknown == 200 and .lost == 0 and
	.integrity_errors == 0 and .race_duplicates == 0 and .faults_injected == 1 and
	.redeliveries == .redeliveries_restart and .redeliveries_restart + .completions_unknown == .errors.connection_lost' \
	"through a server restart: a batch in hand reported lost (none when the restart fell between batches), each of its events redelivered after it (or done unseen), none lost"
check_none_left "after the restart the run's queue, schema and scratch folder are gone"

run_json kill --db "$TEST_DB" --strategy adapter:pgq --jobs 200 --workers 4 --work-ms 20 --kill-backend-at 0.3,0.6
check_each "$dir/kill.json" 'true' '.complete and .faults_injected == 2 and .completed + .completions_unknown == 200 and
	.lost == 0 and .integrity_errors == 0 and .race_duplicates == 0 and
	.redeliveries == .redeliveries_killed_backend and .redeliveries_killed_backend + .completions_unknown == .errors.connection_lost' \
	"its sessions' backends killed (--kill-backend-at): a cut consumer's batch lost and given again, none lost, no race"

# ---- a replica SIGKILLed with its batch in hand: the batch delivered again ----
run_json crash --db "$TEST_DB" --strategy adapter:pgq --replicas 2 --workers 2 --jobs 40 --work-ms 100 \
	--crash-replica-at 0.55
crashed=$(sed -n 's/.*replica 0 died with \([0-9]*\) jobs in hand.*/\1/p' "$dir/crash.err")
check "the killed replica's batch is named (replica 0 died with ${crashed:-?} jobs in hand)" \
	test "${crashed:-0}" -ge 1
# A batch whose finish_batch committed before the kill (no line said so) is done in PgQ's
# record: its events are completions unknown, not redelivered; else each is redelivered once.
check_each "$dir/crash.json" 'true' ".complete and .completed + .completions_unknown == 40 and .lost == 0 and
	.integrity_errors == 0 and .redeliveries_crash == ${crashed:-0} - .completions_unknown and
	.executions == 40 + .redeliveries_crash and .race_duplicates == 0 and .faults_injected == 1" \
	"the ${crashed:-?} events of the killed replica's batch each done once more by the other (or done unseen), none lost"
check_none_left "after the crash the run's queue, schema and scratch folder are gone"

# ---- a lone replica killed: nobody reports, the watchdog stops the run; its scratch folder goes too ----
run_json lone --db "$TEST_DB" --strategy adapter:pgq --replicas 1 --workers 2 --jobs 40 --work-ms 100 \
	--crash-replica-at 0.5 --adapter-silence-ms 2000
check "a lone replica killed: the run stops, incomplete (exit 4, got $(cat "$dir/lone.status"))" \
	test "$(cat "$dir/lone.status")" -eq 4
check_none_left "after a lone replica's crash the run's queue, schema and scratch folder are gone"
# ---- the lone replica replaced (--replica-respawn-ms): the replacement takes the consumer and its batch ----
run_json replaced --db "$TEST_DB" --strategy adapter:pgq --replicas 1 --workers 2 --jobs 40 --work-ms 100 \
	--crash-replica-at 0.5 --replica-respawn-ms 100
crashed=$(sed -n 's/.*replica 0 died with \([0-9]*\) jobs in hand.*/\1/p' "$dir/replaced.err")
check_each "$dir/replaced.json" 'true' ".complete and .completed + .completions_unknown == 40 and .lost == 0 and
	.integrity_errors == 0 and .race_duplicates == 0 and .redeliveries_crash == ${crashed:-0} - .completions_unknown" \
	"a lone replica killed and replaced: the replacement takes the consumer's lock, its ${crashed:-?} events delivered again, none lost"
test_sql "SELECT pgq.drop_queue('userq', true)" >/dev/null

# ---- the throwaway server: the adapter creates the extension there (the throwaway's account
# must reach its folder: under the runner's TMPDIR) ----
TMPDIR=$outer_tmp run_json throwaway --strategy adapter:pgq --jobs 20 --workers 2 --work-ms 0
check_each "$dir/throwaway.json" 'true' '.complete and .completed == 20 and .lost == 0 and .duplicates == 0' \
	"on claimbench's throwaway server the adapter creates the pgq extension and runs (20 jobs)"

# ---- refusals ----
mkdir -p "$adapters/pgq-noruntime"
sed -e 's/^name = .*/name = pgq-noruntime/' -e 's|^runtime = .*|runtime = /nonexistent/python3|' \
	-e "s|^command = .*|command = $tree/adapters/pgq/adapter.py|" "$tree/adapters/pgq/adapter.ini" \
	>"$adapters/pgq-noruntime/adapter.ini"
expect_exit 3 'adapter pgq-noruntime: its runtime "/nonexistent/python3" is not there \(it needs: .*python3-pgq' \
	"an absolute runtime that is not there is refused, saying what it needs" \
	run --db "$TEST_DB" --strategy adapter:pgq-noruntime --jobs 5 --no-progress --results "$store"
mkdir -p "$adapters/pgq-global"
sed -e 's/^name = .*/name = pgq-global/' -e "s|^cleanup = .*|cleanup = SELECT pgq.drop_queue('shared', true)|" \
	"$tree/adapters/pgq/adapter.ini" >"$adapters/pgq-global/adapter.ini"
expect_exit 2 'pgq-global/adapter.ini: cleanup: expected SQL naming \{queue\}' \
	"a cleanup that does not name the run's queue is refused" \
	run --db "$TEST_DB" --strategy adapter:pgq-global --jobs 5
expect_exit 2 "adapter:pgq: --verify cannot check it: PgQ's events are rows inserted once" \
	"--verify of PgQ is refused before anything runs: no row of its changes state" \
	run --db "$TEST_DB" --strategy adapter:pgq --verify --jobs 5
check_none_left "no run's queue or schema is left on the server"
