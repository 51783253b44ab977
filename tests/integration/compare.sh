# claimbench compare on hand-written JSON files and a small store: verdicts, exit statuses, refusals;
# --format markdown (verdicts first, the changed SQL as a diff, the table folded) and junit (parsed).
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A run object of the output contract: run STRATEGY MODE WORKERS THROUGHPUT DUPLICATES
run() {
	printf '{"strategy": "%s", "claim_mode": "%s", "workers": %d, "repeat": 1, "makespan_s": %s,
	  "throughput_jps": %s, "duplicates": %d, "lost": 0, "fairness": {"jain": 0.99},
	  "claim_latency_ms": {"p99": 1.5}}' "$1" "$2" "$3" "$(awk -v t="$4" 'BEGIN { printf "%.6f", 200 / t }')" "$4" "$5"
}

printf '{"claimbench": "test", "results": [%s, %s, %s]}\n' "$(run skip-locked hold 10 100 0)" \
	"$(run skip-locked hold 10 98 0)" "$(run naive flip 4 90 3)" >"$tmp/base.json"
printf '{"claimbench": "test", "results": [%s, %s]}\n' "$(run skip-locked hold 10 70 0)" \
	"$(run skip-locked hold 10 68.6 0)" >"$tmp/slow.json"
printf '{"claimbench": "test", "results": [%s]}\n' "$(run skip-locked hold 10 100 2)" >"$tmp/dups.json"
echo '{"claimbench": "test", "runs": []}' >"$tmp/noresults.json"
printf '{"results": [{"strategy": "skip-locked", "claim_mode": "hold", "workers": 10}]}\n' >"$tmp/nometrics.json"
printf '{"results": [{"strategy": "x", "claim_mode": "hold", "throughput_jps": 5}]}\n' >"$tmp/noworkers.json"
printf '{"results": [{"strategy": "x", "claim_mode": "hold", "workers": 2, "lost": "none"}]}\n' >"$tmp/badlost.json"
echo '{"results": [' >"$tmp/broken.json"

# Six compared metrics a group: those the runs give; the others, unknown on both sides, get no row.
check "equal results: exit 0, every verdict ok" eval \
	'out=$("$CLAIMBENCH" compare "$tmp/base.json" "$tmp/base.json") &&
	 [ "$(grep -c " ok$" <<<"$out")" -eq 12 ] && grep -q "^0 regressions" <<<"$out"'
out=$("$CLAIMBENCH" compare "$tmp/base.json" "$tmp/slow.json")
status=$?
check "throughput down 30 %: exit 1" [ "$status" -eq 1 ]
check "the regression is named on stdout" eval \
	'grep -Eq "^  throughput_jps .*-30\.0% +yes +beyond +REGRESSION$" <<<"$out" &&
	 grep -q "^REGRESSION: skip-locked hold 10 workers, throughput_jps 99.00 -> 69.30: .* (significant)$" <<<"$out"'
check "a group on one side only is listed, not an error" \
	grep -q "^only in the baseline: naive flip 4 workers (1 run)" <<<"$out"
check "--throughput-drop 35 accepts a 30 % drop" eval \
	'"$CLAIMBENCH" compare "$tmp/base.json" "$tmp/slow.json" --throughput-drop 35 >/dev/null'
check "duplicates where the baseline had none: exit 1" eval \
	'! "$CLAIMBENCH" compare "$tmp/base.json" "$tmp/dups.json" >/dev/null'
check "--allow-duplicates accepts them" eval \
	'"$CLAIMBENCH" compare --allow-duplicates "$tmp/base.json" "$tmp/dups.json" >/dev/null'
"$CLAIMBENCH" compare "$tmp/base.json" "$tmp/slow.json" --format json >"$tmp/out.json"
check_jq "$tmp/out.json" '.regressions == 1 and (.comparisons | length) == 6' \
	"--format json: regressions count and six comparisons"
check_each "$tmp/out.json" '.metric == "throughput_jps"' '.verdict == "REGRESSION" and .significant == true' \
	"--format json: throughput's verdict, significant (Welch) with 2 runs against 2"
check_jq "$tmp/out.json" '.only_baseline == [{"strategy": "naive", "claim_mode": "flip", "workers": 4, "runs": 1}]' \
	"--format json: the group on one side only"

