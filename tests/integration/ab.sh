# claimbench ab: two scenarios run in turn on one server and compared round by round:
# identical scenarios pass (exit 0) with every metric paired, a candidate whose claim does
# clearly more work per job is caught through a cost (exit 1), also in a noisy timed run at 4
# workers whatever the detectable effect, docs/ci.md's scenario (scenarios/ci.ini) fails a
# claim without FOR UPDATE SKIP LOCKED through its contended section's race duplicates, each
# section says what it gates, --format markdown opens with the verdicts and shows the claim's
# SQL diff, --junit's test cases are the JSON's gated rows, --fail-on-undecided fails what is
# undecided (in JUnit too), scenarios of different strategies are not comparable (exit 2,
# after one round), a candidate whose own
# SQL aborts its runs is a failed candidate (exit 1; a broken baseline exit 2), a signal is
# exit 4, and bad command lines are refused.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

start_test_server || { echo "not ok - a test PostgreSQL server starts"; exit 0; }

# scenario FILE STRATEGY EXTRA [JOBS [KEY [WORKERS]]]: a drain of JOBS (100) jobs of 1 ms by
# WORKERS (1: costs without contention) with the SQL strategy "probe" (seed 002's claim),
# EXTRA added to its claim's WHERE, KEY added to the global section; the group runs STRATEGY.
scenario() {
	cat >"$1" <<INI
[global]
jobs = ${4:-100}
work-ms = 1
workers = ${6:-1}
${5:-}

[strategy probe]
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, claimed_at = now(),
    attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'
                ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) $3
    RETURNING id, attempts
modes = flip

[drain]
strategy = $2
INI
}

scenario "$dir/base.ini" probe ""
scenario "$dir/other.ini" skip-locked:flip ""
# The candidate counts the whole queue table in every claim: far more rows examined per job.
scenario "$dir/scan.ini" probe "AND (SELECT count(*) FROM {jobs}) > 0"
# Timed runs of 1 s that run out of their 5 jobs long before the end (40 jobs in 0.5 s did
# not run out on a loaded machine).
scenario "$dir/dry.ini" probe "" 5 "duration = 1"
# Candidates broken by their own SQL: a claim that marks two rows, one that fails every time.
scenario "$dir/two.ini" probe "OR id = (SELECT max(id) FROM {jobs} WHERE status = 'new')"
scenario "$dir/fails.ini" probe "AND 1 / (SELECT count(*) - count(*) FROM {jobs}) = 1"
# A drain of 100000 jobs of 1 ms: far longer than the test waits before its signal.
scenario "$dir/long.ini" probe "" 100000
# Timed runs of 0.5 s at 4 workers (a newcomer's), the candidate counting a seventh of the
# table in every claim: rows examined per job far up, its interval wide with the contention.
scenario "$dir/timed.ini" probe "" 5000 "duration = 0.5" 4
scenario "$dir/count7.ini" probe "AND (SELECT count(*) FROM {jobs} j2 WHERE j2.id % 7 = 3) >= 0" 5000 \
	"duration = 0.5" 4
# docs/ci.md's scenario, and its claim without FOR UPDATE SKIP LOCKED.
ci=$(dirname "$0")/../../scenarios/ci.ini
sed 's/ FOR UPDATE SKIP LOCKED)/)/' "$ci" >"$dir/ci-nolock.ini"

# ab ARGS...: claimbench ab on the test server into the test's store.
ab() {
	"$CLAIMBENCH" ab --db "$TEST_DB" --results "$store" "$@"
}

# ---- the same scenario on both sides: no regression, every metric paired over 2 rounds ----
ab "$dir/base.ini" "$dir/base.ini" --rounds 2 --format json >"$dir/same.json" 2>"$dir/same.err"
status=$?
check "identical scenarios: exit 0 (got $status)" test "$status" -eq 0
check_jq "$dir/same.json" '.rounds == 2 and .regressions == 0 and .tolerances.cost_pct == 5 and
	([.comparisons[] | select(.strategy == "probe" and .claim_mode == "flip" and .workers == 1)] | length) > 5' \
	"--format json: 2 rounds, no regression, the group's metrics compared"
check_each "$dir/same.json" '.metric == "race_duplicates"' '.nature == "outcome" and .verdict == "~"' \
	"race duplicates: an outcome, none on either side"
check_each "$dir/same.json" '.metric == "throughput_jps"' '.nature == "timing" and .pairs == 2 and
	(.mde_pct | type) == "number" and .gated and (.gate == "no_regression" or .gate == "undecided")' \
	"throughput: a timing, gated, no regression or undecided, its detectable effect shown"
