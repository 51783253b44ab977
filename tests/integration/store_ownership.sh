# Reading commands (history, show, export, report, compare) open the result store
# read-only: they change nothing in the file, leave no -wal or -shm
# beside it, work on a store the user may not write in a folder they may not write, and
# refuse a missing or empty file instead of making a store of it.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
store=$dir/ro/results.db
mkdir "$dir/ro"
for n in 1 2; do
	"$CLAIMBENCH" run --db sqlite: --strategy update-returning --jobs 20 --work-ms 1 --no-progress \
		--results "$store" >/dev/null 2>&1
done
check "two runs are stored, and no -wal or -shm stays once they ended" \
	eval '[ "$(sqlite3 "$store" "SELECT count(*) FROM runs")" = 2 ] && [ "$(ls "$dir/ro")" = results.db ]'
sum=$(sha256sum <"$store")

# reads USER: runs every reading command on the store as USER (the current one when empty),
# the report into $dir/out-USER (sticky, as /tmp: report refuses a parent others may change
# otherwise); prints the name of each that failed.
reads() {
	local as=() out=$dir/out-${1:-self}
	[ -n "$1" ] && as=(runuser -u "$1" --)
	mkdir -m 1777 "$out"
	"${as[@]}" "$CLAIMBENCH" history --results "$store" >/dev/null 2>>"$out.err" || echo history
	"${as[@]}" "$CLAIMBENCH" show 1 --results "$store" >/dev/null 2>>"$out.err" || echo show
	"${as[@]}" "$CLAIMBENCH" export 2 --format json --results "$store" >/dev/null 2>>"$out.err" || echo export
	"${as[@]}" "$CLAIMBENCH" compare --last --results "$store" >/dev/null 2>>"$out.err"
	[ $? -le 1 ] || echo compare
	if command -v gnuplot >/dev/null; then
		"${as[@]}" "$CLAIMBENCH" report --last --out "$out/report" --results "$store" >/dev/null 2>>"$out.err" ||
			echo report
	fi
}

failed=$(reads "")
check "history, show, export, compare and report read the store (failed: ${failed:-none})" test -z "$failed"
check "the store's bytes are unchanged" test "$(sha256sum <"$store")" = "$sum"
check "no -wal or -shm file is left beside it ($(ls "$dir/ro" | paste -sd ' '))" test "$(ls "$dir/ro")" = results.db

# ---- as another user, who may not write the store nor its folder ----
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 && runuser -u nobody -- test -x "$CLAIMBENCH"; then
	chmod 755 "$dir/ro"
	chmod 644 "$store"
	failed=$(reads nobody)
	check "as nobody, on a store and folder nobody may not write, every reading command works (failed: ${failed:-none}; $(head -c 300 "$dir/out-nobody.err"))" \
		test -z "$failed"
	check "and nothing is left beside the store" test "$(ls "$dir/ro")" = results.db
	# in a folder anyone may write (as /tmp), no -wal or -shm of nobody's is left for the owner's runs to trip on
	chmod 1777 "$dir/ro"
	rm -rf "$dir/out-nobody" "$dir/out-nobody.err"
	failed=$(reads nobody)
	check "as nobody, in a folder anyone may write, the commands work and leave no -wal or -shm ($(ls "$dir/ro" | paste -sd ' '))" \
		eval '[ -z "$failed" ] && [ "$(ls "$dir/ro")" = results.db ]'
	chmod 755 "$dir/ro"
	# while a -wal file is there (a writer has the store open, or died), it is read, not removed
	sqlite3 "$store" "CREATE TABLE IF NOT EXISTS keep_open (x)" >/dev/null
	(echo "BEGIN; SELECT count(*) FROM runs;"; sleep 3; echo "COMMIT;") | sqlite3 "$store" >/dev/null &
	holder=$!
	wait_for 5 test -e "$store-wal"
	check "as nobody, beside a writer's -wal file, history still reads the store" \
		eval 'runuser -u nobody -- "$CLAIMBENCH" history --results "$store" >/dev/null'
	wait "$holder"
	# a store an older claimbench wrote (a metric column missing) must be migrated, which needs write access
	cp "$store" "$dir/ro/old.db"
	sqlite3 "$dir/ro/old.db" "ALTER TABLE runs DROP COLUMN latency_p99_ms"
	chmod 644 "$dir/ro/old.db"
	err=$(runuser -u nobody -- "$CLAIMBENCH" history --results "$dir/ro/old.db" 2>&1 >/dev/null)
	check "as nobody, an older store that needs migrating is refused, saying so ($err)" \
		eval '[[ $err == *"old.db was written by an older claimbench and must be migrated first, which needs write access"* ]]'
	check "its owner's reading command migrates it once, then reads it" eval \
		'"$CLAIMBENCH" history --results "$dir/ro/old.db" >/dev/null &&
		[ "$(sqlite3 "$dir/ro/old.db" "SELECT count(*) FROM pragma_table_info('"'runs'"') WHERE name = '"'latency_p99_ms'"'")" = 1 ]'
	rm -f "$dir/ro/old.db"*
else
	echo "ok - (skipped: reading as another user needs root and the user nobody)"
fi

# ---- a missing or empty file is refused, not made a store ----
expect_exit 3 "no result store at $dir/missing.db" "history of a missing store is refused" \
	history --results "$dir/missing.db"
check "and no file is made" test ! -e "$dir/missing.db"
: >"$dir/empty.db"
expect_exit 3 "empty.db is empty, not a claimbench result store" "history of an empty file is refused" \
	history --results "$dir/empty.db"
expect_exit 3 "empty.db is empty, not a claimbench result store" "show of an empty file is refused" \
	show 1 --results "$dir/empty.db"
check "and the empty file stays empty, with nothing beside it" \
	eval '[ ! -s "$dir/empty.db" ] && [ ! -e "$dir/empty.db-wal" ] && [ ! -e "$dir/empty.db-journal" ]'
sqlite3 "$dir/other.db" "CREATE TABLE mine (x)"
expect_exit 3 "other.db is an SQLite database but not a claimbench result store" \
	"history of another SQLite file is refused" history --results "$dir/other.db"
