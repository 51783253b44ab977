# Noise said aloud, on SQLite: each run's machine figures (the load averages at its start and
# end, the CPU steal over it, the cores) in its JSON, plausible, and a stderr line for each
# run whose load exceeded the cores, no more; show's machine line; a report of single runs
# saying "one run each" where it said "mean over repeats, min-max bars", and its environment
# the load; --repeat auto stopping at its width or its cap with the count it took printed,
# and its bad values refused.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/r.db
db=sqlite:$dir/q.db
tiny=(--workers 2 --jobs 20 --work-ms 1 --db "$db")

run_json one --strategy naive,update-returning "${tiny[@]}"
check "two single runs on SQLite (exit $(cat "$dir/one.status"))" test "$(cat "$dir/one.status")" -eq 0
check_each "$dir/one.json" true '.machine.load_start >= 0 and .machine.load_end >= 0 and .machine.steal_pct >= 0
	and .machine.steal_pct <= 100 and .machine.cores >= 1' \
	"each run's machine figures are there and plausible (load >= 0, steal 0 to 100 %, cores >= 1)"
check_each "$dir/one.json" true '.machine.overloaded == (.machine.load_start > .machine.cores)' \
	"overloaded says whether the load average as the run began exceeded the cores (at its end it counts the run itself)"
busy=$(jq '[.results[] | select(.machine.overloaded)] | length' "$dir/one.json")
said=$(grep -c 'started on a machine busier than its [0-9]* cores (load average' "$dir/one.err")
check "stderr says so once per overloaded run ($busy overloaded, $said lines)" test "$busy" -eq "$said"
"$CLAIMBENCH" show 1 --results "$store" >"$dir/show.txt" 2>&1
check "show prints the machine line" grep -Eq '^machine: load average [0-9.]+ to [0-9.]+ \(1 minute' "$dir/show.txt"

"$CLAIMBENCH" report --last --results "$store" --out "$dir/rep" >/dev/null 2>&1
check "the report of single runs is written" test -s "$dir/rep/report.md"
check "its throughput caption says one run each" \
	grep -Fq 'a marker per strategy and worker count (one run each: no mean, no bars)' "$dir/rep/report.md"
check "no caption claims a mean over repeats with min-max bars" \
	test "$(grep -c 'the mean over repeats, min-max bars' "$dir/rep/report.md")" -eq 0
check "its environment gives the machine's load" \
	grep -Eq "^The machine's 1-minute load average at its runs' starts and ends: [0-9.]+ to [0-9.]+, on [0-9]+ cores" \
	"$dir/rep/report.md"

# auto_count NAME: the runs the --repeat auto line of NAME.err says it took; "" when none.
auto_count() {
	sed -n 's/^claimbench: --repeat auto: naive flip x2: \([0-9]*\) runs, .*/\1/p' "$dir/$1.err"
}
run_json wide --strategy naive "${tiny[@]}" --repeat auto --repeat-ci 100 --repeat-max 6
n=$(auto_count wide)
runs=$(jq '.results | length' "$dir/wide.json")
check "--repeat auto --repeat-ci 100 says how many runs it took ($n), as many as it made ($runs), 3 to 6" \
	test -n "$n" -a "$n" = "$runs" -a "${n:-0}" -ge 3 -a "${n:-0}" -le 6
if [ "${n:-0}" -lt 6 ]; then
	check "stopping before its cap, it met the width" grep -q 'of its mean, within --repeat-ci 100 %' "$dir/wide.err"
else
	check "at its cap, it says whether it met the width" \
		grep -Eq 'of its mean, (within --repeat-ci 100 %|wider than --repeat-ci 100 % at --repeat-max 6)$' \
		"$dir/wide.err"
fi
run_json capped --strategy naive "${tiny[@]}" --repeat auto --repeat-ci 0.1 --repeat-max 3
n=$(auto_count capped)
check "--repeat auto --repeat-max 3 stops at its cap of 3 runs ($n said, $(jq '.results | length' "$dir/capped.json") made)" \
	test "$n" = 3 -a "$(jq '.results | length' "$dir/capped.json")" -eq 3
check "... and says whether the width was met" \
	grep -Eq 'interval \+-[0-9.]+ % of its mean, (within --repeat-ci 0.1 %|wider than --repeat-ci 0.1 % at --repeat-max 3)$' \
	"$dir/capped.err"
expect_exit 2 '--repeat: expected a whole number from 1 to 1000 or auto, got "0"' "--repeat 0 is refused" \
	run --repeat 0 --db "$db" --results "$store"
expect_exit 2 '--repeat: expected a whole number from 1 to 1000 or auto, got "often"' "--repeat often is refused" \
	run --repeat often --db "$db" --results "$store"
expect_exit 2 '--repeat-max: expected a whole number from 3 to 1000, got "2"' "--repeat-max below 3 is refused" run --repeat auto --repeat-max 2 --db "$db" \
	--results "$store"