check "the rounds alternate: baseline first, then candidate first" eval \
	'[ "$(grep -o "round [0-9], [a-z]*" "$dir/same.err" | tr "\n" " ")" = \
	   "round 1, baseline round 1, candidate round 2, candidate round 2, baseline " ]'
check_jq "$dir/same.json" '.baseline_invocation >= 1 and .candidate_invocation == .baseline_invocation + 1' \
	"each side stored as an invocation of its own"
check "the store holds the 4 runs" eval \
	'[ "$("$CLAIMBENCH" history --results "$store" | grep -c " probe ")" -eq 4 ]'

# ---- a claim that does clearly more work per job: a regression, through a cost ----
ab "$dir/base.ini" "$dir/scan.ini" --rounds 3 >"$dir/scan.out" 2>"$dir/scan.err"
status=$?
check "a claim scanning the table in every claim: exit 1 (got $status)" test "$status" -eq 1
check "the cost that caught it is named, with its change and interval" \
	grep -Eq '^REGRESSION: probe flip 1 worker in \[drain\], costs\.rows_examined_per_job .* \(\+[0-9.]+%, 95% interval \[\+[0-9.]+%, \+[0-9.]+%\]; \[\+[0-9.]+%, \+[0-9.]+%\] over the [0-9]+ metrics its group gates\): a cost beyond its 5% tolerance$' \
	"$dir/scan.out"
check "in the table: rows examined a cost, REGRESSION; statements per job unchanged (~)" eval \
	'grep -Eq "^  costs\.rows_examined_per_job +cost .* REGRESSION$" "$dir/scan.out" &&
	 grep -Eq "^  costs\.statements_per_job +cost .* ~ +\[" "$dir/scan.out"'

# ---- the outputs a pull request and a CI system take: markdown, JUnit ----
# pr ARGS...: pr_output.py's check ARGS (its verdict on stdout, why not on stderr).
pr() {
	python3 "$(dirname "$0")/pr_output.py" "$@"
}
ab "$dir/base.ini" "$dir/scan.ini" --rounds 2 --format json --junit "$dir/scan.xml" >"$dir/scan.json" 2>/dev/null
status=$?
junit=$(pr junit "$dir/scan.xml" 2>&1)
want=$(jq -r '"\([.comparisons[] | select(.gated)] | length) \(.regressions) \(.undecided)"' "$dir/scan.json")
check "--junit beside --format json (exit $status): well-formed, test cases/failures/skipped $junit, the JSON's gated rows/regressions/undecided $want" \
	eval '[ "$status" -eq 1 ] && [ "$junit" = "$want" ]'
check "the cost that caught it a <failure> with its figures, classname its group, name the metric" \
	pr case "$dir/scan.xml" "probe flip 1 worker in [drain]" costs.rows_examined_per_job failure "beyond its 5% tolerance"
ab "$dir/base.ini" "$dir/scan.ini" --rounds 2 --format markdown >"$dir/scan.md" 2>/dev/null
status=$?
why=$(pr markdown "$dir/scan.md" ab "AND (SELECT count(*) FROM {jobs}) > 0" 2>&1)
check "--format markdown (exit $status): the outcome and counts first, a bullet per regression and undecided metric, the claim's SQL diff, the table in <details>${why:+: $why}" \
	eval '[ "$status" -eq 1 ] && [ -z "$why" ]'
check "markdown: the regression of rows examined is a bullet, as the table's line says it" \
	grep -Eq '^- REGRESSION: probe flip 1 worker in \[drain\], costs\.rows_examined_per_job .*: a cost beyond its 5% tolerance$' "$dir/scan.md"

# ---- a timed run at 4 workers: beyond the tolerance, whatever the detectable effect ----
ab "$dir/timed.ini" "$dir/count7.ini" --rounds 3 --format json >"$dir/count7.json" 2>"$dir/count7.err"
status=$?
check "issue 34's candidate counting a seventh of the table at 4 workers: exit 1 (got $status; af91ccb: 0)" \
	test "$status" -eq 1
check_jq "$dir/count7.json" '.comparisons[] | select(.metric == "costs.rows_examined_per_job") |
	.gate == "regression" and .verdict == "REGRESSION" and .ci95_low_pct > 5' \
	"rows examined per job: its whole interval beyond 5 %, a regression (af91ccb: not gated, its mde above 5 %)"
check_jq "$dir/count7.json" '.regressions >= 1 and .undecided == ([.comparisons[] | select(.gate == "undecided")] | length) and
	all(.comparisons[] | select(.gate == "undecided"); .rounds_to_decide == null or .rounds_to_decide > 3)' \
	"the counts follow the rows' gates; each undecided row's rounds to decide is more than the 3 run"
