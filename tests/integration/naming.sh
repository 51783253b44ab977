# Invocations a pipeline can name, and a compare it can trust, on real runs on SQLite:
# run prints its invocation and run ids, history and show carry them, compare --last needs
# no guessing, refuses different workloads and a comparison with nothing in common, and
# run takes a scenario file as its argument.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

# small RUN-OPTIONS...: a small update-returning run on SQLite into the test's store; stderr in $dir/err.
small() {
	"$CLAIMBENCH" run --db "sqlite:$dir/q.db" --results "$store" --no-progress --strategy update-returning \
		--jobs 40 --workers 4 "$@" 2>"$dir/err"
}

small --work-ms 2 >/dev/null
check "run says where it stored its one run" \
	grep -q "^claimbench: stored in $store as invocation 1, run 1 (claimbench report inv:1; claimbench compare --last)$" \
	"$dir/err"
small --work-ms 2 --repeat 2 >/dev/null
check "and its runs when there are several" grep -q "as invocation 2, 2 runs from 2 to 3 " "$dir/err"
small --work-ms 2 --repeat 2 --format json >"$dir/out.json"
check_jq "$dir/out.json" '.invocation == 3 and [.results[].run_id] == [4, 5]' \
	"the JSON output names its invocation and each run's id"
check "history has an invocation column" eval \
	'"$CLAIMBENCH" history --results "$store" | awk '\''$1 == "id" && $2 == "inv" { h = 1 } $1 == 5 && $2 == 3 { r = 1 }
	 END { exit !(h && r) }'\'''
check "show names the run's invocation" eval '"$CLAIMBENCH" show 4 --results "$store" | grep -q "^run 4 of invocation 3,"'

# Throughput and fairness tolerances wide open: these checks are about which runs meet, not their speed.
wide="--throughput-drop 100 --jain-drop 1"
check "compare --last: the invocation before the latest against the latest" eval \
	'out=$("$CLAIMBENCH" compare --last $wide --results "$store") &&
	 grep -q "^baseline: inv:2 (2 runs); candidate: inv:3 (2 runs)$" <<<"$out"'
check "compare RUN --last: that run against the latest invocation" eval \
	'"$CLAIMBENCH" compare 1 --last $wide --results "$store" | grep -q "^baseline: 1 (1 run); candidate: inv:3 (2 runs)$"'
check "equal workloads: figures at a table's precision, no 1e-15 leftovers" eval \
	'! "$CLAIMBENCH" compare inv:3 inv:3 --results "$store" | grep -Eq "[0-9]e[-+][0-9]"'

small --work-ms 3 >/dev/null
expect_exit 2 "work-ms: baseline 2, candidate 3 .*" "compare refuses runs of another workload, naming the parameter" \
	compare --last $wide --results "$store"
expect_exit 2 "Compare them anyway with --allow-diff work-ms," "and says how to allow it" \
	compare --last $wide --results "$store"
check "--allow-diff work-ms compares them and says so" eval \
	'"$CLAIMBENCH" compare --last --allow-diff work-ms $wide --results "$store" |
	 grep -q "^allowed difference: work-ms 2 -> 3$"'
expect_exit 2 '--allow-diff: "wrok-ms" is not a run parameter' "--allow-diff with a misspelt parameter" \
	compare --last --allow-diff wrok-ms --results "$store"
expect_exit 2 "the baseline inv:3 has no run of --strategy naive" "--strategy that leaves a side empty" \
	compare --last --strategy naive --allow-diff work-ms --results "$store"
check "--strategy by NAME:MODE keeps the runs it names" eval \
	'"$CLAIMBENCH" compare --last --strategy update-returning:flip --allow-diff work-ms $wide --results "$store" |
	 grep -q "^update-returning flip    4$"'

small --work-ms 2 --workers 2 >/dev/null
expect_exit 2 "no group .* is on both sides: inv:4 has 1 run, inv:5 1, none alike; nothing was compared" \
	"nothing in common is an error, not a pass" compare --last --results "$store"
: >"$dir/one.db"
"$CLAIMBENCH" run --db "sqlite:$dir/q.db" --results "$dir/one.db" --no-progress --strategy update-returning \
	--jobs 10 --workers 2 --work-ms 1 >/dev/null 2>&1
expect_exit 3 "--last needs 2 invocations in $dir/one.db, which holds 1" "--last with one invocation stored" \
	compare --last --results "$dir/one.db"
expect_exit 2 "--last takes at most a BASELINE, got 2 arguments" "--last with two sides given" \
	compare 1 2 --last --results "$store"

printf '[global]\nstrategy = update-returning\njobs = 20\nworkers = 2\nwork-ms = 1\n' >"$dir/small.ini"
check "run FILE.ini runs the scenario file, as fio takes a job file" eval \
	'"$CLAIMBENCH" run "$dir/small.ini" --db "sqlite:$dir/q.db" --results "$store" --no-progress --format json \
	 2>/dev/null | jq -e ".scenario == \"small\" and (.results | length) == 1" >/dev/null'
expect_exit 2 'unexpected argument ".*b.ini": run takes one scenario file, as FILE or --scenario FILE' \
	"two scenario files" run "$dir/small.ini" "$dir/b.ini"
expect_exit 2 'unexpected argument ".*small.ini": run takes one scenario file' "a scenario file twice" \
	run --scenario "$dir/small.ini" "$dir/small.ini"
check "run --help shows the scenario argument" eval '"$CLAIMBENCH" run --help | grep -q "^usage: claimbench run \[options\] \[SCENARIO.ini\]$"'