# ---- the outputs a pull request and a CI system take: markdown, JUnit ----
# The same runs with the claim of a strategy defined in SQL: the candidate's adds a line.
jq --arg sql $'UPDATE {jobs} SET status = \'active\'\nWHERE id = (SELECT id FROM {jobs} LIMIT 1)\nRETURNING id' \
	'.results[].params = {"claim-sql": $sql}' "$tmp/base.json" >"$tmp/base_sql.json"
jq --arg sql $'UPDATE {jobs} SET status = \'active\'\nWHERE id = (SELECT id FROM {jobs} LIMIT 1)\nAND payload <> \'<&>\'\nRETURNING id' \
	'.results[].params = {"claim-sql": $sql}' "$tmp/slow.json" >"$tmp/slow_sql.json"
"$CLAIMBENCH" compare "$tmp/base_sql.json" "$tmp/slow_sql.json" --format json >"$tmp/sql.json"
pr() {
	python3 "$(dirname "$0")/pr_output.py" "$@"
}
"$CLAIMBENCH" compare "$tmp/base_sql.json" "$tmp/slow_sql.json" --format markdown >"$tmp/sql.md"
status=$?
why=$(pr markdown "$tmp/sql.md" compare "AND payload <> '<&>'" 2>&1)
check "--format markdown (exit $status): the outcome and counts first, a bullet per regression, the claim's SQL diff, the table in <details>${why:+: $why}" \
	eval '[ "$status" -eq 1 ] && [ -z "$why" ]'
check "markdown: the throughput regression's bullet is the table's REGRESSION line" \
	grep -q "^- REGRESSION: skip-locked hold 10 workers, throughput_jps 99.00 -> 69.30: .* (significant)$" "$tmp/sql.md"
"$CLAIMBENCH" compare "$tmp/base_sql.json" "$tmp/slow_sql.json" --format junit >"$tmp/sql.xml"
status=$?
junit=$(pr junit "$tmp/sql.xml" 2>&1)
want=$(jq -r '"\([.comparisons[] | select(.gated)] | length) \(.regressions) 0"' "$tmp/sql.json")
check "--format junit (exit $status): well-formed, test cases/failures/skipped $junit, the JSON's gated rows/regressions $want" \
	eval '[ "$status" -eq 1 ] && [ "$junit" = "$want" ] && [ "$want" != "0 0 0" ]'
check "junit: the throughput regression a <failure> with its figures, classname its group, name the metric" \
	pr case "$tmp/sql.xml" "skip-locked hold 10 workers" throughput_jps failure "99.00 -> 69.30"
jq '.results[0].strategy = "a&b<\"c\">"' "$tmp/base.json" >"$tmp/odd.json"
"$CLAIMBENCH" compare "$tmp/odd.json" "$tmp/odd.json" --format junit >"$tmp/odd.xml"
check "junit: a strategy named a&b<\"c\"> escaped, the document well-formed, the name read back whole" \
	pr case "$tmp/odd.xml" 'a&b<"c"> hold 10 workers' throughput_jps pass ""

expect_exit 2 'expected BASELINE and CANDIDATE \(or --last\), got 1 argument' "one argument" compare "$tmp/base.json"
expect_exit 2 'expected BASELINE and CANDIDATE \(or --last\), got 3 arguments' "three arguments" \
	compare "$tmp/base.json" "$tmp/base.json" "$tmp/base.json"
expect_exit 2 '--throughput-drop: expected a number from 0 to 100, got "abc"' "--throughput-drop abc" \
	compare --throughput-drop abc "$tmp/base.json" "$tmp/base.json"
expect_exit 2 '--jain-drop: expected a number from 0 to 1, got "-1"' "--jain-drop -1" \
	compare --jain-drop -1 "$tmp/base.json" "$tmp/base.json"
expect_exit 2 'unknown option --bogus' "an unknown option" compare --bogus "$tmp/base.json" "$tmp/base.json"
expect_exit 2 '--format: expected one of table, json, markdown, junit, got "xml"' "an unknown format" \
	compare --format xml "$tmp/base.json" "$tmp/base.json"
expect_exit 2 'candidate: expected inv:ID with an invocation id from 1, got "inv:x"' "a malformed inv: id" \
	compare "$tmp/base.json" inv:x
