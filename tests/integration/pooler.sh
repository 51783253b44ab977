# pooler: workers and producers through a throwaway pgbouncer (--pooler session|transaction) in
# front of a server the test starts (one for the whole script): started and removed, also after
# SIGKILL (the watchdog) and for a dead run (cleanup); what each strategy needs of a session
# refused or adapted with the reason; the session advisory lock's duplicates under transaction
# pooling counted exactly; skip-locked clean with workers at 4 x the server connections; bad input.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
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
expect_exit 2 'pooler is PostgreSQL.s: [Ss][Qq][Ll]ite has no server connections' "--pooler on SQLite is refused" \
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
check "nothing of a refused run is left in TMPDIR" \
	eval '! ls -d "${TMPDIR:-/tmp}"/claimbench-pgbouncer-* 2>/dev/null | grep -q .'

check "a PostgreSQL server for the test starts" start_test_server

# ---- skip-locked through transaction pooling, 8 workers on 2 server connections ----
run_json skip --db "$TEST_DB" --pooler transaction --server-connections 2 --strategy skip-locked:flip,skip-locked:hold \
	--workers 8 --jobs 200 --work-ms 1
check "skip-locked through transaction pooling (exit 0)" test "$(cat "$dir/skip.status")" -eq 0
check_jq "$dir/skip.json" '[.results[] | .completed == 200 and .duplicates == 0 and .overlaps == 0 and .lost == 0 and
	.stuck == 0 and .ledger_mismatches == 0 and .complete] | all and length == 2' \
	"skip-locked flip and hold, 8 workers on 2 server connections: 200 jobs, no duplicates or losses"
check "the statements go unnamed, with the reason" grep -q 'every statement is sent unnamed.*no named prepared' \
	"$dir/skip.err"
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
check_jq "$dir/session.json" '[.results[] | .completed == 40 and .duplicates == 0 and .lost == 0] | all' \
	"session pooling: notify and advisory run clean, a server connection per worker"

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
