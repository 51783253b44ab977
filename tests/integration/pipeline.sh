# --pipeline: the claim transactions' statements sent in libpq's pipeline mode keep every
# strategy's contract (contended drains in both modes, lock errors met inside a pipeline,
# server processes killed under it, and a restart), and SQLite refuses it.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

modes=for-update:hold,nowait-backoff:flip,skip-locked:hold,skip-locked:flip,ticket:hold,update-returning:hold
modes=$modes,update-returning:flip,cas,move-table
run_json drain --pipeline --strategy "$modes" --workers 8 --jobs 150 --work-ms 1 --tries 50 --backoff-ms 2
check "every strategy drains in pipeline mode (exit 0)" test "$(cat "$dir/drain.status")" -eq 0
check_jq "$dir/drain.json" '.results | length == 9' "nine strategy and mode pairs are reported"
check_each "$dir/drain.json" 'true' '.completed == 150 and .duplicates == 0 and .overlaps == 0 and
	.lost == 0 and .ledger_mismatches == 0 and .complete' \
	"nine strategy and mode pairs: 150 jobs each, no duplicates, overlaps or losses, the audit agrees"
check_each "$dir/drain.json" '.strategy == "nowait-backoff"' '.errors.lock_not_available > 0 and
	.errors.lock_not_available == .retries + .give_ups' \
	"nowait-backoff: the NOWAIT failures met inside pipelines are counted and retried as without them"
check_jq "$dir/drain.json" '.results[0].params.pipeline == "true"' "the run records that it was pipelined"

run_json kill --pipeline --jobs 60 --work-ms 20 --workers 4 --kill-backend-exec 10,30 --strategy skip-locked:hold,skip-locked:flip
check_each "$dir/kill.json" '.claim_mode == "hold"' '.faults_injected == 2 and .reconnects == 2 and
	.redeliveries == 2 and .lost == 0 and .completed == 60 and .ledger_mismatches == 0' \
	"skip-locked hold, 2 server processes killed: both transactions die, the jobs go again, nothing lost"
check_each "$dir/kill.json" '.claim_mode == "flip"' '.faults_injected == 2 and .reconnects == 2 and
	.duplicates == 0 and .lost == 0 and .completed == 60 and .ledger_mismatches == 0' \
	"skip-locked flip, 2 server processes killed: the claims outlive the connections, nothing lost"

expect_exit 2 '--pipeline cannot run on sqlite: its statements make no network round trips to save' \
	"--pipeline is refused on SQLite, with the reason" run --db "sqlite:$dir/q.db" --pipeline --jobs 1
