# A scenario's SQL confined on MariaDB by the server's own privileges, on a MariaDB server
# the test starts itself (standing for a user's own): its statements run as an account the
# run makes, holding SELECT, INSERT, UPDATE and DELETE on the run's queue table alone. A
# statement that reads a table claimbench did not create is refused by the server before
# anything runs, in its words (exit 2); one that keeps to its table runs without
# --trust-scenario, as that account, on this server and on a throwaway one (through a
# killed connection and a restart, reconnecting as it); the account is
# gone after the run, and after a killed run once cleanup has run (a namesake account of the
# user's own is left alone, and one that exists already stops the run); a user who may not make
# accounts (no CREATE USER, or no GRANT OPTION) is refused with the reason (exit 6);
# --trust-scenario runs the file's SQL as the user, as before.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
store=$dir/results.db
server_pid=
stop_server() {
	[ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	rm -rf "$dir"
}
trap stop_server EXIT

# ---- the server: its own data directory and socket in $dir, no TCP; as root, run as mysql
# where a package made that account, else nobody (as tests/integration/mariadb_strategies.sh) ----
mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
chmod 755 "$dir"
mkdir "$dir/m" "$dir/tmp"
chmod 1777 "$dir/tmp"
export TMPDIR=$dir/tmp
as=()
if [ "$(id -u)" -eq 0 ]; then
	account=mysql
	id -u "$account" >/dev/null 2>&1 || account=nobody
	chown "$account" "$dir/m"
	as=(setpriv --reuid="$(id -u "$account")" --regid="$(id -g "$account")" --init-groups --)
fi
"${as[@]}" mariadb-install-db --no-defaults --datadir="$dir/m/data" --auth-root-authentication-method=normal \
	--skip-test-db --innodb-log-file-size=16M >"$dir/install.log" 2>&1
"${as[@]}" "$mariadbd" --no-defaults --datadir="$dir/m/data" --socket="$dir/m/sock" --skip-networking \
	--innodb-log-file-size=16M --innodb-buffer-pool-size=64M --log-error="$dir/m/server.log" >/dev/null 2>&1 &
server_pid=$!
sql() { mariadb --no-defaults -S "$dir/m/sock" -uroot -N -B "$@"; }
server_up() { sql -e "SELECT 1" >/dev/null; }
check "the test's own MariaDB server starts" wait_for 30 server_up
sql -e "CREATE DATABASE q; CREATE TABLE q.payroll (id int, salary int); INSERT INTO q.payroll VALUES (1, 100)"
db="mariadb:host=$dir/m/sock user=root dbname=q"
# the accounts claimbench made on the server: their names, one a line
run_accounts() { sql -e "SELECT User FROM mysql.user WHERE User LIKE 'claimbench%'"; }

# ---- a claim that keeps to its table, and counts only when it runs as the run's account:
# as root (the harness's user) it would find no job ----
cat >"$dir/own.ini" <<'INI'
[strategy own]
summary = skip-locked's claim, which claims a job only when run as an account the run made
claim = SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' AND LEFT(CURRENT_USER(), 11) = 'claimbench_'
    ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
complete = UPDATE {jobs} SET status = 'done', done_at = {now} WHERE id = :id AND claimed_by = :worker RETURNING id
modes = flip
backends = mariadb

[own]
strategy = own
jobs = 30
workers = 3
work-ms = 2
INI
run_json own --db "$db" --scenario "$dir/own.ini"
check "a scenario's SQL that keeps to its table runs on MariaDB without --trust-scenario (exit $(cat "$dir/own.status"))" \
	test "$(cat "$dir/own.status")" -eq 0
check_jq "$dir/own.json" '.results[0] | .completed == 30 and .duplicates == 0 and .lost == 0 and .ledger_mismatches == 0
	and .complete' "its 30 jobs done, each claimed by a claim that ran as the run's own account (CURRENT_USER() claimbench_...)"
check "the run's account is gone after the run (accounts left: '$(run_accounts | tr '\n' ' ')')" \
	test -z "$(run_accounts)"

# ---- an account of the run's name that exists already is neither used nor dropped ----
sql -e "CREATE USER 'mine_jobs'@'localhost'"
expect_exit 3 "an account 'mine_jobs'@'localhost' exists already; claimbench never uses or drops an account it did not make" \
	"an account named as the run's queue table that exists already stops the run (exit 3)" \
	run --db "$db" --scenario "$dir/own.ini" --table-prefix mine_ --no-progress --results "$store"
left=$(sql -e "SELECT count(*) FROM mysql.user WHERE User = 'mine_jobs'")
tables=$(sql -e "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'q' AND TABLE_NAME = 'mine_jobs'")
check "and is left as it was (accounts of that name: $left), the run's table dropped (tables: $tables)" \
	eval '[ "$left" -eq 1 ] && [ "$tables" -eq 0 ]'
sql -e "DROP USER 'mine_jobs'@'localhost'"

# ---- a statement that reads a table claimbench did not create: the server refuses it ----
cat >"$dir/peek.ini" <<'INI'
[strategy peek]
claim = SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'
    AND id NOT IN (SELECT id FROM payroll WHERE salary > 500) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
modes = flip
backends = mariadb

[peek]
strategy = peek
jobs = 10
workers = 2
work-ms = 1
INI
expect_exit 2 "peek\.ini:2: claim of strategy peek is refused by the server, prepared as the run's own account claimbench_[0-9]+_jobs: SELECT command denied to user 'claimbench_[0-9]+_jobs'@'localhost' for table .q.\..payroll.: without --trust-scenario" \
	"a claim that reads another table (payroll) is refused by the server, in its words, naming file, line and account" \
	run --db "$db" --scenario "$dir/peek.ini" --no-progress --results "$store"
check "no account is left after the refusal" test -z "$(run_accounts)"
check "nor a claimbench table" test "$(sql q -e "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'q' AND TABLE_NAME LIKE 'claimbench%'")" -eq 0
run_json peek_trusted --db "$db" --scenario "$dir/peek.ini" --trust-scenario
check_jq "$dir/peek_trusted.json" '.results[0] | .completed == 10 and .complete' \
	"--trust-scenario keeps its meaning: the same claim runs as the user, reading payroll (its 10 jobs done)"

# ---- a killed run leaves its account behind; cleanup drops it with the run's table ----
"$CLAIMBENCH" run --db "$db" --scenario "$dir/own.ini" --jobs 3000 --work-ms 20 --workers 2 --no-progress \
	--results "$store" >/dev/null 2>"$dir/killed.err" &
run_pid=$!
# killed once its workers run as the account: it exists and the run's table holds done jobs
account_working() {
	[ "$(run_accounts)" = "claimbench_${run_pid}_jobs" ] &&
		[ "$(sql q -e "SELECT count(*) FROM claimbench_${run_pid}_jobs WHERE status = 'done'")" -ge 5 ]
}
check "the killed run's account claimbench_${run_pid}_jobs exists while its workers do jobs as it" wait_for 30 account_working
kill -KILL "$run_pid"
wait "$run_pid" 2>/dev/null
check "after SIGKILL the account is left behind" test "$(run_accounts)" = "claimbench_${run_pid}_jobs"
# a dead run's table (its note sealed with its InnoDB id, as a run seals it) whose namesake
# account is the user's own, holding another privilege: cleanup drops the table, not the account
sql -e "CREATE USER 'claimbench_1_jobs'@'localhost'; GRANT SELECT ON q.payroll TO 'claimbench_1_jobs'@'localhost';
	CREATE TABLE q.claimbench_1_jobs (id int) ENGINE = InnoDB"
table_id=$(sql -e "SELECT TABLE_ID FROM information_schema.INNODB_SYS_TABLES WHERE NAME = 'q/claimbench_1_jobs'")
note="claimbench run: pid 1 on $(sed -n 's/^claimbench run: pid [0-9]* on \([^ ]*\) .*/\1/p' <<<"$(sql q -e \
	"SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_NAME = 'claimbench_${run_pid}_jobs'")") started 1"
sql q -e "ALTER TABLE claimbench_1_jobs COMMENT = '$note; table claimbench_1_jobs oid $table_id'"
"$CLAIMBENCH" cleanup --db "$db" >"$dir/cleanup.out" 2>&1
status=$?
check "cleanup drops the dead run's table and its account (exit $status)" \
	eval '[ "$status" -eq 0 ] && grep -q "dropped table claimbench_${run_pid}_jobs" "$dir/cleanup.out" &&
	grep -q "dropped account claimbench_${run_pid}_jobs" "$dir/cleanup.out"'
check "and the account is gone from the server (accounts: '$(run_accounts | tr '\n' ' ')')" \
	test "$(run_accounts)" = "claimbench_1_jobs"
check "an account named as a dead run's table it dropped, but holding other privileges, is left alone" \
	eval 'grep -q "dropped table claimbench_1_jobs" "$dir/cleanup.out" && ! grep -q "account claimbench_1_jobs" "$dir/cleanup.out" &&
	[ "$(run_accounts)" = claimbench_1_jobs ]'
sql -e "DROP USER 'claimbench_1_jobs'@'localhost'"

# ---- a user who may not make accounts: refused with the reason, exit 6 ----
# (PROCESS, which a run's table marks need: db/mariadb/backend_mariadb.c's seal_mark reads INNODB_SYS_TABLES)
sql -e "CREATE USER bench@localhost IDENTIFIED BY 'Bench-pw1'; GRANT ALL ON q.* TO bench@localhost;
	GRANT PROCESS ON *.* TO bench@localhost;
	CREATE USER creator@localhost IDENTIFIED BY 'Bench-pw1'; GRANT ALL ON q.* TO creator@localhost;
	GRANT PROCESS, CREATE USER ON *.* TO creator@localhost"
bench="mariadb:host=$dir/m/sock user=bench password=Bench-pw1 dbname=q"
creator="mariadb:host=$dir/m/sock user=creator password=Bench-pw1 dbname=q"
expect_exit 6 "strategy own: a scenario file's SQL runs on mariadb as an account the run makes for it.*CREATE USER 'claimbench_[0-9]+_jobs'@'localhost': Access denied; you need \(at least one of\) the CREATE USER privilege.*or give --trust-scenario" \
	"a user without CREATE USER: the scenario's SQL is refused with the server's reason" \
	run --db "$bench" --scenario "$dir/own.ini" --no-progress --results "$store"
expect_exit 6 "GRANT \.\.\. ON .q.\..claimbench_[0-9]+_jobs. TO 'claimbench_[0-9]+_jobs'@'localhost': GRANT command denied to user 'creator'" \
	"a user with CREATE USER but no GRANT OPTION: refused with the server's reason" \
	run --db "$creator" --scenario "$dir/own.ini" --no-progress --results "$store"
check "neither refusal leaves an account behind" test -z "$(run_accounts)"
cat >"$dir/plain.ini" <<'INI'
[strategy plain]
claim = SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
modes = flip
backends = mariadb

[plain]
strategy = plain
jobs = 10
workers = 2
work-ms = 1
INI
run_json bench_trusted --db "$bench" --scenario "$dir/plain.ini" --trust-scenario
check_jq "$dir/bench_trusted.json" '.results[0] | .completed == 10 and .complete' \
	"with --trust-scenario that user runs the file's SQL as itself (exit $(cat "$dir/bench_trusted.status"))"

# ---- the throwaway MariaDB: its harness's user makes the account, always; the workers
# reconnect as it after their connection is killed and after the server restarts ----
# (400 jobs of 10 ms on 4 workers take 1 s at the least, so the kill at 0.3 s and the restart at
# 0.5 s strike inside the drain however fast the machine: with 200 the drain was about 0.5 s)
run_json throwaway --db mariadb: --scenario "$dir/own.ini" --jobs 400 --work-ms 10 --workers 4 --kill-backend-at 0.3 \
	--restart-at 0.5 --lease-ms 2000 --reaper-ms 200
check_jq "$dir/throwaway.json" '.results[0] | .completed == 400 and .lost == 0 and .complete and
	([.faults[].kind] | sort) == ["kill-backend", "restart"] and .errors.connection_lost > 0 and .errors.other == 0' \
	"on a throwaway MariaDB the confined SQL runs without --trust-scenario, as the run's account, through a killed connection and a restart (exit $(cat "$dir/throwaway.status"))"
