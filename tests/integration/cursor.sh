# skip-locked-cursor, seed 001's Oracle claim (a cursor FOR UPDATE SKIP LOCKED, one FETCH):
# its contract in a contended drain in each claim mode on the throwaway PostgreSQL, with the
# spread of work skip-locked is held to in classic.sh, what crashes cost it, its refusal on SQLite.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db
modes=skip-locked-cursor:hold,skip-locked-cursor:flip

# mode M: the jq condition (check_each's SELECT) of the cursor's runs in claim mode M.
mode() {
	echo ".strategy == \"skip-locked-cursor\" and .claim_mode == \"$1\""
}

# ---- a contended drain: 8 workers on 160 jobs of 10 ms, each claim a DECLARE, a FETCH and a CLOSE ----
run_json drain --strategy "$modes" --workers 8 --jobs 160 --work-ms 10
check "skip-locked-cursor drains in hold and flip mode (exit 0)" test "$(cat "$dir/drain.status")" -eq 0
for m in hold flip; do
	check_each "$dir/drain.json" "$(mode $m)" ".completed == 160 and .duplicates == 0 and .overlaps == 0 and
		.lost == 0 and .stuck == 0 and .ledger_mismatches == 0 and .complete and .errors_total == 0" \
		"$m: 160 jobs done by 8 workers, no duplicates, losses or errors, the table's audit agrees with the ledger"
	check_each "$dir/drain.json" "$(mode $m)" ".fairness.jain >= 0.9" "$m: the workers share the jobs evenly (Jain >= 0.9)"
done
# skip-locked's property in classic.sh (makespan near ideal), with a bound for a loaded machine: a
# cursor that locked every row it selects (Oracle's plain FOR UPDATE at OPEN) would serialise hold
# mode's claims, and the drain would take at least the 1.6 s of work done one job at a time
check_each "$dir/drain.json" "$(mode hold)" ".makespan_s < 0.75 * 160 * 0.010" \
	"hold: the workers do not wait for each other's rows (makespan under 3/4 of the serial 1.6 s)"

# ---- three crashes at fixed executions; flip with a lease and a reaper ----
# (in flip mode a live job the machine held up past its 200 ms lease is the reaper's too, and its
# next claim may overlap it: --verify holds the reaper's count to the give-backs the table's own
# record shows, whatever their number; the drain above, without faults, has no overlap)
run_json crash --strategy "$modes" --workers 4 --jobs 60 --work-ms 20 --crash-exec 5,20,40 --respawn-ms 50 \
	--lease-ms 200 --reaper-ms 50 --verify
check "crash runs exit 0" test "$(cat "$dir/crash.status")" -eq 0
check_each "$dir/crash.json" "$(mode hold)" ".faults_injected == 3 and .lost == 0 and .stuck == 0 and
	.redeliveries == 3 and .overlaps == 0 and .completed == 60 and .reaped == 0" \
	"hold, 3 crashes: each crashed transaction's row lock goes with it, the 3 jobs are claimed again, nothing lost"
check_each "$dir/crash.json" "$(mode flip)" ".faults_injected == 3 and .lost == 0 and .stuck == 0 and
	.reaped >= 3 and .redeliveries >= 3 and .completed == 60 and .verified and
	.verify_differences == []" \
	"flip with a lease and a reaper, 3 crashes: the reaper gives the 3 active jobs back, nothing lost"
check_each "$dir/crash.json" 'true' '.ledger_mismatches == 0' \
	"crash runs: the table's audit agrees with the ledger"

# ---- SQLite: refused as skip-locked is; and the list ----
expect_exit 2 'strategy skip-locked-cursor cannot run on sqlite: it needs FOR UPDATE SKIP LOCKED, and SQLite has no row locks' \
	"skip-locked-cursor is refused on SQLite, with the reason" run --db "sqlite:$dir/q.db" \
	--strategy skip-locked-cursor --jobs 1
expect_exit 2 'strategy skip-locked-cursor cannot run on sqlite' "skip-locked-cursor:flip in a list is refused too" \
	run --db "sqlite:$dir/q.db" --strategy cas,skip-locked-cursor:flip --jobs 1
check "list shows skip-locked-cursor, hold by default and flip, PostgreSQL only" eval \
	'"$CLAIMBENCH" list | grep -Eq "^skip-locked-cursor +hold\*,flip +(- +)+a cursor FOR UPDATE SKIP LOCKED"'
