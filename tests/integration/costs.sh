# Costs per job on real runs (docs/metrics.md, "Costs per job"), a timed run that runs out
# of jobs, and compare across a change of a SQL strategy's SQL: one claim beside the same
# claim with one more index probe (more buffers per job), a run pipelined (fewer round
# trips per job), SQLite's page counts; a run that ran dry says so, its throughput is the
# rate while jobs were there, and compare will not gate on it.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db
scenario=$(dirname "$0")/costs.ini

# ---- PostgreSQL (the throwaway server, pg_stat_statements loaded): one invocation ----
run_json pg "$scenario"
check "the scenario runs (exit 0)" test "$(cat "$dir/pg.status")" -eq 0
check_jq "$dir/pg.json" '.results | length == 6' "the scenario's 6 runs are reported"
check_each "$dir/pg.json" 'true' '.costs.database_wide == false and .costs.statements_per_job > 0 and
	.costs.wal_records_per_job > 0 and .costs.wal_bytes_per_job > 0 and .costs.rows_examined_per_job > 0 and
	.costs.buffers_hit_per_job > 0 and .costs.buffers_read_per_job >= 0 and .costs.pages_written_per_job == null and
	.costs.cpu_us_per_job > 0' \
	"every run has its costs, from the workers' statements alone (pg_stat_statements: database_wide false)"
check_jq "$dir/pg.json" '[.results[] | select(.group == "probes")] as $r |
	($r[] | select(.strategy == "one-probe") | .costs) as $one | ($r[] | select(.strategy == "two-probes") | .costs) as $two |
	$two.buffers_hit_per_job >= $one.buffers_hit_per_job + 0.5 and $two.rows_examined_per_job > $one.rows_examined_per_job and
	$two.statements_per_job == $one.statements_per_job' \
	"a claim that looks its row up once more reads more buffers and examines more rows per job, in as many statements"
check_jq "$dir/pg.json" '(.results[] | select(.group == "plain") | .costs) as $plain |
	(.results[] | select(.group == "pipelined") | .costs) as $piped |
	$piped.statements_per_job == $plain.statements_per_job and $plain.round_trips_per_job == $plain.statements_per_job and
	$piped.round_trips_per_job <= $plain.round_trips_per_job - 1.5' \
	"skip-locked flip pipelined: as many statements per job as plain, two round trips fewer (5 -> 3)"

# ---- a timed run whose backlog runs dry, two claims of different cost ----
check_each "$dir/pg.json" '.group == "dry"' '.dry.ran_dry and .dry.at_s < 2 and
	.dry.empty_after > 0 and .completed == 300 and
	((.throughput_jps - .completed / .makespan_s) | fabs) < 0.01 * .throughput_jps' \
	"a timed run that drained its 300 jobs before its 2 s ran dry: when, the empty claims after, throughput over the time jobs were there"
check_jq "$dir/pg.json" '[.results[] | select(.group == "dry") | .throughput_jps] | length == 2 and .[0] != .[1] and
	all(. > 150)' "two claims of different cost no longer print the same throughput (300 jobs / 2 s = 150 for both before)"
check_each "$dir/pg.json" '.group != "dry"' '.dry.ran_dry == false' \
	"drain runs never ran dry"
check "the run says on stderr that it ran out of jobs" \
	grep -q "one-probe flip x4 #1: ran out of jobs .* s into its 2 s; [0-9]* claims came back empty after" "$dir/pg.err"
expect_exit 2 "ran out of jobs before their end; the first, the baseline's one-probe flip x4 #1" \
	"compare refuses to gate on a run that ran dry, with the reason" compare "$dir/pg.json" "$dir/pg.json"
check "compare gates the runs that did not run dry (--strategy skip-locked: exit 0)" \
	eval '"$CLAIMBENCH" compare "$dir/pg.json" "$dir/pg.json" --strategy skip-locked:flip >/dev/null 2>&1'

# ---- a SQL strategy compared by name across a change of its SQL ----
jq '.results |= map(select(.group == "probes" and .strategy == "one-probe"))' "$dir/pg.json" >"$dir/base.json"
jq '.results |= map(select(.group == "probes" and .strategy == "two-probes") | .strategy = "one-probe")' \
	"$dir/pg.json" >"$dir/cand.json"
"$CLAIMBENCH" compare "$dir/base.json" "$dir/cand.json" >"$dir/sql.out" 2>"$dir/sql.err"
echo $? >"$dir/sql.status"
check "one-probe's claim SQL changed: compare compares (exit 0 or 1), not refuses (2)" test "$(cat "$dir/sql.status")" -lt 2
check "and shows the change of its SQL, both versions" \
	grep -Pzq 'changed SQL: claim-sql of one-probe\n  baseline:  UPDATE .*\n  candidate: UPDATE .*AND EXISTS' "$dir/sql.out"
check "and the cost it added: buffers hit per job" grep -q "costs.buffers_hit_per_job" "$dir/sql.out"
"$CLAIMBENCH" compare "$dir/base.json" "$dir/cand.json" --allow-diff claim-sql,complete-sql >/dev/null 2>&1
check "--allow-diff accepts claim-sql and complete-sql, as show lists them (exit 0 or 1)" test $? -lt 2
check "--allow-diff claim-sql where nothing differs (exit 0)" \
	eval '"$CLAIMBENCH" compare "$dir/base.json" "$dir/base.json" --allow-diff claim-sql >/dev/null 2>&1'
"$CLAIMBENCH" compare "$dir/base.json" "$dir/cand.json" --format json >"$dir/sql_json.out" 2>/dev/null
check_jq "$dir/sql_json.out" '.allowed_differences | map(select(.name == "claim-sql" and .sql)) | length == 1' \
	"compare's JSON lists the changed SQL among the allowed differences (sql: true)"

# ---- SQLite: the workers' own connections count pages; the server's figures do not apply ----
run_json sqlite --db "sqlite:$dir/q.db" --strategy update-returning --workers 1 --jobs 50 --work-ms 0
check "the SQLite run runs (exit 0)" test "$(cat "$dir/sqlite.status")" -eq 0
check_jq "$dir/sqlite.json" '.results[0].costs | .statements_per_job >= 4 and .round_trips_per_job == .statements_per_job and
	.buffers_hit_per_job > 0 and .buffers_read_per_job >= 0 and .pages_written_per_job > 0 and .cpu_us_per_job > 0 and
	.wal_records_per_job == null and .wal_bytes_per_job == null and .rows_examined_per_job == null and .database_wide == null' \
	"SQLite: statements, page-cache hits, pages read and written per job; WAL, rows and the server's scope null"
