# claimbench explore's results in the result store, on a test server of its own: explore writes
# what it found, a row of explore_results per strategy and mode holding its JSON document (K, C, J, the search, the schedules with each finding,
# the schedule shown and the expectations' verdicts, from --expect and a scenario's
# [explore-expect]); history lists it as explore's; show inv:N prints the table as explore
# printed it, the counterexample's trace included; the stored trace replays to the same
# duplicate; compare and report refuse an explore invocation (exit 2); show inv:N prints the
# control characters stored in its texts as ?, and says when a stored trace and its events disagree; 3 workers sampled with a seed are
# stored as a sample; a run beside them is noted as run's and show inv:N prints it; a store that refuses the explore keeps its results in a file and exits 3,
# as run does; an unusable --results path is refused before anything runs (exit 3).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/store.db
start_test_server || { echo "not ok - a test server starts"; exit 0; }

# ---- explore writes the store: naive's duplicate, 2 workers x 1 claim on 2 jobs ----
printf '[global]\nstrategy = naive:flip\njobs = 2\n\n[explore-expect]\nnaive duplicates = naive.duplicate >= 1\n' \
	>"$dir/ci.ini"
"$CLAIMBENCH" explore --db "$TEST_DB" --results "$store" --claims 1 --expect 'violation > 0' "$dir/ci.ini" \
	>"$dir/found.out" 2>"$dir/found.err"
check "explore with --results exits 0 and says where it stored the invocation" \
	eval '[ $? -eq 0 ] && grep -q "stored in $store as invocation 1 (claimbench show inv:1)" "$dir/found.err"'
check "explore_results holds naive flip: K 2, C 1, J 2, every schedule, some with a violation" test \
	"$(sqlite3 "$store" "SELECT strategy, claim_mode, workers, json_extract(document, '$.claims'),
		json_extract(document, '$.jobs'), search, schedules = json_extract(document, '$.space'), violating > 0,
		json_type(document, '$.seed') FROM explore_results")" = "naive|flip|2|1|2|every|1|1|null"
check "its document: duplicate in some schedules and in the one shown; lost in none" test \
	"$(sqlite3 "$store" "SELECT json_extract(document, '$.with.duplicate') > 0, json_extract(document,
		'$.shown.findings.duplicate'), json_extract(document, '$.with.lost'), json_extract(document,
		'$.shown.findings.lost') FROM explore_results")" = "1|1|0|0"
check "its document: --expect's verdict and the scenario line's, with its file:line" test \
	"$(sqlite3 "$store" "SELECT group_concat(json_extract(value, '$.source') || '|' || json_extract(value,
		'$.expectation') || '|' || json_extract(value, '$.holds'), ';') FROM explore_results,
		json_each(document, '$.expects')")" = \
	"--expect|violation > 0|1;$dir/ci.ini:6|naive duplicates (naive.duplicate >= 1)|1"
check "the invocation is noted as explore's" test "$(sqlite3 "$store" "SELECT command FROM invocations")" = explore

# ---- history and show ----
"$CLAIMBENCH" history --results "$store" >"$dir/history.out"
check "history lists the explore, made by explore, with its schedules" \
	grep -Eq '^ +- +1 .* naive +flip +2 .* yes +- +explore \([0-9]+ schedules, every one, [0-9]+ with a violation\)$' \
	"$dir/history.out"
"$CLAIMBENCH" show inv:1 --results "$store" >"$dir/show.out"
check "show inv:1 exits 0" test $? -eq 0
# the table explore printed, without its PASS lines (show prints the verdicts its own way, below)
grep -v "^  PASS  " "$dir/found.out" >"$dir/found.table"
check "explore printed its two holding expectations as PASS, --expect's and the file's" eval \
	'grep -q "^  PASS  --expect: violation > 0  (it is [1-9][0-9]*)$" "$dir/found.out" &&
	 grep -q "^  PASS  $dir/ci.ini:6: naive duplicates (naive.duplicate >= 1)  (it is [1-9][0-9]*)$" "$dir/found.out"'
