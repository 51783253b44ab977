# The report's fixes after a design review (issue 25): a section name longer than a run
# records is refused where the scenario says it; a report into its own earlier folder
# removes that report's files (only those); runs of no section beside sectioned ones are
# headed and named as such; a section name is escaped in report.md's headings and intro;
# tables split by section have no group/sweep column; the table of each fault gives the
# recovery the run recorded. SQLite only, tiny runs.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
