# The MariaDB backend's throwaway server (--db mariadb:): started, run on, removed
# afterwards, and removed by the watchdog after a SIGKILL; InnoDB's errors counted by
# kind; the settings stored with the run; the diagnosis of a held snapshot in InnoDB's words
# (its history list, not PostgreSQL's xmin horizon); bad input refused with the documented status.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db
# The throwaway servers' directories go into a sticky folder of the script's own, which the
# server's user (mysql, when the test runs as root) can reach: their absence is checked there.
chmod 755 "$dir"
mkdir -m 1777 "$dir/tmp"
export TMPDIR=$dir/tmp

# ---- bad input: no server programs, a malformed target, an unreachable server ----
mkdir "$dir/empty"
CLAIMBENCH_MARIADB_BINDIR=$dir/empty expect_exit 3 \
	"install them with: sudo apt-get install -y mariadb-server-core mariadb-client-core" \
	"--db mariadb: with no server programs: the exact install line" \
	run --db mariadb: --strategy skip-locked --jobs 5 --no-progress --results "$store"
CLAIMBENCH_MARIADB_BINDIR=none expect_exit 3 "not to be used" \
	"CLAIMBENCH_MARIADB_BINDIR=none: the programs are not used" \
	run --db mariadb: --strategy skip-locked --jobs 5 --no-progress --results "$store"
expect_exit 2 "what follows mariadb: is malformed \(its text is not shown" \
	"a malformed mariadb: target is refused without its text" \
	run --db "mariadb:host='x password=s3cr3t" --jobs 5 --no-progress --results "$store"
err=$("$CLAIMBENCH" run --db "mariadb:host=$dir/none.sock user=u password=s3cr3t dbname=q" --strategy naive \
	--jobs 5 --no-progress --results "$store" 2>&1 >/dev/null)
status=$?
check "an unreachable MariaDB server: exit 3, the password never printed" \
	eval '[ "$status" -eq 3 ] && ! grep -q s3cr3t <<<"$err" && grep -q "none.sock" <<<"$err"'
expect_exit 2 "--isolation cannot run on sqlite: it runs its own default" "--isolation on SQLite is refused" \
	run --db "sqlite:$dir/q.db" --isolation read-committed --jobs 5 --no-progress --results "$store"
expect_exit 2 "strategy notify cannot run on mariadb: it needs LISTEN/NOTIFY" "notify on MariaDB is refused with the reason" \
	run --db mariadb: --strategy notify --jobs 5 --no-progress --results "$store"
expect_exit 2 "strategy update-returning cannot run on mariadb: MariaDB 10.11 has no UPDATE ... RETURNING" \
	"update-returning on MariaDB is refused with the reason" \
	run --db mariadb: --strategy update-returning --jobs 5 --no-progress --results "$store"

# ---- one throwaway server: runs on it, each checked against its ledger; then it is gone ----
run_json runs --db mariadb: --jobs 60 --workers 6 --work-ms 5 --tries 50 --backoff-ms 5 \
	--strategy naive,for-update,skip-locked:flip,nowait-backoff,cas --lock-timeout-ms 3000
check "five strategies on a throwaway MariaDB (exit 0)" test "$(cat "$dir/runs.status")" -eq 0
check "it said where its throwaway MariaDB was" grep -q "throwaway MariaDB in $TMPDIR/claimbench-mariadb-" "$dir/runs.err"
check "and removed it afterwards: no directory, no mariadbd" \
	eval '! ls -d "$TMPDIR"/claimbench-mariadb-* >/dev/null 2>&1 && ! pgrep -f "mariadbd.*$TMPDIR/claimbench-mariadb" >/dev/null'
check_jq "$dir/runs.json" '.backend == "mariadb" and (.server_version | test("MariaDB"))' \
	"the header names backend mariadb and the server's version"
check_jq "$dir/runs.json" '.settings.tx_isolation == "REPEATABLE-READ" and .settings.innodb_lock_wait_timeout == "3"
	and .settings.log_bin == "0" and (.settings | has("innodb_flush_log_at_trx_commit"))' \
	"the settings that change results are stored: isolation, lock wait timeout (from --lock-timeout-ms), binary log"
# for-update runs in hold mode at REPEATABLE READ: a completion that deadlocks on the claim
# index's gap locks is rolled back with its claim, and the job is done again, so each of its
# duplicates is one deadlock's rollback, never more (mariadb_strategies.sh, innodb.ini); a
# loaded machine made one such duplicate here. The flip-mode claims duplicate nothing.
check_each "$dir/runs.json" '.strategy == "for-update"' '.completed == 60 and .duplicates <= .errors.deadlock and
	.lost == 0 and .ledger_mismatches == 0 and .complete and .errors.other == 0' \
	"mariadb for-update hold: 60 jobs, no losses, every duplicate a deadlock's rollback, the ledger agrees with the table"
for s in skip-locked nowait-backoff cas; do
	check_each "$dir/runs.json" ".strategy == \"$s\"" ".completed == 60 and .duplicates == 0 and
		.lost == 0 and .ledger_mismatches == 0 and .complete and .errors.other == 0" \
		"mariadb $s: 60 jobs, no duplicates, no losses, the ledger agrees with the table"
done
check_each "$dir/runs.json" '.strategy == "naive"' '.completed == 60 and .lost == 0 and
	.ledger_mismatches == 0 and .duplicates > 0' "mariadb naive: its race shows as duplicates, nothing lost"
check_each "$dir/runs.json" '.strategy == "nowait-backoff"' \
	'.errors.lock_not_available == .retries + .give_ups and .errors.lock_wait_timeout == 0' \
	"nowait-backoff: MariaDB's NOWAIT refusals (1205 on a NOWAIT statement) count as lock_not_available, each retried"
