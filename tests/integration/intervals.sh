# Per-interval reporting and the warm-up, on real timed runs on SQLite: --progress-interval
# prints one line per interval whose counts add up to the run's, the warm-up's lines are
# marked, the figures leave the warm-up out exactly (the throughput is the time series'
# completions after it over the time after it), bad values are refused, and empty claims
# grouped as the run goes count in the series and the dry run exactly.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$CLAIMBENCH" run --db "sqlite:$dir/q.db" --results "$dir/r.db" --no-progress --strategy update-returning \
	--workers 2 --jobs 20000 --work-ms 1 --duration 2 --warmup 1 --progress-interval 0.5 --format json \
	>"$dir/out.json" 2>"$dir/err"
grep '^claimbench: update-returning flip x2 #1: [0-9.]*-[0-9.]* s: ' "$dir/err" >"$dir/lines"
check "a line per half second of a 2 s run (and a last, shorter one when completions ran on)" \
	awk 'END { exit !(NR >= 4 && NR <= 5) }' "$dir/lines"
check "each line has its interval's jobs done, rate, claim latency, empty claims and errors" \
	grep -Eqx '.*: [0-9]+ done, [0-9.]+ jobs/s, claim latency [0-9.]+ ms mean, [0-9]+ empty, [0-9]+ errors( \(warm-up\))?' \
	"$dir/lines"
check "the two intervals of the 1 s warm-up are marked, and only they" \
	awk '/\(warm-up\)$/ { w++; if ($6 !~ /^0\.[05]-/) bad = 1 } END { exit !(w == 2 && !bad) }' "$dir/lines"
done_sum=$(awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "done,") s += $i } END { print s + 0 }' "$dir/lines")
check_jq "$dir/out.json" ".results[0].executions == $done_sum" \
	"the intervals' jobs done add up to the run's executions ($done_sum)"
check_jq "$dir/out.json" \
	'.results[0] as $r | ([$r.series[] | select(.t_ms >= 1000) | .completed] | add) as $after |
	 ($r.throughput_jps * ($r.duration_s - 1) - $after | fabs) < 0.001' \
	"throughput counts the completions after the warm-up over the second after it"
check_jq "$dir/out.json" '.results[0].completed > .results[0].throughput_jps' \
	"done still counts the warm-up's jobs: the accounting covers the whole run"
check_jq "$dir/out.json" '.results[0].params.warmup == "1"' "the warm-up is stored with the run's parameters"

expect_exit 2 "--warmup needs a timed run \(--duration\)" "a warm-up in a drain run" \
	run --db "sqlite:$dir/q.db" --results "$dir/r.db" --warmup 1
expect_exit 2 "--warmup 3 must be shorter than the run \(--duration 2\)" "a warm-up as long as the run" \
	run --db "sqlite:$dir/q.db" --results "$dir/r.db" --duration 2 --warmup 3
expect_exit 2 "progress-interval" "a negative --progress-interval" \
	run --db "sqlite:$dir/q.db" --results "$dir/r.db" --progress-interval -1
expect_exit 2 "progress-interval" "a --progress-interval that is not a number" \
	run --db "sqlite:$dir/q.db" --results "$dir/r.db" --progress-interval soon

# ---- empty claims grouped as the run goes (queue/empty_groups.h) keep every figure exact ----
# One job and 4 workers polling at --empty-wait-ms 0: about 100,000 empty claims a second
# (over 100 asked: a loaded machine or a sanitizer build makes far fewer), most of them kept
# as groups. The series counts every one of them, the run ran dry, and every empty claim is
# after the take but those in flight when the job was taken (one per other worker at most)
# and the spurious ones; with arrivals too (some taken: how many is the machine's pace, a
# sanitizer build under load took 50 or fewer of the 200), the series counts them all.
"$CLAIMBENCH" run --db "sqlite:$dir/e.db" --results "$dir/r.db" --no-progress --strategy update-returning \
	--workers 4 --jobs 1 --work-ms 0 --duration 1 --empty-wait-ms 0 --format json >"$dir/empties.json" 2>/dev/null
check_jq "$dir/empties.json" '.results[0] | .empty_claims > 100 and ([.series[].empty_claims] | add) == .empty_claims and
	.dry.ran_dry and .dry.empty_after <= .empty_claims and .empty_claims - .dry.empty_after <= 3 + .spurious_empties' \
	"a timed run polling at --empty-wait-ms 0: the series and the dry run's count hold every empty claim"
"$CLAIMBENCH" run --db "sqlite:$dir/e.db" --results "$dir/r.db" --no-progress --strategy update-returning \
	--workers 4 --jobs 1 --arrival-rate 200 --work-ms 1 --duration 1 --empty-wait-ms 0 --format json \
	>"$dir/arrivals.json" 2>/dev/null
check_jq "$dir/arrivals.json" '.results[0] | .empty_claims > 100 and .completed > 0 and
	([.series[].empty_claims] | add) == .empty_claims and .spurious_empties <= .empty_claims' \
	"with arrivals polled at --empty-wait-ms 0: the series holds every empty claim"
