# lib.sh's check helpers on hand-made JSON, no server: check_each judges every run its SELECT
# matches and names the runs that fail with the values of the fields its COND reads; it fails
# when nothing matches and on a file that is empty or not JSON; check_jq's failure says what
# jq printed and the values of the paths its filter names; check_time_bound's failure is a skip
# only when every run it judges started overloaded. Each helper runs in a subshell, and its line
# is asserted on here.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Three flip runs and a hold run; the second flip run (workers 2) is one job short.
cat >"$dir/runs.json" <<'JSON'
{"results": [
 {"strategy": "skip-locked", "claim_mode": "hold", "workers": 4, "completed": 10, "lost": 0},
 {"strategy": "skip-locked", "claim_mode": "flip", "workers": 4, "completed": 10, "lost": 0},
 {"strategy": "skip-locked", "claim_mode": "flip", "workers": 2, "completed": 9, "lost": 1,
  "group": "short", "params": {"claim-sql": "UPDATE"}},
 {"strategy": "skip-locked", "claim_mode": "flip", "workers": 8, "completed": 10, "lost": 0}
]}
JSON
: >"$dir/empty.json"
echo 'completed: 10' >"$dir/text.json"
echo '[{"strategy": "cas", "claim_mode": "flip", "complete": true}]' >"$dir/array.json"
echo '{"comparisons": [{"strategy": "cas", "metric": "lost", "verdict": "~"},
 {"strategy": "cas", "metric": "duplicates", "verdict": "REGRESSION"}]}' >"$dir/ab.json"

# line_matches WHAT LINE PATTERN: ok when LINE matches the extended regex PATTERN, else not ok
# with the line.
line_matches() {
	if grep -Eq -- "$3" <<<"$2"; then
		echo "ok - $1"
	else
		echo "not ok - $1: got: $2"
	fi
}

# The last of the flip runs passes, so jq -e on the stream would have passed.
line=$(check_each "$dir/runs.json" '.claim_mode == "flip"' \
	'.completed == 10 and .params["claim-sql"] == null and .claim_mode != "x.such"' "flip runs complete")
line_matches "a failing run among several matching ones fails the check, though the last passes" "$line" \
	'^not ok - flip runs complete: 1 of 3 matching runs fail: '
line_matches "the failing run is named by its strategy, claim mode, group and workers" "$line" \
	'\{strategy="skip-locked" claim_mode="flip" group="short" workers=2: '
line_matches "the values of the fields COND reads are shown, a dot inside a string read as none" "$line" \
	': \.claim_mode="flip" \.completed=9 \.params\["claim-sql"\]="UPDATE"\}$'
check "only the failing run is listed" eval '! grep -q "workers=[48]" <<<"$line"'
line=$(check_each "$dir/runs.json" '.claim_mode == "flip"' '.completed == 10 and .missing.figure == 0' "absent")
line_matches "a field absent from a run shows as null" "$line" ' \.completed=9 \.missing\.figure=null\}'
line=$(check_each "$dir/runs.json" '.claim_mode == "flip"' '.completed.x == 1' "error")
line_matches "an error COND raises is shown" "$line" '^not ok - error: 3 of 3 matching runs fail: .*error: Cannot index number'

line=$(check_each "$dir/runs.json" '.claim_mode == "batch"' '.completed == 10' "batch runs complete")
check "a SELECT that matches no run fails, saying so" \
	test "$line" = 'not ok - batch runs complete: no run matches .claim_mode == "batch"'
line=$(check_each "$dir/runs.json" '.claim_mode == "hold"' '.completed == 10' "hold runs complete")
check "a condition every matching run meets passes" test "$line" = 'ok - hold runs complete'
line=$(check_each "$dir/runs.json" 'true' '.completed + .lost == 10' "every run accounts for its jobs")
check "SELECT true judges every run" test "$line" = 'ok - every run accounts for its jobs'
line=$(check_each "$dir/runs.json" 'true' 'empty' "nothing said")
line_matches "a COND with no output fails" "$line" '^not ok - nothing said: 4 of 4 matching runs fail'
line=$(check_each "$dir/array.json" '.strategy == "cas"' '.complete' "explore's runs")
check "a document that is an array is read as the runs" test "$line" = "ok - explore's runs"
line=$(check_each "$dir/ab.json" 'true' '.verdict == "~"' "no change")
line_matches "ab's comparisons are read as the runs, a failing one named by its metric" "$line" \
	'^not ok - no change: 1 of 2 matching runs fail: \{strategy="cas" metric="duplicates": \.verdict="REGRESSION"\}$'

