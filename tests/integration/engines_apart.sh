# Engines kept apart: a PostgreSQL invocation (the harness's throwaway server) and a SQLite
# one of the same two strategies are never pooled as repeats of one case. compare refuses
# them (exit 2, naming both engines) unless --allow-diff backend, and then labels every
# line, table and JSON, with both engines; report's figures table has an engine column and
# a row per engine, and the charts' labels name each engine.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/r.db
common=(--strategy naive,update-returning --workers 2 --jobs 30 --work-ms 1 --sample-ms 0)

run_json pg "${common[@]}"
check "the PostgreSQL invocation runs (exit $(cat "$dir/pg.status"))" test "$(cat "$dir/pg.status")" -eq 0
run_json lite "${common[@]}" --db "sqlite:$dir/q.db"
check "the SQLite invocation runs (exit $(cat "$dir/lite.status"))" test "$(cat "$dir/lite.status")" -eq 0
pg_engine="postgresql $(jq -r '.server_version | split(" ")[0]' "$dir/pg.json")"
lite_engine="sqlite $(jq -r '.server_version | split(" ")[0]' "$dir/lite.json")"

expect_exit 2 "backend: baseline $pg_engine, candidate $lite_engine .*" \
	"compare of a PostgreSQL and a SQLite invocation is refused, naming both engines" \
	compare inv:1 inv:2 --results "$store"
expect_exit 2 "Compare them anyway with --allow-diff backend" "the refusal says how to compare them anyway" \
	compare inv:1 inv:2 --results "$store"

"$CLAIMBENCH" compare inv:1 inv:2 --results "$store" --allow-diff backend >"$dir/across.txt" 2>&1
status=$?
check "compare --allow-diff backend compares them (exit $status: 0, or 1 for a regression)" test "$status" -le 1
# The metric lines: two spaces, a metric's path, its runs "N/M".
metric_lines=$(grep -Ec '^  [a-z_.]+ +[0-9]+/[0-9]+ ' "$dir/across.txt")
unlabelled=$(grep -E '^  [a-z_.]+ +[0-9]+/[0-9]+ ' "$dir/across.txt" | grep -Fvc "  [$pg_engine -> $lite_engine]")
check "every one of its $metric_lines metric lines ends with [$pg_engine -> $lite_engine] ($unlabelled do not)" \
	test "$metric_lines" -gt 0 -a "$unlabelled" -eq 0
check "it names the engines as an allowed difference" \
	grep -Fq "allowed difference: backend $pg_engine -> $lite_engine" "$dir/across.txt"
"$CLAIMBENCH" compare inv:1 inv:2 --results "$store" --allow-diff backend --format json >"$dir/across.json" 2>/dev/null
check_each "$dir/across.json" true ".engine == \"$pg_engine\" and .candidate_engine == \"$lite_engine\"" \
	"compare's JSON names the baseline's and the candidate's engine in every comparison"

"$CLAIMBENCH" compare inv:2 inv:2 --results "$store" >"$dir/same.txt" 2>&1
status=$?
check "a comparison of one engine's runs is not labelled (exit $status)" \
	test "$status" -eq 0 -a "$(grep -c -- ' -> ' "$dir/same.txt")" -eq 0

"$CLAIMBENCH" report inv:1 inv:2 --results "$store" --out "$dir/rep" >"$dir/report.txt" 2>&1
check "report of both invocations is written (exit $?)" test -s "$dir/rep/report.md"
header=$(grep -m1 '^| run | strategy |' "$dir/rep/report.md")
check "the figures table has an engine column after wrk ($header)" grep -Fq '| wrk | engine |' <<<"$header"
for s in naive update-returning; do
	rows=$(grep -Ec "^\| [0-9]+ \| $s \| [a-z]+ \| 2 \| ($pg_engine|$lite_engine) \|" "$dir/rep/report.md")
	engines=$(grep -E "^\| [0-9]+ \| $s \| " "$dir/rep/report.md" | awk -F' \\| ' '{ print $5 }' | sort -u |
		tr '\n' ',')
	check "$s has two rows, one per engine, not one pooled row ($rows rows; engines $engines)" \
		test "$rows" -eq 2 -a "$engines" = "$pg_engine,$lite_engine,"
done
check "the throughput chart labels naive by engine, each a series of its own" \
	grep -Fq "naive:flip ($pg_engine)" "$dir/rep/throughput.tsv"
check "... and the SQLite one apart" grep -Fq "naive:flip ($lite_engine)" "$dir/rep/throughput.tsv"

