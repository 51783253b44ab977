# claimbench report of guarded-resource runs: the result store keeps each run's holders
# over time, the report draws the holders and the guard-waits charts from it (their data
# files with the columns the scripts read), shows the guarded runs in a table of their own
# beside the queue runs', and leaves the queue charts to the queue runs.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
store="$tmp/r.db"
guarded_charts=(holders guard_waits)

"$CLAIMBENCH" run --workload resource --guard ticket-line,naive --workers 4 --duration 1 --work-ms 10 \
	--resources 2 --limit 2 --write-share 0.3 --results "$store" --no-progress >"$tmp/run.txt" 2>&1
check "a guarded run of two guards (resource, 2 resources, X = 2) runs into a fresh store" test $? -eq 0
check "the store keeps each guarded run's holders series: both resources, both runs" eval \
	'[ "$(sqlite3 "$store" "SELECT count(DISTINCT run_id) || \" \" || count(DISTINCT resource) FROM run_holders")" = "2 2" ]'

"$CLAIMBENCH" report --last --results "$store" --out "$tmp/g" >"$tmp/report.txt" 2>&1
status=$?
check "report of the guarded invocation draws and writes the documents" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/    /' "$tmp/report.txt" | head -5 >&2
check "it draws the holders and guard-waits charts, PNG and SVG" eval \
	'(for c in "${guarded_charts[@]}"; do [ -s "$tmp/g/$c.png" ] && [ -s "$tmp/g/$c.svg" ] || exit 1; done)'
check "it draws no queue chart for guarded runs" eval \
	'(for c in throughput makespan shares latency timeline empties integrity; do [ ! -e "$tmp/g/$c.tsv" ] || exit 1; done)'
check "gnuplot.log holds no warning" eval '! grep -qi warning "$tmp/g/gnuplot.log"'

# holders.tsv: a block per run and resource, headed by its title and the columns the script reads.
check "holders.tsv: a block per guard and resource, columns holders, waiting, limit" eval \
	'[ "$(grep -c "^\".*\"	\"holders\"	\"waiting\"	\"limit\"$" "$tmp/g/holders.tsv")" -eq 4 ] &&
	 grep -q "^\"ticket-line:resource: resource 0\"" "$tmp/g/holders.tsv" &&
	 grep -q "^\"naive:resource: resource 0\"" "$tmp/g/holders.tsv"'
check "holders.tsv: rows of time, holders, waiting and the limit X = 2, none above 4 workers" eval \
	'awk -F"\t" "/^[0-9]/ { rows++; if (NF != 4 || \$4 != 2 || \$2 > 4 || \$3 > 4) bad++ }
		END { exit !(rows >= 20 && !bad) }" "$tmp/g/holders.tsv"'
check "holders.tsv: ticket-line keeps to the limit, naive's holders pass it" eval \
	'awk -F"\t" "/^\"ticket-line/ { g = \"t\" } /^\"naive/ { g = \"n\" } /^[0-9]/ { if (\$2 > top[g]) top[g] = \$2 }
		END { exit !(top[\"t\"] <= 2 && top[\"n\"] > 2) }" "$tmp/g/holders.tsv"'
check "guard_waits.tsv: a header and a row per guard with its workload and four waits" eval \
	'[ "$(head -1 "$tmp/g/guard_waits.tsv")" = "$(printf "\"case\"\t\"workload\"\t\"p50\"\t\"p99\"\t\"max\"\t\"writers p99\"")" ] &&
	 awk -F"\t" "NR > 1 { rows++; if (NF != 6 || \$2 != \"\\\"resource\\\"\") bad++ } END { exit !(rows == 2 && !bad) }" \
		"$tmp/g/guard_waits.tsv" &&
	 awk -F"\t" "/^\"ticket-line/ { exit !(\$3 > 0 && \$4 >= \$3 && \$5 >= \$4) }" "$tmp/g/guard_waits.tsv"'
check "report.md: the guarded-resources table, a row per guard, and its glossary" eval \
	'grep -q "^| run | guard | workload | wrk | grants |" "$tmp/g/report.md" &&
	 grep -Eq "^\| [0-9]+ \| ticket-line \| resource \| 4 \|" "$tmp/g/report.md" &&
	 grep -Eq "^\| [0-9]+ \| naive \| resource \| 4 \|" "$tmp/g/report.md" &&
	 grep -q "^| viol | grants beside a conflicting holder" "$tmp/g/report.md" &&
	 ! grep -q "^| run | strategy |" "$tmp/g/report.md"'
check "report.md and report.html show both charts with a sentence on how to read them" eval \
	'[ "$(grep -c "^!\[.*\](\(holders\|guard_waits\)\.png)$" "$tmp/g/report.md")" -eq 2 ] &&
	 [ "$(grep -c "How to read it:" "$tmp/g/report.md")" -eq 2 ] && [ "$(grep -c "<svg" "$tmp/g/report.html")" -eq 2 ] &&
	 grep -q "<th title=\"grants beside a conflicting holder\">viol</th>" "$tmp/g/report.html"'

# A queue run beside them (SQLite: no server to start): each kind in its own table and charts.
"$CLAIMBENCH" run --strategy update-returning --jobs 20 --work-ms 1 --workers 2 --db "sqlite:$tmp/q.db" \
	--results "$store" --no-progress >/dev/null 2>&1
queue_id=$(sqlite3 "$store" "SELECT max(id) FROM runs")
check "a queue run stores no holders series" eval \
	'[ "$(sqlite3 "$store" "SELECT count(*) FROM run_holders WHERE run_id = $queue_id")" -eq 0 ]'
"$CLAIMBENCH" report $(sqlite3 "$store" "SELECT id FROM runs ORDER BY id") --results "$store" --out "$tmp/m" \
	>/dev/null 2>&1
check "a report of queue and guarded runs draws the queue charts and the guarded ones" eval \
	'(for c in throughput timeline "${guarded_charts[@]}"; do [ -s "$tmp/m/$c.png" ] || exit 1; done) &&
	 ! grep -qi warning "$tmp/m/gnuplot.log"'
check "its queue charts leave the guarded runs out, its guarded charts the queue run" eval \
	'! grep -q "ticket-line\|naive" "$tmp/m/throughput.tsv" && ! grep -q "update-returning" "$tmp/m/holders.tsv" &&
	 ! grep -q "update-returning" "$tmp/m/guard_waits.tsv"'
check "report.md: the queue table with the queue run, then the guarded-resources table under its heading" eval \
	'sed -n "/^## Figures/,/^### Guarded resources/p" "$tmp/m/report.md" | grep -Eq "^\| $queue_id \| update-returning \|" &&
	 ! sed -n "/^## Figures/,/^### Guarded resources/p" "$tmp/m/report.md" | grep -q "| ticket-line |" &&
	 sed -n "/^### Guarded resources/,/^## Settings/p" "$tmp/m/report.md" | grep -q "| ticket-line | resource |"'
check "report.html holds both tables and every chart" eval \
	'[ "$(grep -c "<table>" "$tmp/m/report.html")" -ge 2 ] &&
	 [ "$(grep -c "<svg" "$tmp/m/report.html")" -eq "$(ls "$tmp/m"/*.png | wc -l)" ]'
