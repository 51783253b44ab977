# history and show inv:N read back, on SQLite (no server): history is exactly newest first (the
# runs of ab's alternating rounds, stored in one second, by run id, --limit taking the newest);
# an invocation stored before schema 13 (its command NULL) is listed with command "-", as show
# prints it; show inv:N of a run invocation prints each run, then the invocation once.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/store.db
db=sqlite:$dir/q.db

# ---- history: ab's 3 rounds (AB, BA, AB) newest first ----
printf '[global]\njobs = 3\nworkers = 1\nwork-ms = 0\n\n[drain]\nstrategy = naive\n' >"$dir/a.ini"
"$CLAIMBENCH" ab --db "$db" --results "$store" "$dir/a.ini" "$dir/a.ini" --rounds 3 >/dev/null 2>"$dir/ab.err"
status=$?
check "ab of 3 rounds on SQLite stores 6 runs in 2 invocations (exit 0)" \
	eval '[ "$status" -eq 0 ] && [ "$(sqlite3 "$store" "SELECT count(*), count(DISTINCT invocation_id) FROM runs")" = "6|2" ]'
ids() { "$CLAIMBENCH" history --results "$store" "$@" | awk 'NR > 1 { printf "%s%s", sep, $1; sep = "," }'; }
check "history lists ab's runs newest first: 6,5,4,3,2,1 (got $(ids))" test "$(ids)" = 6,5,4,3,2,1
check "history --limit 2 lists the newest two: 6,5 (got $(ids --limit 2))" test "$(ids --limit 2)" = 6,5

# ---- an invocation stored before 13: command unknown ----
"$CLAIMBENCH" run --db "$db" --results "$store" --strategy naive --workers 1 --jobs 3 --work-ms 0 --repeat 2 \
	--no-progress >/dev/null 2>&1
check "run --repeat 2 is invocation 3 with runs 7 and 8" \
	test "$(sqlite3 "$store" "SELECT group_concat(id) FROM runs WHERE invocation_id = 3")" = 7,8
sqlite3 "$store" "UPDATE invocations SET command = NULL WHERE id = 1"
"$CLAIMBENCH" history --results "$store" >"$dir/history.out"
check "history says - for a command stored before 13 (NULL), as show does, and ab for ab's" \
	eval 'grep -Eq "^ +5 +1 .* -$" "$dir/history.out" && grep -Eq "^ +6 +2 .* ab$" "$dir/history.out" &&
	      "$CLAIMBENCH" show 5 --results "$store" | grep -qx "command: -"'

# ---- show inv:N of a run invocation: each run, then the invocation once ----
"$CLAIMBENCH" show inv:3 --results "$store" >"$dir/show.out"
status=$?
check "show inv:3 exits 0 and prints runs 7 and 8, in order" \
	eval '[ "$status" -eq 0 ] && [ "$(grep -o "^run [0-9]* of invocation 3" "$dir/show.out" | tr "\n" ,)" = \
		"run 7 of invocation 3,run 8 of invocation 3," ]'
check "show inv:3 prints the invocation once, after the last run" \
	eval '[ "$(grep -c "^command: run$" "$dir/show.out")" = 1 ] && [ "$(grep -c "^scenario text:" "$dir/show.out")" = 1 ] &&
	      [ "$(grep -n "^command: run$" "$dir/show.out" | cut -d: -f1)" -gt "$(grep -n "^run 8 " "$dir/show.out" | cut -d: -f1)" ]'

# ---- show cleans what it prints from the store: no ESC reaches the terminal, no newline forges a line ----
# Run 8 is given a sampled server's CPU share (so that its diagnosis line is printed), an ESC
# sequence in its strategy name and section, and newlines in its invocation's host and scenario name.
sqlite3 "$store" "UPDATE runs SET server_wait_cpu_pct = 90, server_wait_lock_pct = 5, server_wait_lwlock_pct = 0,
	server_wait_io_pct = 0, server_wait_client_pct = 5, server_wait_other_pct = 0,
	strategy = 'naive' || char(27) || '[31m', run_group = 'sec' || char(27) || ']0;title' || char(7)
	WHERE id = 8;
	UPDATE invocations SET host = 'host' || char(10) || 'forged host line',
	scenario = 'scen' || char(10) || 'forged scenario line' || char(13) WHERE id = 3"
"$CLAIMBENCH" show 8 --results "$store" >"$dir/clean.out" 2>&1
status=$?
check "show of a stored row with ESC and newlines prints its diagnosis line, with no control character and no forged line (exit $status)" \
	eval '[ "$status" -eq 0 ] && grep -q "^diagnosis:" "$dir/clean.out" && grep -Eq "^  naive\?\[31m flip x1 sec\?\]0;title\?: Most of" "$dir/clean.out" &&
	      ! grep -q "[[:cntrl:]]" "$dir/clean.out" && ! grep -q "^forged" "$dir/clean.out" &&
	      grep -qx "host: host?forged host line" "$dir/clean.out" && grep -qx "scenario: scen?forged scenario line?" "$dir/clean.out"'

# ---- history cuts a long section name to its column, with an ellipsis ----
sqlite3 "$store" "UPDATE runs SET run_group = printf('%.20000c', 'x') WHERE id = 7"
line=$("$CLAIMBENCH" history --results "$store" | awk '$1 == 7')
check "history cuts a 20,000-character section name to 32 characters ending in ... (line of ${#line} characters)" \
	eval '[ "${#line}" -lt 200 ] && grep -Eq " x{29}\.\.\.  run$" <<<"$line"'
