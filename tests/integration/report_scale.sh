# claimbench report at 1, 13 and 24 cases and with several scenario sections, on SQLite runs
# of a dozen jobs: gnuplot without a message, every case in every chart's data, a fault's
# mark only in its own run's panel of the timeline, the recovery chart only for runs with
# faults, one chart set per section (NAME-SECTION, the section made file-safe).
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
store="$tmp/r.db"

cat >"$tmp/wide.ini" <<'EOF'
[global]
jobs = 12
work-ms = 1
workers = 1,2,4
no-progress = true

[wide]
strategy = naive,for-update:hold,for-update:flip,nowait-backoff:hold,ticket:flip,update-returning:hold,update-returning:flip,cas
EOF
cat >"$tmp/sections.ini" <<'EOF'
[global]
jobs = 12
work-ms = 1
workers = 2
no-progress = true

[plain]
strategy = naive,for-update:hold,update-returning:flip,cas

[crash pair]
strategy = for-update:hold,update-returning:hold,update-returning:flip,move-table
crash-exec = 4
respawn-ms = 10
lease-ms = 50
reaper-ms = 10
EOF

# bench ARGS...: claimbench run into the store, on a SQLite file of its own each time.
n_db=0
bench() {
	n_db=$((n_db + 1))
	"$CLAIMBENCH" run --db "sqlite:$tmp/q$n_db.db" --results "$store" --no-progress "$@" >/dev/null 2>>"$tmp/run.err"
}
bench --scenario "$tmp/wide.ini" &&
	bench --strategy for-update:hold,update-returning:hold,update-returning:flip --workers 2 --jobs 12 \
		--work-ms 1 --crash-exec 4 --respawn-ms 10 --lease-ms 50 --reaper-ms 10 &&
	bench --strategy naive,cas,nowait-backoff:hold --workers 2 --jobs 12 --work-ms 1 &&
	bench --scenario "$tmp/sections.ini"
check "24 runs of one section, 3 with crashes, 3 without and 8 in two sections run into one store" eval \
	'[ "$(sqlite3 -cmd ".timeout 5000" "$store" "SELECT count(*) FROM runs")" -eq 38 ]'

# report NAME SELECTION...: claimbench report of the selection into $tmp/NAME; false when it fails.
report() {
	local name=$1
	shift
	"$CLAIMBENCH" report --results "$store" --out "$tmp/$name" "$@" >"$tmp/$name.out" 2>&1
}
check "a report of 1 case" report r1 1
check "a report of 13 cases" report r13 $(seq 1 13)
check "a report of 24 cases" report r24 inv:1
check "a report of 3 runs with crashes beside 3 without" report mixed $(seq 25 30)
check "a report of two sections" report sections inv:4
for r in r1 r13 r24 mixed sections; do
	check "$r: gnuplot says nothing (gnuplot.log empty)" eval '[ -f "$tmp/$r/gnuplot.log" ] && [ ! -s "$tmp/$r/gnuplot.log" ]'
done

