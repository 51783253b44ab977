# The delivery figures on real runs (docs/metrics.md, "Delivery"), on one throwaway PostgreSQL:
# a crashed batch whose never-begun tail is handed out again (redelivered_unbegun, not work
# done twice), skip-locked flip with crashes and a lease (redeliveries by lease, no race),
# advisory under a server restart (redeliveries by the restart, no race), naive (its
# duplicates all races) and delete-returning under a restart (every disagreement of the
# ledger and the table explained, none warned about); then a strategy whose completion does
# nothing: an integrity error, named with its section, strategy and jobs, exit 5.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

cat >"$dir/delivery.ini" <<'EOF_INI'
[global]
work-ms = 5
workers = 4
respawn-ms = 20
no-progress = true

; hold-mode batches of 10: two crashes, each in the middle of a batch whose tail never began
[batch]
strategy = batch:hold
jobs = 120
batch = 10
crash-exec = 5,33

; crashes at the 10th and 40th execution; the lease of 200 ms gives their jobs back
[lease]
strategy = skip-locked:flip
jobs = 100
crash-exec = 10,40
lease-ms = 200

; the server restarts 0.5 s in: the advisory locks of the jobs in hand go with their sessions
[restart]
strategy = advisory:flip
jobs = 200
work-ms = 20
restart-at = 0.5

; naive's unlocked claim under contention: two workers may take one live job
[naive]
strategy = naive:flip
jobs = 200
work-ms = 2
workers = 8

; delete-returning's claim deletes the row: a claim committed as the restart cut its answer is lost in flight
[consumed]
strategy = delete-returning:flip
jobs = 1200
work-ms = 4
workers = 8
restart-at = 0.5
EOF_INI

run_json delivery --scenario "$dir/delivery.ini"
check "the delivery scenario runs to the end (exit 0; got $(cat "$dir/delivery.status"))" \
	test "$(cat "$dir/delivery.status")" -eq 0
check_each "$dir/delivery.json" 'true' '.integrity_errors == 0 and .duplicates == .race_duplicates + .redeliveries and
	.redeliveries == .redeliveries_crash + .redeliveries_lease + .redeliveries_reaper + .redeliveries_stale_ticket +
	.redeliveries_restart + .redeliveries_killed_backend + .redeliveries_failover' \
	"every run: no integrity error; duplicates are races plus redeliveries, the redeliveries their causes summed"
check_each "$dir/delivery.json" '.group == "batch"' '.faults_injected == 2 and .deliveries > .executions and
	.redelivered_unbegun == .deliveries - .executions and .race_duplicates == 0 and
	.redeliveries == .redeliveries_crash and .redeliveries == .deliveries - .completed and
	.executions == .completed + .redeliveries - .redelivered_unbegun and .lost == 0' \
	"batch, 2 crashes: each rolled-back batch handed out again, its never-begun tail redelivered unbegun (no work twice), no race"
# (a live job the machine held up past the 200 ms lease is a redelivery by the lease too: at least
# the 2 crashed jobs', every one the lease's)
check_each "$dir/delivery.json" '.group == "lease"' '.faults_injected == 2 and .redeliveries_lease >= 2 and
	.redeliveries == .redeliveries_lease and .race_duplicates == 0 and .lost == 0' \
	"skip-locked flip, 2 crashes under a lease: their 2 jobs and any other redelivered by the lease, no race, nothing lost"
check_each "$dir/delivery.json" '.group == "restart"' '.faults_injected == 1 and .race_duplicates == 0 and
	.redeliveries == .redeliveries_restart and .lost == 0' \
	"advisory flip under a restart: the jobs of the ended sessions are redeliveries by the restart, no race"
check_each "$dir/delivery.json" '.group == "naive"' '.race_duplicates >= 1 and .redeliveries == 0 and
	.race_duplicates == .duplicates and .lost == 0' "naive without faults: races, every duplicate one, none a redelivery"
check_each "$dir/delivery.json" '.group == "consumed"' '.faults_injected == 1 and .integrity_errors == 0 and
	.ledger_mismatches == .claims_lost_in_flight + .completions_unknown and .lost >= .claims_lost_in_flight' \
	"delete-returning under a restart: every disagreement of the ledger and the table is a named figure"
check "no run warns of a disagreement of the ledger and the table" eval \
	'! grep -Eq "disagree|integrity error" "$dir/delivery.err"'

# ---- a strategy that lies: its completion changes nothing, the table keeps its jobs active ----
cat >"$dir/lying.ini" <<'EOF_INI'
[global]
jobs = 20
work-ms = 0
workers = 2
no-progress = true

[strategy lazy-done]
summary = skip-locked's claim; a completion that reads the row and writes nothing
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, claimed_at = now(),
    attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'
                ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, attempts
complete = SELECT id FROM {jobs} WHERE id = :id
modes = flip

[liar]
strategy = lazy-done
EOF_INI
run_json lying --scenario "$dir/lying.ini"
check "a strategy whose completion does nothing exits 5 (got $(cat "$dir/lying.status"))" \
	test "$(cat "$dir/lying.status")" -eq 5
check_each "$dir/lying.json" 'true' '.integrity_errors == 20 and .ledger_mismatches == 20 and
	.claims_lost_in_flight == 0 and (.verify_differences | map(select(.figure == "integrity_errors")) |
	length == 1 and .[0].ledger == 20 and (.[0].jobs | length) > 0)' \
	"its 20 jobs are integrity errors, in the JSON's differences with their jobs"
check "stderr names the section, the strategy and the jobs" \
	grep -Eq "^claimbench: section \[liar\], lazy-done flip x2 #1: integrity error: .* on 20 jobs .*; jobs 1 2 " \
	"$dir/lying.err"
stored=$(sqlite3 "$store" "SELECT r.integrity_errors || '/' || (d.jobs LIKE '1 2 %') FROM runs r
	JOIN run_verify_differences d ON d.run_id = r.id WHERE d.figure = 'integrity_errors'")
check "the stored run keeps its 20 integrity errors and their jobs (got $stored)" test "$stored" = "20/1"
