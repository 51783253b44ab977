# claimbench as a hostile or unlucky user meets it: stopped while blocked on another
# session's lock, killed outright, given a table that exists, passwords in every syntax.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"	# a throwaway cluster under $dir/tmp must be reachable by the postgres user
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

# ---- Ctrl-C while a worker is blocked on another session's lock ----
"$CLAIMBENCH" run --strategy for-update:flip --workers 4 --jobs 40 --work-ms 1500 --no-progress \
	--results "$store" >"$dir/stop.out" 2>"$dir/stop.err" &
pid=$!
wait_for 20 grep -q 'throwaway PostgreSQL in' "$dir/stop.err"
cluster=$(throwaway_dir "$dir/stop.err")
table=claimbench_${pid}_jobs
# sessions_at_least N STATE_CONDITION: whether N or more of the run's sessions meet the SQL condition.
sessions_at_least() {
	[ "$(on_throwaway "$cluster" "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'claimbench' AND $2" 2>/dev/null)" -ge "$1" ]
}
wait_for 20 sessions_at_least 4 "state = 'idle'"
psql "host=$cluster port=15432 dbname=postgres user=claimbench" -Xq \
	-c "BEGIN; LOCK TABLE $table IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60)" >/dev/null 2>&1 &
locker=$!
check "another session holds ACCESS EXCLUSIVE on the queue table and the workers wait on it" wait_for 10 \
	sessions_at_least 1 "wait_event_type = 'Lock'"
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
status=$?
took=$(elapsed_ms "$start")
# (a run that did not cancel its blocked statements would wait out the locker's 60 s; the bound
# is a third of that, generous for a loaded machine: the locker's session goes with the
# throwaway server, so it cannot say itself whether the run outlived it)
check "SIGINT ends the blocked run without waiting for the lock's 60 s: under 20 s (took $took ms)" \
	test "$took" -lt 20000
check "the interrupted run exits 4 (got $status)" test "$status" -eq 4
check "what was measured is printed, marked incomplete" grep -q 'results are incomplete' "$dir/stop.out"
check "the throwaway server and its directory are gone" eval '[ ! -e "$cluster" ] && ! pgrep -f "postgres -D $cluster/data" >/dev/null'
kill "$locker" 2>/dev/null
wait "$locker" 2>/dev/null

# ---- Ctrl-C while flip-mode workers are in their work and another session locks the table ----
# Each worker, stopped in its work, gives its job back (an UPDATE the lock blocks): it waits
# RUN_STOPPING_LOCK_WAIT_MS at most, not the locker's minute.
"$CLAIMBENCH" run --strategy for-update:flip --workers 2 --jobs 2 --work-ms 20000 --no-progress \
	--results "$store" >"$dir/give.out" 2>"$dir/give.err" &
pid=$!
wait_for 20 grep -q 'throwaway PostgreSQL in' "$dir/give.err"
cluster=$(throwaway_dir "$dir/give.err")
table=claimbench_${pid}_jobs
wait_for 20 eval '[ "$(on_throwaway "$cluster" "SELECT count(*) FROM $table WHERE status = '"'active'"'" 2>/dev/null)" = 2 ]'
psql "host=$cluster port=15432 dbname=postgres user=claimbench" -Xq \
	-c "BEGIN; LOCK TABLE $table IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60)" >/dev/null 2>&1 &
locker=$!
wait_for 10 eval '[ "$(on_throwaway "$cluster" "SELECT count(*) FROM pg_locks WHERE mode = '"'AccessExclusiveLock'"' AND granted AND relation = '"'$table'"'::regclass" 2>/dev/null)" = 1 ]'
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
status=$?
took=$(elapsed_ms "$start")
# (without the limit the give-backs would wait out the locker's 60 s, and the work alone is 20 s;
# the bound is generous for a loaded machine)
check "SIGINT during the work: the give-backs the lock blocks end the run before the 20 s of work, under 15 s (took $took ms, exit $status)" \
	test "$took" -lt 15000 -a "$status" -eq 4
kill "$locker" 2>/dev/null
wait "$locker" 2>/dev/null

# ---- an interrupted drain run does not call the jobs it never reached lost ----
# 2000 jobs take 50 s: the stop comes long before the end, however late the polls see the
# first 4 done on a loaded machine (200 jobs, 5 s, once ended before it).
"$CLAIMBENCH" run --strategy skip-locked --workers 2 --jobs 2000 --work-ms 50 --no-progress --format json \
	--results "$store" >"$dir/int.json" 2>"$dir/int.err" &
