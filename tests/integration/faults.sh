# Faults and recovery on the throwaway server: crashes, stalls, killed server processes and
# a restart, on hold and flip strategies, with the figures checked exactly where they are
# deterministic (faults at fixed executions), and the ledger against the table every time.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

# result NAME STRATEGY MODE: the jq condition (check_each's SELECT) of that strategy's runs in
# MODE in $dir/NAME.json.
result() {
	echo ".strategy == \"$2\" and .claim_mode == \"$3\""
}

# ---- crashes at executions 5, 20 and 40: hold frees the job, flip without a lease strands it ----
run_json crash --jobs 60 --work-ms 20 --workers 4 --crash-exec 5,20,40 --respawn-ms 50 \
	--strategy skip-locked:hold,for-update:hold,skip-locked:flip,update-returning:flip
check "crash runs exit 0" test "$(cat "$dir/crash.status")" -eq 0
for s in skip-locked for-update; do
	check_each "$dir/crash.json" "$(result crash $s hold)" ".faults_injected == 3 and .lost == 0 and .stuck == 0 and
		.redeliveries == 3 and .duplicates == 3 and .overlaps == 0 and .completed == 60 and .reconnects == 3" \
		"$s hold, 3 crashes: nothing lost, each crashed job redelivered once (3 duplicates, no overlap)"
	check_each "$dir/crash.json" "$(result crash $s hold)" ".delivery == {at_most_once: false, at_least_once: true}" \
		"$s hold, 3 crashes: at-least-once held, at-most-once broken"
done
for s in skip-locked update-returning; do
	check_each "$dir/crash.json" "$(result crash $s flip)" ".faults_injected == 3 and .lost == 3 and .stuck == 3 and
		.redeliveries == 0 and .duplicates == 0 and .completed == 57" \
		"$s flip without a lease, 3 crashes: the 3 crashed jobs are stuck active and lost"
	check_each "$dir/crash.json" "$(result crash $s flip)" ".delivery == {at_most_once: true, at_least_once: false}" \
		"$s flip without a lease: at-most-once held, at-least-once broken"
done
check_each "$dir/crash.json" 'true' '.faults | length == 3 and all(.kind == "crash" and .worker != null and
	.job != null)' "each run lists its 3 crashes with their worker and job"
check_each "$dir/crash.json" 'true' '.ledger_mismatches == 0' "crash runs: the ledger agrees with the table"

# ---- the same crashes with a lease and a reaper, and with seed 000's free ----
# (a live job the machine held up past its 200 ms lease is the reaper's too: --verify holds the
# reaper's count to the give-backs the table's own record shows, whatever their number)
run_json lease --jobs 60 --work-ms 20 --workers 4 --crash-exec 5,20,40 --respawn-ms 50 --lease-ms 200 \
	--reaper-ms 50 --strategy skip-locked:flip,update-returning:flip,ticket:flip --verify
check "lease runs with --verify exit 0 (got $(cat "$dir/lease.status"))" test "$(cat "$dir/lease.status")" -eq 0
for s in skip-locked update-returning ticket; do
	check_each "$dir/lease.json" "$(result lease $s flip)" ".faults_injected == 3 and .lost == 0 and .stuck == 0 and
		.reaped >= 3 and .redeliveries >= 3 and .duplicates >= 3 and .completed == 60 and .ledger_mismatches == 0 and
		.verified and .verify_differences == []" \
		"$s flip, lease 200 ms and a reaper: the reaper gives the 3 crashed jobs back, its count the table's record, nothing lost"
	check_each "$dir/lease.json" "$(result lease $s flip)" ".recovery_ms.max >= 200 and .recovery_ms.p50 <= .recovery_ms.max" \
		"$s flip with a lease: recovery takes at least the lease"
done
run_json free --jobs 60 --work-ms 20 --workers 4 --crash-exec 5,20,40 --respawn-ms 50 --rerun-stuck \
	--strategy nowait-backoff:flip
check_jq "$dir/free.json" '.results[0] | .lost == 0 and .stuck == 0 and .redeliveries == 3 and .completed == 60 and
	.ledger_mismatches == 0' "nowait-backoff flip, --rerun-stuck: the second pass frees the stuck jobs (seed 000's free)"

