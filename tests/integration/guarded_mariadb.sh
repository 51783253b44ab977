# The guarded-resource workloads on MariaDB (docs/guarded.md, docs/mariadb.md): every guard
# in InnoDB's dialect on a throwaway server. Seed 003's two-session observations
# (guarded_mariadb.ini): FOR UPDATE and GET_LOCK make the second comer wait for the
# refresh's commit and skip, FOR UPDATE WAIT 1 waits out a shorter refresh and times out
# against a longer one, LOCK TABLES ... WRITE blocks the refresher, LOCK TABLES ... NOWAIT
# refuses it at once; scenarios/semaphore.ini and tickets.ini run every guard there with
# every expectation passing (exclusive use never overlaps under the locking guards, the naive
# guard does overlap, the line keeps top-X and readers apart from writers); row-lock-wait
# refused for a wait limit that InnoDB's WAIT n cannot count (exit 2, before any server).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db
# The throwaway servers' directories go into a sticky folder of the script's own, which the
# server's user (mysql, when the test runs as root) can reach.
chmod 755 "$dir"
mkdir -m 1777 "$dir/tmp"
export TMPDIR=$dir/tmp

# ---- refusals: exit 2, before any server starts ----
expect_exit 2 "guard row-lock-wait cannot run on mariadb: InnoDB's FOR UPDATE WAIT n counts whole seconds .*--wait-limit-ms 50 is not a multiple of 1000" \
	"row-lock-wait on MariaDB with a wait limit of 50 ms (the default) is refused, saying why" \
	run --db mariadb: --workload refresh --guard row-lock-wait --no-progress --results "$store"
expect_exit 2 "--wait-limit-ms 1500 is not a multiple of 1000" "and with 1500 ms, which WAIT n would cut to 1 s" \
	run --db mariadb: --workload refresh --guard row-lock-wait --wait-limit-ms 1500 --no-progress --results "$store"
check "no throwaway server was started for them" test -z "$(ls "$dir/tmp")"
# "GUARDS NOT_ON_MARIADB": the guards `list guards` lists and those without yes in its mariadb column.
guards_on_mariadb() {
	"$CLAIMBENCH" list guards | awk '$3 == "yes" || $3 == "-" { n++; if ($5 != "yes") bad++ } END { print n + 0, bad + 0 }'
}
on_mariadb=$(guards_on_mariadb)
check "claimbench list guards: every guard runs on MariaDB (guards, not on MariaDB: $on_mariadb; want 10 0)" \
	test "$on_mariadb" = "10 0"
check "and says row-lock-wait's wait limit there counts whole seconds" eval \
	'"$CLAIMBENCH" list guards | grep -q "row-lock-wait on mariadb: --wait-limit-ms a multiple of 1000"'

# ---- seed 003's sessions (guarded_mariadb.ini) ----
run_json seed --db mariadb: --scenario "$(dirname "$0")/guarded_mariadb.ini"
check "seed 003's sessions run on MariaDB (exit $(cat "$dir/seed.status"), want 0)" test "$(cat "$dir/seed.status")" -eq 0
check_jq "$dir/seed.json" '.backend == "mariadb" and [.results[] | .group] == ["waits-then-skips",
	"advisory-waits-then-skips", "wait-outlasts-refresh", "wait-limit", "user-blocks-refresher",
	"truncate-fails-at-once"] and all(.results[]; .complete)' "each section ran once on MariaDB, to its end"
# A waited skip is a check that began before the refresh's commit (the status row's time) and
# found the cache fresh once granted: it waited for the commit, however late the machine started
# it into the 300 ms (its wait's length is no bound: a loaded machine starts the second worker late).
for group in waits-then-skips advisory-waits-then-skips wait-outlasts-refresh; do
	check_each "$dir/seed.json" ".group == \"$group\"" '.guarded.refreshes == 1 and .guarded.waited_skips >= 1 and
		.guarded.timeouts == 0 and .guarded.duplicate_refreshes == 0' \
		"$group: the second initialiser waits for the first one's refresh (300 ms), then skips"