pid=$!
wait_for 30 jobs_done_at_least "$dir/int.err" "$pid" 4
kill -INT "$pid"
wait "$pid"
check_jq "$dir/int.json" '.results[0] | .complete == false and .completed > 0 and .completed < 2000 and .lost == 0' \
	"interrupted: jobs done so far, none called lost ($(jq -c '.results[0] | {complete, completed, lost}' "$dir/int.json" 2>/dev/null))"
check_jq "$dir/int.json" '.results[0] | .duplicates == 0 and .ledger_mismatches == 0' \
	"interrupted: the jobs in hand were given back, and the ledger agrees with the table"

# ---- SIGKILL: the watchdog removes the throwaway server; cleanup removes what nothing watched ----
"$CLAIMBENCH" run --strategy skip-locked --workers 2 --jobs 20 --work-ms 20000 --no-progress \
	--results "$store" >/dev/null 2>"$dir/kill.err" &
pid=$!
wait_for 20 grep -q 'throwaway PostgreSQL in' "$dir/kill.err"
cluster=$(throwaway_dir "$dir/kill.err")
wait_for 20 test -e "$cluster/data/postmaster.pid"
sleep 1
out=$("$CLAIMBENCH" cleanup)
check "cleanup leaves a running run's throwaway cluster alone, and the run goes on" \
	eval 'grep -q "left alone: $cluster (claimbench pid $pid is running)" <<<"$out" &&
	[ -e "$cluster/data/postmaster.pid" ] && kill -0 "$pid"'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL: the watchdog stops the server and removes its directory within 10 s" wait_for 10 \
	eval '[ ! -e "$cluster" ]'

"$CLAIMBENCH" run --strategy skip-locked --workers 2 --jobs 20 --work-ms 20000 --no-progress \
	--results "$store" >/dev/null 2>"$dir/kill2.err" &
pid=$!
wait_for 20 grep -q 'throwaway PostgreSQL in' "$dir/kill2.err"
cluster=$(throwaway_dir "$dir/kill2.err")
wait_for 20 test -e "$cluster/data/postmaster.pid"
watchdog=$(pgrep -P "$pid" -f claimbench | head -n 1)
kill -KILL "$watchdog" "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL of claimbench and its watchdog leaves the cluster behind" test -d "$cluster"
out=$("$CLAIMBENCH" cleanup)
check "claimbench cleanup (exit 0) says it removed the cluster" grep -q "removed $cluster" <<<"$out"
check "after cleanup no server and no directory are left" \
	eval '[ ! -e "$cluster" ] && ! pgrep -f "postgres -D $cluster/data" >/dev/null'

# ---- a dead run's cluster whose postmaster.pid names a pid the system gave to another process ----
mkdir -p "$dir/stale/claimbench-pg-stale/data"
perl -e '$SIG{QUIT} = "DEFAULT"; sleep 60' &	# a background job of the script would ignore SIGQUIT
bystander=$!
echo "$bystander" >"$dir/stale/claimbench-pg-stale/data/postmaster.pid"
echo "claimbench run: pid 999999 on $(hostname) started 1" >"$dir/stale/claimbench-pg-stale/claimbench.owner"
out=$(TMPDIR=$dir/stale "$CLAIMBENCH" cleanup)
check "cleanup removes a dead run's cluster whose server is gone" grep -q "removed $dir/stale/claimbench-pg-stale" <<<"$out"
check "and leaves alone the process its stale postmaster.pid names (not a server of that directory)" \
	kill -0 "$bystander"
kill "$bystander" 2>/dev/null
wait "$bystander" 2>/dev/null

# ---- a dead run's adapter scratch folder (CLAIMBENCH_SCRATCH, an adapter's files): removed ----
mkdir -p "$dir/stale/claimbench-adapter-dead/pgqd"
echo "claimbench run: pid 999999 on $(hostname) started 1" >"$dir/stale/claimbench-adapter-dead/claimbench.owner"
out=$(TMPDIR=$dir/stale "$CLAIMBENCH" cleanup)
check "cleanup removes a dead run's adapter scratch folder ($(tr '\n' ' ' <<<"$out"))" \
	eval '[ ! -e "$dir/stale/claimbench-adapter-dead" ] && grep -q "removed $dir/stale/claimbench-adapter-dead" <<<"$out"'

# ---- a table of the user's with the run's name is never dropped ----
lite=$dir/user.db
sqlite3 "$lite" "CREATE TABLE myapp_jobs (id INTEGER PRIMARY KEY, what TEXT); INSERT INTO myapp_jobs VALUES (1, 'precious')"
expect_exit 3 'a table myapp_jobs exists already; claimbench never uses or drops a table it did not create' \
	"a run whose table exists is refused, naming it" run --db "sqlite:$lite" --table-prefix myapp_ --jobs 5 \
	--work-ms 1 --strategy update-returning --no-progress --results "$store"