# ---- a stall of 600 ms against a lease of 200 ms ----
# The stalled job's lease runs out by construction (600 ms against 200), so its successor
# overlaps it and its completion comes late; a 20 ms job the machine held up past 200 ms is one
# more such redelivery (by the lease), so the flip runs' counts are at least one, each late
# completion a zombie or fenced, never more of them than redeliveries.
stall="--jobs 40 --work-ms 20 --workers 4 --stall-exec 10 --stall-ms 600 --lease-ms 200 --strategy skip-locked:flip,for-update:hold"
run_json stall_none $stall --fence none
check_each "$dir/stall_none.json" "$(result stall_none skip-locked flip)" ".faults_injected == 1 and .overlaps >= 1 and
	.redeliveries >= 1 and .redeliveries == .redeliveries_lease and .zombie_completions >= 1 and
	.zombie_completions <= .redeliveries and .fenced == 0 and .lost == 0" \
	"skip-locked flip, stall past the lease, no fence: its successor overlaps it and its late completion is a zombie"
check_each "$dir/stall_none.json" "$(result stall_none for-update hold)" ".overlaps == 0 and .duplicates == 0 and
	.faults_injected == 1" "for-update hold, the same stall: the row lock holds, no overlap, no duplicate"
run_json stall_fence $stall --fence owner
check_each "$dir/stall_fence.json" "$(result stall_fence skip-locked flip)" ".faults_injected == 1 and .fenced >= 1 and
	.fenced <= .redeliveries and .zombie_completions == 0 and .lost == 0 and .ledger_mismatches == 0" \
	"the same stall with --fence owner: the late completion is refused"
run_json stall_beat $stall --heartbeat-ms 50
check_each "$dir/stall_beat.json" "$(result stall_beat skip-locked flip)" ".overlaps == 0 and .redeliveries == 0 and
	.duplicates == 0 and .lost == 0" "the same stall with a heartbeat every 50 ms: the lease never runs out"
check_each "$dir/stall_beat.json" 'true' '.ledger_mismatches == 0' \
	"stall runs: the ledger agrees with the table"

# ---- server processes terminated at executions 10 and 30 ----
run_json kill --jobs 60 --work-ms 20 --workers 4 --kill-backend-exec 10,30 \
	--strategy skip-locked:hold,update-returning:hold,skip-locked:flip
check "kill-backend runs exit 0" test "$(cat "$dir/kill.status")" -eq 0
for s in skip-locked update-returning; do
	check_each "$dir/kill.json" "$(result kill $s hold)" ".faults_injected == 2 and .reconnects == 2 and
		.redeliveries == 2 and .lost == 0 and .completed == 60" \
		"$s hold, 2 killed server processes: the transactions die, both jobs go to another worker, 2 reconnects"
done
check_each "$dir/kill.json" "$(result kill skip-locked flip)" ".faults_injected == 2 and .reconnects == 2 and
	.redeliveries == 0 and .duplicates == 0 and .lost == 0" \
	"skip-locked flip: the claim outlives the connection, the completion is made after reconnecting"
check_each "$dir/kill.json" 'true' '.ledger_mismatches == 0' "kill-backend runs: the ledger agrees with the table"

# ---- the server restarts in immediate mode in the middle ----
run_json restart --jobs 100 --work-ms 20 --workers 4 --restart-at 0.3 --lease-ms 1500 \
	--strategy skip-locked:hold,for-update:hold,skip-locked:flip,update-returning:flip
check "a restart in the middle: every run completes (exit 0)" test "$(cat "$dir/restart.status")" -eq 0
check_each "$dir/restart.json" 'true' '.complete and .faults_injected == 1 and .faults[0].kind == "restart" and
	.faults[0].worker == null and .reconnects >= 4 and .restart_first_completion_ms > 0 and .completed == 100' \
	"a restart: each run counts it, every worker reconnects, and work resumes"
check_each "$dir/restart.json" '.claim_mode == "hold"' '.lost == 0' \
	"a restart: nothing is lost in hold mode"
check_each "$dir/restart.json" 'true' '.lost == 0 and .ledger_mismatches == 0' \
	"a restart: nothing is lost with leases either, and the ledger agrees with the table"
check_each "$dir/restart.json" 'true' '.costs.buffers_hit_per_job == null and .costs.wal_records_per_job == null and
	.costs.statements_per_job > 0' \
	"a restart: the server's costs are unknown (recovery threw its statistics away), the workers' own are counted"

