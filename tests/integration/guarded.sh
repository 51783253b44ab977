# The guarded-resource workloads (seeds 003 and 004, docs/guarded.md): seed 003's
# two-session observations on PostgreSQL; every guard on SQLite with its invariant in a run
# that could break it (the naive guard, run beside it, does break it); Ctrl-C; the refusals
# and the bad values of the workloads' options. Every guard on PostgreSQL is checked by the
# expectations of scenarios/semaphore.ini and tickets.ini (scenarios.sh).
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

# ---- PostgreSQL: seed 003's two-session observations, and FOR UPDATE WAIT n (guarded.ini) ----
run_json pg --scenario "$(dirname "$0")/guarded.ini"
check "seed 003's sessions run on PostgreSQL (exit 0)" test "$(cat "$dir/pg.status")" -eq 0
# A waited skip is a check that began before the refresh's commit (the status row's time) and
# found the cache fresh once granted: it waited for the commit, however late the machine started
# it into the 300 ms (its wait's length is no bound: a loaded machine starts the second worker late).
check_each "$dir/pg.json" '.group == "waits-then-skips"' '.guarded.refreshes == 1 and
	.guarded.duplicate_refreshes == 0 and .guarded.waited_skips >= 1' \
	"the second initialiser waits for the first one's refresh (300 ms), then skips"
check_each "$dir/pg.json" '.group == "user-blocks-refresher"' '.guarded.writer_wait_ms.max >= 80 and
	.guarded.max_holders == 1' "a user holding the cache table blocks the refresher until it is done"
check_each "$dir/pg.json" '.group == "truncate-fails-at-once"' '.guarded.refusals >= 10' \
	"the refresher's TRUNCATE fails at once while a user holds the table (tried every 10 ms, refused each time)"
check_each "$dir/pg.json" '.group == "wait-limit"' '.complete and .guarded.timeouts >= 1' \
	"FOR UPDATE WAIT n: waits over the limit time out and are counted, not fatal"
check_time_bound "$dir/pg.json" '.group == "wait-limit"' '.guarded.wait_ms.max < 300' \
	"FOR UPDATE WAIT n: no check waits out the 300 ms refresh to a grant (a 50 ms limit; each granted wait under 300 ms)"
check_each "$dir/pg.json" '.group == "wait-limit"' '.guarded.stale_uses >= 1 and
	.guarded.stale_uses <= .guarded.timeouts' \
	"a timed-out check's worker uses the cache unchecked, and reads it stale while the refresh is under way"

# ---- SQLite: every guard with a form there: semaphore.ini's expectations, and the resource workload ----
run_json sqlite-semaphore --scenario "$(dirname "$0")/../../scenarios/semaphore.ini" --db "sqlite:$dir/s.db" \
	--duration 0.4
check "semaphore.ini on SQLite: every expectation passes or is skipped (exit 0)" \
	test "$(cat "$dir/sqlite-semaphore.status")" -eq 0
check "the expectations naming advisory and table-share are skipped on SQLite, saying why" eval \
	'grep -q "SKIP  with an advisory lock too: .*(advisory cannot run on sqlite)" "$dir/sqlite-semaphore.err" &&
	 grep -q "SKIP  SHARE mode users overlap one another: .*(table-share cannot run on sqlite)" "$dir/sqlite-semaphore.err"'
check "and the guards are left out with the reason" grep -q "leaving out advisory.*SQLite has no advisory locks" \
	"$dir/sqlite-semaphore.err"
check_jq "$dir/sqlite-semaphore.json" '[.results[].strategy] == ["row-lock", "row-lock-wait", "nowait-retry", "naive",
	"table-exclusive", "truncate-nowait", "naive"]' "semaphore.ini on SQLite runs the seven guards with a form there"
run_json sqlite-resource --db "sqlite:$dir/r.db" --workload resource --workers 3 --duration 0.25 --work-ms 5 \
	--limit 2 --write-share 0.3
check "resource on SQLite: runs (exit 0)" test "$(cat "$dir/sqlite-resource.status")" -eq 0
check_each "$dir/sqlite-resource.json" '.strategy == "ticket-line"' '.guarded.violations == 0 and
	.guarded.max_holders <= 2' "resource on SQLite: the ticket line keeps top-X and readers apart from writers"

