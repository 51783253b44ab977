# pooler: workers and producers through a throwaway pgbouncer (--pooler session|transaction) in
# front of a server the test starts (one for the whole script): started and removed, also after
# SIGKILL (the watchdog) and for a dead run (cleanup); what each strategy needs of a session
# refused or adapted with the reason; the session advisory lock's duplicates under transaction
# pooling counted exactly; skip-locked clean with workers at 4 x the server connections; bad input.
# Every temporary directory of the script's (the test server's, the pgbouncers') is made in
# its own folder: a TMPDIR of mode 0755 owned by the invoking user, which the postgres user
# (pgbouncer's, when run as root) may enter but not write in.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 0755 "$dir"
export TMPDIR=$dir
trap 'stop_test_server; pkill -TERM -f "pgbouncer -d -q $dir/"; rm -rf "$dir"' EXIT
store=$dir/results.db

# pooler_dir FILE: the pgbouncer directory claimbench named on stderr (in FILE).
pooler_dir() {
	sed -n 's/^claimbench: pgbouncer in \([^,]*\),.*/\1/p' "$1" | head -n 1
}

# pooler_gone DIR: DIR named, no directory DIR and no pgbouncer running on its ini.
pooler_gone() {
	[ -n "$1" ] && [ ! -e "$1" ] && ! pgrep -f "pgbouncer -d -q $1/pgbouncer.ini" >/dev/null
}

# ---- bad input, before any server is needed ----
expect_exit 2 'pooler cannot run on sqlite: pgbouncer does not pool its connections' "--pooler on SQLite is refused" \
	run --db "sqlite:$dir/q.db" --pooler transaction --strategy for-update --jobs 5 --results "$store"
expect_exit 2 'pooler.*nonsense' "--pooler nonsense is refused" \
	run --pooler nonsense --strategy skip-locked --jobs 5 --results "$store"
expect_exit 2 'server-connections' "--server-connections 0 is refused" \
	run --pooler transaction --server-connections 0 --strategy skip-locked --jobs 5 --results "$store"
expect_exit 2 'server-connections needs --pooler' "--server-connections without a pooler is refused, not ignored" \
	run --db "sqlite:$dir/q.db" --server-connections 4 --strategy for-update --jobs 5 --results "$store"
expect_exit 2 'server-connections needs --pooler' "--server-connections with --pooler none is refused, not ignored" \
	run --pooler none --server-connections 4 --strategy skip-locked --jobs 5 --results "$store"
CLAIMBENCH_PGBOUNCER=none expect_exit 3 'apt-get install pgbouncer' \
	"pgbouncer not installed: exit 3 with the install line" \
	run --pooler transaction --strategy skip-locked --jobs 5 --results "$store"
check "a PostgreSQL server for the test starts" start_test_server
expect_exit 2 'pooler: the server.s conninfo names several hosts' \
	"a --db of several hosts through the pooler is refused before anything starts" \
	run --db "host=$TEST_SERVER_DIR,$TEST_SERVER_DIR port=15433 dbname=postgres user=tester" --pooler transaction \
	--server-connections 2 --strategy skip-locked --jobs 5 --results "$store"
expect_exit 2 'pooler: the server.s conninfo asks for sslmode=require.*without TLS' \
	"a --db asking for TLS through the pooler is refused, not sent plain" \
	run --db "$TEST_DB sslmode=require" --pooler transaction --server-connections 2 --strategy skip-locked \
	--jobs 5 --results "$store"

# ---- pgbouncer that will not start: its log's last line; Ctrl-C while waiting for it ----
# Stand-ins for pgbouncer run as pgbouncer is (-d -q INI): one fails as a bad ini makes it,
# one leaves its starter and never listens.
printf '#!/bin/sh\necho "FATAL stand-in refuses its ini" >>"${3%%/*}/pgbouncer.log"\nexit 1\n' >"$dir/failing"
printf '#!/bin/sh\nexit 0\n' >"$dir/silent"
chmod 0755 "$dir/failing" "$dir/silent"
CLAIMBENCH_PGBOUNCER=$dir/failing expect_exit 3 'cannot start pgbouncer: .*exited with status 1: FATAL stand-in refuses' \
	"pgbouncer exiting at once: exit 3 with its log's last line" \
	run --db "$TEST_DB" --pooler transaction --server-connections 2 --strategy skip-locked --jobs 5 --results "$store"
