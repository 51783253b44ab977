# claimbench explore: every interleaving of 2 workers' statements on a test server of its own.
# naive's duplicate found, printed as its schedule (whole statements and their bound values,
# results labelled by column, the violating step marked, stdout before stderr under 2>&1)
# and replayed from its trace; skip-locked clean
# over every schedule in both modes; for-update clean with its blocked steps shown;
# nowait-backoff's lock errors found; the faults as steps (a crash without a lease leaves the job
# stuck, a lease and a reaper redeliver it, a stall past the lease without a fence completes as a
# zombie, which the fence refuses); a hang ends every worker's statement; what explore refuses. The timing-free replacement of
# classic.sh's "naive duplicates under contention" and "skip-locked never duplicates".
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
start_test_server || { echo "not ok - a test server starts"; exit 0; }

# ---- naive: its duplicate found, every schedule of 2 workers x 2 claims on 2 jobs ----
explore_json naive --strategy naive --expect 'duplicate > 0'
check "naive: at least one duplicate schedule (the expectation holds: exit 0)" test "$(cat "$dir/naive.status")" -eq 0
check_jq "$dir/naive.json" '.[0] | .complete and .schedules > 100 and .with.duplicate > 0 and .with.lost == 0' \
	"naive: every schedule run, some with a duplicate, none with a lost job"
check_jq "$dir/naive.json" '.[0].shown | .violation and .findings.duplicate == 1 and
	([.events[] | select(.kind == "step")] | length) == (.trace | split(".") | length) and
	([.events[] | select(.kind == "step" and (.statement | startswith("SELECT")) and .result == "1 row: id=2")] | length) == 2' \
	"naive: the counterexample is printed step by step, its trace one choice a step, both workers reading job 2"
trace=$(jq -r '.[0].shown.trace' "$dir/naive.json")
explore_json replay --strategy naive --schedule "$trace" --expect 'duplicate == 1'
check "naive: its trace $trace replays, and the duplicate with it (exit 0)" test "$(cat "$dir/replay.status")" -eq 0
check "naive: the replay's statements and results are the counterexample's, one by one" \
	test "$(jq -c '[.[0].shown.events[] | [.worker, .kind, .statement, .result]]' "$dir/replay.json")" = \
	"$(jq -c '[.[0].shown.events[] | [.worker, .kind, .statement, .result]]' "$dir/naive.json")"

# ---- the counterexample as a reviewer reads it (the table) ----
"$CLAIMBENCH" explore --db "$TEST_DB" --results "$dir/explore.db" --strategy naive --expect 'duplicate > 0' \
	>"$dir/naive.txt" 2>&1
check "naive's table: the claim's whole SQL, no FOR UPDATE in it, its bound value shown, the result labelled" eval \
	'grep -qF "SELECT id FROM {jobs} WHERE queue = \$1 AND status = '\''new'\'' ORDER BY id LIMIT 1 with \$1 =" "$dir/naive.txt" &&
	 ! grep -q "FOR UPDATE" "$dir/naive.txt" && grep -q -- "-> 1 row: id=2$" "$dir/naive.txt" &&
	 grep -q -- "-> 1 row: attempts=1$" "$dir/naive.txt"'
# the marked step (=>), its note (^^), and the step the note points back to
marked=$(awk '/^  => / { print $2; getline; while ($0 !~ /\^\^/) getline; sub(/^ *\^\^ /, ""); print; exit }' "$dir/naive.txt" | tr '\n' '|')
check "the violating step is marked with what it violated (got: $marked)" \
	eval '[[ "$marked" =~ ^[0-9]+\|duplicate:\ job\ 2,\ already\ held\ by\ w[01]\ since\ step\ [0-9]+\|$ ]]'
check_jq "$dir/naive.json" '.[0].shown as $s | ($s.violated | capture("by w(?<w>[01]) since step (?<s>[0-9]+)")) as $c |
	$s.violated_at > 0 and ($s.violated | test("^duplicate: job 2, already held by w[01] since step [0-9]+$")) and
	$s.events[$s.violated_at - 1].result == "1 row: id=2" and
	$s.events[$s.violated_at - 1].worker != ($c.w | tonumber) and
	($s.events[($c.s | tonumber) - 1] | .worker == ($c.w | tonumber) and .result == "1 row: id=2")' \
	"naive's JSON: the violating step claims job 2, which the other worker had claimed at the step named"
check "2>&1: the trace and the PASS line come before \"stored in\", which is last" eval \
	'[ "$(tail -1 "$dir/naive.txt" | cut -c1-22)" = "claimbench: stored in " ] &&
	 [ "$(grep -c "stored in" "$dir/naive.txt")" -eq 1 ] &&
	 [ "$(grep -n "^  PASS  --expect: duplicate > 0  (it is [0-9]*)$" "$dir/naive.txt" | cut -d: -f1)" -eq "$(($(wc -l <"$dir/naive.txt") - 1))" ]'
