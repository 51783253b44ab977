# --verify: the integrity figures derived from the server's own record (row triggers on the
# run's tables) agree with the ledger's for every strategy in both claim modes at 32
# workers and zero work, for every section of scenarios/chaos.ini, for ticket:hold with
# stale tickets, naive with killed backends and a restart and batch with a restart; a
# strategy whose completion really marks a second job done is caught (exit 5, the figure
# and the jobs on stderr, in JSON and in the store); the record's table and function are
# the run's own, dropped with it or by cleanup after a killed run; the same on SQLite,
# every strategy and mode, crashes with a lease and a reaper, naive with crashes under a
# short lease (its lease redeliveries within the band the ledger's instants leave open).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db
root=$(cd "$(dirname "$0")/../.." && pwd)

start_test_server || { echo "not ok - a test PostgreSQL server starts"; exit 0; }

# claimbench_objects: the tables and functions of claimbench runs left in the test server.
claimbench_objects() {
	test_sql "SELECT count(*) FROM pg_class WHERE relname LIKE 'claimbench%' AND relkind = 'r'" &&
		test_sql "SELECT count(*) FROM pg_proc WHERE proname LIKE 'claimbench%'"
}

# ---- every strategy in both modes, 32 workers, zero work: no difference ----
run_json all "$(dirname "$0")/verify.ini" --db "$TEST_DB"
check "every strategy in both modes at 32 workers: exit 0 (got $(cat "$dir/all.status"))" \
	test "$(cat "$dir/all.status")" -eq 0
# The pairs PostgreSQL runs, from the registry (`claimbench list`): no count here to edit for a new strategy.
offered=$(offered_pairs postgresql)
for m in hold flip; do
	want=$(tr ',' '\n' <<<"$offered" | grep -c ":$m$")
	check_jq "$dir/all.json" "[.results[] | select(.claim_mode == \"$m\")] | length == $want and $want >= 5" \
		"$want $m-mode runs, one per $m-mode pair claimbench lists for postgresql"
done
check_each "$dir/all.json" 'true' '.verified and .verify_differences == [] and .complete' \
	"every run verified, with no difference between the ledger and the server's record"
check_each "$dir/all.json" '.strategy == "naive"' '.duplicates > 0' \
	"naive's duplicates (which the server's record shows too) are there to verify"
# Each strategy's contract in each mode, at 32 workers and zero work: every job done once.
check_each "$dir/all.json" '.strategy != "naive"' \
	'.completed == 300 and .duplicates == 0 and .overlaps == 0 and .lost == 0 and .ledger_mismatches == 0' \
	"every strategy but naive in both modes: 300 jobs, no duplicates, overlaps or losses, the ledger agrees with the table"
# verify.ini covers what `claimbench list` says PostgreSQL runs: a new strategy or mode cannot escape --verify.
listed=$(tr ',' '\n' <<<"$offered" | sort | tr '\n' ' ')
ran=$(jq -r '.results[] | .strategy + ":" + .claim_mode' "$dir/all.json" | sort | tr '\n' ' ')
check "verify.ini runs every strategy:mode pair claimbench lists for postgresql (listed: $listed; ran: $ran)" \
	eval '[ -n "$listed" ] && [ "$listed" = "$ran" ]'
check "no difference printed" eval '! grep -q "verify: [a-z_+]*: ledger" "$dir/all.err"'
check "the run's audit tables and trigger functions are dropped with its tables" \
	test "$(claimbench_objects | tr '\n' ' ')" = "0 0 "

# ---- every section of chaos.ini (its restart needs the throwaway server) ----
run_json chaos "$root/scenarios/chaos.ini" --verify
check "chaos.ini with --verify: its expectations hold and nothing differs (exit $(cat "$dir/chaos.status"))" \
	test "$(cat "$dir/chaos.status")" -eq 0
for section in crash-hold crash-flip lease stall-unfenced stall-fenced stall-heartbeat kill-backend restart; do
	check_each "$dir/chaos.json" ".group == \"$section\"" ".verified and .verify_differences == []" \
		"chaos.ini [$section]: verified, no difference"
done
check_jq "$dir/chaos.json" '[.results[] | .redeliveries + .zombie_completions + .fenced + .stuck] | add > 20' \
	"the faults made redeliveries, zombies, refused completions and stuck jobs to verify"
check "no difference printed for chaos.ini (a claim in doubt is no difference)" eval '! grep -q "verify: [a-z_+]*: ledger" "$dir/chaos.err"'

# ---- the rules verify_mariadb.sh's faults found wanting, shared with PostgreSQL ----
# ticket:hold's stale expiries after crashes (a claim waiting on the holder's row lock is no
# zombie's redelivery), naive's completion after its killed backend (not read back as its
# own), each three times; naive and batch through a restart of the throwaway server (a
# completion or a batch claim in doubt, one statement per lost connection)
run_json shared --db "$TEST_DB" --verify --strategy ticket:hold --repeat 3 --tries 50 --backoff-ms 5 --jobs 100 \
	--workers 4 --work-ms 5 --crash-exec 10,40 --respawn-ms 50 --stale-ms 300