check "nothing of a run refused after its pooler's directory was made is left in the test's TMPDIR" \
	eval '! ls -d "$dir"/claimbench-pgbouncer-* 2>/dev/null | grep -q .'
# One that puts in its log's place a link to a file of the invoking user's alone: not followed.
echo "secret line of the invoking user" >"$dir/secret"
chmod 0600 "$dir/secret"
printf '#!/bin/sh\nln -sf "%s" "${3%%/*}/pgbouncer.log"\nexit 1\n' "$dir/secret" >"$dir/linking"
chmod 0755 "$dir/linking"
CLAIMBENCH_PGBOUNCER=$dir/linking expect_exit 3 'exited with status 1$' \
	"a link in the log's place is not followed when the log's last line is read" \
	run --db "$TEST_DB" --pooler transaction --server-connections 2 --strategy skip-locked --jobs 5 --results "$store"
CLAIMBENCH_PGBOUNCER=$dir/silent "$CLAIMBENCH" run --db "$TEST_DB" --pooler transaction --server-connections 2 \
	--strategy skip-locked --jobs 5 --no-progress --results "$store" >/dev/null 2>"$dir/silent.err" &
pid=$!
wait_for 10 eval 'ls "$dir"/claimbench-pgbouncer-*/pgbouncer.ini >/dev/null 2>&1'
sleep 0.5
kill -INT "$pid"
check "Ctrl-C while waiting for pgbouncer to listen ends the run within 5 s (not its 10 s wait)" wait_for 5 \
	eval '! kill -0 "$pid"'
wait "$pid" 2>/dev/null
check "the interrupted wait says so" grep -q 'interrupted while waiting for pgbouncer' "$dir/silent.err"

# ---- skip-locked through transaction pooling, 8 workers on 2 server connections ----
run_json skip --db "$TEST_DB" --pooler transaction --server-connections 2 --strategy skip-locked:flip,skip-locked:hold \
	--workers 8 --jobs 200 --work-ms 1
check "skip-locked through transaction pooling (exit 0)" test "$(cat "$dir/skip.status")" -eq 0
check_jq "$dir/skip.json" '.results | length == 2' "skip-locked flip and hold through the pooler are reported"
check_each "$dir/skip.json" 'true' '.completed == 200 and .duplicates == 0 and .overlaps == 0 and .lost == 0 and
	.stuck == 0 and .ledger_mismatches == 0 and .complete' \
	"skip-locked flip and hold, 8 workers on 2 server connections: 200 jobs, no duplicates or losses"
check "the statements go unnamed, with the reason" grep -q 'every statement is sent unnamed.*no named prepared' \
	"$dir/skip.err"
check_each "$dir/skip.json" 'true' '.costs.buffers_hit_per_job == null and .costs.wal_bytes_per_job == null and
	.costs.statements_per_job > 0' \
	"transaction pooling: the server's costs are not measured (null), the workers' own counts are"
bouncer=$(pooler_dir "$dir/skip.err")
check "the pooler's directory was named and is removed at the end, its pgbouncer stopped" \
	pooler_gone "$bouncer"

# ---- advisory through transaction pooling: as written, its duplicates counted; directly: none ----
# What the table shows: an event trigger of the test's own puts on each queue table the run
# creates a trigger that logs every claim's take (attempts + 1) into a table of the test's.
test_sql "CREATE TABLE take_log (job bigint, attempts int);
CREATE FUNCTION log_take() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN
	IF NEW.attempts > OLD.attempts THEN INSERT INTO take_log VALUES (NEW.id, NEW.attempts); END IF; RETURN NEW;
