# The strategies real queues use (advisory, cas, delete-returning, move-table): each one's
# contract in a contended drain run on the throwaway PostgreSQL and on SQLite where it runs,
# what a crash costs each (the accounting of rows the claim deletes or moves), its refusals
# and its option's bad values.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db
field=advisory,cas,delete-returning,move-table

# ---- a contended drain: 8 workers, 300 jobs of 1 ms; advisory walks 2 candidates, fewer than the workers ----
run_json drain --strategy "$field" --workers 8 --jobs 300 --work-ms 1 --candidates 2
check "the four strategies drain on PostgreSQL (exit 0)" test "$(cat "$dir/drain.status")" -eq 0
for s in advisory cas delete-returning move-table; do
	check_each "$dir/drain.json" ".strategy == \"$s\"" ".completed == 300 and .duplicates == 0 and
		.overlaps == 0 and .lost == 0 and .stuck == 0 and .ledger_mismatches == 0 and .complete" \
		"$s: 300 jobs done by 8 workers, no duplicates or losses, the table's audit agrees with the ledger"
done
check_each "$dir/drain.json" '.strategy == "cas"' '.retries > 0' \
	"cas: the races it lost (zero rows updated) are counted as retries"
check_each "$dir/drain.json" '.strategy == "advisory"' '.give_ups > 0' \
	"advisory --candidates 2: a claim that finds both its candidates locked gives up (and is counted)"
check "advisory: no advisory lock of the run is still held at its end" eval '! grep -q "still held" "$dir/drain.err"'

# ---- advisory's default candidates: as many as the workers (at least 16), so that no claim finds them all held ----
# 24 workers and 24 jobs of 400 ms, an empty wait of 2 s: each worker's first claim, made before
# any job is done, finds a free job among 24 candidates (the 23 others hold one each), so each
# works exactly one. With 16 candidates (af91ccb's default) only 16 jobs could be held at once:
# 8 workers gave up and waited while the first 16 to finish took the other 8 (per worker 0 or 2).
run_json crowd --strategy advisory --workers 24 --jobs 24 --work-ms 400 --empty-wait-ms 2000
check "advisory at 24 workers, default candidates (exit $(cat "$dir/crowd.status"))" test "$(cat "$dir/crowd.status")" -eq 0
check_jq "$dir/crowd.json" '.results[0] | .params.candidates == "auto" and .completed == 24 and
	([.per_worker[].completed] | length == 24 and all(. == 1))' \
	"--candidates auto under 24 workers: every worker worked exactly one of the 24 jobs, none left idle by a full walk"

# ---- que#298: the lock's try inline in the scan, on a queue of 20 jobs (planned as a sequential scan and a sort) ----
run_json walk --strategy advisory --advisory-walk materialized,inline --workers 4 --jobs 20 --work-ms 1
check "advisory --advisory-walk materialized,inline: both drain (exit 0)" test "$(cat "$dir/walk.status")" -eq 0
check_jq "$dir/walk.json" '.results | length == 2' "both walks are reported"
check_each "$dir/walk.json" 'true' '.completed == 20 and .duplicates == 0 and .lost == 0 and
	.ledger_mismatches == 0' "both walks: 20 jobs done, no duplicates or losses"
check "the inline walk leaks advisory locks (the sequential scan locked every new job), reported on stderr" \
	grep -Eq "^claimbench: advisory flip x4 #1 \(advisory-walk=inline\): [1-9][0-9]* advisory locks of the run still held" \
	"$dir/walk.err"
check "the materialized walk leaks none" eval '! grep -q "(advisory-walk=materialized).*still held" "$dir/walk.err"'
check_each "$dir/walk.json" '.params["advisory-walk"] == "inline"' '.give_ups > 0' \
	"the inline walk: the others give up on the jobs the leaking session holds"

# ---- three crashes at fixed executions, with a lease and a reaper: who redelivers, who loses ----
# (a live job the machine held up past its 200 ms lease is the reaper's too: --verify holds cas's
# reaper count to the give-backs the table's own record shows, whatever their number)
run_json crash --strategy "$field" --workers 4 --jobs 60 --work-ms 20 --crash-exec 5,20,40 --respawn-ms 50 \
	--lease-ms 200 --reaper-ms 50 --verify
