# The batch strategy's contract (claims of N jobs, one completion for all). One scenario on one
# throwaway PostgreSQL, a group per case: a contended drain at three batch sizes with a job
# count no size divides, crashes mid-batch (flip with lease and reaper; hold, whose rollback
# gives the batch back), heartbeats that keep a batch longer than its lease, --fail-rate's
# failures marked in the one completion. Then a Ctrl-C mid-batch, its refusals and bad values.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cat >"$dir/batch.ini" <<'EOF'
[global]
strategy = batch
work-ms = 0
workers = 8
no-progress = true

; 301 jobs: no batch size divides them, the last claims take what is left
[drain]
jobs = 301
batch = 1,7,50

; a crash at the 5th, 30th and 70th execution, each in a batch of 10, under --fence attempt
[crash]
strategy = batch:flip
jobs = 120
workers = 4
work-ms = 5
batch = 10
crash-exec = 5,30,70
respawn-ms = 20
lease-ms = 200
reaper-ms = 50
fence = attempt

; a batch of 10 jobs of 20 ms outlasts its 100 ms lease twice over: the heartbeat keeps it all
[beat]
strategy = batch:flip
jobs = 80
workers = 4
work-ms = 20
batch = 10
lease-ms = 100
heartbeat-ms = 25
reaper-ms = 50
fail-rate = 0.25
fence = none

; one transaction per batch holds its row locks across the work; two crashes roll theirs back
[hold]
strategy = batch:hold
jobs = 200
work-ms = 1
batch = 10
crash-exec = 5,30
respawn-ms = 20
fail-rate = 0.2
EOF

out=$dir/batch.json
"$CLAIMBENCH" run --scenario "$dir/batch.ini" --format json --results "$dir/results.db" >"$out" 2>"$dir/err"
check "the batch scenario runs to the end on PostgreSQL (exit 0)" test $? -eq 0

for b in 1 7 50; do
	check_each "$out" ".group == \"drain\" and .sweep == \"batch=$b\"" ".completed == 301 and
		.executions == 301 and .duplicates == 0 and .overlaps == 0 and .lost == 0 and .stuck == 0 and
		.ledger_mismatches == 0 and .complete" \
		"--batch $b: 301 jobs drained by 8 workers, each once, the table's audit agrees with the ledger"
done
check_each "$out" '.group == "crash"' '.faults_injected == 3 and .lost == 0 and .stuck == 0 and
	.completed == 120 and .reaped >= 3 and .redeliveries >= 3 and .ledger_mismatches == 0' \
	"flip, 3 crashes mid-batch: the reaper gives the abandoned batches back, nothing is lost"
check_each "$out" '.group == "beat"' '.redeliveries == 0 and .reaped == 0 and .fenced == 0 and
	.duplicates == 0 and .lost == 0 and .completed + .failed == 80 and .failed > 0 and .ledger_mismatches == 0' \
	"flip, batches outlasting the lease: the heartbeat extends every job of the batch, none is reaped"
check_each "$out" '.group == "hold"' '.claim_mode == "hold" and .faults_injected == 2 and
	.lost == 0 and .stuck == 0 and .reaped == 0 and .completed + .failed == 200 and .failed > 0 and
	.ledger_mismatches == 0' \
	"hold, 2 crashes mid-batch: the rollback gives the batch back; the failures the run asks for are marked error"

# ---- Ctrl-C in the middle of hold-mode batches: the jobs worked commit, the rest go back ----
# (each job of the 4 batches in hand at the stop, begun or not, is an interrupted execution:
# in hand from the claim; so at most 4 x 10 executions are not completions)
# (8000 jobs take 60 s: the stop comes long before the end, however late the polls see 4 done)
"$CLAIMBENCH" run --format json --no-progress --strategy batch:hold --batch 10 --workers 4 --jobs 8000 --work-ms 30 \
	--results "$dir/results.db" >"$dir/stop.json" 2>"$dir/stop.err" &
pid=$!
wait_for 30 jobs_done_at_least "$dir/stop.err" "$pid" 4
kill -INT "$pid"
wait "$pid"
check "an interrupted batch run exits 4" test $? -eq 4
check_jq "$dir/stop.json" '.results[0] | .complete == false and .completed > 0 and .completed < 8000 and
	.executions - .completed <= 40 and .duplicates == 0 and .lost == 0 and .stuck == 0 and .ledger_mismatches == 0' \
	"hold, stopped mid-batch: the worked jobs committed, the job in hand and those not begun given back, none stuck"

expect_exit 2 'strategy batch cannot run on sqlite: it needs FOR UPDATE SKIP LOCKED' \
	"batch is refused on SQLite, with the reason" run --db "sqlite:$dir/q.db" --strategy batch --jobs 1
for v in 0 10001 x ""; do
	expect_exit 2 "--batch: expected a whole number from 1 to 10000, got \"$v\"" \
		"--batch \"$v\" is refused" run --db "sqlite:$dir/q.db" --strategy cas --batch "$v" --jobs 1
done
check "list shows batch with its modes, refused on sqlite" eval \
	'"$CLAIMBENCH" list | grep -Eq "^batch +hold,flip\* +- " && "$CLAIMBENCH" list | grep -Eq -- "--batch N"'