# case_labels IDS...: each run's case label as the charts of one section write it (the
# section in the title, not in the label) at several worker counts.
case_labels() {
	local id
	for id in "$@"; do
		sqlite3 -cmd ".timeout 5000" -separator " " "$store" \
			"SELECT strategy || ':' || claim_mode || ', ' || workers || ' wrk' FROM runs WHERE id = $id"
	done
}
# series_of LABEL: the case label without its worker count.
series_of() {
	sed 's/, [0-9]* wrk$//' <<<"$1"
}
# all_present DIR IDS...: every chart data file in DIR names the case (or, for the charts of
# series, the series) of every run of IDS; a case label written without its worker count
# when every case ran at one.
all_present() {
	local dir=$1 label f want
	shift
	while read -r label; do
		for f in "$dir"/*.tsv; do
			case $(basename "$f") in
			throughput*|makespan*|shares*) want=$(series_of "$label") ;;
			*) want=$label ;;
			esac
			[ "$(sqlite3 -cmd ".timeout 5000" "$store" "SELECT count(DISTINCT workers) FROM runs WHERE id IN ($(tr ' ' , <<<"$*"))")" -gt 1 ] ||
				want=$(series_of "$label")
			grep -qF "\"$want" "$f" || { echo "    $want not in $f" >&2; return 1; }
		done
	done < <(case_labels "$@")
}
check "1 case: every chart's data names it" all_present "$tmp/r1" 1
check "13 cases: every chart's data names each" all_present "$tmp/r13" $(seq 1 13)
check "24 cases: every chart's data names each, the pressure chart's too (all 24 panels)" eval \
	'all_present "$tmp/r24" $(seq 1 24) && [ "$(grep -c "\"-wal file (MB)\"\|\"dead tuples\"" "$tmp/r24/pressure.tsv")" -eq 24 ]'
check "no recovery chart for runs without faults" eval '[ ! -e "$tmp/r24/recovery.png" ]'
check "one section: the charts keep their names, its runs labelled without it" eval \
	'[ -s "$tmp/r24/timeline.png" ] && ! grep -q "\[wide\]" "$tmp/r24/timeline.tsv"'

# The timeline of the mixed report: a panel per series; each fault row names the block
# (from 1) of the run it struck, and that block is a run with crashes.
blocks_faulted() {
	awk -F'\t' '
		/^"faults"/ { marks = 1; next }
		/^"/ && !marks { n++; title[n] = $1; next }
		marks && NF >= 4 { rows++; if ($4 < 1 || $4 > n || title[$4] !~ /for-update:hold|update-returning/) bad++ }
		END { exit !(n == 6 && rows == 3 && !bad) }' "$1"
}
check "mixed: 3 fault marks in the timeline's data, each naming the block of the run it struck" \
	blocks_faulted "$tmp/mixed/timeline.tsv"
check "mixed: the recovery chart has a bar for each run with crashes and none for the others" eval \
	'[ "$(grep -c "(crash)" "$tmp/mixed/recovery.tsv")" -eq 3 ] && ! grep -q "\"naive\|\"cas:" "$tmp/mixed/recovery.tsv"'

check "sections: a chart set per section, its name file-safe, none for the runs together" eval \
	'[ -s "$tmp/sections/timeline-plain.png" ] && [ -s "$tmp/sections/timeline-crash_pair.png" ] &&
	 [ -s "$tmp/sections/throughput-crash_pair.svg" ] && [ ! -e "$tmp/sections/timeline.png" ]'
check "sections: report.md and report.html show each section's charts under its heading" eval \
	'awk '\''/^### / { h = $0 } /\(timeline-plain.png\)/ { a = h == "### Section plain" }
	    /\(timeline-crash_pair.png\)/ { b = h == "### Section crash pair" } END { exit !(a && b) }'\'' "$tmp/sections/report.md" &&
	 awk '\''/<h2/ { c = /Charts/ } /<h3/ && c { h = $0 } /<h4>Completions over time</ && c { n[h]++ }
	    END { exit !(n["<h3>Section plain</h3>"] == 1 && n["<h3>Section crash pair</h3>"] == 1) }'\'' "$tmp/sections/report.html"'
check "sections: the recovery chart only for the section with crashes" eval \
	'[ -s "$tmp/sections/recovery-crash_pair.png" ] && [ ! -e "$tmp/sections/recovery-plain.png" ]'
check "sections: each section's charts name its runs only" eval \
	'grep -q "\"cas:flip" "$tmp/sections/latency-plain.tsv" && ! grep -q "move-table" "$tmp/sections/latency-plain.tsv" &&
	 grep -q "\"move-table:flip" "$tmp/sections/latency-crash_pair.tsv" && ! grep -q "cas" "$tmp/sections/latency-crash_pair.tsv"'