check "the user's table and its row survive" test "$(sqlite3 "$lite" "SELECT what FROM myapp_jobs")" = precious

# ---- a killed run's tables in the user's database: cleanup --db drops them ----
"$CLAIMBENCH" run --db "sqlite:$lite" --strategy ticket:hold --workers 2 --jobs 20 --work-ms 20000 \
	--no-progress --results "$store" >/dev/null 2>&1 &
pid=$!
# run_tables N: whether the run's N tables are in the user's SQLite file.
run_tables() {
	[ "$(sqlite3 "$lite" "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'claimbench_${pid}_%'" 2>/dev/null)" -eq "$1" ]
}
wait_for 20 run_tables 2
out=$("$CLAIMBENCH" cleanup --db "sqlite:$lite")
check "cleanup --db leaves a running run's tables alone" \
	eval 'grep -q "left alone: table claimbench_${pid}_jobs (claimbench pid $pid is running)" <<<"$out" && run_tables 2'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
out=$("$CLAIMBENCH" cleanup --db "sqlite:$lite")
check "cleanup --db drops a dead run's queue and ticket tables" \
	eval 'grep -q "dropped table claimbench_${pid}_jobs" <<<"$out" && grep -q "dropped table claimbench_${pid}_tickets" <<<"$out"'
check "cleanup --db leaves the user's own table" test "$(sqlite3 "$lite" \
	"SELECT group_concat(name) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")" = myapp_jobs

# ---- a result store another process locks during the run: the run says so, exits 3, keeps the results ----
mkdir -m 1777 "$dir/tmp"
TMPDIR=$dir/tmp "$CLAIMBENCH" run --strategy skip-locked --jobs 10 --workers 2 --work-ms 400 --no-progress --format json \
	--results "$dir/locked.db" >"$dir/locked.json" 2>"$dir/locked.err" &
pid=$!
wait_for 20 grep -q 'throwaway PostgreSQL in' "$dir/locked.err"
(echo ".timeout 10000"; echo "BEGIN IMMEDIATE;"; sleep 20) | sqlite3 "$dir/locked.db" &
holder=$!
wait "$pid"
status=$?
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
kept=$(sed -n 's/.*every run.s results are in \([^ ]*\) .*/\1/p' "$dir/locked.err")
check "a run the store refused exits 3 (got $status) and says why" \
	eval '[ "$status" -eq 3 ] && grep -q "1 of 1 runs could not be stored in $dir/locked.db" "$dir/locked.err"'
check_jq "${kept:-/nonexistent}" '.results[0].completed == 10' "the refused run's results are kept in the file it names"

