# A user's own SQLite file (--db sqlite:PATH) is the user's: a run
# switches it to WAL and ANALYZEs its queue table, and puts both back when it ends, even
# when interrupted: the same journal mode and the same tables before and after.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

# state FILE: the file's journal mode and its tables, on one line.
state() {
	sqlite3 "$1" "PRAGMA journal_mode; SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master
		WHERE type = 'table' ORDER BY name)" | paste -sd ' '
}

# ---- a file in rollback-journal mode, without statistics ----
lite=$dir/user.db
sqlite3 "$lite" "CREATE TABLE mine (x); INSERT INTO mine VALUES (1)"
before=$(state "$lite")
"$CLAIMBENCH" run --db "sqlite:$lite" --strategy update-returning --lease-ms 5000 --jobs 50 --work-ms 1 \
	--no-progress --results "$store" >/dev/null 2>"$dir/run.err"
status=$?
check "a run on the user's file succeeds (exit $status)" test "$status" -eq 0
check "its journal mode and tables are as before the run ($before; after: $(state "$lite"))" \
	test "$(state "$lite")" = "$before"
check "no -wal or -shm file is left beside it" eval '[ ! -e "$lite-wal" ] && [ ! -e "$lite-shm" ]'

# ---- a file in WAL mode with statistics of its own ----
lite=$dir/wal.db
sqlite3 "$lite" "PRAGMA journal_mode = WAL; CREATE TABLE mine (x); CREATE INDEX mine_x ON mine (x);
	INSERT INTO mine VALUES (1); ANALYZE mine" >/dev/null
before=$(state "$lite")
stats=$(sqlite3 "$lite" "SELECT tbl || ':' || stat FROM sqlite_stat1")
"$CLAIMBENCH" run --db "sqlite:$lite" --strategy update-returning --jobs 20 --work-ms 1 --no-progress \
	--sqlite-journal delete --results "$store" >/dev/null 2>"$dir/wal.err"
check "a WAL file run in another journal mode is WAL again after, with its own statistics ($before; after: $(state "$lite"))" \
	eval '[ "$(state "$lite")" = "$before" ] && [ "$(sqlite3 "$lite" "SELECT tbl || '"':'"' || stat FROM sqlite_stat1")" = "$stats" ]'

# ---- AUTOINCREMENT: SQLite's sqlite_sequence, which nobody may drop, is the one thing left, empty, and said so ----
"$CLAIMBENCH" run --db "sqlite:$lite" --strategy ticket --jobs 20 --work-ms 1 --no-progress \
	--results "$store" >/dev/null 2>"$dir/ticket.err"
check "a ticket run leaves only SQLite's own sqlite_sequence, empty ($(state "$lite"))" \
	eval '[ "$(state "$lite")" = "wal mine,sqlite_sequence,sqlite_stat1" ] && [ "$(sqlite3 "$lite" "SELECT count(*) FROM sqlite_sequence")" = 0 ]'
check "and says so" grep -q "keeps SQLite's internal table sqlite_sequence (empty)" "$dir/ticket.err"

# ---- an interrupted run ----
lite=$dir/stopped.db
sqlite3 "$lite" "CREATE TABLE mine (x); INSERT INTO mine VALUES (1)"
before=$(state "$lite")
"$CLAIMBENCH" run --db "sqlite:$lite" --strategy update-returning --workers 2 --jobs 400 --work-ms 50 \
	--no-progress --results "$store" >/dev/null 2>"$dir/stopped.err" &
pid=$!
# done_at_least N: whether the run has finished N jobs in its table.
done_at_least() {
	[ "$(sqlite3 "$lite" "SELECT count(*) FROM claimbench_${pid}_jobs WHERE status = 'done'" 2>/dev/null)" -ge "$1" ]
}
wait_for 30 done_at_least 4
kill -INT "$pid"
wait "$pid"
status=$?
check "the interrupted run exits 4 (got $status)" test "$status" -eq 4
check "after it the file's journal mode and tables are as before ($before; after: $(state "$lite"))" \
	test "$(state "$lite")" = "$before"

# ---- a file that is not there yet: claimbench makes it, and leaves it as SQLite makes a new one ----
lite=$dir/new.db
"$CLAIMBENCH" run --db "sqlite:$lite" --strategy update-returning --jobs 20 --work-ms 1 --no-progress \
	--results "$store" >/dev/null 2>"$dir/new.err"
check "a new file is left in rollback-journal mode, with no tables ($(state "$lite"))" \
	test "$(state "$lite")" = "delete "
