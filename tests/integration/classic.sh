# The seed 001 experiment (scenarios/classic.ini) on a throwaway PostgreSQL the harness
# starts itself: 200 jobs, 10 workers, 100 ms of work, eleven strategies in their default modes:
# the seven of the seeds (skip-locked-cursor is seed 001's own claim) and the four of real
# queues (advisory, cas, delete-returning, move-table); its expectations must pass.
# CLAIMBENCH_CLASSIC_REPEATS sets how many times, 1 by default; 0 runs nothing (the
# sanitized pass of scripts/test-all: its bounds are the plain pass's to hold, and
# scenarios.sh runs the scenario scaled down under the sanitizers).
. "$(dirname "$0")/lib.sh"

repeats=${CLAIMBENCH_CLASSIC_REPEATS:-1}
if [ "$repeats" -eq 0 ]; then
	echo "# skipped: CLAIMBENCH_CLASSIC_REPEATS=0"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out.json
err=$tmp/err
"$CLAIMBENCH" run scenarios/classic.ini --results "$tmp/results.db" --repeat "$repeats" --format json --no-progress >"$out" 2>"$err"
status=$?
why=
[ "$status" -eq 0 ] || why=" -- exit $status: $(grep -E 'FAIL|claimbench:' "$err" | head -3 | tr -s ' \n' ' ')"
check "the classic scenario runs to the end, its expectations passing (exit 0)$why" test "$status" -eq 0
check_jq "$out" ".results | length == $((11 * repeats))" "$((11 * repeats)) runs: 11 strategies x $repeats repeats"
check_jq "$out" '.scenario == "classic" and .backend == "postgresql" and (.server_version | length > 0)' \
	"header names scenario, backend and server version"

for s in for-update nowait-backoff skip-locked skip-locked-cursor ticket update-returning advisory cas delete-returning \
	move-table; do
	for r in $(seq 1 "$repeats"); do
		run=".strategy == \"$s\" and .repeat == $r"
		check_each "$out" "$run" ".duplicates == 0 and .overlaps == 0 and .lost == 0" \
			"$s run $r: no duplicates, overlaps or losses"
		check_each "$out" "$run" ".completed == 200 and .complete and .ledger_mismatches == 0" \
			"$s run $r: all 200 jobs done, ledger agrees with the table"
	done
done

# naive's duplicates: explore.sh finds them among every interleaving, not by a race that may not happen
check_each "$out" '.strategy == "skip-locked"' '.makespan_s <= 1.3 * .ideal_s' \
	"skip-locked: makespan within 1.3 x ideal (2.0 s)"
check_each "$out" '.strategy == "skip-locked"' '.fairness.jain >= 0.98' \
	"skip-locked: Jain's index >= 0.98"
check_jq "$out" '([.results[] | select(.strategy == "for-update") | .makespan_s] | min) >=
	5 * ([.results[] | select(.strategy == "skip-locked") | .makespan_s] | max)' \
	"for-update (hold) makespan at least 5 x skip-locked's"
check_each "$out" '.strategy == "for-update"' '.makespan_s >= 0.8 * 200 * 0.1' \
	"for-update (hold): claims serialise, makespan near the sum of work times"
check_each "$out" '.strategy == "nowait-backoff"' '.errors.lock_not_available ==
	.retries + .give_ups' "nowait-backoff: every 55P03 is counted as a retry or a give-up"
check_each "$out" 'true' '.per_worker | length == 10' "a per-worker row for each of 10 workers"
check_each "$out" 'true' '(.per_worker | map(.completed) | add) == .completed + .duplicates' \
	"per-worker completions add up to completed + duplicates"
check_each "$out" 'true' '.claim_latency_ms.p50 <= .claim_latency_ms.p90 and
	.claim_latency_ms.p90 <= .claim_latency_ms.p99 and .claim_latency_ms.p99 <= .claim_latency_ms.p999 and
	.claim_latency_ms.p999 <= .claim_latency_ms.max' "latency percentiles are ordered"
check_jq "$out" '.results[0] | has("strategy") and has("claim_mode") and has("workers") and has("jobs") and
	has("work_ms") and has("repeat") and has("makespan_s") and has("ideal_s") and has("throughput_jps") and
	has("completed") and has("executions") and has("duplicates") and has("dup_jobs") and has("overlaps") and
	has("lost") and has("empty_claims") and has("spurious_empties") and has("retries") and has("give_ups") and
	(.errors | has("lock_not_available") and has("deadlock") and has("serialization") and has("sqlite_busy")
	 and has("connection_lost") and has("other")) and
	(.fairness | has("jain") and has("min") and has("max") and has("cv")) and
	(.claim_latency_ms | has("p50") and has("p90") and has("p99") and has("p999") and has("max")) and
	(.per_worker[0] | has("worker") and has("completed") and has("claims") and has("empty") and
	 has("retries") and has("busy_s"))' "every field of the JSON contract is present"