check_each "$dir/runs.json" '.strategy == "for-update"' '.errors.deadlock > 0 and
	.errors.lock_wait_timeout == 0 and .errors.other == 0' \
	"for-update: InnoDB's deadlocks (1213) counted as deadlock, not as other errors (lock waits: tests/integration/mariadb_strategies.sh)"
check_each "$dir/runs.json" 'true' '.server.samples > 0 and (.samples | length) > 0 and
	([.samples[] | .waits.cpu + .waits.lock + .waits.client + .waits.other] | max > 0) and
	.server.xmin_age_max >= 0 and .samples[0].live_tuples >= 0' \
	"the server is sampled: where the workers' connections wait, the table's rows, InnoDB's history list length"
check_each "$dir/runs.json" 'true' '.costs.rows_examined_per_job > 0 and .costs.buffers_hit_per_job > 0 and
	.costs.wal_bytes_per_job > 0 and .costs.database_wide and .server.head_buffers_before >= 1' \
	"the server's costs per job: rows examined, buffer pool pages, redo bytes; the head lookup's pages"

# ---- a snapshot held through a run: the diagnosis in InnoDB's words (history list, purge), not PostgreSQL's ----
# Held from the start, the read view keeps the purge from every flip-mode claim and
# completion committed after it, two per job: the history list passes 1000 (the diagnosis's
# threshold, DIAGNOSIS_OLD_XMIN) well before the 800 jobs are done.
"$CLAIMBENCH" run --db mariadb: --strategy skip-locked:flip --jobs 800 --workers 4 --work-ms 0 --snapshot-at 0 \
	--snapshot-s 60 --no-progress --results "$store" >"$dir/snapshot.out" 2>"$dir/snapshot.err"
status=$?
diagnosis=$(sed -n '/^diagnosis:/,/^[^ ]/p' "$dir/snapshot.out" | tr -s ' \n' '  ')
history=$(grep -o "InnoDB's history list grew to [0-9]* committed transactions whose undo was not purged yet" \
	<<<"$diagnosis" | grep -o "[0-9][0-9]*")
check "a snapshot held on MariaDB (exit $status): the diagnosis names InnoDB's history list ($history) and its purge, the workers' connections, not the xmin horizon or backends: ${diagnosis:0:400}" \
	eval '[ "$status" -eq 0 ] && [ "${history:-0}" -ge 1000 ] && grep -q "the purge lagged behind" <<<"$diagnosis" &&
	 grep -q "of the workers. connections. sampled time" <<<"$diagnosis" && ! grep -qi "xmin\|horizon\|dead tuple\|backends" <<<"$diagnosis"'

# ---- InnoDB's own lock counters over the run: producers inserting while for-update claims, at REPEATABLE READ ----
# InnoDB rolls back one victim per deadlock it detects, whose statement fails with 1213;
# on a throwaway server every transaction is the harness's (workers' and producers', both
# counted in errors.deadlock), so the server's count and the victims the run saw are equal.
run_json innodb --db mariadb: --strategy for-update:hold --isolation repeatable-read --jobs 40 --workers 6 \
	--work-ms 5 --arrival-rate 300 --arrival-s 0.5 --producers 2 --tries 50 --backoff-ms 5
check "for-update with producers at REPEATABLE READ (exit 0)" test "$(cat "$dir/innodb.status")" -eq 0
check_jq "$dir/innodb.json" '.results[0] | .costs.innodb_deadlocks > 0 and
	.costs.innodb_deadlocks == .errors.deadlock and .costs.innodb_row_lock_waits > 0 and
	.costs.innodb_row_lock_time_ms >= 0' \
	"InnoDB's deadlocks over the run equal the victims the workers and producers saw (1213); row lock waits counted"
run_json sqlite --db sqlite: --strategy for-update --jobs 4 --workers 2 --work-ms 1
check_jq "$dir/sqlite.json" '.results[0].costs | .innodb_deadlocks == null and .innodb_row_lock_waits == null and
	.innodb_row_lock_time_ms == null' "on SQLite InnoDB's counters are unknown (null)"

# ---- a restart of the throwaway server mid-run (killed, InnoDB's crash recovery): hold mode loses nothing ----
run_json restart --db mariadb: --strategy skip-locked --restart-at 0.2 --jobs 60 --workers 4 --work-ms 30
check "a restart of the throwaway MariaDB mid-run (exit 0)" test "$(cat "$dir/restart.status")" -eq 0
check_jq "$dir/restart.json" '.results[0] | .completed == 60 and .lost == 0 and .ledger_mismatches == 0 and
	.faults_injected == 1 and .errors.connection_lost >= 1 and .reconnects >= 1' \
	"the workers lost their connections, connected again, and every job was done"

# ---- SIGKILL: the watchdog stops the throwaway server and removes its directory ----
"$CLAIMBENCH" run --db mariadb: --strategy skip-locked --workers 2 --jobs 20 --work-ms 20000 --no-progress \
	--results "$store" >/dev/null 2>"$dir/kill.err" &
pid=$!
wait_for 30 grep -q 'throwaway MariaDB in' "$dir/kill.err"
server=$(sed -n 's/^claimbench: throwaway MariaDB in //p' "$dir/kill.err")
wait_for 30 test -e "$server/data/postmaster.pid"
sleep 1
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL: the watchdog stops the MariaDB server and removes its directory within 15 s" wait_for 15 \
	eval '[ -n "$server" ] && [ ! -e "$server" ] && ! pgrep -f "mariadbd.*$server" >/dev/null'
