# The report as a design review reads it (issue 25): scenarios/review.ini parses and runs one
# section cheaply; run --section and report --section, and their refusals; a section with no
# keys runs; history's section column; show without the guarded workloads' parameters for a
# queue run; report.html's contents, the charts before the per-run details, those folded,
# a table per section, the settings a row per value, the faults table with the restart's
# outage as the JSON has it. One throwaway PostgreSQL (the restart), the rest on SQLite.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
store=$tmp/r.db
root=$(cd "$(dirname "$0")/../.." && pwd)
review=$root/scenarios/review.ini

# ---- run --section: refusals before anything runs ----
expect_exit 2 'review.ini has no section "nope"; its sections are: happy, crashes, restart' \
	"run --section naming no section of review.ini: exit 2, its sections named" \
	run --scenario "$review" --section nope --results "$store" --no-progress
expect_exit 2 'no scenario file was given' "run --section without a scenario file: exit 2" \
	run --db "sqlite:$tmp/x.db" --section happy --results "$store" --no-progress
check "the refusals ran nothing: no store was made" test ! -e "$store"

# ---- a section with no keys is a group of [global]'s ----
cat >"$tmp/mini.ini" <<'INI'
[global]
strategy = update-returning:flip
jobs = 20
work-ms = 1
workers = 2
no-progress = true

[quiet]

[busy]
jobs = 30

[expect]
busy drains = update-returning[busy].completed == 30
quiet drains = update-returning[quiet].completed == 20
INI
"$CLAIMBENCH" run --db "sqlite:$tmp/q.db" --scenario "$tmp/mini.ini" --results "$store" >"$tmp/mini.out" 2>&1
check "a scenario section with no keys runs, as [global] says (exit $?)" eval \
	'"$CLAIMBENCH" history --results "$store" | awk '\''$(NF - 1) == "quiet" { q++ } $(NF - 1) == "busy" { b++ } END { exit !(q == 1 && b == 1) }'\'''
"$CLAIMBENCH" run --db "sqlite:$tmp/q.db" --scenario "$tmp/mini.ini" --section busy --results "$store" \
	>"$tmp/busy.out" 2>"$tmp/busy.err"
check "run --section busy runs busy alone and leaves out the expectation on quiet, saying so (exit $?)" eval \
	'[ "$("$CLAIMBENCH" history --results "$store" --limit 1 | awk '\''NR == 2 { print $(NF - 1) }'\'')" = busy ] &&
	 [ "$("$CLAIMBENCH" history --results "$store" --limit 0 | grep -c " busy  *run$")" -eq 2 ] &&
	 grep -q "1 expectation of \[expect\] left out" "$tmp/busy.err"'
check "history has a section column" eval \
	'"$CLAIMBENCH" history --results "$store" --limit 1 | head -1 | grep -q " section  *command$"'
queue_run=$("$CLAIMBENCH" history --results "$store" --limit 1 | awk 'NR == 2 { print $1 }')
"$CLAIMBENCH" show "$queue_run" --results "$store" >"$tmp/show.txt" 2>&1
check "show lists a queue run's parameters without the guarded workloads' (stale-interval-ms, limit ...)" eval \
	'grep -q "^  work-ms = 1$" "$tmp/show.txt" && grep -q "^  workload = queue$" "$tmp/show.txt" &&
	 ! grep -Eq "^  (stale-interval-ms|refresh-ms|wait-limit-ms|resources|limit|write-share) = " "$tmp/show.txt"'

# ---- review.ini's restart section, cheaply: two strategies, one the team's SQL, a restart at 0.1 s ----
"$CLAIMBENCH" run --scenario "$review" --section restart --strategy skip-locked:hold,team-skip-locked --jobs 300 \
	--work-ms 5 --workers 4 --restart-at 0.1 --format json --results "$store" >"$tmp/restart.json" 2>"$tmp/restart.err"
status=$?
check "review.ini's restart section runs at a small --jobs (exit $status)" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/    /' "$tmp/restart.err" | tail -3 >&2
restart_inv=$(sqlite3 "$store" "SELECT max(invocation_id) FROM runs")
quiet_inv=$(sqlite3 "$store" "SELECT min(invocation_id) FROM runs")