lines=$(wc -l <"$dir/found.table")
check "show inv:1 prints the table as explore printed it, line for line, the trace included" \
	eval '[ "$(sed -n "3,$((2 + lines))p" "$dir/show.out")" = "$(cat "$dir/found.table")" ] &&
	      grep -q "the shortest schedule with a violation: --schedule [0-9.]*$" "$dir/show.out"'
check "show inv:1 prints the verdicts and the invocation" \
	eval 'grep -q "expectation held: violation > 0 (it is [1-9][0-9]*; --expect)" "$dir/show.out" &&
	      grep -q "expectation held: naive duplicates (naive.duplicate >= 1) (it is [1-9][0-9]*; .*ci.ini:6)" "$dir/show.out" &&
	      grep -q "^command: explore$" "$dir/show.out"'
expect_exit 3 "no invocation 9 in" "show of an invocation that is not there" show inv:9 --results "$store"
expect_exit 2 "expected inv:N" "show inv:x is refused" show inv:x --results "$store"

# ---- the stored trace replays to the same duplicate ----
trace=$(sqlite3 "$store" "SELECT json_extract(document, '$.shown.trace') FROM explore_results WHERE id = 1")
"$CLAIMBENCH" explore --db "$TEST_DB" --results "$store" --strategy naive --claims 1 --schedule "$trace" \
	--expect 'duplicate == 1' >"$dir/replay.out" 2>"$dir/replay.err"
check "the stored trace $trace replays with --schedule, the duplicate with it (exit 0)" test $? -eq 0
check "the replay's table says it replayed one schedule (not that --max-schedules stopped it)" \
	grep -q "schedules  1 (the schedule replayed);" "$dir/replay.out"
events="SELECT group_concat(coalesce(json_extract(value, '$.worker'), '-') || json_extract(value, '$.kind') ||
	json_extract(value, '$.statement') || coalesce(json_extract(value, '$.result'), '?'), '|') FROM explore_results,
	json_each(document, '$.shown.events') WHERE explore_results.id = ID"
check "the replay is stored as one, its statements and results the counterexample's, one by one" \
	eval '[ "$(sqlite3 "$store" "SELECT search || schedules FROM explore_results WHERE id = 2")" = replay1 ] &&
	      [ -n "$(sqlite3 "$store" "${events/ID/1}")" ] &&
	      [ "$(sqlite3 "$store" "${events/ID/2}")" = "$(sqlite3 "$store" "${events/ID/1}")" ]'
expect_exit 2 "invocation 1 is claimbench explore's .*show inv:1" "compare refuses an explore invocation" \
	compare inv:1 inv:2 --results "$store"
expect_exit 2 "^claimbench report: invocation 1 is claimbench explore's .*: report works on runs' .*show inv:1" \
	"report refuses an explore invocation as compare does" report inv:1 --results "$store" --out "$dir/report"

# ---- what the store holds is cleaned before it reaches the terminal ----
forged="'x' || char(27) || '[2J' || char(10) || 'forged line'"
sqlite3 "$store" "UPDATE explore_results SET document = json_set(document, '$.shown.events[0].statement', $forged,
	'$.shown.events[0].result', $forged, '$.strategy', 'naive' || char(27) || '[31m') WHERE id = 1"
"$CLAIMBENCH" show inv:1 --results "$store" >"$dir/forged.out"
status=$?
check "show inv:1 prints an ESC or a newline stored in an explore's document as ?, forging nothing" \
	eval '[ "$status" -eq 0 ] && ! grep -q "$(printf "\033")" "$dir/forged.out" && ! grep -q "^forged line" "$dir/forged.out" &&
	      grep -q "x?\[2J?forged line" "$dir/forged.out" && grep -q "^naive?\[31m flip:" "$dir/forged.out"'