check_jq "$dir/count7.json" '.comparisons as $all | all(.comparisons[] | select(.nature != "outcome" and .pairs >= 2 and
	.baseline.mean != 0); (.gate == "regression") == (.worse_low > .tolerance_pct) and
	(.gate == "no_regression") == (if .higher_is_better then -.ci95_low_pct else .ci95_high_pct end <= .tolerance_pct) and
	.worse_low <= (if .higher_is_better then -.ci95_high_pct else .ci95_low_pct end) + 1e-9 and
	.group_gates == ([$all[] | select(.strategy == "probe" and .nature != "outcome" and .pairs >= 2)] | length))' \
	"every cost and timing: a regression exactly when its family-wise interval is wholly beyond the tolerance (wider than its 95 % one, for every gated metric of its group), none when its 95 % interval is wholly within"

# ---- docs/ci.md's scenario: its contended section catches a claim that hands a job out twice ----
ab "$ci" "$dir/ci-nolock.ini" --rounds 2 >"$dir/nolock.out" 2>"$dir/nolock.err"
status=$?
check "scenarios/ci.ini against its claim without FOR UPDATE SKIP LOCKED: exit 1 (got $status)" test "$status" -eq 1
check "the contended section's race duplicates are a REGRESSION" \
	grep -Eq '^REGRESSION: claim flip 8 workers in \[contended\], race_duplicates 0\.000 -> [0-9.]+: where the baseline had none$' \
	"$dir/nolock.out"
check "each section says what it gates: race duplicates and lost in both" eval \
	'grep -Eq "^section \[drain\] gates: .*\brace_duplicates, lost\b" "$dir/nolock.out" &&
	 grep -Eq "^section \[contended\] gates: .*\brace_duplicates, lost\b" "$dir/nolock.out"'

check "docs/ci.md's scenario block is scenarios/ci.ini, line for line" eval \
	'diff <(sed -n "/^\`\`\`ini\$/,/^\`\`\`\$/p" "$(dirname "$0")/../../docs/ci.md" | sed "1d;\$d") "$ci" >/dev/null'

# ---- --fail-on-undecided: an undecided metric fails ----
ab "$dir/base.ini" "$dir/base.ini" --rounds 2 --fail-on-undecided --format json --junit "$dir/undecided.xml" \
	>"$dir/undecided.json" 2>/dev/null
status=$?
undecided=$(jq .undecided "$dir/undecided.json")
check "--fail-on-undecided: exit 1 when a metric is undecided, else 0 (undecided $undecided, exit $status)" eval \
	'[ "$status" -eq "$([ "$undecided" -gt 0 ] && echo 1 || echo 0)" ]'
check_jq "$dir/undecided.json" '.fail_on_undecided == true and .regressions == 0' \
	"--fail-on-undecided noted in the JSON; no regression"
junit=$(pr junit "$dir/undecided.xml" 2>&1)
check "--junit under --fail-on-undecided: each undecided metric a <failure>, none skipped (junit $junit, undecided $undecided)" \
	eval '[ "$junit" = "$(jq -r "[.comparisons[] | select(.gated)] | length" "$dir/undecided.json") $undecided 0" ]'
check_jq "$dir/same.json" '.fail_on_undecided == false and (.sections | length) == 1 and .sections[0].section == "drain" and
	(.sections[0].gates | index("race_duplicates")) != null' "without it: false; the one section gates race duplicates"

# ---- different strategies: not comparable, found after the first round ----
"$CLAIMBENCH" ab --db "$TEST_DB" --results "$store" "$dir/base.ini" "$dir/other.ini" --rounds 3 >/dev/null 2>"$dir/other.err"
status=$?
check "different strategies: not comparable (exit 2, got $status)" eval \
	'[ "$status" -eq 2 ] && grep -q "do not run the same groups" "$dir/other.err"'
check "the groups of one side only are named" eval \
	'grep -q "^  only in the baseline: probe flip 1 worker in \[drain\]$" "$dir/other.err" &&
	 grep -q "^  only in the candidate: skip-locked flip 1 worker in \[drain\]$" "$dir/other.err"'
check "refused after the first round, the second not run" eval \
	'grep -q "round 1, candidate" "$dir/other.err" && ! grep -q "round 2" "$dir/other.err"'

# ---- a candidate whose own SQL aborts its runs: a failed candidate (exit 1), not "interrupted, retry" (4) ----
ab "$dir/base.ini" "$dir/two.ini" --rounds 2 >"$dir/two.out" 2>"$dir/two.err"
status=$?
check "a candidate whose claim returns two rows: a failed candidate, exit 1 (got $status; 4 before)" eval \
	'[ "$status" -eq 1 ] && grep -q "^FAILED: the candidate.s own SQL aborted its runs: worker 0: claim of strategy probe returned several rows" "$dir/two.out" &&
	 grep -q "the candidate failed: its own SQL aborted its runs" "$dir/two.err" && ! grep -q "round 2" "$dir/two.err"'
