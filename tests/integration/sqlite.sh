# The SQLite backend: each strategy honest about what it is there, the refusals, the
# settings, the JSON contract, and update-returning on PostgreSQL too.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=$dir/out.json
db=sqlite:$dir/q.db

# The classic scenario scaled down, three times each.
"$CLAIMBENCH" run --results "$dir/results.db" --db "$db" --format json --no-progress --repeat 3 --jobs 200 --workers 10 --work-ms 10 \
	--tries 50 --backoff-ms 5 --strategy for-update,nowait-backoff,ticket,update-returning >"$out" 2>/dev/null
check "four strategies x 3 runs on SQLite (exit 0)" test $? -eq 0
check_jq "$out" '.results | length == 12' "12 runs"
for s in for-update nowait-backoff ticket update-returning; do
	for r in 1 2 3; do
		run=".strategy == \"$s\" and .repeat == $r"
		check_each "$out" "$run" ".duplicates == 0 and .overlaps == 0 and .lost == 0" \
			"sqlite $s run $r: no duplicates, overlaps or losses"
		check_each "$out" "$run" ".completed == 200 and .complete and .ledger_mismatches == 0" \
			"sqlite $s run $r: all 200 jobs done, ledger agrees with the table"
	done
done
check_jq "$out" '.backend == "sqlite" and (.server_version | test("^3\\.")) and .scenario == "command line"' \
	"header names backend sqlite and the library version"
check_jq "$out" '.settings == {"journal_mode": "wal", "synchronous": "normal", "busy_timeout_ms": "5000"}' \
	"settings as the connection reports them (defaults)"
check_each "$out" '.strategy == "nowait-backoff"' '.errors.sqlite_busy == .retries + .give_ups' \
	"nowait-backoff: every SQLITE_BUSY is counted as a retry or a give-up"
check_jq "$out" '.results[0] | has("strategy") and has("claim_mode") and has("workers") and has("jobs") and
	has("work_ms") and has("repeat") and has("makespan_s") and has("ideal_s") and has("throughput_jps") and
	has("completed") and has("executions") and has("duplicates") and has("dup_jobs") and has("overlaps") and
	has("lost") and has("empty_claims") and has("spurious_empties") and has("retries") and has("give_ups") and
	(.errors | has("sqlite_busy") and has("sqlite_busy_snapshot") and has("other")) and
	(.fairness | has("jain") and has("min") and has("max") and has("cv")) and
	(.claim_latency_ms | has("p50") and has("p90") and has("p99") and has("p999") and has("max")) and
	(.per_worker | length == 10) and (.per_worker[0] | has("worker") and has("completed") and has("claims"))' \
	"every field of the JSON contract is present on SQLite"

# Hold modes: the write lock (or the ticket) held through the work.
"$CLAIMBENCH" run --results "$dir/results.db" --db "$db" --format json --no-progress --jobs 60 --work-ms 5 --workers 6 --tries 50 \
	--backoff-ms 5 --strategy for-update:flip,nowait-backoff:hold,ticket:hold,update-returning:hold \
	>"$out" 2>/dev/null