END \$\$;
CREATE FUNCTION watch_jobs() RETURNS event_trigger LANGUAGE plpgsql AS \$\$ DECLARE r record; BEGIN
	FOR r IN SELECT object_identity FROM pg_event_trigger_ddl_commands()
		WHERE command_tag = 'CREATE TABLE' AND object_type = 'table' AND object_identity LIKE '%\\_jobs' LOOP
		EXECUTE format('CREATE TRIGGER log_take AFTER UPDATE ON %s FOR EACH ROW EXECUTE FUNCTION log_take()',
			r.object_identity);
	END LOOP;
END \$\$;
CREATE EVENT TRIGGER watch_jobs ON ddl_command_end WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION watch_jobs();" \
	>/dev/null
run_json advisory --db "$TEST_DB" --pooler transaction --server-connections 2 --strategy advisory:flip \
	--workers 8 --jobs 40 --work-ms 1
test_sql "DROP EVENT TRIGGER watch_jobs" >/dev/null
takes=$(test_sql "SELECT count(*) FROM take_log")
taken=$(test_sql "SELECT count(DISTINCT job) FROM take_log")
check "advisory through transaction pooling (exit 0)" test "$(cat "$dir/advisory.status")" -eq 0
check "its session lock outliving the transaction is said, with the reason" \
	grep -q 'advisory through --pooler transaction runs as written: its session advisory lock outlives' \
	"$dir/advisory.err"
check_jq "$dir/advisory.json" ".results[0] | .duplicates > 0 and .executions == $takes and
	.duplicates == $takes - $taken and .completed == 40 and $taken == 40 and .lost == 0" \
	"advisory: the ledger's duplicates are exactly the table's takes beyond one per job (table: $takes takes of $taken jobs; ledger: $(jq -c '.results[0] | {executions, duplicates}' "$dir/advisory.json" 2>/dev/null))"
check_jq "$dir/advisory.json" '.results[0] | .fenced == .duplicates and .ledger_mismatches == 0' \
	"advisory: each duplicate's completion was refused by the table's attempt check, the audit agrees"
run_json direct --db "$TEST_DB" --strategy advisory:flip --workers 8 --jobs 40 --work-ms 1
check_jq "$dir/direct.json" '.results[0] | .duplicates == 0 and .completed == 40' \
	"advisory with a connection per worker: no duplicates"

# ---- what cannot run through a pooler is refused with the reason ----
expect_exit 2 'verify cannot run through --pooler transaction: .*identity' \
	"--verify through transaction pooling is refused (the worker's identity is a session setting)" \
	run --db "$TEST_DB" --pooler transaction --verify --strategy skip-locked --jobs 5 --results "$store"
expect_exit 2 'statement-timeout-ms cannot run through --pooler transaction: each connection SETs them once' \
	"--statement-timeout-ms through transaction pooling is refused (a session setting)" \
	run --db "$TEST_DB" --pooler transaction --statement-timeout-ms 1000 --strategy skip-locked --jobs 5 \
	--results "$store"
expect_exit 2 'pooler session gives each client a server connection.*8 workers need 8, more than --server-connections 2' \
	"session pooling with more workers than server connections is refused" \
	run --db "$TEST_DB" --pooler session --server-connections 2 --workers 8 --strategy skip-locked --jobs 5 \
	--results "$store"
run_json session --db "$TEST_DB" --pooler session --server-connections 4 --strategy notify,advisory --workers 4 \
	--jobs 40 --work-ms 1
check_each "$dir/session.json" 'true' '.completed == 40 and .duplicates == 0 and .lost == 0' \
	"session pooling: notify and advisory run clean, a server connection per worker"

# ---- a strategy defined in SQL declares what it needs of a session ----
claim="UPDATE {jobs} SET status = 'active', claimed_by = :worker, claimed_at = now(), attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' ORDER BY id LIMIT 1
                FOR UPDATE SKIP LOCKED) RETURNING id, attempts"
printf '[strategy keeps-state]\nclaim = %s\nsession-needs = state\n\n[strategy locks]\nclaim = %s\nsession-needs = advisory\n\n[stateful]\nstrategy = keeps-state\n\n[locking]\nstrategy = locks\n' \
	"$claim" "$claim" >"$dir/needs.ini"