ab "$dir/base.ini" "$dir/fails.ini" --rounds 2 >"$dir/fails.out" 2>"$dir/fails.err"
status=$?
check "a candidate whose every claim fails (division by zero): a failed candidate, exit 1 (got $status; 4 before)" eval \
	'[ "$status" -eq 1 ] && grep -q "^FAILED: the candidate.s own SQL aborted its runs: worker 0: 100 errors in a row, the last: .*division by zero" "$dir/fails.out"'
ab "$dir/two.ini" "$dir/base.ini" --rounds 2 >/dev/null 2>"$dir/broken_base.err"
status=$?
check "a baseline whose own SQL aborts its runs: not comparable, exit 2, saying so (got $status)" eval \
	'[ "$status" -eq 2 ] && grep -q "not comparable: the baseline.s own SQL aborted its runs (worker 0: claim of strategy probe returned several rows" "$dir/broken_base.err"'

# a signal stays exit 4: interrupted, retry
"$CLAIMBENCH" ab --db "$TEST_DB" --results "$store" "$dir/long.ini" "$dir/long.ini" --rounds 2 >/dev/null \
	2>"$dir/int.err" &
pid=$!
wait_for 30 grep -q "round 1, baseline" "$dir/int.err"
kill -INT "$pid"
wait "$pid"
status=$?
check "ab stopped by SIGINT in its first run: exit 4, interrupted (got $status)" eval \
	'[ "$status" -eq 4 ] && grep -q "rounds incomplete (interrupted); nothing compared" "$dir/int.err" &&
	 ! grep -q "FAILED\|not comparable" "$dir/int.err"'

# ---- a timed run that ran out of jobs: not comparable ----
"$CLAIMBENCH" ab --db "$TEST_DB" --results "$store" "$dir/dry.ini" "$dir/dry.ini" --rounds 2 >/dev/null 2>"$dir/dry.err"
status=$?
check "runs that ran dry: not comparable (exit 2, got $status)" eval \
	'[ "$status" -eq 2 ] && grep -q "ran dry" "$dir/dry.err"'
check "each side's dry runs are named, and nothing compared" eval \
	'grep -q "^claimbench ab: 1 run of the baseline .*/dry.ini ran dry" "$dir/dry.err" &&
	 grep -q "nothing compared" "$dir/dry.err" && ! grep -q "round 2" "$dir/dry.err"'

# ---- bad command lines ----
expect_exit 2 'claimbench ab: baseline .*/missing.ini: .*/missing.ini: cannot read the scenario' "a missing baseline file" \
	ab "$dir/missing.ini" "$dir/base.ini"
expect_exit 2 'claimbench ab: candidate .*/missing.ini: .*/missing.ini: cannot read the scenario' "a missing candidate file" \
	ab "$dir/base.ini" "$dir/missing.ini"
printf '[global]\njobs = many\n' >"$dir/bad.ini"
expect_exit 2 'claimbench ab: candidate .*/bad.ini: .*/bad.ini:2: jobs = many: --jobs: expected a whole number' \
	"a bad scenario line: its file and line" ab "$dir/base.ini" "$dir/bad.ini"
expect_exit 2 'claimbench ab: --rounds: expected a whole number from 2 to 100, got "1"' "--rounds 1: a paired test needs 2" \
	ab "$dir/base.ini" "$dir/base.ini" --rounds 1
expect_exit 2 'claimbench ab: --tolerance: expected a number from 0 to 100, got "-5"' "--tolerance -5" \
	ab "$dir/base.ini" "$dir/base.ini" --tolerance -5
expect_exit 2 'expected BASELINE.ini and CANDIDATE.ini, got 1 argument' "one scenario only" ab "$dir/base.ini"
expect_exit 3 "claimbench ab: --junit $dir/none/ab.xml: No such file or directory" \
	"--junit into a missing folder: refused before any round" ab "$dir/base.ini" "$dir/base.ini" --junit "$dir/none/ab.xml"
check "--help says what the exits mean" eval '"$CLAIMBENCH" ab --help | grep -q "Exit status: 0 no regression, 1 a regression"'
check "--help lists --fail-on-undecided" eval '"$CLAIMBENCH" ab --help | grep -q "^  --fail-on-undecided  "'
check "the man page lists --fail-on-undecided" eval '"$CLAIMBENCH" manpage | grep -Fq "\-\-fail\-on\-undecided      an undecided"'