check_each "$dir/shared.json" 'true' '.verified and .verify_differences == [] and .zombie_completions == 0 and
	.overlaps == 0' "ticket:hold, 2 crashes and stale tickets, 3 runs: verified without a difference, no zombie or overlap"
run_json shared_kill --db "$TEST_DB" --verify --strategy naive:flip --repeat 3 --tries 50 --backoff-ms 5 --jobs 100 \
	--workers 4 --work-ms 10 --kill-backend-exec 20,60 --lease-ms 2000 --respawn-ms 50
check_each "$dir/shared_kill.json" 'true' '.verified and .verify_differences == [] and .faults_injected == 2' \
	"naive:flip, 2 killed backends, 3 runs: verified without a difference"
run_json shared_restart --verify --strategy naive:flip,batch:flip,batch:hold --tries 50 --backoff-ms 5 --jobs 200 \
	--workers 4 --work-ms 10 --restart-at 0.5 --lease-ms 2000
# (verify_in_doubt counts jobs: a batch claim's one statement in doubt holds up to --batch, 10, of them)
check_each "$dir/shared_restart.json" 'true' '.verified and .verify_differences == [] and .reconnects >= 4 and
	.verify_in_doubt <= .reconnects * (if .strategy == "batch" then 10 else 1 end)' \
	"naive and batch through a restart: verified without a difference, no more statements in doubt than lost connections"

# ---- a completion that also marks the next job done, unknown to the harness: caught ----
cat >"$dir/double.ini" <<'EOF'
[global]
jobs = 40
work-ms = 0
workers = 2
no-progress = true

[strategy double-complete]
summary = completes its job and marks the next one done as well, unseen by the harness
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'
                ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, attempts
complete = WITH next AS (UPDATE {jobs} SET status = 'done' WHERE id = :id + 1 AND status = 'new')
    UPDATE {jobs} SET status = 'done', done_at = now() WHERE id = :id RETURNING id
modes = flip

[double]
strategy = double-complete
EOF
run_json double "$dir/double.ini" --db "$TEST_DB" --verify
check "a difference fails the run with exit 5 (got $(cat "$dir/double.status"))" test "$(cat "$dir/double.status")" -eq 5
check "the difference is printed figure by figure with its jobs" grep -Eq \
	"double-complete flip x2 #1: verify: completed: ledger ([0-9]+), server 40; jobs [0-9]+( [0-9]+)*$" "$dir/double.err"
check "the committed completions differ too" grep -q "verify: executions_committed: ledger [0-9]*, server 40;" \
	"$dir/double.err"
check "the run says why it failed" grep -q "the ledger and the server's record disagree" "$dir/double.err"
check_jq "$dir/double.json" '.results[0] | .verified and (.verify_differences | map(.figure) | index("completed"))
	and (.verify_differences[] | select(.figure == "completed") | .server == 40 and .ledger < 40 and
	(.jobs | length) == 40 - .ledger and .more_jobs == false)' \
	"JSON: verified, the differences with the figure, both values and the jobs the ledger missed"