rep=$tmp/rep
"$CLAIMBENCH" report "inv:$quiet_inv" "inv:$restart_inv" --results "$store" --out "$rep" >/dev/null 2>"$tmp/rep.err"
check "a report of both invocations: three sections (exit $?)" test -s "$rep/report.html"
html=$rep/report.html
# line FILE PATTERN: the number of FILE's first line matching the fixed PATTERN, 0 when none.
line() { grep -nF -m1 -- "$2" "$1" | cut -d: -f1 | grep . || echo 0; }
check "report.html opens with contents linking to its parts" eval \
	'grep -q "<nav class=\"toc\">" "$html" && grep -q "<a href=\"#charts\">Charts</a>" "$html" &&
	 grep -q "<h2 id=\"charts\">Charts</h2>" "$html" && [ "$(line "$html" "<nav")" -lt "$(line "$html" "<h2")" ]'
check "report.md has the same contents, in the same order" eval \
	'grep -q "^2\. \[Faults and recovery\](#faults-and-recovery)$" "$rep/report.md" &&
	 grep -q "^3\. \[Charts\](#charts)$" "$rep/report.md"'
check "the charts come before the per-run details (the plans)" eval \
	'[ "$(line "$html" "<svg")" -gt 0 ] && [ "$(line "$html" "<svg")" -lt "$(line "$html" "plan before the run")" ]'
check "every plan is folded in a <details>" eval \
	'awk '\''/<details>/ { open = 1 } /<\/details>/ { open = 0 } /plan (before|after) the run/ { n++; if (!open) bad++ }
		END { exit !(n >= 2 && !bad) }'\'' "$html"'
check "a table per section, a section heading each, in both documents" eval \
	'grep -q "<h3>Section quiet</h3>" "$html" && grep -q "<h3>Section restart</h3>" "$html" &&
	 grep -q "^### Section busy$" "$rep/report.md"'
check "wide tables scroll in a box of their own; the body is not capped at 1100 px; a print style" eval \
	'grep -q "<div class=\"scroll\"><table>" "$html" && ! grep -q "body{[^}]*max-width" "$html" &&
	 grep -q "@media print{" "$html" && grep -q "details::details-content" "$html"'
check "the settings: each value as given, none as a dash, the runs that had it named by section" eval \
	'grep -q "<tr><td class=\"t\">restart-at</td><td class=\"t\">—</td><td class=\"t\">[0-9, -]*: every run of sections quiet, busy</td></tr>" "$html" &&
	 grep -q "<tr><td class=\"t\"></td><td class=\"t\"><code>0.1</code></td><td class=\"t\">[0-9, -]*: every run of section restart</td></tr>" "$html" &&
	 grep -q "^| restart-at | — | " "$rep/report.md"'
check "the team's SQL is one value, on its own lines (<pre> in HTML, a line per code span in Markdown)" eval \
	'grep -q "<td class=\"t\"><pre>UPDATE {jobs} SET status = '\''active'\''" "$html" &&
	 grep -q "| \`UPDATE {jobs} SET status = '\''active'\'', claimed_by = :worker, claimed_at = {now},\`<br>\`" "$rep/report.md"'
outage=$(jq -r '.results[0].faults[] | select(.kind == "restart") | .duration_s' "$tmp/restart.json" | head -1)
want=$(printf '%.3f' "${outage:-0}")
check "the table of each fault: the restart, the server's outage as the JSON has it ($want s), the recovery after it" \
	eval '[ -n "$outage" ] && grep -Eq "<tr><td>[0-9]+</td><td class=\"t\">restart</td><td class=\"t\">skip-locked</td><td class=\"t\">hold</td><td class=\"t\">restart</td><td>[0-9.]+</td><td class=\"t\">the server</td><td>$want</td><td>[0-9.]+</td><td>-?[0-9.]+</td></tr>" "$html"'

# ---- report --section ----
"$CLAIMBENCH" report "inv:$quiet_inv" "inv:$restart_inv" --section restart --results "$store" --out "$tmp/one" \
	>/dev/null 2>&1
check "report --section restart reports that section's runs alone" eval \
	'grep -q "^# claimbench report: .*section restart$" "$tmp/one/report.md" &&
	 grep -q "^2 runs of section restart\." "$tmp/one/report.md" && ! grep -q "Section quiet" "$tmp/one/report.html"'
expect_exit 2 'no run of invocation [0-9]+ is of section "nope"; the runs. sections are: quiet, busy' \
	"report --section naming no section of the runs: exit 2, the runs' sections named" \
	report "inv:$quiet_inv" --section nope --results "$store" --out "$tmp/none"
check "the refused report made no folder" test ! -e "$tmp/none"