expect_exit 2 'strategy keeps-state cannot run through --pooler transaction: its claims read state a session keeps' \
	"a SQL strategy declaring session state is refused under transaction pooling, before anything starts" \
	run --scenario "$dir/needs.ini" --section stateful --db "$TEST_DB" --pooler transaction --server-connections 2 \
	--jobs 5 --results "$store"
run_json needs --scenario "$dir/needs.ini" --section locking --db "$TEST_DB" --pooler transaction \
	--server-connections 2 --workers 2 --jobs 10
check "a SQL strategy declaring a session advisory lock runs as written, said with the reason" eval \
	'[ "$(cat "$dir/needs.status")" -eq 0 ] && grep -q "locks through --pooler transaction runs as written: its session advisory lock" "$dir/needs.err"'
printf '[strategy odd]\nclaim = %s\nsession-needs = advisory,temp\n' "$claim" >"$dir/odd.ini"
expect_exit 2 'odd.ini:5: strategy odd: session-needs: unknown name "temp"; known: prepared advisory listen state' \
	"an unknown session need names file and line" run --scenario "$dir/odd.ini" --results "$store"

# ---- the server's conninfo quoted for pgbouncer: a blank, quotes, ; # and a comma ----
odd_host="$dir/so ck;#x'y"
ln -s "$TEST_SERVER_DIR" "$odd_host"
run_json quoted --db "host='${odd_host//\'/\\\'}' port=15433 dbname=postgres user=tester password='a,b c'" \
	--pooler transaction --server-connections 2 --strategy skip-locked --workers 2 --jobs 10
check_jq "$dir/quoted.json" '.results[0] | .completed == 10 and .duplicates == 0' \
	"a server socket path with a blank, a quote, ; and # and a password with a comma reach pgbouncer quoted$(
	[ "$(cat "$dir/quoted.status")" -eq 0 ] || echo " -- $(head -c 300 "$dir/quoted.err")")"

# ---- ab runs no pooler: refused before anything starts ----
printf '[global]\nstrategy = skip-locked\njobs = 5\npooler = transaction\nserver-connections = 2\n' >"$dir/ab.ini"
expect_exit 2 'ab: baseline .*ab.ini: pooler = transaction: ab runs without a pooler' \
	"claimbench ab refuses a pooler before it starts anything" ab "$dir/ab.ini" "$dir/ab.ini" --results "$store"

# ---- scripts/bench-pooler runs (one round of 0.3 s, 2 workers) and leaves nothing in its TMPDIR ----
CLAIMBENCH=$CLAIMBENCH bash "$(dirname "$0")/../../scripts/bench-pooler" 1 0.3 2 500 >"$dir/bench.out" 2>"$dir/bench.err"
check "scripts/bench-pooler prints the medians of direct, session and transaction pooling$(
	grep -q 'median transaction' "$dir/bench.out" || echo " -- $(head -c 300 "$dir/bench.err")")" \
	grep -q 'median transaction .* / direct' "$dir/bench.out"
check "a throwaway server and pgbouncer in a TMPDIR of mode 0755 are removed whole" \
	eval '! ls -d "$dir"/claimbench-pg-* "$dir"/claimbench-pgbouncer-* 2>/dev/null | grep -q .'

# ---- SIGKILL: the watchdog stops pgbouncer and removes its directory ----
"$CLAIMBENCH" run --db "$TEST_DB" --pooler transaction --server-connections 2 --strategy skip-locked --workers 2 \
	--jobs 4 --work-ms 20000 --no-progress --results "$store" >/dev/null 2>"$dir/kill.err" &
pid=$!
wait_for 20 grep -q 'pgbouncer in' "$dir/kill.err"
bouncer=$(pooler_dir "$dir/kill.err")
check "a running run's pgbouncer runs in its directory" wait_for 10 test -e "$bouncer/pgbouncer.pid"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL: the watchdog stops pgbouncer and removes its directory within 10 s" wait_for 10 pooler_gone "$bouncer"

