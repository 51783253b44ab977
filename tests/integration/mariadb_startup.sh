# The throwaway MariaDB's start interrupted: claimbench SIGKILLed the moment its
# mariadb-install-db, its bootstrap mariadbd, then its mariadbd, has appeared (long before mariadbd writes its own
# pid file). The watchdog stops what was started, by the pid noted as it was forked, and
# removes the directory: nothing is left. As root with $TMPDIR mode 0755, where the mysql
# account may not write, the throwaway server starts all the same (its temporary files go in
# its own directory, --tmpdir); and a failing mariadb-install-db is quoted by its log's first
# [ERROR] line, the cause, not its last ("Aborting").
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

# ---- $TMPDIR 0755 as root: the programs run as mysql, which may not write there ----
# On af91ccb: "mariadb-install-db failed: ... [ERROR] Aborting", exit 3.
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 755 "$dir/tmp755"
	TMPDIR=$dir/tmp755 "$CLAIMBENCH" run --db mariadb: --strategy skip-locked --jobs 5 --work-ms 0 --no-progress \
		--results "$dir/results.db" >/dev/null 2>"$dir/tmp755.err"
	status=$?
	check "as root with a 0755 \$TMPDIR the throwaway MariaDB starts and the run completes (exit $status: $(tail -n 1 "$dir/tmp755.err"))" \
		test "$status" -eq 0
	check "and nothing is left in that \$TMPDIR" eval '[ -z "$(ls -A "$dir/tmp755")" ]'
else
	echo "ok - # SKIP not root: the throwaway MariaDB runs as ourselves, who may write \$TMPDIR"
fi

# ---- a failing mariadb-install-db quoted by its first [ERROR] line ----
# Stand-ins for the programs (CLAIMBENCH_MARIADB_BINDIR): the install logs its cause, then two
# more errors, the last "Aborting", as mariadbd does, and fails.
mkdir -m 755 "$dir/bin"
printf '#!/bin/sh\nexit 1\n' >"$dir/bin/mariadbd"
cat >"$dir/bin/mariadb-install-db" <<'SCRIPT'
#!/bin/sh
echo "2026-01-01  0 [Note] Starting MariaDB as process 1"
echo "2026-01-01  0 [ERROR] mariadbd: Can't create/write to file '/nowhere/ibXXXXXX' (Errcode: 13 \"Permission denied\")"
echo "2026-01-01  0 [ERROR] InnoDB: Unable to create temporary file; errno: 13"
echo "2026-01-01  0 [ERROR] Aborting"
exit 1
SCRIPT
chmod 755 "$dir/bin/mariadbd" "$dir/bin/mariadb-install-db"
err=$(CLAIMBENCH_MARIADB_BINDIR=$dir/bin "$CLAIMBENCH" run --db mariadb: --strategy skip-locked --jobs 5 --no-progress \
	--results "$dir/results.db" 2>&1 >/dev/null)
status=$?
check "a failing install quotes its log's first [ERROR] line, not \"Aborting\" (exit $status: $err)" \
	eval '[ "$status" -eq 3 ] && grep -q "mariadb-install-db failed: .*\[ERROR\] mariadbd: Can.t create/write to file ./nowhere/ibXXXXXX. (Errcode: 13" <<<"$err" &&
	      ! grep -q Aborting <<<"$err"'
check "and its directory is removed" eval '! ls -d "$TMPDIR"/claimbench-mariadb-* >/dev/null 2>&1'
