# A result store whose schema version (PRAGMA user_version) no claimbench writes — negative,
# or above this claimbench's — is refused by every command that opens a store (history, show,
# export, compare, report, and run's and explore's --results): "not a claimbench result store"
# or "a newer claimbench", exit 3, within seconds, and the file is left as it was (its bytes,
# and no -wal, -shm or -journal beside it). Stores travel as CI artifacts: the version is an
# input from outside.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! command -v sqlite3 >/dev/null; then
	echo "ok - # SKIP the sqlite3 shell is not installed: no store can be crafted"
	exit 0
fi
"$CLAIMBENCH" run --db sqlite: --strategy update-returning --jobs 1 --work-ms 0 --no-progress \
	--results "$dir/real.db" >/dev/null 2>&1
current=$(sqlite3 "$dir/real.db" "PRAGMA user_version")
check "a run's store has a schema version ($current)" test "${current:-0}" -ge 1
# A server nothing listens on: explore refuses its store before it would connect.
nowhere="host=/nonexistent port=1 dbname=none connect_timeout=1"

# refused VERSION PATTERN: each command that opens a store, on a copy of the run's store with
# user_version VERSION, exits 3 with stderr matching PATTERN and leaves the file as it was.
refused() {
	local version=$1 pattern=$2 store="$dir/v$1.db" sum err status what
	cp "$dir/real.db" "$store"
	sqlite3 "$store" "PRAGMA user_version = $version"
	sum=$(cksum <"$store")
	for what in history show export compare report run explore; do
		case $what in
		history) set -- history ;;
		show) set -- show 1 ;;
		export) set -- export 1 --format json ;;
		compare) set -- compare --last ;;
		report) set -- report --last --out "$dir/report-$version" ;;
		run) set -- run --db sqlite: --strategy update-returning --jobs 1 --work-ms 0 --no-progress ;;
		explore) set -- explore --db "$nowhere" ;;
		esac
		err=$(timeout 15 "$CLAIMBENCH" "$@" --results "$store" 2>&1 >/dev/null)
		status=$?
		if [ "$status" -eq 3 ] && grep -Eq -- "$pattern" <<<"$err" && [ "$(cksum <"$store")" = "$sum" ] &&
			! ls "$store"-* >/dev/null 2>&1; then
			echo "ok - $what refuses a store of user_version $version (exit 3), the file untouched"
		else
			echo "not ok - $what on a store of user_version $version: exit $status, want 3" \
				"$( [ "$status" -eq 124 ] && echo "(still running after 15 s)");" "file $( [ "$(cksum <"$store")" = "$sum" ] && echo unchanged ||
				echo changed), beside it: $(cd "$dir" && ls "v$version.db"-* 2>/dev/null | tr '\n' ' ');" \
				"stderr: $(head -n 2 <<<"$err")"
		fi
		rm -f "$store"-*
	done
}

# -1 to -3 looped for ever on af91ccb holding the store's write lock, -5 ran a string of the
# binary as SQL, the smallest segfaulted: each is no store.
for version in -1 -3 -5 -2147483648; do
	refused "$version" "v$version\\.db is not a claimbench result store \\(its schema version, PRAGMA user_version, is $version"
done
for version in $((current + 1)) 2147483647; do
	refused "$version" "v$version\\.db was written by a newer claimbench \\(schema version $version; this one knows up to $current\\)"
done

# The store itself still reads: the refusals are of the crafted copies alone.
check "history still reads the run's own store" eval '"$CLAIMBENCH" history --results "$dir/real.db" | grep -q update-returning'