done
check_each "$dir/seed.json" '.group == "wait-limit"' '.complete and .guarded.timeouts >= 2 and
	.guarded.refreshes == 1' "FOR UPDATE WAIT 1: the two checks waiting on a 1500 ms refresh time out, counted, not fatal"
check_each "$dir/seed.json" '.group == "wait-limit"' '.guarded.stale_uses >= 1 and
	.guarded.stale_uses <= .guarded.timeouts' \
	"a timed-out check's worker uses the cache unchecked, and reads it stale while the refresh is under way"
check_each "$dir/seed.json" '.group == "user-blocks-refresher"' '.guarded.writer_wait_ms.max >= 80 and
	.guarded.max_holders == 1 and .guarded.violations == 0' \
	"a user holding the cache table (LOCK TABLES ... WRITE) blocks the refresher until it is done"
check_each "$dir/seed.json" '.group == "truncate-fails-at-once"' '.guarded.refusals >= 10 and .guarded.violations == 0' \
	"the refresher's LOCK TABLES ... NOWAIT fails at once while a user holds the table (tried every 10 ms)"

# ---- scenarios/semaphore.ini and tickets.ini: every guard, every expectation ----
run_json semaphore --db mariadb: --scenario "$(dirname "$0")/../../scenarios/semaphore.ini" --duration 0.4
check "semaphore.ini on MariaDB: every expectation passes (exit $(cat "$dir/semaphore.status"), want 0)" \
	test "$(cat "$dir/semaphore.status")" -eq 0
check_jq "$dir/semaphore.json" '[.results[].strategy] == ["row-lock", "row-lock-wait", "nowait-retry", "advisory", "naive",
	"table-exclusive", "table-share", "truncate-nowait", "naive"]' "semaphore.ini on MariaDB runs all nine of its guards"
check "none of its expectations is skipped, none left out ($(grep -c '^  PASS' "$dir/semaphore.err") passed)" eval \
	'! grep -q "SKIP\|leaving out" "$dir/semaphore.err" && [ "$(grep -c "^  PASS" "$dir/semaphore.err")" -eq 23 ]'
check_each "$dir/semaphore.json" '.strategy != "naive"' '.guarded.violations == 0 and .guarded.torn_uses == 0' \
	"no locking guard lets a conflicting holder in on InnoDB, nor a use read a half-written cache"
check_each "$dir/semaphore.json" '.strategy == "naive"' '.guarded.violations > 0 and .guarded.max_holders > 1' \
	"the naive guard run beside them does overlap, in refresh and in exclusive-use"
run_json tickets --db mariadb: --scenario "$(dirname "$0")/../../scenarios/tickets.ini" --duration 1
check "tickets.ini on MariaDB: every expectation passes (exit $(cat "$dir/tickets.status"), want 0)" \
	test "$(cat "$dir/tickets.status")" -eq 0
check_jq "$dir/tickets.json" '[.results[].strategy] == ["ticket-line", "ticket-line-racy", "naive", "ticket-line", "naive",
	"ticket-line", "naive", "ticket-line", "ticket-line"]' "tickets.ini on MariaDB runs each section's guards"
check "none of its expectations is skipped ($(grep -c '^  PASS' "$dir/tickets.err") passed)" eval \
	'! grep -q "SKIP" "$dir/tickets.err" && [ "$(grep -c "^  PASS" "$dir/tickets.err")" -eq 11 ]'
check_each "$dir/tickets.json" '.strategy == "ticket-line" and (.group == "line" or .group == "top-x" or
	.group == "readers-writers")' '.guarded.violations == 0 and .guarded.fifo_inversions == 0 and .complete' \
	"the line's tickets, taken under GET_LOCK, commit in their order: no overlap, no FIFO inversion"
check_each "$dir/tickets.json" '.strategy == "naive"' '.guarded.violations > 0' \
	"without the line, requests overlap in every section"
