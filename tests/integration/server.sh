# Why a queue slows, on real runs: the server's samples exist, are in range and belong to
# the run's own backends and table; a held snapshot ages the xmin horizon and dead tuples
# pile up until a VACUUM; the head lookup's plan before and after the run shows its buffers
# grow; the phases are recorded, stored and exported; SQLite's -wal file grows behind a held
# read; the server table, the diagnosis and the plans are printed; bad input is refused.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

"$CLAIMBENCH" run --results "$store" --no-progress --strategy skip-locked --workers 8 --jobs 50000 --work-ms 0 \
	--duration 3 --snapshot-at 1 --snapshot-s 1 --vacuum-at 2.4 --format json >"$dir/held.json" 2>"$dir/err"
r='.results[0]'
check_jq "$dir/held.json" "$r.server.samples >= 20 and $r.server.samples <= 40 and ($r.samples | length) == $r.server.samples" \
	"a 3 s run sampled every 100 ms has 20 to 40 samples, each in the JSON"
check_jq "$dir/held.json" "[$r.samples[].t_ms] as \$t | \$t == (\$t | sort) and \$t[0] >= 0 and \$t[-1] <= 3500" \
	"samples are in time order, within the run"
check_jq "$dir/held.json" "[$r.samples[] | [.waits[]] | add] | (map(select(. > 8)) | length) == 0 and (sort | .[length / 2 | floor]) == 8" \
	"each sample counts the run's 8 worker backends alone (not the harness's own, nor the snapshot's)"
check_jq "$dir/held.json" "[$r.samples[] | .live_tuples] | all(. >= 40000 and . <= 60000)" \
	"the table sampled is the run's own: live tuples about its 50000 jobs (dead ones grow with the throughput)"
