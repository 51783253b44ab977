# The throwaway MariaDB's start interrupted: claimbench SIGKILLed the moment its
# mariadb-install-db, its bootstrap mariadbd, then its mariadbd, has appeared (long before mariadbd writes its own
# pid file). The watchdog stops what was started, by the pid noted as it was forked, and
# removes the directory: nothing is left.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
mkdir -m 1777 "$dir/tmp"
export TMPDIR=$dir/tmp

# first_appears PATTERN: polls, without sleeping, for a process matching PATTERN (10 s at most).
first_appears() {
	local until=$((SECONDS + 10))
	until pgrep -f "$1" >/dev/null; do
		[ "$SECONDS" -lt "$until" ] || return 1
	done
}

for program in mariadb-install-db "mariadbd --bootstrap" "mariadbd --socket"; do
	"$CLAIMBENCH" run --db mariadb: --strategy skip-locked --jobs 5 --no-progress --results "$dir/results.db" \
		>/dev/null 2>&1 &
	pid=$!
	check "$program starts" first_appears "${program// /.*}.*$TMPDIR/claimbench-mariadb-"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	check "SIGKILL as $program appears: the watchdog stops it and removes the directory within 15 s" wait_for 15 \
		eval '! ls -d "$TMPDIR"/claimbench-mariadb-* >/dev/null 2>&1 && ! pgrep -f "mariadb.*$TMPDIR/claimbench-mariadb" >/dev/null'
	left=$(pgrep -f "mariadb.*$TMPDIR/claimbench-mariadb")
	[ -z "$left" ] || kill -KILL $left 2>/dev/null
	rm -rf "$TMPDIR"/claimbench-mariadb-*
done
