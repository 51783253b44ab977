# The integrity figures as the server would record them, on a throwaway
# PostgreSQL and on SQLite: a job done at the end is never lost, a race is no redelivery,
# each redelivery has its cause (the ticket strategy's stale expiry named as such, never a
# lease), and a batch's jobs are in hand from the batch's claim. Races and crashes are not
# hoped for: where they are random, the figures are checked against each other and the
# final state (redeliveries never beyond what a cause gave back, lost only what is not done).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

cat >"$dir/pg.ini" <<'EOF'
[global]
no-progress = true

[strategy naive-sql]
summary = the first new row, selected without a lock; the harness marks it active
backends = postgresql,sqlite
claim = SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' ORDER BY id LIMIT 1

; a batch of 10 jobs of 10 ms stalls 600 ms at its first job, past its 200 ms lease: the
; other workers take the whole batch again, the 9 jobs its holder had not begun too
[batch-fenced]
strategy = batch:flip
jobs = 60
workers = 4
work-ms = 10
batch = 10
stall-exec = 3
stall-ms = 600
lease-ms = 200
fence = attempt

[batch-unfenced]
strategy = batch:flip
jobs = 60
workers = 4
work-ms = 10
batch = 10
stall-exec = 3
stall-ms = 600
lease-ms = 200
fence = none

; a crash at the 5th execution abandons a whole batch of 10, its unbegun jobs too: the
; reaper gives all 10 back, and each next claim is a redelivery (in hand from the claim)
[batch-crash]
strategy = batch:flip
jobs = 60
workers = 4
work-ms = 10
batch = 10
crash-exec = 5
respawn-ms = 20
lease-ms = 200
reaper-ms = 50
fence = attempt

; a SQL select-then-update claim under the default owner fence: the racers' completions fenced
[sql-naive]
strategy = naive-sql
jobs = 1000
workers = 8
work-ms = 0

; naive (flip) with crashes: a crash may strike either of two racers
[naive-crash]
strategy = naive
jobs = 400
workers = 8
work-ms = 2
crash-rate = 0.03
respawn-ms = 10

[naive-crash-reaper]
strategy = naive
jobs = 400
workers = 8
work-ms = 2
crash-rate = 0.03
respawn-ms = 10
lease-ms = 150
reaper-ms = 30
EOF

run_json pg "$dir/pg.ini"
check "the integrity scenario runs on PostgreSQL (exit 0)" test "$(cat "$dir/pg.status")" -eq 0
out=$dir/pg.json

# group NAME: the jq condition (check_each's SELECT) of that section's run.
group() {
	echo ".group == \"$1\""
}

# A batch of 10 jobs of 10 ms is 100 ms of its 200 ms lease: a batch the machine held up past the
# lease is taken again too, 10 more redeliveries (by the lease, or the reaper's where there is
# one), so the counts are at least the stalled or crashed batch's 10, each one a redelivery.
check_each "$out" "$(group batch-fenced)" ".completed == 60 and .fenced >= 10 and .lost == 0 and
	.delivery.at_least_once == true and .ledger_mismatches == 0" \
	"batch:flip stalled past the lease, --fence attempt: every job done, so nothing lost; at-least-once held"
check_each "$out" "$(group batch-fenced)" ".redeliveries >= 10 and .redeliveries == .redeliveries_lease and
	.duplicates == .redeliveries and .fenced <= .redeliveries and .zombie_completions == 0" \
	"batch:flip stalled, --fence attempt: its 10 jobs, begun or not, taken again by the lease, none a zombie"
check_each "$out" "$(group batch-unfenced)" ".redeliveries >= 10 and .redeliveries == .redeliveries_lease and
	.zombie_completions >= 10 and .zombie_completions <= .redeliveries and .lost == 0 and .completed == 60" \
	"batch:flip stalled, no fence: its holder's late completion is a zombie for all 10 jobs, in hand from the claim"

check_each "$out" "$(group batch-crash)" ".faults_injected == 1 and .reaped >= 10 and .redeliveries >= 10 and
	.redeliveries == .redeliveries_reaper and .duplicates == .redeliveries and .lost == 0 and .completed == 60" \
	"batch:flip, a crash mid-batch: all 10 jobs of the batch, begun or not, given back by the reaper and redelivered"