# The windows are the snapshot phase's own, as the run recorded it (a loaded machine starts it
# late): before it, and its second half, by which time the horizon has been held for a while.
# Each job done after the snapshot began took a transaction id of its own, so the oldest
# transaction's age at a sample is at least the jobs done in the whole 100 ms buckets between
# the snapshot's start and that sample (its xid is at or after the snapshot's xmin): the bound
# is the run's own pace, not a fixed count. Without the snapshot the age is only what the
# workers' open transactions span, a few jobs.
held_figures="($r.phases[] | select(.kind == \"snapshot\") | [.at_s * 1000, (.at_s + .duration_s / 2) * 1000,
	  (.at_s + .duration_s) * 1000]) as [\$start, \$mid, \$stop] |
	 ([$r.samples[] | select(.t_ms < \$start) | .xmin_age] | max) as \$before |
	 ([$r.samples[] | select(.t_ms >= \$mid and .t_ms < \$stop)] | max_by(.xmin_age)) as \$s |
	 ([$r.series[] | select(.t_ms >= \$start and .t_ms + 100 <= \$s.t_ms) | .completed] | add // 0) as \$done |
	 {before: \$before, held: \$s.xmin_age, done_since: \$done}"
check_jq "$dir/held.json" "$held_figures | .done_since >= 10 and .held >= .done_since" \
	"the held snapshot ages the oldest transaction on the server by every job done since it began ($(jq -c \
	"$held_figures" "$dir/held.json" 2>/dev/null); the windows are the recorded phase's)"
check_jq "$dir/held.json" "$r.server.dead_tuples_peak > 1000 and $r.server.dead_tuples_end < $r.server.dead_tuples_peak / 2" \
	"dead tuples pile up, and the VACUUM at 2.4 s removes them"
# A phase waits for its instant on the run's clock and records when it began (a loaded machine
# wakes it late, never early): each at or after its instant (1 ms for the figure's rounding), the
# snapshot held to 2 s at least; how late is the machine's, no bound.
check_jq "$dir/held.json" \
	"[$r.phases[].kind] == [\"snapshot\", \"vacuum\"] and $r.phases[0].at_s >= 0.999 and
	 $r.phases[0].at_s + $r.phases[0].duration_s >= 1.999 and $r.phases[1].at_s >= 2.399" \
	"the phases as they happened: the snapshot from 1 s to 2 s, the vacuum from 2.4 s (none before its instant)"
check_jq "$dir/held.json" "[$r.mvcc[]] | all(. > 0)" "throughput before, during and after the snapshot is known"
check_jq "$dir/held.json" "$r.server.blocks_per_claim_start > 0 and $r.server.blocks_per_claim_end > 0" \
	"blocks per claim at the start and at the end are known"
check_jq "$dir/held.json" "$r.server.locks_left == 0 and $r.server.table_bytes_after >= $r.server.table_bytes_before and
	$r.server.index_bytes_before > 0" "no lock is left on the table; its sizes before and after are read"
check_jq "$dir/held.json" "[$r.plans.before, $r.plans.after] | all(test(\"Buffers: shared hit=\"))" \
	"the head lookup's plans before and after are kept, with their buffers"
run_id=$(jq "$r.run_id" "$dir/held.json")
"$CLAIMBENCH" export "$run_id" --results "$store" --format json >"$dir/export.json" 2>/dev/null
check_jq "$dir/export.json" "(.results[0].samples | length) == $(jq "$r.samples | length" "$dir/held.json") and
	(.results[0].phases | length) == 2 and .results[0].samples[3] == $(jq -c "$r.samples[3]" "$dir/held.json")" \
	"the samples and phases are stored and read back as they were"
check "show prints the server table, the diagnosis and the plans" eval \
	'"$CLAIMBENCH" show "$run_id" --results "$store" >"$dir/show" &&
	 grep -q "^the server, sampled:" "$dir/show" && grep -q "^  skip-locked hold x8: " "$dir/show" &&
	 grep -q "^plan of the head lookup after the run:" "$dir/show" &&
	 tr "\n" " " <"$dir/show" | grep -q "Throughput *was [0-9]* *jobs/s *before *the *held *snapshot"'

"$CLAIMBENCH" run --results "$store" --no-progress --strategy skip-locked --workers 8 --jobs 50000 --work-ms 0 \
	--duration 2 --sample-ms 0 --format json >"$dir/none.json" 2>/dev/null
check_jq "$dir/none.json" '.results[0].server.samples == 0 and (.results[0].samples | length) == 0 and
	.results[0].server.wait_lock_pct == null and .results[0].mvcc.throughput_during_jps == null' \
	"--sample-ms 0: no samples, the figures unknown"
check "and no server table" eval \
	'! "$CLAIMBENCH" show "$(jq .results[0].run_id "$dir/none.json")" --results "$store" | grep -q "the server, sampled"'
check_jq "$dir/none.json" '.results[0].server | .head_buffers_before > 0 and .head_buffers_after > 10 * .head_buffers_before' \
	"with no vacuum, one head lookup touches over ten times the buffers after the drain than before it (EXPLAIN ANALYZE)"

"$CLAIMBENCH" run --db "sqlite:$dir/q.db" --results "$store" --no-progress --strategy update-returning --workers 2 \
	--jobs 20000 --work-ms 0 --duration 2 --snapshot-at 0.5 --snapshot-s 1 --format json >"$dir/sqlite.json" 2>/dev/null
check_jq "$dir/sqlite.json" '.results[0] | .server.wal_bytes_peak > 1000000 and .server.dead_tuples_peak == null and
	.server.wait_lock_pct == null and (.phases[0].kind == "snapshot") and (.plans.before | test("SCAN|SEARCH")) and
	.server.lock_wait_pct >= 0 and .server.lock_wait_pct <= 100 and .server.checkpoints_partial > 0' \
	"SQLite: the -wal file grows behind a held read, checkpoints are held back, lock waits are counted; its query plan is kept"

expect_exit 2 "--snapshot-at needs --snapshot-s" "a snapshot with no length" run --snapshot-at 1 --results "$store"
expect_exit 2 "--snapshot-at 5: that instant is beyond the run's end \(--duration 3\)" "a snapshot after the end" \
	run --snapshot-at 5 --snapshot-s 1 --duration 3 --results "$store"
expect_exit 2 "--vacuum-at cannot run on sqlite: it vacuums no table" "a VACUUM on SQLite" run --db "sqlite:$dir/q.db" --vacuum-at 1 \
	--results "$store"
expect_exit 2 "sample-ms" "a negative --sample-ms" run --sample-ms -5 --results "$store"
expect_exit 2 "vacuum-at" "a --vacuum-at that is not a number" run --vacuum-at soon --results "$store"
