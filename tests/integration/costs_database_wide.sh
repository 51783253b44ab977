# Costs per job on a PostgreSQL server of the user's own without pg_stat_statements
# (docs/metrics.md, "Costs per job"): the server's figures are the database's deltas, marked
# so, and the run installs nothing on the server.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

if ! start_test_server; then
	echo "not ok - a test server starts"
	exit 0
fi
run_json own --db "$TEST_DB" --strategy skip-locked:flip --workers 1 --jobs 50 --work-ms 0
check "a run on the user's own server (exit 0)" test "$(cat "$dir/own.status")" -eq 0
check_jq "$dir/own.json" '.results[0].costs | .database_wide == true and .statements_per_job >= 5 and
	.round_trips_per_job == .statements_per_job and .buffers_hit_per_job > 0 and .wal_records_per_job > 0 and
	.wal_bytes_per_job > 0 and .rows_examined_per_job > 0 and .pages_written_per_job == null' \
	"no pg_stat_statements: buffers and WAL are the database's deltas (database_wide true), rows the queue table's"
check "the run installed no extension on the user's server" \
	test "$(test_sql "SELECT count(*) FROM pg_extension WHERE extname <> 'plpgsql'")" = 0