check_each "$out" "$(group sql-naive)" ".duplicates > 0 and .fenced > 0" \
	"SQL naive claim: two claims of one job, the loser's completion fenced (the races happened)"
check_each "$out" "$(group sql-naive)" ".completed == 1000 and .lost == 0 and .redeliveries == 0 and
	.delivery.at_least_once == true and .ledger_mismatches == 0" \
	"SQL naive claim under the owner fence: every job done, nothing lost, no redelivery (races are duplicates)"

for g in naive-crash naive-crash-reaper; do
	# A racer's claim may land on a row another racer has just marked done, then crash: the
	# job was done (the ledger's completed) and is left active (the server's stuck), and only
	# such a job disagrees with the ledger.
	check_each "$out" "$(group $g)" ".faults_injected > 0 and .lost == .stuck and
		.completed + .stuck - 400 == .ledger_mismatches" \
		"$g: lost only the jobs left active, every other job done (whichever racer the crash hit)"
done
check_each "$out" "$(group naive-crash)" ".redeliveries == 0" \
	"naive flip with crashes, no lease or reaper: nothing gave a job back, so no redelivery, races or not"
check_each "$out" "$(group naive-crash-reaper)" ".redeliveries == .redeliveries_reaper and .redeliveries <= .reaped and
	.lost == 0" \
	"naive flip with crashes and a reaper: redeliveries only those the reaper made way for, never more than it gave back"

# ---- the ticket strategy's stale expiry, named in the faults table ----
cat >"$dir/ticket.ini" <<'EOF'
[global]
no-progress = true

; the ticket strategy in hold mode: a 600 ms stall outlasts the 200 ms stale limit, the
; holder's ticket is deleted and the next claim waits on the row, then takes it again
[ticket-stale]
strategy = ticket:hold
jobs = 30
workers = 3
work-ms = 10
stall-exec = 5
stall-ms = 600
stale-ms = 200
EOF
"$CLAIMBENCH" run --results "$store" "$dir/ticket.ini" >"$dir/ticket.txt" 2>"$dir/ticket.err"
check "the ticket run exits 0" test $? -eq 0
"$CLAIMBENCH" export "$(sqlite3 "$store" "SELECT max(id) FROM runs")" --format json --results "$store" \
	>"$dir/ticket.json" 2>/dev/null
check_jq "$dir/ticket.json" ".results[0] | .redeliveries >= 1 and .redeliveries == .redeliveries_stale_ticket and
	.redeliveries_lease == 0 and .lost == 0 and .completed == 30" \
	"ticket hold, a stall past the stale limit: the job taken again is named a stale ticket's, not a lease's"
check "the faults table names the stale ticket (r_stale), no lease" \
	eval 'grep -Eq "^strategy .* redel r_stale " "$dir/ticket.txt" && ! grep -q "r_lease" "$dir/ticket.txt" &&
		grep -q "r_stale = redelivered: ticket expired as stale" "$dir/ticket.txt"'

# ---- SQLite (no batch strategy there): the SQL naive claim and naive with crashes ----
awk '/^\[/ { skip = /^\[batch/ } !skip' "$dir/pg.ini" >"$dir/lite.ini"
run_json lite --db "sqlite:$dir/q.db" "$dir/lite.ini"
check "the SQLite part runs (exit 0)" test "$(cat "$dir/lite.status")" -eq 0
check_jq "$dir/lite.json" '.results | length == 3' "SQLite: the 3 runs are reported"
check_each "$dir/lite.json" true ".lost == .stuck and .completed + .stuck - (if .group == \"sql-naive\" then
	1000 else 400 end) == .ledger_mismatches" \
	"SQLite: lost only the jobs left active, in each of the 3 runs"
check_each "$dir/lite.json" "$(group sql-naive)" ".redeliveries == 0 and .lost == 0" \
	"SQLite, SQL naive claim: no redelivery, nothing lost"
check_each "$dir/lite.json" "$(group naive-crash)" ".redeliveries == 0" \
	"SQLite, naive with crashes and no lease: no redelivery"
check_each "$dir/lite.json" "$(group naive-crash-reaper)" ".redeliveries == .redeliveries_reaper and
	.redeliveries <= .reaped and .lost == 0" \
	"SQLite, naive with crashes and a reaper: redeliveries only the reaper's, never more than it gave back"