run_id=$(jq '.results[0].run_id' "$dir/double.json")
"$CLAIMBENCH" export "$run_id" --format json --results "$store" >"$dir/export.json" 2>/dev/null
kept=$(jq --slurpfile run "$dir/double.json" '.results[0] | .verified and
	.verify_differences == $run[0].results[0].verify_differences' "$dir/export.json")
check "the store keeps the verification and its differences" test "$kept" = true

# ---- without --verify: nothing recorded, not verified ----
run_json plain --db "$TEST_DB" --strategy skip-locked:flip --jobs 20 --workers 2 --work-ms 0
check_jq "$dir/plain.json" '.results[0] | .verified == false and .verify_differences == []' \
	"a run without --verify is not verified"

# ---- a killed --verify run: cleanup --db drops its audit table and trigger function ----
"$CLAIMBENCH" run --db "$TEST_DB" --verify --strategy skip-locked:flip --workers 2 --jobs 20 --work-ms 20000 \
	--no-progress --results "$store" >/dev/null 2>&1 &
pid=$!
# audit_ready: whether the run's audit table and function are in the test server.
audit_ready() {
	[ "$(test_sql "SELECT count(*) FROM pg_class WHERE relname = 'claimbench_${pid}_audit'") \
		$(test_sql "SELECT count(*) FROM pg_proc WHERE proname = 'claimbench_${pid}_audit'")" = "1 1" ]
}
wait_for 20 audit_ready
check "the audit table carries the run's owner note" eval \
	'test_sql "SELECT obj_description('"'"'claimbench_${pid}_audit'"'"'::regclass, '"'"'pg_class'"'"')" | grep -q "claimbench run: pid $pid .*_audit"'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
out=$("$CLAIMBENCH" cleanup --db "$TEST_DB")
check "cleanup --db drops a dead --verify run's audit table and its trigger function" eval \
	'grep -q "dropped table claimbench_${pid}_audit" <<<"$out" && grep -q "dropped function claimbench_${pid}_audit()" <<<"$out"'
check "nothing of the killed run is left" test "$(claimbench_objects | tr '\n' ' ')" = "0 0 "

# ---- SQLite: every strategy it runs, both modes, 32 workers at zero work, then crashes with a lease and a reaper ----
sqlite_all=$(offered_pairs sqlite)
sqlite_count=$(tr ',' '\n' <<<"$sqlite_all" | wc -l)
run_json lite --db "sqlite:$dir/lite.db" --verify --strategy "$sqlite_all" --backoff-ms 5 --jobs 300 --workers 32 \
	--work-ms 0
check "SQLite, every strategy in both modes at 32 workers: exit 0 (got $(cat "$dir/lite.status"))" \
	test "$(cat "$dir/lite.status")" -eq 0
check_jq "$dir/lite.json" ".results | length == $sqlite_count and $sqlite_count >= 8" \
	"SQLite: $sqlite_count runs, one per pair claimbench lists for sqlite ($sqlite_all)"
check_each "$dir/lite.json" 'true' '.verified and .verify_differences == []' "SQLite: each run verified without a difference"
run_json lite_faults --db "sqlite:$dir/lite.db" --verify --strategy "$sqlite_all" --backoff-ms 5 --jobs 100 \
	--workers 4 --work-ms 5 --crash-exec 10,40 --respawn-ms 50 --lease-ms 300 --reaper-ms 100 --stale-ms 300
check_each "$dir/lite_faults.json" 'true' '.verified and .verify_differences == []' \
	"SQLite with 2 crashes, a lease and a reaper: every run verified without a difference"
check_jq "$dir/lite_faults.json" '[.results[] | .redeliveries + .stuck] | add >= 20' \
	"the crashes made redeliveries and stuck jobs to verify"
# naive under a short lease: its claim takes a row without checking it, and the ledger's
# instants leave some lease judgements open (SQLite's clock ticks in milliseconds; a claim
# may read the row before the holder's completion and write it after): within that band
# the lease redeliveries and the races may part, beyond it not (7 runs of 8 parted before)
run_json lite_lease --db "sqlite:$dir/lite.db" --verify --strategy naive:flip --repeat 4 --backoff-ms 5 --jobs 300 \
	--workers 8 --work-ms 5 --crash-rate 0.1 --respawn-ms 20 --lease-ms 20
check_each "$dir/lite_lease.json" 'true' '.verified and .verify_differences == [] and .redeliveries_lease > 0' \
	"SQLite, naive with crashes and a 20 ms lease, 4 runs: verified without a difference ($(jq -c \
	'[.results[] | [.redeliveries_lease, .race_duplicates]]' "$dir/lite_lease.json"))"
check "SQLite leaves no audit table behind" test "$(sqlite3 "$dir/lite.db" \
	"SELECT count(*) FROM sqlite_master WHERE name LIKE 'claimbench%'")" -eq 0

# a SQLite completion that also marks the next job done (and, returning two rows, is taken as not committed)
cat >"$dir/double-lite.ini" <<'EOF'
[global]
jobs = 40
work-ms = 0
workers = 2
no-progress = true

[strategy double-complete]
summary = completes its job and marks the next one done as well, unseen by the harness
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' ORDER BY id LIMIT 1)
    AND status = 'new' RETURNING id, attempts
complete = UPDATE {jobs} SET status = 'done' WHERE id = :id OR (id = :id + 1 AND status = 'new')
    RETURNING id
modes = flip
backends = sqlite

[double]
strategy = double-complete
EOF
run_json double_lite "$dir/double-lite.ini" --db "sqlite:$dir/lite.db" --verify
check "SQLite: the double completion fails the run with exit 5 (got $(cat "$dir/double_lite.status"))" \
	test "$(cat "$dir/double_lite.status")" -eq 5
check "SQLite: the difference is printed with its jobs" \
	grep -Eq "verify: completed: ledger [0-9]+, server 40; jobs [0-9]+" "$dir/double_lite.err"

# ---- a guarded-resource workload is refused ----
expect_exit 2 "--verify: the queue workload's, not the resource workload's" \
	"--verify with a guarded workload is refused before anything runs" run --db "sqlite:$dir/q.db" --verify \
	--workload resource --guard ticket-line --duration 1 --no-progress --results "$store"