expect_exit 3 "baseline $tmp/missing.json: cannot open $tmp/missing.json: No such file" "a missing file" \
	compare "$tmp/missing.json" "$tmp/base.json"
expect_exit 3 "candidate $tmp/noresults.json: .*no \"results\" array" "a JSON file without results" \
	compare "$tmp/base.json" "$tmp/noresults.json"
check "a run without metrics compares, each of its metrics unknown (-, no verdict but ok)" eval \
	'out=$("$CLAIMBENCH" compare "$tmp/base.json" "$tmp/nometrics.json") &&
	 grep -Eq "^  throughput_jps +2/0 +99.00 +- +- +- +n/a +ok$" <<<"$out" &&
	 grep -q "^0 regressions" <<<"$out"'
expect_exit 3 'results\[0\]: "workers" is missing or not a whole number from 1' "a run without workers" \
	compare "$tmp/base.json" "$tmp/noworkers.json"
expect_exit 3 'results\[0\]: "lost" is not a whole number from 0 or null' "a count that is not a number" \
	compare "$tmp/base.json" "$tmp/badlost.json"
expect_exit 3 "is not JSON" "a file that is not JSON" compare "$tmp/broken.json" "$tmp/base.json"

# An empty store: a run's store emptied (its rows go with the invocation's); a reading
# command never makes a store of an empty file.
"$CLAIMBENCH" run --db sqlite: --strategy update-returning --jobs 1 --work-ms 1 --no-progress \
	--results "$tmp/empty.db" >/dev/null 2>&1
sqlite3 "$tmp/empty.db" "PRAGMA foreign_keys = ON; DELETE FROM invocations"
expect_exit 3 "baseline 12345: no run 12345 in $tmp/empty.db" "a run id not in the store" \
	compare 12345 "$tmp/base.json" --results "$tmp/empty.db"
expect_exit 3 "candidate inv:7: no invocation 7 in $tmp/empty.db" "an invocation not in the store" \
	compare "$tmp/base.json" inv:7 --results "$tmp/empty.db"
expect_exit 3 "no result store at $tmp/none.db" "a store that does not exist" \
	compare 1 2 --results "$tmp/none.db"

# Two invocations written straight into the store: 1 with two runs, 2 with one slower run.
if command -v sqlite3 >/dev/null; then
	sqlite3 "$tmp/empty.db" "
		INSERT INTO invocations (id, started_at, host, claimbench_version, git_revision, server_version, seed)
		VALUES (1, 'x', 'h', 'v', 'g', 's', 1), (2, 'x', 'h', 'v', 'g', 's', 1);
		INSERT INTO runs (id, invocation_id, strategy, claim_mode, workers, jobs, repeat, complete,
			makespan_s, throughput_jps, completed, executions, duplicates, dup_jobs, overlaps, lost,
			empty_claims, spurious_empties, retries, give_ups, ledger_mismatches, jain, fairness_min,
			fairness_max, latency_p99_ms)
		VALUES (1, 1, 'skip-locked', 'hold', 10, 200, 1, 1, 2.0, 100, 200, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0,
			20, 20, 1.5),
		       (2, 1, 'skip-locked', 'hold', 10, 200, 2, 1, 2.0, 100, 200, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0,
			20, 20, 1.5),
		       (3, 2, 'skip-locked', 'hold', 10, 200, 1, 1, 4.0, 50, 200, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0,
			20, 20, 1.5);"
	check "inv:1 against run 1 of the store: exit 0, two runs against one" eval \
		'"$CLAIMBENCH" compare inv:1 1 --results "$tmp/empty.db" | grep -q "(2 runs); candidate: 1 (1 run)$"'
	check "inv:1 against inv:2, throughput halved: exit 1" eval \
		'"$CLAIMBENCH" compare inv:1 inv:2 --results "$tmp/empty.db" >/dev/null; [ $? -eq 1 ]'
else
	skip_missing sqlite3 "compare of invocations written into the store" scripts/install-deps
fi
check "compare documents its options" eval \
	'"$CLAIMBENCH" compare --help | grep -q -- "--throughput-drop PCT" && "$CLAIMBENCH" --help | grep -q "^  compare "'