# check_time_bound: a failed bound is a skip only when every matching run started overloaded.
cat >"$dir/timed.json" <<'JSON'
{"results": [
 {"strategy": "notify", "queue_wait_ms": {"p50": 80}, "machine": {"overloaded": true}},
 {"strategy": "skip-locked", "queue_wait_ms": {"p50": 90}, "machine": {"overloaded": false}},
 {"strategy": "skip-locked", "queue_wait_ms": {"p50": 10}, "machine": {"overloaded": true}}
]}
JSON
line=$(check_time_bound "$dir/timed.json" '.strategy == "notify"' '.queue_wait_ms.p50 < 50' "notify waits little")
line_matches "a bound on time failed in runs all started overloaded is a skip giving the values" "$line" \
	'^ok - notify waits little # SKIP a bound on time failed in runs the harness recorded as started overloaded .*\.queue_wait_ms\.p50=80\}$'
line=$(check_time_bound "$dir/timed.json" '.strategy == "skip-locked"' '.queue_wait_ms.p50 < 50' "skip-locked waits little")
line_matches "and a failure when one of the runs did not start overloaded" "$line" \
	'^not ok - skip-locked waits little: 1 of 2 matching runs fail: .*\.queue_wait_ms\.p50=90\}$'
line=$(check_time_bound "$dir/timed.json" 'true' '.queue_wait_ms.p50 < 100' "every run waits little")
check "a bound that holds passes, overloaded or not" test "$line" = "ok - every run waits little"
line=$(check_time_bound "$dir/timed.json" '.strategy == "cas"' '.queue_wait_ms.p50 < 100' "cas waits little")
line_matches "a SELECT that matches nothing fails as check_each's" "$line" '^not ok - cas waits little: no run matches'

line=$(check_each "$dir/empty.json" 'true' '.completed == 10' "empty")
check "an empty file fails, saying so" test "$line" = "not ok - empty: $dir/empty.json is empty"
line=$(check_each "$dir/text.json" 'true' '.completed == 10' "text")
check "a file that is not JSON fails, saying so" \
	test "$line" = "not ok - text: $dir/text.json is not JSON holding runs (.results, .comparisons or an array)"

line=$(check_jq "$dir/runs.json" '.results | length == 3' "three runs")
line_matches "check_jq's failure names the filter and what jq printed" "$line" \
	"^not ok - three runs \(jq -e '\.results \| length == 3' failed; jq printed: false\)$"
line=$(check_jq "$dir/runs.json" '.results[2] | .completed == 10 and .lost == 0 and .strategy != "a.b"' "the third run")
line_matches "check_jq on one run (a path piped on) shows the values of the paths after the pipe, in that run" "$line" \
	"failed; jq printed: false; values in \.results\[2\]: \.completed=9 \.lost=1 \.strategy=\"skip-locked\"\)$"
line=$(check_jq "$dir/runs.json" '.results[2].completed == 10 and .results[3].missing == 1' "paths from the top")
line_matches "check_jq on a filter of the document's paths shows their values there, an absent one null" "$line" \
	"failed; jq printed: false; values: \.results\[2\]\.completed=9 \.results\[3\]\.missing=null\)$"
line=$(check_jq "$dir/runs.json" '.results[] | select(.workers == 2) | .completed == 10' "a stream")
line_matches "a path with [] before the pipe is no one run's: the values are the document's" "$line" \
	"failed; jq printed: false; values: \.completed=null \.results=.* \.workers=null\)$"
line=$(check_jq "$dir/empty.json" '.results | length == 0' "no runs")
check "check_jq fails on an empty file" test "$line" = "not ok - no runs ($dir/empty.json is empty)"