"$CLAIMBENCH" explore --db "$TEST_DB" --results "$dir/explore.db" --strategy skip-locked:flip --claims 1 >"$dir/skip.txt" 2>&1
# joined FILE: FILE's lines joined by one blank, blanks squeezed (a wrapped statement made whole).
joined() { tr -s ' \n' '  ' <"$1"; }
check "skip-locked's table shows its claim whole (its wrapped lines joined): FOR UPDATE SKIP LOCKED, not cut" eval \
	'joined "$dir/skip.txt" | grep -qF "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED with \$1 = '\''default'\'' -> 1 row: id=1"'
explore_json naive_clean --strategy naive --expect 'duplicate == 0'
check "naive: expecting no duplicate fails (exit 1)" test "$(cat "$dir/naive_clean.status")" -eq 1
check "naive: the failed expectation is named on stderr" grep -q "expectation failed: duplicate == 0" "$dir/naive_clean.err"

# ---- skip-locked: no violation over every schedule, in both modes ----
explore_json skip --strategy skip-locked:hold,skip-locked:flip --expect 'violation == 0' --expect 'error == 0'
check "skip-locked: no violation in any schedule of hold or flip mode (exit 0)" test "$(cat "$dir/skip.status")" -eq 0
check_jq "$dir/skip.json" 'length == 2 and all(.[]; .complete and .schedules > 400 and .bounded == 0 and
	.with.duplicate == 0 and .with.lost == 0 and .with.stuck == 0)' \
	"skip-locked: hold and flip, every schedule run (over 400 each), none bounded, none duplicates or loses a job"

# ---- for-update: clean, its waits shown as blocked steps ----
explore_json for_update --strategy for-update:hold --expect 'violation == 0' --expect 'blocked > 0'
check "for-update: no violation, and some schedules block (exit 0)" test "$(cat "$dir/for_update.status")" -eq 0
check_jq "$dir/for_update.json" '.[0].shown | (.violation | not) and
	any(.events[]; .blocked and (.statement | test("FOR UPDATE")))' \
	"for-update: the schedule shown has a FOR UPDATE that blocked in the server, then returned"

# ---- nowait-backoff: its lock errors found (2 tries a claim bound the retries) ----
explore_json nowait --strategy nowait-backoff:hold --tries 2 --claims 1 --expect 'lock-error > 0' --expect 'violation == 0'
check "nowait-backoff: lock errors found, no violation (exit 0)" test "$(cat "$dir/nowait.status")" -eq 0
check_jq "$dir/nowait.json" '.[0] | .complete and .with["lock-error"] > 0' \
	"nowait-backoff: every schedule run, some with a lock error (55P03)"

# ---- strategies a scenario defines in SQL are explored unchanged ----
explore_json sql_twin "$(dirname "$0")/explore.ini" --strategy seed-002 --expect 'violation == 0'
check "seed 002's claim written in SQL: no violation over every schedule (exit 0)" \
	test "$(cat "$dir/sql_twin.status")" -eq 0
check_jq "$dir/sql_twin.json" '.[0] | .strategy == "seed-002" and .complete and .schedules > 100' \
	"seed-002: every schedule run"
explore_json sql_naive "$(dirname "$0")/explore.ini" --strategy naive-select --claims 1 --expect 'duplicate > 0'
check "a naive claim written in SQL: its duplicate found (exit 0)" test "$(cat "$dir/sql_naive.status")" -eq 0

explore_json lifo "$(dirname "$0")/explore.ini" --strategy newest-first --workers 1 --claims 1 --expect 'fifo-inversion == 1'
check "a claim of the newest job while an older one waits: a FIFO inversion (exit 0)" \
	test "$(cat "$dir/lifo.status")" -eq 0
check_jq "$dir/lifo.json" '.[0].shown.events | any(.kind == "check" and .statement == "the claim took job 2" and
	.result == "job 1 was claimable before it and after it")' "the inversion is shown: job 2 taken while job 1 waited"

# ---- a scenario's statement the server refuses: explore refuses it before any schedule, as run does ----
printf '[global]\njobs = 2\n\n[strategy typo]\nsummary = a typo in the claim\nclaim = SELEC id FROM {jobs} WHERE queue = :queue\n' \
	>"$dir/typo.ini"
expect_exit 2 'typo\.ini:6: claim of strategy typo: .*syntax error at or near "SELEC"' \
	"a scenario's claim the server cannot prepare: explore names the file and line" \
	explore --db "$TEST_DB" --results "$dir/explore.db" --strategy typo --claims 1 "$dir/typo.ini"