# ---- SIGKILL while pgbouncer starts: its pid file comes after its starter returns ----
# A stand-in that daemonizes as pgbouncer -d does: the starter exits 0, its daemon writes
# the pid file half a second later, working in the pooler's directory.
mkdir -m 0777 "$dir/w"
printf '#!/bin/sh\ncd "${3%%/*}" || exit 1\nsh -c '"'"'sleep 0.5; echo $$ >p; mv p pgbouncer.pid; echo $$ >%s/w/pid; exec sleep 30'"'"' &\ntouch %s/w/started\nexit 0\n' \
	"$dir" "$dir" >"$dir/daemonizing"
chmod 0755 "$dir/daemonizing"
CLAIMBENCH_PGBOUNCER=$dir/daemonizing "$CLAIMBENCH" run --db "$TEST_DB" --pooler transaction --server-connections 2 \
	--strategy skip-locked --jobs 5 --no-progress --results "$store" >/dev/null 2>&1 &
pid=$!
wait_for 10 test -e "$dir/w/started"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
wait_for 5 test -s "$dir/w/pid"
check "SIGKILL before a starting pgbouncer wrote its pid file: the watchdog waits for it and stops it" \
	wait_for 5 eval '! kill -0 "$(cat "$dir/w/pid")" && ! ls -d "$dir"/claimbench-pgbouncer-* 2>/dev/null | grep -q .'
kill "$(cat "$dir/w/pid")" 2>/dev/null

# ---- SIGKILL of claimbench and its watchdog: cleanup stops the dead run's pgbouncer ----
"$CLAIMBENCH" run --db "$TEST_DB" --pooler transaction --server-connections 2 --strategy skip-locked --workers 2 \
	--jobs 4 --work-ms 20000 --no-progress --results "$store" >/dev/null 2>"$dir/kill2.err" &
pid=$!
wait_for 20 grep -q 'pgbouncer in' "$dir/kill2.err"
bouncer=$(pooler_dir "$dir/kill2.err")
wait_for 10 test -e "$bouncer/pgbouncer.pid"
out=$("$CLAIMBENCH" cleanup)
check "cleanup leaves a running run's pgbouncer alone" \
	eval 'grep -q "left alone: $bouncer (claimbench pid $pid is running)" <<<"$out" && [ -e "$bouncer/pgbouncer.pid" ]'
watchdog=$(pgrep -P "$pid" -f claimbench | head -n 1)
kill -KILL "$watchdog" "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL of claimbench and its watchdog leaves pgbouncer running" \
	eval 'pgrep -f "pgbouncer -d -q $bouncer/pgbouncer.ini" >/dev/null'
out=$("$CLAIMBENCH" cleanup)
check "claimbench cleanup says it removed the dead run's pgbouncer directory" grep -q "removed $bouncer" <<<"$out"
check "after cleanup no pgbouncer and no directory are left" pooler_gone "$bouncer"

# ---- a pooler beside a throwaway standby: pgbouncer is given the server that takes writes ----
expect_exit 2 'failover-at cannot run through --pooler' "a failover through a pooler is refused (pgbouncer has one server)" \
	run --standby async --failover-at 1 --pooler transaction --strategy skip-locked --jobs 5 --results "$store"
cat >"$dir/standby.ini" <<'INI'
[global]
strategy = skip-locked:flip
jobs = 40
work-ms = 10
no-progress = true
[fo]
standby = async
failover-at = 0.2
workers = 2
[pool]
pooler = transaction
server-connections = 2
workers = 4
INI
"$CLAIMBENCH" run --scenario "$dir/standby.ini" --results "$dir/standby.db" >"$dir/standby.out" 2>"$dir/standby.err"
check "after a failover in one section, the next section's pgbouncer reaches the promoted primary (exit $?)" \
	test "$(sqlite3 "$dir/standby.db" "SELECT group_concat(run_group || ':' || completed || ':' || lost, ' ') FROM runs")" = \
	"fo:40:0 pool:40:0"
