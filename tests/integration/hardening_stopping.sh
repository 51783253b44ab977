# How a run stops: Ctrl-C during the setup against another session's lock, the two
# signals GNU timeout sends, a restart command that hangs, a run that can never progress,
# the throughput an interrupted drain run keeps, a server that is gone and a statement
# timeout of the server's own.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"	# a throwaway cluster under $dir/tmp must be reachable by the postgres user
locker=
trap '[ -n "$locker" ] && kill "$locker" 2>/dev/null; stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

# ---- an interrupted drain run keeps the throughput it measured ----
"$CLAIMBENCH" run --strategy skip-locked --workers 2 --jobs 400 --work-ms 20 --no-progress --format json \
	--results "$store" >"$dir/thru.json" 2>"$dir/thru.err" &
pid=$!
wait_for 30 jobs_done_at_least "$dir/thru.err" "$pid" 20
kill -INT "$pid"
wait "$pid"
check_jq "$dir/thru.json" '.results[0] | .complete == false and .completed > 0 and .makespan_s > 0 and
	(.throughput_jps - .completed / .makespan_s | fabs) < 0.01 * .throughput_jps' \
	"an interrupted drain run's throughput is its jobs done over the time it measured, not 0"
run=$(jq '.results[0].run_id' "$dir/thru.json")
check "and so is the stored one" eval '[ "$("$CLAIMBENCH" export "$run" --format json --results "$store" |
	jq ".results[0].throughput_jps > 0")" = true ]'

if ! start_test_server; then
	echo "not ok - a test PostgreSQL server could not be started"
	exit 0
fi

# sessions_waiting SQL_PATTERN: whether a claimbench session runs a statement LIKE the
# pattern and waits for a lock.
sessions_waiting() {
	[ "$(test_sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'claimbench'
		AND wait_event_type = 'Lock' AND query LIKE '$1'")" -ge 1 ]
}

# ---- Ctrl-C while the setup waits for another session's lock on the run's table ----
# The other session locks the queue table as soon as it exists: the load (COPY) or the
# ANALYZE after it waits. Ctrl-C then cancels it and the drop of the tables waits 500 ms at
# most for that lock, then leaves them to cleanup.
"$CLAIMBENCH" run --db "$TEST_DB" --table-prefix stp6_ --strategy skip-locked --workers 2 --jobs 1000000 \
	--work-ms 0 --duration 1 --no-progress --results "$store" >"$dir/setup.out" 2>"$dir/setup.err" &
pid=$!
wait_for 60 eval '[ "$(test_sql "SELECT to_regclass('"'stp6_jobs'"') IS NOT NULL")" = t ]'
psql "$TEST_DB" -Xq -c "BEGIN; LOCK TABLE stp6_jobs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(30)" >/dev/null 2>&1 &
locker=$!
check "the setup's load or ANALYZE waits on the other session's lock" wait_for 30 eval \
	'sessions_waiting "COPY%" || sessions_waiting "ANALYZE%"'
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
status=$?
took=$(elapsed_ms "$start")
check "Ctrl-C during the setup exits 4 in under 5 s while the lock is held for 30 s (exit $status, $took ms)" \
	eval '[ "$status" -eq 4 ] && [ "$took" -lt 5000 ]'
check "and says it was stopped during the setup and that its tables are left for cleanup" eval \
	'grep -q "interrupted while setting up the run" "$dir/setup.err" &&
	grep -q "its tables are left behind (claimbench cleanup removes them)" "$dir/setup.err"'
kill "$locker" 2>/dev/null
wait "$locker" 2>/dev/null
locker=
"$CLAIMBENCH" cleanup --db "$TEST_DB" >/dev/null 2>&1