# ---- a hang ends every worker's statement: a claim that sleeps 30 s in the server ----
# Worker 0's claim neither returns nor blocks: the hang detector fails the search after its
# 10 s (the message says so). Worker 1, which waited for its grant then, sends the same claim
# once released; unless its statement is cancelled too, explore exits only after its 30 s
# sleep, 40 s in all. The bound of 25 s is generous for a loaded machine (the detector's 10 s
# and the tables' clean-up) and still well below that sleep alone.
printf '[global]\njobs = 2\n\n[strategy sleepy]\nsummary = a claim that sleeps 30 s\nclaim = SELECT id FROM {jobs}, pg_sleep(30) WHERE queue = :queue AND status = %s ORDER BY id LIMIT 1\n' \
	"'new'" >"$dir/sleepy.ini"
started=$(date +%s)
explore_json sleepy "$dir/sleepy.ini" --strategy sleepy --claims 1 --trust-scenario
took=$(($(date +%s) - started))
check "a claim that sleeps 30 s: explore fails on the hang (exit $(cat "$dir/sleepy.status")) and exits after ${took} s, under 25 s" \
	eval '[ "$(cat "$dir/sleepy.status")" -eq 3 ] && [ "$took" -lt 25 ] &&
	      grep -q "worker 0.s statement neither returned nor blocked within 10 s: SELECT id FROM {jobs}, pg_sleep(30)" "$dir/sleepy.err"'

# ---- faults as steps: a flip claim, then a crash, a lease, a stall ----
flip="--strategy update-returning:flip --claims 1 --jobs 1"
explore_json crash $flip --crash --expect 'stuck > 0'
check "a crash between a flip claim and its completion, no lease: the job is stuck (exit 0)" \
	test "$(cat "$dir/crash.status")" -eq 0
check_jq "$dir/crash.json" '.[0].shown | .findings.stuck == 1 and any(.events[]; .kind == "crash") and (.trace | test("c"))' \
	"the stuck job's schedule shows the crash, its trace a cN choice"
explore_json reaper $flip --crash --lease-ms 600000 --reaper-ms 1000 --expect 'violation == 0' --expect 'redelivered > 0' \
	--show redelivered
check "with a lease and a reaper: no job lost in any schedule, and the job redelivered in some (exit 0)" \
	test "$(cat "$dir/reaper.status")" -eq 0
check_jq "$dir/reaper.json" '.[0].shown | .redeliveries == 1 and any(.events[]; .kind == "expire" and (.result | test("reaper gave back 1")))' \
	"the redelivery's schedule (--show redelivered) shows the lease running out and the reaper giving the job back"
explore_json hold_crash --strategy skip-locked:hold --claims 1 --crash --expect 'violation == 0' --expect 'redelivered > 0'
check "a crash in hold mode: its transaction rolls back, the job is redelivered, never a duplicate (exit 0)" \
	test "$(cat "$dir/hold_crash.status")" -eq 0
explore_json zombie $flip --lease-ms 600000 --fence none --expect 'zombie > 0'
check "a stall past the lease with no fence: the late completion lands as a zombie (exit 0)" \
	test "$(cat "$dir/zombie.status")" -eq 0
check_jq "$dir/zombie.json" '.[0].shown | .violation and .findings.zombie == 1 and any(.events[]; .kind == "expire")' \
	"the zombie's schedule shows the lease expiring before the holder completes"
explore_json fenced $flip --lease-ms 600000 --fence attempt --expect 'zombie == 0' --expect 'fenced > 0'
check "with --fence attempt the late completion is refused in every schedule (exit 0)" \
	test "$(cat "$dir/fenced.status")" -eq 0

# ---- its help, and what explore refuses ----
check "explore --help shows explore's own options and run's (exit 0)" \
	eval '"$CLAIMBENCH" explore --help | grep -q -- "--claims C" && "$CLAIMBENCH" explore --help | grep -q -- "--lease-ms"'
expect_exit 2 "SQLite cannot be explored: its lock is the whole database" "SQLite is refused with the reason" \
	explore --db "sqlite:$dir/q.db" --strategy for-update
expect_exit 2 "choice 2 .*expected a worker number" "a malformed trace is refused, its choice named" \
	explore --db "$TEST_DB" --results "$dir/refused.db" --strategy naive --schedule 0.x
expect_exit 2 "choice 1 of the trace is not offered there" "a trace that does not apply is refused" \
	explore --db "$TEST_DB" --results "$dir/refused.db" --strategy naive --schedule 1.0
expect_exit 2 "unknown kind" "an unknown expectation is refused" explore --db "$TEST_DB" --results "$dir/refused.db" --expect 'dups > 0'
check "explore leaves no table on the test server" test "$(test_sql "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'claimbench%'")" -eq 0
