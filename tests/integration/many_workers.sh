# Runs with more workers than a fixed-size throwaway server once took (200 connections): the
# throwaway PostgreSQL and MariaDB are sized from the invocation (its largest group's workers,
# producers and the harness's own sessions), a drain of 260 workers on each completes every
# job once, and Ctrl-C stops 260 running workers as it stops 4: exit 4, what was measured
# kept and marked incomplete, the throwaway server gone.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

# ---- PostgreSQL: 260 workers and 20 producers need 296 connections ----
run_json pg --strategy skip-locked:flip --workers 260 --jobs 1500 --work-ms 0 --arrival-rate 200 --arrival-s 1 \
	--producers 20
check "260 workers and 20 producers on the throwaway PostgreSQL: exit 0 (exit $(cat "$dir/pg.status"); $(grep -v "^claimbench: " "$dir/pg.err" | head -c 200))" \
	test "$(cat "$dir/pg.status")" -eq 0
check_jq "$dir/pg.json" '(.settings.max_connections | tonumber) == 296' \
	"its max_connections is the run's need: 260 workers + 20 producers + 16 of the harness's own"
check_each "$dir/pg.json" 'true' '.completed == 1700 and .duplicates == 0 and .lost == 0 and .ledger_mismatches == 0' \
	"every job of the backlog and the arrivals done once"

# ---- MariaDB: 260 workers ----
run_json maria --db mariadb: --strategy skip-locked:flip --workers 260 --jobs 1000 --work-ms 0
check "260 workers on the throwaway MariaDB: exit 0 (exit $(cat "$dir/maria.status"); $(grep -v "^claimbench: " "$dir/maria.err" | head -c 200))" \
	test "$(cat "$dir/maria.status")" -eq 0
check_jq "$dir/maria.json" '(.settings.max_connections | tonumber) == 276' \
	"its max_connections is the run's need: 260 workers + 16 of the harness's own"
check_each "$dir/maria.json" 'true' '.completed == 1000 and .duplicates == 0 and .lost == 0 and .ledger_mismatches == 0' \
	"every job done once"

# ---- Ctrl-C with 260 workers running ----
"$CLAIMBENCH" run --strategy skip-locked:flip --workers 260 --jobs 200000 --work-ms 1 --no-progress --format json \
	--results "$store" >"$dir/int.json" 2>"$dir/int.err" &
pid=$!
check "260 workers complete jobs" wait_for 90 jobs_done_at_least "$dir/int.err" "$pid" 500
kill -INT "$pid"
wait "$pid"
status=$?
check "Ctrl-C stops the 260 workers: exit 4 (exit $status)" test "$status" -eq 4
check_jq "$dir/int.json" '.results[0] | .complete == false and .completed >= 500 and .duplicates == 0' \
	"what they did is kept and marked incomplete"
cluster=$(throwaway_dir "$dir/int.err")
check "the throwaway cluster is gone" eval '[ -n "$cluster" ] && [ ! -e "$cluster" ] && ! pgrep -f -- "$cluster" >/dev/null'