# ---- a stored trace its events do not follow: show says so ----
check "show inv:1 of the explore as stored says nothing of a disagreement" eval '! grep -q "disagree" "$dir/forged.out"'
sqlite3 "$store" "UPDATE explore_results SET document = json_set(document, '$.shown.trace',
	json_extract(document, '$.shown.trace') || '.0') WHERE id = 1"
"$CLAIMBENCH" show inv:1 --results "$store" >"$dir/disagree.out"
status=$?
check "show inv:1 of an explore whose stored trace makes a choice more than its events says so (exit $status)" \
	eval '[ "$status" -eq 0 ] && grep -Eq "^  the stored trace and events disagree \(not as explore stored them\): the trace makes [0-9]+ choices, but the events only [0-9]+$" "$dir/disagree.out"'
sqlite3 "$store" "UPDATE explore_results SET document = json_set(document, '$.shown.trace',
	substr(json_extract(document, '$.shown.trace'), 1, length(json_extract(document, '$.shown.trace')) - 2)) WHERE id = 1"

# ---- 3 workers, sampled with a seed ----
"$CLAIMBENCH" explore --db "$TEST_DB" --results "$store" --strategy skip-locked:flip --workers 3 --claims 1 \
	--jobs 2 --sample 20 --seed 7 --expect 'violation == 0' --expect 'schedules == 20' >/dev/null 2>"$dir/k3.err"
check "skip-locked, 3 workers x 1 claim on 2 jobs, 20 sampled schedules: no violation (exit 0)" test $? -eq 0
check "stored as a sample of 20 of an estimated space, with its seed" test \
	"$(sqlite3 "$store" "SELECT workers, search, schedules, json_extract(document, '$.space') >= 20,
		json_extract(document, '$.seed'), violating FROM explore_results WHERE invocation_id = 3")" = "3|sample|20|1|7|0"

# ---- a run beside them: noted as run's, shown by inv:N run by run ----
"$CLAIMBENCH" run --db "$TEST_DB" --results "$store" --strategy skip-locked --workers 1 --jobs 2 --work-ms 0 --no-progress \
	>/dev/null 2>&1
check "a run's invocation is noted as run's, and history says so" \
	eval '[ "$(sqlite3 "$store" "SELECT command FROM invocations WHERE id = 4")" = run ] &&
	      "$CLAIMBENCH" history --results "$store" --limit 1 | grep -Eq "^ +1 +4 .* skip-locked .* run$"'
check "show inv:4 prints the run invocation's run and its command" \
	eval '"$CLAIMBENCH" show inv:4 --results "$store" >"$dir/show_run.out" && grep -q "^run 1 of invocation 4" "$dir/show_run.out" &&
	      grep -q "^command: run$" "$dir/show_run.out"'

# ---- a store that refuses the explore: its results kept, exit 3, as run's ----
sqlite3 "$store" "CREATE TRIGGER refuse BEFORE INSERT ON explore_results BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
mkdir -m 1777 "$dir/tmp"
TMPDIR=$dir/tmp "$CLAIMBENCH" explore --db "$TEST_DB" --results "$store" --strategy naive --claims 1 --format json \
	>"$dir/refused.json" 2>"$dir/refused.err"
status=$?
kept=$(sed -n 's/.*their results are in \([^ ]*\) .*/\1/p' "$dir/refused.err")
check "an explore the store refused exits 3 (got $status) and says why" \
	eval '[ "$status" -eq 3 ] && grep -q "1 of 1 explores could not be stored in $store: .*refused by the test" "$dir/refused.err"'
check_jq "$dir/refused.json" '.[0].with.duplicate > 0' "its results are still printed"
check "the refused explore is kept in the file it names, as --format json printed it" \
	eval '[ -n "$kept" ] && [ "$(jq -c ".[0] | del(.seconds)" "$kept")" = "$(jq -c ".[0] | del(.seconds)" "$dir/refused.json")" ]'
expect_exit 3 'cannot open the result store' "an unusable --results path is refused" \
	explore --db "$TEST_DB" --results /nonexistent/dir/x.db --strategy naive --claims 1
