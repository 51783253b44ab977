# Open-loop arrivals: producers insert on schedule after the backlog, workers keep going
# until they are done and the queue is drained, and queue wait and the series say how it went.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out.json
results=$tmp/results.db

# check_drained BACKEND: the checks every drain run with 20 jobs and 200 arrivals must pass.
check_drained() {
	local b=$1
	check_jq "$out" '.results[0] | .completed == 220 and .executions == 220 and .duplicates == 0 and
		.overlaps == 0 and .lost == 0 and .ledger_mismatches == 0 and .complete' \
		"$b: all 220 jobs drained, no duplicates, overlaps or losses"
	check_jq "$out" '.results[0] | .arrivals == 200 and .arrival_rate == 200 and .jobs == 20' \
		"$b: 200 arrivals at 200 jobs/s after a backlog of 20"
	check_jq "$out" '.results[0].queue_wait_ms | .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p999 and .p999 <= .max' \
		"$b: queue wait percentiles in order"
	check_time_bound "$out" true '.queue_wait_ms.p50 < 25' "$b: queue wait p50 well below 100 ms"
	# (the arrivals span 1 s, so at least 10 buckets; the series reaches the last completion, the
	# makespan, however long a loaded machine made the drain)
	check_jq "$out" '.results[0] | (.series | length) >= 10 and .series[0].t_ms == 0 and
		([.series[].t_ms] == [range(0; .series | length) * 100]) and (.series | length) * 100 > .makespan_s * 1000' \
		"$b: the series covers the run, at least its 1 s of arrivals, in 100 ms buckets"
	check_jq "$out" '.results[0] | ([.series[].enqueued] | add) == 200 and ([.series[].completed] | add) == 220 and
		([.series[].empty_claims] | add) == .empty_claims' \
		"$b: the series sums to 200 enqueued, 220 completed and every empty claim"
	check_jq "$out" '.results[0].series[-1].backlog == 0 and ([.results[0].series[].backlog] | min) >= 0' \
		"$b: the backlog ends at 0"
}

"$CLAIMBENCH" run --format json --no-progress --results "$results" --jobs 20 --arrival-rate 200 --arrival-s 1 \
	--work-ms 2 --workers 4 --strategy skip-locked >"$out" 2>/dev/null
check "PostgreSQL: skip-locked with arrivals (exit 0)" test $? -eq 0
check_drained postgresql
id=$("$CLAIMBENCH" history --results "$results" --limit 1 | awk 'NR == 2 { print $1 }')
"$CLAIMBENCH" export "$id" --format json --results "$results" >"$tmp/export.json" 2>/dev/null
check "export of the stored run prints what run printed, series and queue wait included" \
	eval 'diff <(jq -S .results "$out") <(jq -S .results "$tmp/export.json") >/dev/null'

"$CLAIMBENCH" run --db "sqlite:$tmp/x.db" --format json --no-progress --results "$results" --jobs 20 \
	--arrival-rate 200 --arrival-s 1 --work-ms 2 --workers 4 --strategy update-returning >"$out" 2>/dev/null
check "SQLite: update-returning with arrivals (exit 0)" test $? -eq 0
check_drained sqlite

"$CLAIMBENCH" run --format json --no-progress --results "$results" --duration 1 --arrival-rate 100 --jobs 1 \
	--work-ms 2 --workers 2 --producers 2 --strategy skip-locked:flip >"$out" 2>/dev/null
check "timed run with arrivals from two producers (exit 0)" test $? -eq 0
# (every job is done or still waiting when the run ends, however slow the machine: a job in hand
# is finished; how many are done in the second is its pace)
check_jq "$out" '.results[0] | .arrivals == 100 and .completed + .backlog_end == .jobs_total and .duplicates == 0 and
	.lost == 0 and ([.series[].enqueued] | add) == 100 and (.series | length) >= 10' \
	"timed run: 100 arrivals over its second, each done or left in the backlog"
check_time_bound "$out" true '.completed >= 80' "timed run: the arrivals served as they come, 80 of the 101 jobs done at least"

"$CLAIMBENCH" run --format csv --no-progress --results "$results" --jobs 5 --arrival-rate 50 --arrival-s 0.2 \
	--work-ms 1 --workers 2 --strategy skip-locked >"$out" 2>/dev/null
check "csv has the arrival and queue-wait columns" eval \
	'head -n 1 "$out" | grep -q ",arrival_rate,makespan_s,.*,queue_wait_p50_ms,.*,queue_wait_max_ms,end_to_end_p50_ms,.*,backlog_end,arrivals,arrivals_late,arrival_late_max_ms,"'

expect_exit 2 '--arrival-rate in a drain run needs --arrival-s' "arrivals in a drain run need --arrival-s" \
	run --results "$results" --jobs 20 --arrival-rate 50
expect_exit 2 '--arrival-rate: expected a number' "a negative arrival rate" run --arrival-rate -1
expect_exit 2 '--producers: expected a whole number from 1' "zero producers" run --producers 0
check "run --help documents the arrival options" eval \
	'"$CLAIMBENCH" run --help | grep -q -- "--arrival-rate R" && "$CLAIMBENCH" run --help | grep -q -- "--arrival-s S" &&
	 "$CLAIMBENCH" run --help | grep -q -- "--producers N"'
