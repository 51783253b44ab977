# The report as a design review reads it, sections and all: scenarios/review.ini parses and
# runs one section cheaply; run --section and report --section, and their refusals; a section
# with no keys runs; a section name over 63 bytes refused at its header; history's section
# column; show without the guarded workloads' parameters for a queue run; report.html's
# summary before its contents, a diagnosis sentence of several runs once with them, a figure
# not known drawn n/a (in a bar chart too), the charts before the per-run details, those folded, a table per section (with
# no group/sweep column), the settings a row per value, runs of no section beside sectioned
# ones headed as such, a section name escaped in report.md; the faults table with a
# restart's outage as the JSON has it and each fault's recovery as the run recorded it; a
# report into its own earlier folder removes that report's files, only those. One throwaway
# PostgreSQL (the restart), the rest on SQLite, tiny runs; each part has a store of its own.
# tier: fast
. "$(dirname "$0")/lib.sh"

top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT

# ======== review.ini and the --section options ========
tmp=$top/review
mkdir "$tmp"
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
check "report.html opens with the summary, then contents linking to its parts" eval \
	'grep -q "<nav class=\"toc\">" "$html" && grep -q "<a href=\"#charts\">Charts</a>" "$html" &&
	 grep -q "<h2 id=\"charts\">Charts</h2>" "$html" &&
	 [ "$(line "$html" "<h2 id=\"summary\">Summary</h2>")" -lt "$(line "$html" "<nav")" ] &&
	 [ "$(line "$html" "<nav")" -lt "$(line "$html" "<h2 id=\"figures\">")" ]'
# The diagnosis grouped: each run's sentences as show prints them (unwrapped), and in report.md
# a sentence said of several runs once, with those runs.
for r in $(sqlite3 "$store" "SELECT id FROM runs WHERE invocation_id IN ($quiet_inv, $restart_inv) ORDER BY id"); do
	"$CLAIMBENCH" show "$r" --results "$store" | awk -v run="$r" '
		/^diagnosis:$/ { on = 1; next } on && /^    / { sub(/^ +/, ""); text = text " " $0; next }
		on && /^  / { sub(/^  [^:]*: /, ""); text = $0; next } on { exit }
		END { n = split(text, s, /[.] /); for (i = 1; i <= n; i++) { t = s[i]; sub(/^ +/, "", t); sub(/[.]$/, "", t)
			if (t != "") print run "\t" t "." } }'
done >"$tmp/sentences.tsv"
shared=$(cut -f2 "$tmp/sentences.tsv" | sort | uniq -d | head -1)
diag=$(awk '/^### The diagnosis$/ { on = 1; next } /^### / { on = 0 } on && /[(]runs? [0-9]/' "$rep/report.md")
if [ -n "$shared" ]; then
	runs=$(awk -F'\t' -v t="$shared" '$2 == t { printf "%s%s", n++ ? ", " : "", $1 }' "$tmp/sentences.tsv")
	check "a sentence said of runs $runs appears once in report.md, with them: $shared" eval \
		'[ "$(grep -cF -- "$shared" "$rep/report.md")" -eq 1 ] && grep -qxF -- "$shared (runs $runs)" "$rep/report.md"'
else
	skip "a repeated diagnosis sentence appears once" "no sentence was said of two runs here"
fi
check "no line of the diagnosis repeats, each names its runs ($(printf '%s\n' "$diag" | wc -l) lines)" eval \
	'[ -n "$diag" ] && [ "$(printf "%s\n" "$diag" | sort | uniq -d | wc -l)" -eq 0 ]'
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
rec50=$(jq -r '.results[0].recovery_ms.p50' "$tmp/restart.json")
check "a figure not known (a restart run's rec50, $rec50 in the JSON) is drawn n/a in both documents, not a dash" eval \
	'[ "$rec50" = null ] && grep -q "<td>n/a</td>" "$html" && grep -q "| n/a |" "$rep/report.md" &&
	 ! grep -q "<td>-</td>" "$html"'
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

# ======== sections in the documents, the faults table, the report's own folder ========
tmp=$top/sections
mkdir "$tmp"
store=$tmp/r.db

# ---- a section name over 63 bytes: refused at its header, nothing run ----
long=$(printf 'section-%060d' 0)
printf '[global]\nstrategy = update-returning:flip\njobs = 10\n\n[%s]\nworkers = 2\n' "$long" >"$tmp/long.ini"
expect_exit 2 "long\.ini:5: \[section-0+\.\.\.\]: a section name of at most 63 bytes expected, not 68" \
	"a section name of 68 bytes: refused at its file:line, exit 2" \
	run --db "sqlite:$tmp/l.db" --scenario "$tmp/long.ini" --results "$tmp/long.db" --no-progress
check "the refusal ran nothing: no store was made" test ! -e "$tmp/long.db"

# ---- two sections, one named with markup, and a run of no section ----
cat >"$tmp/two.ini" <<'INI'
[global]
strategy = update-returning:flip
jobs = 10
work-ms = 1
workers = 2
no-progress = true

[happy]

[a<b>&`c`]
INI
"$CLAIMBENCH" run --db "sqlite:$tmp/q.db" --scenario "$tmp/two.ini" --results "$store" >/dev/null 2>&1
status=$?
check "the two-section scenario runs (exit $status)" test "$status" -eq 0
"$CLAIMBENCH" run --db "sqlite:$tmp/q.db" --strategy update-returning:flip --jobs 10 --work-ms 1 --workers 2 \
	--no-progress --results "$store" >/dev/null 2>&1