check "hold and flip variants on SQLite (exit 0)" test $? -eq 0
for sm in for-update:flip nowait-backoff:hold ticket:hold update-returning:hold; do
	s=${sm%:*} m=${sm#*:}
	check_each "$out" ".strategy == \"$s\" and .claim_mode == \"$m\"" \
		".duplicates == 0 and .lost == 0 and .completed == 60 and .ledger_mismatches == 0 and .complete" \
		"sqlite $s in $m mode: 60 jobs, no duplicates or losses"
done

# naive: the same two autocommit statements as on PostgreSQL; each takes the write lock for
# itself alone, so workers that select before either updates take the same job. Measured:
# 8 to 17 duplicates in every one of 10 runs of 200 jobs, 10 workers.
"$CLAIMBENCH" run --results "$dir/results.db" --db "$db" --format json --no-progress --repeat 10 --jobs 200 --workers 10 --work-ms 0 \
	--strategy naive >"$out" 2>/dev/null
check "naive on SQLite, 10 runs (exit 0)" test $? -eq 0
check_each "$out" 'true' '.completed == 200 and .lost == 0' \
	"naive on SQLite: every job completed, none lost"
check_jq "$out" '([.results[] | select(.duplicates > 0)] | length) >= 8' \
	"naive on SQLite duplicates as on PostgreSQL (in at least 8 of 10 runs)"

expect_exit 2 'skip-locked cannot run on sqlite: it needs FOR UPDATE SKIP LOCKED, and SQLite has no row locks: one writer at a time' \
	"skip-locked on SQLite is refused, naming the reason" run --db "$db" --strategy skip-locked
expect_exit 2 'skip-locked cannot run on sqlite' "skip-locked in a list is refused before anything runs" \
	run --db "$db" --strategy update-returning,skip-locked:flip
expect_exit 2 '--sqlite-journal: expected one of delete, truncate, persist, memory, wal, off, got "fast"' \
	"a bad --sqlite-journal" run --db "$db" --sqlite-journal fast
expect_exit 2 '--sqlite-synchronous: expected one of off, normal, full, extra' "a bad --sqlite-synchronous" \
	run --db "$db" --sqlite-synchronous maybe
expect_exit 2 '--sqlite-busy-timeout-ms: expected a whole number' "a bad --sqlite-busy-timeout-ms" \
	run --db "$db" --sqlite-busy-timeout-ms -1
err=$(TMPDIR=$dir "$CLAIMBENCH" run --results "$dir/results.db" --db sqlite: --format json --no-progress --jobs 10 --work-ms 1 --workers 2 \
	--strategy update-returning 2>&1 >"$out")
check_jq "$out" '.backend == "sqlite" and .results[0].completed == 10' "--db sqlite: alone runs on a throwaway SQLite file"
check "--db sqlite: names the throwaway file, and it is removed at exit" \
	eval 'grep -q "temporary SQLite database $dir/claimbench-sqlite-" <<<"$err" && [ -z "$(ls "$dir" | grep claimbench-)" ]'

"$CLAIMBENCH" run --results "$dir/results.db" --db "$db" --format json --no-progress --jobs 20 --work-ms 1 --workers 2 \
	--strategy update-returning --sqlite-journal delete --sqlite-synchronous full --sqlite-busy-timeout-ms 4000 \
	>"$out" 2>/dev/null
check_jq "$out" '.settings == {"journal_mode": "delete", "synchronous": "full", "busy_timeout_ms": "4000"} and
	.results[0].completed == 20' "--sqlite-* settings reach the connection and the report"

"$CLAIMBENCH" run --results "$dir/results.db" --db "$db" --format table --no-progress --jobs 20 --work-ms 1 --workers 2 \
	--strategy for-update >"$out" 2>/dev/null
check "table footer names the SQLite settings" grep -q '^settings: journal_mode=wal, synchronous=normal' "$out"

err=$("$CLAIMBENCH" run --results "$dir/results.db" --db "$db" --format json --no-progress --jobs 20 --work-ms 1 --workers 2 2>&1 >"$out")
check_jq "$out" '[.results[].strategy] == ["naive", "for-update", "nowait-backoff", "ticket", "update-returning",
	"cas", "move-table"]' "--strategy all on SQLite runs every strategy SQLite can run"
check "--strategy all says on stderr that skip-locked, advisory, delete-returning and batch are left out" eval \
	'grep -q "leaving out skip-locked" <<<"$err" && grep -q "leaving out advisory" <<<"$err" &&
	 grep -q "leaving out delete-returning" <<<"$err" && grep -q "leaving out batch" <<<"$err"'

# With no PostgreSQL server programs (CLAIMBENCH_PG_BINDIR=none says so) and no --db, a temporary SQLite
# file is used and removed.
err=$(TMPDIR=$dir CLAIMBENCH_PG_BINDIR=none "$CLAIMBENCH" run --results "$dir/results.db" --format json --no-progress --jobs 20 \
	--work-ms 1 --workers 2 --strategy update-returning 2>&1 >"$out")
check_jq "$out" '.backend == "sqlite" and .results[0].completed == 20' \
	"no PostgreSQL programs: the run falls back to SQLite"
check "the fallback says so on stderr" grep -q 'using a temporary SQLite database' <<<"$err"
check "the temporary SQLite file is removed at exit" eval '[ -z "$(ls "$dir" | grep claimbench-)" ]'
empty=$dir/no-pg-bin
mkdir "$empty"
CLAIMBENCH_PG_BINDIR=$empty expect_exit 3 "CLAIMBENCH_PG_BINDIR=$empty does not hold initdb and pg_ctl" \
	"a CLAIMBENCH_PG_BINDIR without the server programs is an error, not a fallback" \
	run --no-progress --jobs 5 --work-ms 1 --strategy skip-locked

# update-returning on PostgreSQL: the outer status check turns a lost race into an empty claim.
"$CLAIMBENCH" run --results "$dir/results.db" --format json --no-progress --jobs 100 --work-ms 5 --workers 8 \
	--strategy update-returning:flip,update-returning:hold >"$out" 2>/dev/null
check "update-returning on a throwaway PostgreSQL (exit 0)" test $? -eq 0
check_jq "$out" '.backend == "postgresql" and (.results | length == 2)' "update-returning's 2 runs on PostgreSQL reported"
check_each "$out" 'true' '.duplicates == 0 and .overlaps == 0 and .lost == 0 and
	.completed == 100 and .ledger_mismatches == 0' \
	"update-returning on PostgreSQL, flip and hold: no duplicates, overlaps or losses"
check_jq "$out" '.settings | has("synchronous_commit") and has("max_connections") and has("shared_buffers") and
	has("default_transaction_isolation")' "PostgreSQL settings in the report"