# ---- passwords, in every conninfo syntax, appear nowhere ----
if start_test_server; then
	conninfos=(
		"$TEST_DB password=secret"
		"$TEST_DB password = secret"
		"$TEST_DB password='secret'"
		"$TEST_DB sslpassword=secret"
		"postgresql://tester:secret@/postgres?host=$TEST_SERVER_DIR&port=15433"
		"postgresql:///postgres?host=$TEST_SERVER_DIR&port=15433&user=tester&pass%77ord=secret"
	)
	leaks=0
	for c in "${conninfos[@]}"; do
		"$CLAIMBENCH" run --db "$c" --strategy skip-locked --jobs 20 --work-ms 200 --workers 2 --no-progress \
			--results "$dir/pw.db" >"$dir/pw.out" 2>"$dir/pw.err" &
		pid=$!
		sleep 0.5
		tr '\0' ' ' <"/proc/$pid/cmdline" >"$dir/pw.cmdline" 2>/dev/null
		wait "$pid" || leaks=$((leaks + 100))
		grep -q secret "$dir/pw.out" "$dir/pw.err" "$dir/pw.cmdline" && leaks=$((leaks + 1))
	done
	check "runs with a password in every syntax succeed, and it is in neither output nor /proc cmdline ($leaks)" \
		test "$leaks" -eq 0
	"$CLAIMBENCH" run --db "host=$TEST_SERVER_DIR port=1 user=tester password = secret connect_timeout=2" \
		--jobs 1 --results "$dir/pw.db" >"$dir/pw.out" 2>"$dir/pw.err"
	check "a failed connection does not echo the password" eval '! grep -q secret "$dir/pw.out" "$dir/pw.err"'
	"$CLAIMBENCH" run --db "postgresql://tester:secret@[::1/db" --jobs 1 --results "$dir/pw.db" \
		>"$dir/pw.out" 2>"$dir/pw.err"
	status=$?
	check "a malformed URI is refused as bad input (exit $status) without libpq's echo of it" \
		eval '[ "$status" -eq 2 ] && ! grep -q secret "$dir/pw.out" "$dir/pw.err" && grep -q "conninfo is malformed" "$dir/pw.err"'
	printf '[global]\ndb = %s password = secret\nstrategy = skip-locked\njobs = 10\nwork-ms = 1\n' "$TEST_DB" \
		>"$dir/pw.ini"
	"$CLAIMBENCH" run --scenario "$dir/pw.ini" --trust-scenario --no-progress --results "$dir/pw.db" >"$dir/pw.out" 2>"$dir/pw.err"
	check "a scenario's db key with a password runs" test $? -eq 0
	run=$("$CLAIMBENCH" history --results "$dir/pw.db" --limit 1 | awk 'NR == 2 { print $1 }')
	"$CLAIMBENCH" show "$run" --results "$dir/pw.db" >"$dir/pw.show"
	"$CLAIMBENCH" export "$run" --format json --results "$dir/pw.db" >"$dir/pw.json"
	"$CLAIMBENCH" export "$run" --format csv --results "$dir/pw.db" >"$dir/pw.csv"
	"$CLAIMBENCH" report "$run" --results "$dir/pw.db" --out "$dir/pw-report" >/dev/null 2>&1
	check "show keeps the masked command line and scenario" grep -q 'password=\*\*\*' "$dir/pw.show"
	check "the password is nowhere in the store, show, export or the report" \
		eval '! grep -rqa secret "$dir/pw.db" "$dir/pw.show" "$dir/pw.json" "$dir/pw.csv" "$dir/pw-report"'

	# The harness's own connection cut in the middle of a run: it connects anew to read the
	# final state and drop its tables.
	"$CLAIMBENCH" run --db "$TEST_DB" --strategy skip-locked --jobs 40 --workers 2 --work-ms 100 --no-progress \
		--format json --results "$store" >"$dir/cut.json" 2>"$dir/cut.err" &
	pid=$!
	admin_ready() {
		[ "$(test_sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'claimbench' AND query LIKE 'ANALYZE%'")" -ge 1 ]
	}
	wait_for 20 admin_ready
	test_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'claimbench' AND query LIKE 'ANALYZE%'" >/dev/null
	wait "$pid"
	check "a run whose own connection was cut finishes (exit $?)" test $? -eq 0
	check_jq "$dir/cut.json" '.results[0] | .complete and .completed == 40 and .lost == 0 and .ledger_mismatches == 0' \
		"after the cut the final state is read through a new connection: complete, nothing lost"
	check "and the run's tables are dropped" test "$(test_sql "SELECT count(*) FROM pg_class WHERE relname LIKE 'claimbench_${pid}_%'")" -eq 0

	# Ctrl-C of a guarded run whose cache table another session holds: the drop waits 500 ms
	# for the lock at most, then leaves the tables to cleanup.
	"$CLAIMBENCH" run --db "$TEST_DB" --workload exclusive-use --guard table-exclusive --workers 3 --duration 30 \
		--no-progress --results "$store" >/dev/null 2>"$dir/glock.err" &
	pid=$!
	# sessions_running SQL_PATTERN: whether a session's current or last statement is LIKE the pattern.
	sessions_running() {
		[ "$(test_sql "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '$1'")" -ge 1 ]
	}
	wait_for 20 sessions_running "LOCK TABLE%claimbench_${pid}_cache%"
	psql "$TEST_DB" -Xq -c "BEGIN; LOCK TABLE claimbench_${pid}_cache IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60)" \
		>/dev/null 2>&1 &
	locker=$!
	wait_for 10 sessions_running "BEGIN; LOCK TABLE claimbench_${pid}_cache IN ACCESS EXCLUSIVE MODE%"
	start=$(date +%s%N)
	kill -INT "$pid"
	wait "$pid"
	status=$?
	took=$(elapsed_ms "$start")
	held=$(kill -0 "$locker" 2>/dev/null && echo held || echo released)
	check "Ctrl-C of a guarded run meeting a foreign lock on its table exits 4 while the lock is still held (exit $status, lock $held, $took ms)" \
		eval '[ "$status" -eq 4 ] && [ "$held" = held ]'
	check "and says its tables are left for cleanup" grep -q "its tables are left behind (claimbench cleanup removes them)" \
		"$dir/glock.err"
	kill "$locker" 2>/dev/null
	wait "$locker" 2>/dev/null
	stop_test_server
else
	echo "not ok - a test PostgreSQL server could not be started"
fi