rep=$tmp/rep
"$CLAIMBENCH" report "inv:1" "inv:2" --results "$store" --out "$rep" >/dev/null 2>"$tmp/rep.err"
check "a report of both invocations: the runs of no section headed as such, their charts NAME-nosection" eval \
	'grep -q "^### Runs of no section$" "$rep/report.md" && [ -s "$rep/timeline-nosection.png" ] &&
	 ! grep -q "Every section" "$rep/report.md" && ! ls "$rep" | grep -q -- "-_\."'
check "a section's charts name it on a title line of its own, so that a long name is not cut" eval \
	'grep -q ">section happy, 2 workers each<" "$rep/throughput-happy.svg" && grep -q ">section happy<" "$rep/timeline-happy.svg"'
check "the section a<b>&\`c\` is escaped in report.md's headings and intro" eval \
	'grep -Fq "### Section a&lt;b&gt;&amp;\\\`c\\\`" "$rep/report.md" &&
	 grep -Fq "of the sections happy, a&lt;b&gt;&amp;\\\`c\\\`." "$rep/report.md" &&
	 ! sed "/^\`\`\`/,/^\`\`\`/d" "$rep/report.md" | grep -Fq "a<b>"'
check "tables split by section do not repeat the section in a group/sweep column; show keeps it" eval \
	'grep -q "^| run | strategy | mode | wrk | " "$rep/report.md" && ! grep -q "group/sweep" "$rep/report.md" &&
	 "$CLAIMBENCH" show 1 --results "$store" | grep -q " group/sweep$"'
expect_exit 2 '^claimbench report: --section: "happy" is named twice in "happy,happy"$' \
	"report --section happy,happy: refused, exit 2" report "inv:1" --section happy,happy --results "$store" \
	--out "$tmp/twice"
expect_exit 2 '^claimbench report: --section: an empty section name in "happy,"$' \
	"report --section with an empty name: run's message, exit 2" report "inv:1" --section happy, \
	--results "$store" --out "$tmp/empty"
expect_exit 2 '--section: "happy" is named twice in "happy,happy"' "run --section happy,happy: refused, exit 2" \
	run --db "sqlite:$tmp/q.db" --scenario "$tmp/two.ini" --section happy,happy --results "$tmp/twice.db"
check "the refused reports made no folder" eval '[ ! -e "$tmp/twice" ] && [ ! -e "$tmp/empty" ]'

# ---- reporting one section into that folder: the earlier report's files go, nothing else ----
echo mine >"$rep/notes.txt"
"$CLAIMBENCH" report "inv:1" "inv:2" --section happy --results "$store" --out "$rep" >/dev/null 2>"$tmp/one.err"
check "report --section happy into the earlier report's folder (exit $?) leaves no chart of another section" eval \
	'[ -s "$rep/report.md" ] && [ -s "$rep/timeline.png" ] && ! ls "$rep" | grep -Eq -- "-(nosection|a_b___c_)\."'
check "a file the report did not write is left alone" eval '[ "$(cat "$rep/notes.txt")" = mine ]'
check "the mark lists the files this report wrote, and only those" eval \
	'grep -qx "report.md" "$rep/.claimbench-report" && ! grep -q "nosection\|notes.txt" "$rep/.claimbench-report"'

# ---- the table of each fault: a crash's recovery as the run recorded it, to the millisecond ----
"$CLAIMBENCH" run --db "sqlite:$tmp/c.db" --strategy update-returning:hold --jobs 40 --work-ms 2 --workers 2 \
	--crash-exec 10 --respawn-ms 20 --no-progress --format json --results "$tmp/crash.db" >"$tmp/crash.json" 2>/dev/null
"$CLAIMBENCH" report --last --results "$tmp/crash.db" --out "$tmp/crash" >/dev/null 2>&1
rec=$(jq -r '.results[0].recovery_ms.p50 // empty' "$tmp/crash.json")
want=$(awk -v ms="$rec" 'BEGIN { printf "%.3f", ms / 1000 }')
check "the crash's row: recovered after $want s, the job's recovery the run recorded (rec50 $rec ms), not a bucket's end" \
	eval '[ -n "$rec" ] && grep -Eq "^\| [0-9]+ \| - \| update-returning \| hold \| crash \| [0-9.]+ \| worker [0-9]+, in a job \| - \| $want \| $want \|$" "$tmp/crash/report.md"'

# ---- a report that stops partway (a link planted) removes nothing; the next whole one does ----
"$CLAIMBENCH" report "inv:1" "inv:2" --results "$store" --out "$tmp/again" >/dev/null 2>&1
rm -f "$tmp/again/report.html"
ln -s "$tmp/victim" "$tmp/again/report.html"
"$CLAIMBENCH" report "inv:1" "inv:2" --section happy --results "$store" --out "$tmp/again" >/dev/null 2>&1
status=$?
check "a report refused at a planted link (exit $status) leaves the earlier report's charts" eval \
	'[ "$status" -eq 3 ] && [ -s "$tmp/again/timeline-nosection.png" ]'
rm -f "$tmp/again/report.html"
"$CLAIMBENCH" report "inv:1" "inv:2" --section happy --results "$store" --out "$tmp/again" >/dev/null 2>&1
check "the next report that finishes (exit $?) removes them, the earlier one's names still listed till then" eval \
	'[ -s "$tmp/again/timeline.png" ] && ! ls "$tmp/again" | grep -Eq -- "-(nosection|happy|a_b___c_)\."'