# ---- the store keeps the faults ----
id=$(sqlite3 "$store" "SELECT max(id) FROM runs")
"$CLAIMBENCH" export "$id" --format json --results "$store" >"$dir/export.json" 2>/dev/null
check_jq "$dir/export.json" '.results[0] | .faults[0].kind == "restart" and .reconnects >= 4 and
	.delivery.at_least_once == true' "export reads the faults and the delivery verdict back from the store"

# ---- SQLite: a crash abandons the connection, whose transaction rolls back ----
run_json sqlite --db sqlite: --jobs 40 --work-ms 10 --workers 4 --crash-exec 5,20 --respawn-ms 20 \
	--strategy update-returning:hold,update-returning:flip
check_each "$dir/sqlite.json" "$(result sqlite update-returning hold)" ".lost == 0 and .redeliveries == 2 and
	.ledger_mismatches == 0" "SQLite, update-returning hold: the crashed transactions roll back, the jobs are redelivered"
check_each "$dir/sqlite.json" "$(result sqlite update-returning flip)" ".lost == 2 and .stuck == 2 and
	.ledger_mismatches == 0" "SQLite, update-returning flip without a lease: the crashed jobs are stuck"

# ---- a server of the user's own restarts only by the user's command ----
if start_test_server; then
	expect_exit 2 "needs --restart-command" "a restart on a user's server without --restart-command is refused" \
		run --db "$TEST_DB" --restart-at 1 --jobs 10 --results "$store"
	restart_cmd=$(test_restart_command)
	run_json own --db "$TEST_DB" --jobs 120 --work-ms 20 --workers 4 --restart-at 0.3 --restart-command "$restart_cmd" \
		--strategy skip-locked:hold
	check_jq "$dir/own.json" '.results[0] | .complete and .faults_injected == 1 and .reconnects >= 4 and .lost == 0 and
		.completed == 120 and .ledger_mismatches == 0' "--restart-command restarts the user's server; the run goes on"
	check "the restart command never enters the store" eval '! sqlite3 "$store" "SELECT value FROM run_params" | grep -q pg_ctl'
	expect_exit 4 "restarting the server: --restart-command exited with status 3" \
		"a failing restart command makes the run incomplete" \
		run --db "$TEST_DB" --jobs 40 --work-ms 20 --workers 2 --restart-at 0.1 --restart-command "exit 3" \
		--strategy skip-locked --results "$store"
	# ---- a restart command's secrets: masked in the store, in show, and in what ps shows while it runs ----
	# The command writes what /proc shows of claimbench's command line and of its own shell's.
	secret_cmd=": MYSQL_PWD=s3cr3t1 --password s3cr3t2 -ps3cr3t3 'Authorization: Bearer s3cr3t4' PGPASSWORD=s3cr3t5;
		tr '\\0' ' ' </proc/\$PPID/cmdline >$dir/parent.cmdline; tr '\\0' ' ' </proc/\$\$/cmdline >$dir/shell.cmdline"
	"$CLAIMBENCH" run --db "$TEST_DB" --jobs 40 --work-ms 20 --workers 2 --restart-at 0.1 \
		--restart-command "$secret_cmd" --strategy skip-locked --no-progress --results "$store" \
		>"$dir/secret.out" 2>"$dir/secret.err"
	status=$?
	run=$(sqlite3 "$store" "SELECT max(id) FROM runs")
	"$CLAIMBENCH" show "$run" --results "$store" >"$dir/secret.show" 2>&1
	check "a restart command with secrets runs (exit $status: $(head -c 200 "$dir/secret.err"))" \
		eval '[ "$status" -eq 0 ] && [ -s "$dir/parent.cmdline" ] && [ -s "$dir/shell.cmdline" ]'
	check "its secrets are in neither claimbench's /proc cmdline nor its shell's while it runs ($(tr '\n\t' '  ' <"$dir/parent.cmdline" 2>/dev/null | head -c 300))" \
		eval '! grep -q s3cr3t "$dir/parent.cmdline" "$dir/shell.cmdline" && grep -q "MYSQL_PWD=\*\*\*" "$dir/parent.cmdline"'
	check "nor in the store, nor in show, which prints the command masked ($(grep -o "restart-command.\{0,90\}" "$dir/secret.show" | head -1))" \
		eval '! sqlite3 "$store" .dump | grep -q s3cr3t && ! grep -q s3cr3t "$dir/secret.show" "$dir/secret.out" "$dir/secret.err" &&
		grep -q -- "--restart-command : MYSQL_PWD=\*\*\* --password \*\*\* -p\*\*\* .Authorization: Bearer \*\*\*. PGPASSWORD=\*\*\*" "$dir/secret.show"'
	# a session of the test's holds an advisory lock of the run's key through its end: the end-of-run check counts it
	(until psql "$TEST_DB" -Atqc "SELECT 'leak_jobs'::regclass" >/dev/null 2>&1; do sleep 0.02; done
	 psql "$TEST_DB" -Atqc "SELECT pg_advisory_lock('leak_jobs'::regclass::oid::integer, 999999), pg_sleep(3)" \
		>/dev/null 2>&1) &
	holder=$!
	run_json leak --db "$TEST_DB" --table-prefix leak_ --strategy advisory --jobs 200 --work-ms 10 --workers 2
	wait "$holder"
	check "advisory: an advisory lock of the run still held at its end is reported as leaked" \
		grep -q "advisory flip x2 #1: 1 advisory locks of the run still held at its end: leaked" "$dir/leak.err"
	check_jq "$dir/leak.json" '.results[0] | .completed == 200 and .lost == 0' \
		"advisory: a lock on a key no job has stops no claim"
	# a session of the test's locks the claimed job's row while the job is worked (5 s: the
	# test sees the claim and locks it well before then, even on a loaded machine) and keeps it
	# until a second completion statement waits behind it (another virtual transaction waiting
	# in pg_locks on a row, not on the table as a DROP would): the first timed out on
	# --lock-timeout-ms, and flip mode, whose claim outlives it, tries again as a worker
	# retries contention
	(until [ "$(psql "$TEST_DB" -Atqc "SELECT status FROM retry_jobs WHERE id = 1" 2>/dev/null)" = active ]; do
		sleep 0.02; done
	 psql "$TEST_DB" -Atqc "DO \$\$ DECLARE first text; waiter text; give_up timestamptz := clock_timestamp() + interval '60 s';
		BEGIN
			PERFORM 1 FROM retry_jobs WHERE id = 1 FOR UPDATE;
			LOOP
				SELECT virtualtransaction INTO waiter FROM pg_locks
					WHERE NOT granted AND locktype IN ('transactionid', 'tuple') LIMIT 1;
				first := coalesce(first, waiter);
				EXIT WHEN waiter IS DISTINCT FROM first AND waiter IS NOT NULL;
				IF clock_timestamp() > give_up THEN RAISE 'no second completion in 60 s'; END IF;
				PERFORM pg_sleep(0.005);
			END LOOP;
		END \$\$" >"$dir/retry.holder" 2>&1) &
	holder=$!
	run_json retry --db "$TEST_DB" --table-prefix retry_ --strategy skip-locked:flip --jobs 1 --workers 1 --work-ms 5000 \
		--lock-timeout-ms 300
	wait "$holder"
	holder_status=$?
	check "a session of the test's held the job's row until a second completion waited behind it (exit $holder_status: $(head -c 200 "$dir/retry.holder"))" \
		test "$holder_status" -eq 0
	check_jq "$dir/retry.json" '.results[0] | .completed == 1 and .lost == 0 and .errors.lock_not_available >= 1 and
		.errors.other == 0' \
		"flip: a completion that waited out --lock-timeout-ms is tried again and the job done, not lost"
else
	echo "not ok - cannot start a test server for the user's-server checks"
fi

# ---- faults a backend cannot take ----
expect_exit 2 "kill-backend-at, -exec and -rate cannot run on sqlite: it has no server process" "kill-backend on SQLite is refused" \
	run --db sqlite: --kill-backend-exec 3 --jobs 10 --results "$store"
expect_exit 2 "--restart-at cannot run on sqlite: it has no server to restart" "a restart on SQLite is refused" \
	run --db sqlite: --restart-at 0.5 --jobs 10 --results "$store"
expect_exit 2 "beyond the run's end" "a crash after the end of a timed run is refused" \
	run --crash-at 3 --duration 1 --jobs 10 --results "$store"
