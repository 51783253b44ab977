# claimbench report: charts (PNG and SVG) and report.md / report.html of a small stored
# invocation, opening with the summary (a row per strategy:mode, naive's guarantee as its
# duplicates make it, a never-faulted safe strategy's "no faults run", crashes making hold mode
# at-least-once and flip mode without a lease at-most-once), the figures equal to claimbench
# show's and explained column by column, the
# settings that differ, gnuplot without a warning, the charts a drain and an open-loop timed
# run call for (the server's only when a run sampled it: report_server.sh), the timeline's
# distinct completions, the HTML rendered by headless Chromium, the install hint without
# gnuplot, and bad inputs.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
store="$tmp/r.db"
rep="$tmp/rep"
charts=(throughput makespan shares latency timeline empties integrity)
open_loop=(queue_wait backlog arrivals)
strategies=(skip-locked for-update naive)

"$CLAIMBENCH" run --strategy skip-locked,for-update:flip,naive --workers 2,4 --jobs 40 --work-ms 2 --sample-ms 0 \
	--results "$store" --no-progress >"$tmp/run.txt" 2>&1
check "a small sweep of three strategies runs into a fresh store, unsampled" test $? -eq 0
"$CLAIMBENCH" report --last --results "$store" --out "$rep" >"$tmp/report.txt" 2>&1
status=$?
check "report --last draws the charts and writes the documents" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/    /' "$tmp/report.txt" | head -5 >&2

# is_png FILE: the PNG signature, and file(1)'s verdict when it is installed.
is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
	! command -v file >/dev/null || file "$1" | grep -q 'PNG image data'
}

# is_svg FILE: starts with <?xml or <svg and ends with </svg>.
is_svg() {
	head -c 5 "$1" | grep -Eq '^(<\?xml|<svg)' && [ "$(tail -c 200 "$1" | tr -d ' \n\t\r' | tail -c 6)" = "</svg>" ]
}

# names_all FILE: the file names every strategy of the run.
names_all() {
	local s
	for s in "${strategies[@]}"; do
		grep -q -- "$s" "$1" || return 1
	done
}

for c in "${charts[@]}"; do
	check "$c.png is a PNG of more than 5 kB" eval 'is_png "$rep/$c.png" && [ "$(stat -c %s "$rep/$c.png")" -gt 5000 ]'
	check "$c.svg is an SVG document of more than 5 kB" eval \
		'is_svg "$rep/$c.svg" && [ "$(stat -c %s "$rep/$c.svg")" -gt 5000 ]'
	check "$c.svg names every strategy of the run" names_all "$rep/$c.svg"
done
check "a drain report draws no open-loop chart" eval \
	'for c in "${open_loop[@]}"; do [ ! -e "$rep/$c.png" ] || exit 1; done'
check "runs that did not sample the server get no server chart and no server section" eval \
	'for c in waits pressure buffers; do [ ! -e "$rep/$c.png" ] || exit 1; done &&
	 ! grep -q "^## The server, sampled" "$rep/report.md"'
# ---- the summary a review reads first ----
# summary_cell ROW COLUMN [DIR]: the cell of DIR/report.md's (default $rep) first table in the
# row whose first cell is ROW, under the header COLUMN.
summary_cell() {
	awk -F' *[|] *' -v row="$1" -v col="$2" '
		/^[|]/ && !seen { seen = 1; for (i = 2; i < NF; i++) if ($i == col) c = i; next }
		seen && !/^[|]/ { exit }
		seen && $2 == row { print $c; exit }' "${3:-$rep}/report.md"
}
check "report.md's first table is the summary, after the title and before the intro" eval \
	'[ "$(grep -m1 "^|" "$rep/report.md")" = "| strategy:mode | runs | delivery guarantee | race duplicates | redeliveries | lost | recovery, median / worst (ms) | throughput / ideal | verdict |" ] &&
	 [ "$(grep -n -m1 "^|" "$rep/report.md" | cut -d: -f1)" -lt "$(grep -n -m1 "^[0-9]* runs" "$rep/report.md" | cut -d: -f1)" ]'
rows=$(awk '/^[|]/ { n++; if (n > 2) print $2 } /^$/ && n { exit }' "$rep/report.md" | tr '\n' ' ')
check "the summary has a row per strategy:mode, in the run's order (got: $rows)" \
	test "$rows" = "skip-locked:hold for-update:flip naive:flip "
