# claimbench report of a run that sampled the server under MVCC pressure (a snapshot held
# from 1 s to 2 s, a VACUUM at 2 s): the wait shares, pressure and buffers charts drawn
# without a gnuplot warning, the phases in the pressure chart's data, and the documents'
# server section with the run's diagnosis and the head lookup's plans, escaped in HTML.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
store="$tmp/r.db"
rep="$tmp/rep"
server_charts=(waits pressure buffers)

"$CLAIMBENCH" run --strategy skip-locked --workers 4 --jobs 20000 --work-ms 0 --duration 3 --snapshot-at 1 \
	--snapshot-s 1 --vacuum-at 2 --results "$store" --no-progress >"$tmp/run.txt" 2>&1
check "a sampled run with a held snapshot and a vacuum runs" test $? -eq 0
"$CLAIMBENCH" report --last --results "$store" --out "$rep" >"$tmp/report.txt" 2>&1
check "report draws its charts and documents" test $? -eq 0

for c in "${server_charts[@]}"; do
	check "$c.png and $c.svg are drawn" eval '[ -s "$rep/$c.png" ] && [ -s "$rep/$c.svg" ] && [ -s "$rep/$c.tsv" ]'
	check "report.md shows $c" grep -q "^!\[.*\]($c\.png)$" "$rep/report.md"
done
check "gnuplot.log holds no warning" eval '! grep -qi warning "$rep/gnuplot.log"'
check "every chart, the server's too, has a sentence on how to read it, and report.html holds each inline" eval \
	'[ "$(grep -c "How to read it:" "$rep/report.md")" -eq "$(grep -c "^!\[" "$rep/report.md")" ] &&
	 [ "$(grep -c "How to read it:" "$rep/report.html")" -eq "$(grep -c "<svg" "$rep/report.html")" ]'
check "the wait shares of the run sum to 100 %" eval \
	'awk -F"\t" "NR == 2 { s = 0; for (i = 2; i <= NF; i++) s += \$i; exit !(s > 99.9 && s < 100.1) }" "$rep/waits.tsv"'
check "the pressure chart's data holds the snapshot from 1 s and the vacuum at 2 s" eval \
	'grep -Eq "^1\s\"snapshot\"\s1\.0[0-9]*\s2\.0" "$rep/pressure.tsv" && grep -Eq "^1\s\"vacuum\"\s2\.0" "$rep/pressure.tsv"'
check "the snapshot ending at 2 s is released before the vacuum at 2 s begins" \
	awk -F'\t' '$2 == "\"snapshot\"" { end = $4 } $2 == "\"vacuum\"" { start = $3 } END { exit !(end > 0 && end <= start) }' \
	"$rep/pressure.tsv"
check "the pressure chart's samples are dead tuples" grep -q '"dead tuples"' "$rep/pressure.tsv"
check "report.md has the server section with the run's diagnosis" eval \
	'grep -q "^## The server, sampled" "$rep/report.md" &&
	 grep -q "workers. server backends. sampled time" "$rep/report.md" &&
	 grep -q "before the held snapshot" "$rep/report.md"'
check "report.md has the head lookup's plans before and after, as code" eval \
	'grep -q "^The head lookup.s plan before the run" "$rep/report.md" &&
	 grep -q "^The head lookup.s plan after the run" "$rep/report.md" &&
	 [ "$(grep -c "^  Buffers: shared" "$rep/report.md")" -ge 2 ] && grep -q "^\`\`\`text" "$rep/report.md"'
check "report.html has the plans in <pre>, their arrows escaped" eval \
	'grep -q "<pre>Limit" "$rep/report.html" && grep -q "  -&gt;  " "$rep/report.html"'