check_each "$dir/crash.json" '.strategy == "advisory"' '.lost == 0 and .redeliveries == 3 and
	.reaped == 0 and .completed == 60' \
	"advisory, 3 crashes: the dead sessions' locks go with them, the 3 jobs are claimed again"
check_each "$dir/crash.json" '.strategy == "cas"' '.faults_injected == 3 and .lost == 0 and .reaped >= 3 and
	.redeliveries >= 3 and .completed == 60 and .verified and .verify_differences == []' \
	"cas, 3 crashes: the reaper gives the 3 active jobs back, its count the table's record, nothing is lost"
check_each "$dir/crash.json" '.strategy == "move-table"' '.lost == 3 and .stuck == 3 and
	.reaped == 0 and .completed == 57' \
	"move-table, 3 crashes: the 3 jobs stay active in the claimed table, out of the lease's reach, lost"
check_each "$dir/crash.json" '.strategy == "delete-returning"' '.lost == 3 and .stuck == 0 and
	.completed == 57 and .delivery == {at_most_once: true, at_least_once: false}' \
	"delete-returning, 3 crashes: the 3 popped jobs are gone, lost; the 57 the ledger completed count as done"
check_each "$dir/crash.json" 'true' '.ledger_mismatches == 0' \
	"crash runs: the audit of moved and deleted rows agrees with the ledger"

# ---- SQLite: cas and move-table run, advisory and delete-returning are refused ----
run_json sqlite --db "sqlite:$dir/q.db" --strategy cas,move-table --workers 8 --jobs 300 --work-ms 1
for s in cas move-table; do
	check_each "$dir/sqlite.json" ".strategy == \"$s\"" ".completed == 300 and .duplicates == 0 and
		.overlaps == 0 and .lost == 0 and .ledger_mismatches == 0" "$s on SQLite: 300 jobs, no duplicates or losses"
done
run_json sqlite-crash --db "sqlite:$dir/q.db" --strategy move-table --workers 4 --jobs 60 --work-ms 5 \
	--crash-exec 5,20 --respawn-ms 20
check_jq "$dir/sqlite-crash.json" '.results[0] | .lost == 2 and .stuck == 2 and .completed == 58 and
	.ledger_mismatches == 0' "move-table on SQLite, 2 crashes: 2 jobs stuck in the claimed table, lost"
expect_exit 2 'strategy advisory cannot run on sqlite: it needs advisory locks' \
	"advisory is refused on SQLite, with the reason" run --db "sqlite:$dir/q.db" --strategy advisory --jobs 1
expect_exit 2 'strategy delete-returning cannot run on sqlite: it needs FOR UPDATE SKIP LOCKED' \
	"delete-returning is refused on SQLite, with the reason" run --db "sqlite:$dir/q.db" \
	--strategy delete-returning --jobs 1

# ---- modes and options ----
for s in advisory cas delete-returning move-table; do
	expect_exit 2 "strategy $s has no hold claim mode \\(it supports flip\\)" "$s:hold is refused" \
		run --db "sqlite:$dir/q.db" --strategy "$s:hold" --jobs 1
done
for v in x materialised ""; do
	expect_exit 2 "--advisory-walk: expected one of materialized, inline, got \"$v\"" \
		"--advisory-walk \"$v\" is refused" run --db "sqlite:$dir/q.db" --strategy cas --advisory-walk "$v" --jobs 1
done
for v in 0 10001 x ""; do
	expect_exit 2 "--candidates: expected a whole number from 1 to 10000, got \"$v\"" \
		"--candidates \"$v\" is refused" run --db "sqlite:$dir/q.db" --strategy cas --candidates "$v" --jobs 1
done
check "list shows the four with their modes and backends" eval \
	'"$CLAIMBENCH" list | grep -Eq "^advisory +flip\* +- " && "$CLAIMBENCH" list | grep -Eq "^cas +flip\* +flip\* " &&
	 "$CLAIMBENCH" list | grep -Eq "^delete-returning +flip\* +- .*a crash loses it" &&
	 "$CLAIMBENCH" list | grep -Eq "^move-table +flip\* +flip\* "'