# naive's race duplicates, summed over its rows of the figures table (column race).
naive_dups=$(awk -F' *[|] *' '/^[|] run [|]/ { for (i = 2; i < NF; i++) if ($i == "race") c = i; next }
	c && $3 == "naive" { s += $c } END { print s + 0 }' "$rep/report.md")
want=$([ "$naive_dups" -gt 0 ] && echo at-least-once || echo "no faults run")
got=$(summary_cell naive:flip "delivery guarantee")
check "naive's guarantee follows its $naive_dups duplicates: $want (got: $got)" test "$got" = "$want"
check "naive's duplicates are all races: $naive_dups (got: $(summary_cell naive:flip "race duplicates"))" \
	test "$(summary_cell naive:flip "race duplicates")" = "$naive_dups"
got=$(summary_cell skip-locked:hold "delivery guarantee")
verdict=$(summary_cell skip-locked:hold verdict)
check "skip-locked:hold, never faulted and never duplicated, says no faults run (got: $got; $verdict)" eval \
	'[ "$got" = "no faults run" ] && [ "$(summary_cell skip-locked:hold "race duplicates")" = 0 ] &&
	 [[ "$verdict" == "no duplicates or losses, no faults run, "* ]]'
if [ "$naive_dups" -gt 0 ]; then
	check "naive's verdict says it is not a claim" eval \
		'[[ "$(summary_cell naive:flip verdict)" == "duplicates under contention ($naive_dups races): not a claim" ]]'
fi
check "runs at two worker counts give a throughput range, not an interval (got: $(summary_cell naive:flip "throughput / ideal"))" \
	eval '[[ "$(summary_cell naive:flip "throughput / ideal")" =~ ^0\.[0-9]+\ to\ [0-9.]+\ \(2\ runs,\ unlike\)$ ]]'
check "report.html opens with the summary table" eval \
	'grep -o "<h2[^>]*>[^<]*</h2>\|<table" "$rep/report.html" | head -2 | tr "\n" " " | grep -q "^<h2[^>]*>Summary</h2> <table $"'
# no_warning DIR: DIR/gnuplot.log holds no warning; else its first lines are shown.
no_warning() {
	! grep -qi warning "$1/gnuplot.log" && return 0
	sed 's/^/    /' "$1/gnuplot.log" | head -3 >&2
	return 1
}
check "gnuplot.log holds no warning after a normal report" no_warning "$rep"

# glossed FILE: every column of report.md's figures table has a row in the glossary below it.
glossed() {
	local header col
	header=$(grep -m1 '^| run |' "$1")
	IFS='|' read -ra cols <<<"$header"
	for col in "${cols[@]:2}"; do
		col=$(sed 's/^ *//; s/ *$//' <<<"$col")
		[ -z "$col" ] || grep -qF "| $col | " <(sed -n '/What each column means/,$p' "$1") || return 1
	done
}
check "report.md explains every column of its table, from the metric table" glossed "$rep/report.md"
check "report.html explains every column in its header's title and the glossary" eval \
	'! grep -q "<th title=\"\">" "$rep/report.html" && grep -q "distinct jobs with a committed completion" "$rep/report.html"'
check "every chart has a sentence on how to read it" eval \
	'[ "$(grep -c "How to read it:" "$rep/report.md")" -eq ${#charts[@]} ] &&
	 [ "$(grep -c "How to read it:" "$rep/report.html")" -eq ${#charts[@]} ]'
check "the timeline is drawn from the stored time series" eval \
	'[ "$(sqlite3 "$store" "SELECT count(*) FROM run_series")" -gt 0 ] &&
	 grep -Eq "^[0-9.]+\s[0-9.]+\s[0-9.]+\s[0-9]+\s[0-9]+$" "$rep/timeline.tsv"'
check "report.md names every strategy and shows every chart" eval \
	'names_all "$rep/report.md" && [ "$(grep -c "^!\[.*\](.*\.png)$" "$rep/report.md")" -eq ${#charts[@]} ]'
check "report.html names every strategy and holds every chart inline as SVG" eval \
	'names_all "$rep/report.html" && [ "$(grep -c "<svg" "$rep/report.html")" -eq ${#charts[@]} ]'
check "report.html loads nothing from outside" eval \
	'! grep -Eiq "<(script|link|img|iframe)|src=|url\(|href=\"?https?:" "$rep/report.html"'
check "the documents carry the environment and the scenario" eval \
	'grep -q "postgresql" "$rep/report.md" && grep -q "processors online" "$rep/report.md" &&
	 grep -q "GiB of memory" "$rep/report.html" && grep -q -- "--jobs 40" "$rep/report.html"'

# Each run's figures as claimbench show prints them, in both documents.
ids=$("$CLAIMBENCH" history --results "$store" --limit 0 | awk 'NR > 1 { print $1 }')
same=0
for id in $ids; do
	row=$("$CLAIMBENCH" show "$id" --results "$store" | sed -n 5p)
	read -r strategy mode wrk makespan ideal x_ideal thru _ <<<"$row"
	grep -qF "| $id | $strategy | $mode | $wrk | $makespan | $ideal | $x_ideal | $thru |" "$rep/report.md" &&
		grep -qF "<td>$wrk</td><td>$makespan</td><td>$ideal</td><td>$x_ideal</td><td>$thru</td>" "$rep/report.html" &&
		same=$((same + 1))
done
check "both documents show each run's makespan and throughput as claimbench show does ($same of 6)" \
	test "$same" -eq 6

# Headless Chromium renders report.html into a screenshot that is not blank: the PNG's
# decompressed pixel rows of a blank page hold a handful of distinct byte values.
distinct_bytes() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat = 8, b""
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + length]
    pos += 12 + length
print(len(set(zlib.decompress(idat))))
PY
}
if command -v chromium >/dev/null; then
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/chrome" --screenshot="$tmp/shot.png" --window-size=1200,2000 \
		"file://$rep/report.html" >"$tmp/chrome.log" 2>&1
	check "headless Chromium renders report.html into a screenshot" is_png "$tmp/shot.png"
	check "the screenshot is not blank" eval '[ "$(distinct_bytes "$tmp/shot.png" 2>/dev/null || echo 0)" -gt 16 ]'
else
	echo "not ok - chromium is not installed (scripts/install-test-deps installs it)"
fi

mkdir -p "$tmp/nopath"
err=$(PATH="$tmp/nopath" "$CLAIMBENCH" report --last --results "$store" --out "$tmp/x" 2>&1 >/dev/null)
status=$?
check "without gnuplot on PATH, report exits 3 with the install line (exit $status)" eval \
	'[ "$status" -eq 3 ] && grep -q "apt-get install gnuplot-nox" <<<"$err"'
check "claimbench run does not need gnuplot" eval \
	'PATH="$tmp/nopath" "$CLAIMBENCH" run --strategy update-returning --jobs 4 --work-ms 0 --workers 1 \
		--db "sqlite:$tmp/q.db" --results "$store" --no-progress >/dev/null 2>&1'

expect_exit 2 'unknown option --bogus' "report with an unknown option" report --bogus --results "$store"
expect_exit 2 'expected a run id or inv:N.*got "abc"' "report abc" report abc --results "$store"
expect_exit 2 '--last takes no RUN' "report --last with a run id" report --last 1 --results "$store"
expect_exit 3 "no run 12345 in $store" "report of a run the store does not hold" report 12345 --results "$store" \
	--out "$tmp/y"
expect_exit 3 "no runs of invocation 999" "report of an invocation the store does not hold" report inv:999 \
	--results "$store" --out "$tmp/y"
expect_exit 3 'no result store|cannot open' "report on a missing store" report --results "$tmp/none.db"
"$CLAIMBENCH" report 1 2 --results "$store" --out "$tmp/two" >/dev/null 2>&1
check "report of two run ids writes both documents" eval '[ -s "$tmp/two/report.md" ] && [ -s "$tmp/two/report.html" ]'
check "runs of one invocation differ in no setting" grep -q "^Every run of this report had the same settings" \
	"$tmp/two/report.md"
"$CLAIMBENCH" report 1 7 --results "$store" --out "$tmp/mixed" >/dev/null 2>&1
sed -n '/^## Settings/,/^## Charts/p' "$tmp/mixed/report.md" >"$tmp/settings.md"
sed -n '/^| setting | value | runs |/,/settings every run shared/p' "$tmp/settings.md" >"$tmp/differ.md"
check "runs of two invocations: report.md lists the settings that differ, a row per value with its runs" eval \
	'grep -q "^| backend | \`postgresql\` | 1 |" "$tmp/differ.md" && grep -q "^|  | \`sqlite\` | 7 |" "$tmp/differ.md" &&
	 grep -q "^| jobs | \`40\` | 1 |" "$tmp/differ.md" && grep -q "^|  | \`4\` | 7 |" "$tmp/differ.md" &&
	 grep -q "^| work-ms | \`2\` | 1 |" "$tmp/differ.md" && ! grep -q "^| seed |" "$tmp/differ.md" &&
	 sed -n "/settings every run shared/,\$p" "$tmp/settings.md" | grep -q "^| seed | \`1\` |"'
"$CLAIMBENCH" report 7 --results "$store" --out "$tmp/one" >/dev/null 2>&1
check "a report of one run at one worker count leaves gnuplot.log without a warning" eval \
	'[ -s "$tmp/one/throughput.png" ] && no_warning "$tmp/one"'

# An open-loop timed run: no makespan, the queue-wait, backlog and arrivals charts, and a
# timeline of distinct completions (naive's duplicates apart).
open_store="$tmp/open.db"
"$CLAIMBENCH" run --strategy naive,skip-locked --workers 4 --duration 0.5 --arrival-rate 100 --jobs 20 --work-ms 2 \
	--results "$open_store" --no-progress >/dev/null 2>&1
"$CLAIMBENCH" report --last --results "$open_store" --out "$tmp/open" >/dev/null 2>&1
check "a timed run: no makespan chart" eval '[ -s "$tmp/open/throughput.png" ] && [ ! -e "$tmp/open/makespan.png" ]'
check "an open-loop run: the queue-wait, backlog and arrivals charts" eval \
	'for c in "${open_loop[@]}"; do [ -s "$tmp/open/$c.png" ] && [ -s "$tmp/open/$c.svg" ] || exit 1; done'
check "an open-loop report leaves gnuplot.log without a warning" no_warning "$tmp/open"
naive_jobs=$(sqlite3 "$open_store" "SELECT jobs_total FROM runs WHERE strategy = 'naive'")
naive_done=$(awk -F'\t' '/^"naive/ { on = 1; next } /^"/ { on = 0 } on && NF == 5 { last = $4 } END { print last }' \
	"$tmp/open/timeline.tsv")
naive_dups=$(sqlite3 "$open_store" "SELECT sum(s.completed - s.first_completed) FROM run_series s JOIN runs r ON r.id = s.run_id
	WHERE r.strategy = 'naive'")
check "the timeline counts distinct completions: naive's $naive_done of $naive_jobs jobs, $naive_dups duplicates apart" \
	eval '[ -n "$naive_done" ] && [ "$naive_done" -le "$naive_jobs" ]'
check "the usage lists report" eval '"$CLAIMBENCH" --help | grep -q "^  report "'

# A run with faults: the faults section, and the timeline's marks.
faults_store="$tmp/faults.db"
"$CLAIMBENCH" run --strategy update-returning:hold,update-returning:flip --jobs 40 --work-ms 5 --workers 2 \
	--crash-exec 5,20 --respawn-ms 10 --db "sqlite:$tmp/f.db" --results "$faults_store" --no-progress >/dev/null 2>&1
"$CLAIMBENCH" report --last --results "$faults_store" --out "$tmp/faults" >/dev/null 2>&1
check "a run with faults: report.md has the faults section with each run's delivery verdict" eval \
	'grep -q "^## Faults and recovery" "$tmp/faults/report.md" && grep -q "at-least-once only" "$tmp/faults/report.md" &&
	 grep -q "at-most-once only (2 lost)" "$tmp/faults/report.md"'
hold=$(for c in "delivery guarantee" "race duplicates" redeliveries lost; do summary_cell update-returning:hold "$c" "$tmp/faults"; done | tr '\n' '|')
check "the summary of crashes: hold mode redelivers its crashed jobs, none raced or lost: at-least-once (got: $hold)" \
	eval '[[ "$hold" =~ ^at-least-once\|0\|[1-9][0-9]*\|0\|$ ]] &&
	 [[ "$(summary_cell update-returning:hold verdict "$tmp/faults")" == "at-least-once under crashes: make the work idempotent"* ]] &&
	 [[ "$(summary_cell update-returning:hold "recovery, median / worst (ms)" "$tmp/faults")" =~ ^crash\ [0-9]+\ /\ [0-9]+$ ]]'
flip=$(for c in "delivery guarantee" "race duplicates" redeliveries lost verdict; do summary_cell update-returning:flip "$c" "$tmp/faults"; done | tr '\n' '|')
check "the summary of crashes: flip mode without a lease loses its 2 crashed jobs: at-most-once (got: $flip)" \
	test "$flip" = "at-most-once|0|0|2|loses jobs under crashes: at-most-once only|"
check "a run with faults: the timeline marks each of the 4 crashes" eval \
	'[ "$(grep -cP "\t\"crash\"\t" "$tmp/faults/timeline.tsv")" -eq 4 ]'

# Names a store holds are text, never markup.
sqlite3 "$faults_store" "UPDATE invocations SET host = '<img src=x onerror=alert(1)> | &'" 2>/dev/null
"$CLAIMBENCH" report --last --results "$faults_store" --out "$tmp/hostile" >/dev/null 2>&1
check "a host name with HTML and a pipe is escaped in report.md and report.html" eval \
	'grep -qF "&lt;img src=x onerror=alert(1)&gt; \| &amp;" "$tmp/hostile/report.md" &&
	 ! grep -q "<img src=x" "$tmp/hostile/report.md" && grep -qF "&lt;img src=x" "$tmp/hostile/report.html" &&
	 ! grep -q "<img src=x" "$tmp/hostile/report.html"'