check_jq "$dir/sqlite-resource.json" '.results[0] | (.holders | length) > 0 and ([.holders[].resource] | max) == 0 and
	([.holders[].holders] | max) == .guarded.max_holders' \
	"the holders over time are in the JSON, their peak the run's most holders"
line=$("$CLAIMBENCH" history --results "$store" --limit 1 | awk 'NR == 2 { print $4, $5, $8 }')
want="$(jq -r '.results[-1].strategy' "$dir/sqlite-resource.json") resource $(printf '%.1f' \
	"$(jq '.results[-1].guarded.grants_per_s' "$dir/sqlite-resource.json")")"
check "history lists a guarded run: guard, workload, grants per second ($line; want $want)" test "$line" = "$want"

# ---- Ctrl-C: the workers stop, what was measured is kept and marked incomplete (exit 4) ----
"$CLAIMBENCH" run --db "sqlite:$dir/c.db" --workload exclusive-use --guard table-exclusive --workers 3 --duration 30 \
	--work-ms 50 --format json --no-progress --results "$store" >"$dir/ctrl-c.json" 2>"$dir/ctrl-c.err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
check "Ctrl-C stops a guarded run at once (exit 4)" test $? -eq 4
check_jq "$dir/ctrl-c.json" '.results[0] | .complete == false and .guarded.grants > 5 and .guarded.grants_per_s > 10' \
	"the interrupted run keeps its acquisitions, its rate over the time it ran, and is marked incomplete"

# ---- refusals and bad input: exit 2, nothing run ----
expect_exit 2 'guard advisory cannot run on sqlite: SQLite has no advisory locks' "advisory on SQLite is refused" \
	run --db "sqlite:$dir/r.db" --workload refresh --guard advisory
expect_exit 2 'guard table-share cannot run on sqlite: SQLite has no shared lock' "table-share on SQLite is refused" \
	run --db "sqlite:$dir/r.db" --workload exclusive-use --guard table-share
expect_exit 2 'guard ticket-line does not guard the refresh workload' "a guard of another workload is refused" \
	run --db "sqlite:$dir/r.db" --workload refresh --guard ticket-line
expect_exit 2 'unknown guard "latch"; known: row-lock' "an unknown guard" run --workload refresh --guard latch
expect_exit 2 '--workload: expected one of queue, refresh, exclusive-use, resource, got "cache"' "an unknown workload" run --workload cache
expect_exit 2 '--limit: expected a whole number from 1' "a limit X of 0" run --workload resource --limit 0
expect_exit 2 '--write-share: expected a number from 0 to 1' "a write share above 1" \
	run --workload resource --write-share 1.5
expect_exit 2 '--write-share: expected a number from 0 to 1' "a negative write share" \
	run --workload resource --write-share -0.1
expect_exit 2 '--stale-interval-ms: expected a whole number from 1' "a stale interval of 0" run --workload refresh --stale-interval-ms 0
expect_exit 2 '--wait-limit-ms: expected a whole number' "a wait limit that is not a number" \
	run --workload refresh --wait-limit-ms soon
expect_exit 2 '--wait-limit-ms: expected a whole number from 1' "a wait limit of 0" run --workload refresh --wait-limit-ms 0
expect_exit 2 '--workers 1: exclusive-use needs 2 or more' "exclusive-use without a user" \
	run --workload exclusive-use --workers 1
expect_exit 2 '--abandon-share needs --ticket-expiry-ms' "abandoned tickets that nothing expires" \
	run --workload resource --abandon-share 0.1
expect_exit 2 '--limit.*are the resource workload.s, not the refresh workload.s' "a resource setting elsewhere" \
	run --workload refresh --limit 3
expect_exit 2 '--work-dist: the queue workload.s' "drawn use times" run --workload refresh --work-dist exp
expect_exit 2 '--strategy chooses the queue workload.s strategies; the refresh workload runs --guard' \
	"--strategy with a guarded workload" run --workload refresh --strategy naive
expect_exit 2 '--guard chooses the guards of a guarded workload' "--guard with the queue workload" run --guard naive
expect_exit 2 'the faults \(--crash-at ...\): the queue workload.s, not the resource workload.s' \
	"a fault with a guarded workload" run --workload resource --crash-rate 0.1
check "claimbench list guards lists every guard with its workloads" eval \
	'"$CLAIMBENCH" list guards | grep -Eq "^ticket-line-racy +resource +yes +yes"'
