# A run as a timeline of phases (--phase, docs/phases.md) on a throwaway PostgreSQL of the
# test's own: each kind does what it says, shown by what the run recorded (idle-in-tx and
# held-snapshot: the sampler saw the oldest transaction age in that phase and not in the clean
# one; active-readers: their sessions in pg_stat_activity, at REPEATABLE READ; long-writer:
# its XID held and its rows written, stored, its table dropped with the run's; vacuum: its
# VACUUM the run's one vacuum (no autovacuum), done by its end; load:2: twice clean's arrivals
# per second, counted by the harness, on SQLite too; warmup: left out of the run's figures);
# the per-phase figures agree with the run's own series; a load beyond capacity recovers once
# its backlog drains; the phases are stored, read back and listed by claimbench report; an
# expectation on a phase passes and one fails (exit 1); every bad input is refused (exit 2), a
# scenario's at its file:line, and SQLite refuses the kinds it does not build (MariaDB's are
# phases_mariadb.sh's).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db
start_test_server || { echo "not ok - a test server of PostgreSQL could not start"; exit 0; }
# No autovacuum on the test's own server: the vacuum phase's VACUUM is then the one vacuum a
# run's samples can show (an autovacuum before it, or one it waited behind, made the count
# rise outside its span, 1 run in CI's 4).
test_sql "ALTER SYSTEM SET autovacuum = off" >/dev/null && test_sql "SELECT pg_reload_conf()" >/dev/null

# The samples (t_ms) of a run within the recorded span of its phase NAME, as a jq expression on a run.
in_phase() {
	echo "(.timeline[] | select(.name == \"$1\")) as \$p | [.samples[] | select(.t_ms >= \$p.start_s * 1000 and .t_ms <= \$p.end_s * 1000)]"
}

run_json all --db "$TEST_DB" --strategy skip-locked --workers 2 --work-ms 1 --jobs 1 --arrival-rate 40 \
	--phase clean:2s --phase idle-in-tx:2s --phase held-snapshot:1500ms --phase active-readers:2:1500ms \
	--phase vacuum:1500ms --phase load:2:2s --phase recovery:2s
r='.results[0]'
check_jq "$dir/all.json" "$r.timeline | map(.name) == [\"clean\", \"idle-in-tx\", \"held-snapshot\", \"active-readers\",
	\"vacuum\", \"load\", \"recovery\"] and (map(.kind) | .[5]) == \"load\" and .[5].arg == 2 and .[3].arg == 2" \
	"the seven phases ran in order, each named by its kind, with their arguments (status $(cat "$dir/all.status"))"
check_jq "$dir/all.json" "$r | .duration_s == 12.5 and .params.duration == \"12.5\" and .params.phase ==
	\"clean:2000ms,idle-in-tx:2000ms,held-snapshot:1500ms,active-readers:2:1500ms,vacuum:1500ms,load:2:2000ms,recovery:2000ms\"" \
	"the run lasted the phases' sum, 12.5 s, its timeline a stored parameter"
check_jq "$dir/all.json" "$r.timeline | . as \$t | all(range(1; length); \$t[.].start_s >= \$t[. - 1].end_s) and
	all(.[]; .end_s > .start_s)" "the phases' recorded spans follow one another"
check_jq "$dir/all.json" "$r | ($(in_phase idle-in-tx) | map(.xmin_age) | max) as \$idle |
	($(in_phase clean) | map(.xmin_age) | max) as \$clean | \$idle >= 50 and \$clean < 20 and
	(.timeline[1] | .xid > 0 and .xmin_age_max == \$idle)" \
	"idle-in-tx: the sampler saw the oldest transaction age reach 50 or more in its span and under 20 in clean's, its xid taken ($(jq -c "$r | [($(in_phase idle-in-tx) | map(.xmin_age) | max), ($(in_phase clean) | map(.xmin_age) | max), .timeline[1].xid]" "$dir/all.json"))"
check_jq "$dir/all.json" "$r | ($(in_phase held-snapshot) | map(.xmin_age) | max) >= 50" \
	"held-snapshot: the oldest transaction age reached 50 or more in its span ($(jq -c "$r | $(in_phase held-snapshot) | map(.xmin_age) | max" "$dir/all.json"))"
check_jq "$dir/all.json" "$r.timeline[3] | .readers_seen == 2 and .readers_repeatable == 2 and .reader_scans >= 2" \
	"active-readers:2: pg_stat_activity showed their 2 sessions in a transaction, both at REPEATABLE READ, scanning ($(jq -c "$r.timeline[3] | [.readers_seen, .readers_repeatable, .reader_scans]" "$dir/all.json"))"
# The VACUUM is begun after the phase's recorded start and has returned by its recorded end:
# the run's one vacuum, absent from its first sample, present in the first sample after the end.
after_vacuum='.timeline[4].end_s as $to | [.samples[0].vacuums, ([.samples[] | select(.t_ms >= $to * 1000)] | first.vacuums),
	(.samples | map(.vacuums) | max)]'
check_jq "$dir/all.json" "$r | $after_vacuum == [0, 1, 1]" \
	"vacuum: the queue table's one vacuum ran in its span (first sample, first after its end, the run's most: $(jq -c "$r | $after_vacuum" "$dir/all.json"), want [0,1,1])"
check_jq "$dir/all.json" "$r.timeline | (.[5].arrivals / (.[5].end_s - .[5].start_s)) / (.[0].arrivals / (.[0].end_s - .[0].start_s)) |
	. >= 1.7 and . <= 2.3" \
	"load:2: about twice clean's arrivals per second, counted by the harness ($(jq -c "$r.timeline | [.[0].arrivals, .[5].arrivals]" "$dir/all.json"))"
# The phase's figures against the run's own series: the clean phase's whole seconds summed from its buckets.
check_jq "$dir/all.json" "$r | .timeline[0] as \$p | [.series[] | select(.t_ms >= (\$p.start_s * 10 | round) * 100 and
	.t_ms < (\$p.end_s * 10 | round) * 100)] as \$b | ([range(0; (\$b | length) / 10 | floor) as \$k | \$b[\$k * 10:\$k * 10 + 10] |
	map(.completed) | add] | sort) as \$s | (\$s | length) == 2 and \$p.throughput_median == ((\$s[0] + \$s[1]) / 2) and
	\$p.throughput_p10 == \$s[0] and \$p.arrivals == (\$b | map(.enqueued) | add) and \$p.completed == (\$b | map(.completed) | add) and
	\$p.depth_max == (\$b | map(.backlog) | max)" \
	"clean's figures are its series buckets': median and p10 of its 2 whole seconds, arrivals, completions, depth ($(jq -c "$r.timeline[0] | [.throughput_median, .throughput_p10, .arrivals, .completed]" "$dir/all.json"))"
check_jq "$dir/all.json" "$r.timeline | .[0].latency_p50_ms > 0 and .[0].latency_p50_ms <= .[0].latency_p99_ms and
	.[0].latency_p99_ms <= .[0].latency_max_ms and .[0].dead_start != null and .[0].recovered == null and
	.[2].recovered != null and .[6].recovered != null" \
	"latency percentiles in order, dead tuples sampled; a recovery measured after each pressure phase, none after clean"

# Stored, read back and listed by report.
check "the store's run_timeline has the seven phases in order" \
	test "$(sqlite3 "$store" "SELECT group_concat(name, ' ') FROM (SELECT name FROM run_timeline ORDER BY position)")" = \
	"clean idle-in-tx held-snapshot active-readers vacuum load recovery"
"$CLAIMBENCH" export --results "$store" "$(jq "$r.run_id" "$dir/all.json")" --format json >"$dir/export.json" 2>&1
check_jq "$dir/export.json" ".results[0].timeline == $(jq -c "$r.timeline" "$dir/all.json")" \
	"the timeline read back from the store (claimbench export) is the run's as it printed it"
"$CLAIMBENCH" report --results "$store" --out "$dir/report" --last >"$dir/report.out" 2>&1
check "claimbench report lists each phase in its Phases section" \
	bash -c "grep -q '^## Phases' '$dir/report/report.md' && [ \$(grep -cE '^\| [0-9]+ \| skip-locked hold x2 \| (clean|idle-in-tx|held-snapshot|active-readers|vacuum|load|recovery) \|' '$dir/report/report.md') -eq 7 ]"
"$CLAIMBENCH" show --results "$store" "$(jq "$r.run_id" "$dir/all.json")" >"$dir/show.txt" 2>&1
check "claimbench show prints the phases read back from the store" grep -qE '^ +idle-in-tx +[0-9.]+ +[0-9.]+' "$dir/show.txt"

# warmup: measured, left out of the run's figures (as --warmup).
run_json warm --db "$TEST_DB" --strategy skip-locked --workers 2 --work-ms 1 --jobs 1 --arrival-rate 40 \
	--phase warmup:1s --phase clean:2s
check_jq "$dir/warm.json" "$r | .params.warmup == \"1\" and .params.duration == \"3\" and .timeline[0].kind == \"warmup\" and
	.timeline[0].completed > 0 and (.throughput_jps * 2 - .timeline[1].completed | fabs) <= 0.05 * .timeline[1].completed + 1" \
	"warmup: recorded as a phase, and the run's throughput is over the clean phase's completions alone ($(jq -c "$r | [.throughput_jps, .timeline[0].completed, .timeline[1].completed]" "$dir/warm.json"))"

# A recovery on a run whose pressure is certain: 2 workers of 20 ms jobs finish at most 100 a
# second, so load:3 (120/s) leaves a backlog, which keeps throughput above clean's until drained.
run_json over --db "$TEST_DB" --strategy skip-locked --workers 2 --work-ms 20 --jobs 1 --arrival-rate 40 \
	--phase clean:2s --phase load:3:2s --phase recovery:5s
check_each "$dir/over.json" true '.timeline[1].depth_max >= 10 and .timeline[2].depth_start > 0' \
	"load beyond capacity: a backlog (depth) built in it, still there when the recovery began"
# (its draining within the recovery's 5 s needs the 2 workers' 100 a second: a machine busier
# than its cores may not give them that, which the harness records)
check_time_bound "$dir/over.json" true '.timeline[2].depth_end < .timeline[1].depth_max and
	.timeline[2].recovered == true and .timeline[2].recovery_s > 0 and .timeline[2].recovery_s < 5 and
	.timeline[0].throughput_median > 0 and .timeline[1].throughput_median > 0' \
	"and drained after, the recovery measured in the next phase's row"

# The kinds every backend builds, on SQLite: no server samples, so no dead tuples.
run_json lite --db "sqlite:$dir/lite.db" --strategy for-update --workers 2 --work-ms 1 --jobs 1 --arrival-rate 40 \
	--phase clean:1s --phase load:2:1s --phase recovery:1s
check_jq "$dir/lite.json" "$r.timeline | map(.name) == [\"clean\", \"load\", \"recovery\"] and
	all(.[]; .dead_start == null and .xmin_age_max == null)" \
	"SQLite: clean, load:2 and recovery run; no dead tuples sampled"
# An arrival counts in the phase its insert committed in: behind SQLite's one writer, on a
# loaded machine, inserts land late and shift into the next phase (40, 78, 42 at a load of
# 39), so the doubling is a bound on pace.
check_time_bound "$dir/lite.json" true '(.timeline[1].arrivals / (.timeline[1].end_s - .timeline[1].start_s)) /
	(.timeline[0].arrivals / (.timeline[0].end_s - .timeline[0].start_s)) >= 1.7' \
	"SQLite: load:2 twice the arrivals per second of clean ($(jq -c "$r.timeline | map(.arrivals)" "$dir/lite.json"))"

# Expectations on phases: one that holds, one that does not (exit 1).
cat >"$dir/expect.ini" <<'INI'
[global]
strategy = skip-locked
workers = 2
work-ms = 1
jobs = 1
arrival-rate = 40
phase = clean:1s, idle-in-tx:1s

[expect]
held_up = skip-locked.phase[idle-in-tx].throughput_median / skip-locked.phase[clean].throughput_median >= 0.5
INI
sed 's/>= 0.5$/>= 5/' "$dir/expect.ini" >"$dir/expect_fail.ini"
"$CLAIMBENCH" run --db "$TEST_DB" --no-progress --results "$store" --scenario "$dir/expect.ini" >"$dir/pass.out" 2>&1
echo $? >"$dir/pass.status"
check "an expectation on phases that holds: exit 0, PASS ($(cat "$dir/pass.status"); $(grep -m1 held_up "$dir/pass.out"))" \
	bash -c "[ \$(cat '$dir/pass.status') -eq 0 ] && grep -q 'PASS.*held_up\|held_up.*PASS' '$dir/pass.out'"
"$CLAIMBENCH" run --db "$TEST_DB" --no-progress --results "$store" --scenario "$dir/expect_fail.ini" >"$dir/fail.out" 2>&1
echo $? >"$dir/fail.status"
check "an expectation on phases that does not hold: exit 1, FAIL ($(cat "$dir/fail.status"); $(grep -m1 held_up "$dir/fail.out"))" \
	bash -c "[ \$(cat '$dir/fail.status') -eq 1 ] && grep -q 'FAIL.*held_up\|held_up.*FAIL' '$dir/fail.out'"

# Bad input, each refused with exit 2 before anything runs.
# ---- a throwaway server sized for the timeline's sessions too (186 workers + 16 readers ran out of 200) ----
run_json sized --strategy skip-locked --workers 186 --work-ms 1 --jobs 1 --arrival-rate 5 \
	--phase clean:500ms --phase active-readers:16:500ms
check "186 workers beside 16 readers on the throwaway server: exit 0 (got $(cat "$dir/sized.status"); $(grep -m1 -i "too many" "$dir/sized.err"))" \
	test "$(cat "$dir/sized.status")" -eq 0
check_jq "$dir/sized.json" '.settings.max_connections | tonumber >= 186 + 1 + 16 + 1' \
	"its max_connections counts the workers, the producer, the readers and the holder"

# ---- a phase whose pressure the server ends early: the run says so and is incomplete (exit 4) ----
# (the server ends the idle transaction after 300 ms of its 2 s: the phase's end finds it gone)
test_sql "ALTER ROLE tester SET idle_in_transaction_session_timeout = '300ms'" >/dev/null
run_json cut --db "$TEST_DB" --strategy skip-locked --workers 2 --work-ms 1 --jobs 1 --arrival-rate 20 \
	--phase clean:500ms --phase idle-in-tx:2s --phase recovery:500ms
test_sql "ALTER ROLE tester RESET idle_in_transaction_session_timeout" >/dev/null
check "an idle-in-tx transaction the server ended early: exit 4 (got $(cat "$dir/cut.status"))" \
	test "$(cat "$dir/cut.status")" -eq 4
check "the run says the phase's transaction did not last it, and that it is incomplete" \
	grep -q "phase idle-in-tx: its transaction did not last the phase: .*; the run is incomplete" "$dir/cut.err"
check_each "$dir/cut.json" true '.complete == false' "and the stored run is marked incomplete"

# ---- long-writer: one transaction that writes a table of the run's own through the phase ----
run_json writer --db "$TEST_DB" --strategy skip-locked --workers 2 --work-ms 1 --jobs 1 --arrival-rate 40 \
	--phase clean:1s --phase long-writer:2s --phase recovery:1s
check "the long-writer run completed (exit $(cat "$dir/writer.status"))" test "$(cat "$dir/writer.status")" -eq 0
check_jq "$dir/writer.json" '.results[0].timeline[1] | .xid > 0 and .writer_rows >= 2 and .xmin_age_max >= 50' \
	"long-writer: its transaction took an XID, kept writing (more than one row) and held the oldest transaction's age to 50 or more ($(jq -c '.results[0].timeline[1] | [.xid, .writer_rows, .xmin_age_max]' "$dir/writer.json"))"
check_jq "$dir/writer.json" '.results[0].timeline | .[0].writer_rows == null and .[0].xid == null and .[2].recovered != null' \
	"the other phases have no writer's rows; a recovery is measured after it"
check "the writer's rows are stored with its phase" test "$(sqlite3 "$store" "SELECT writer_rows FROM run_timeline WHERE
	kind = 'long-writer' AND run_id = (SELECT max(run_id) FROM run_timeline)")" = "$(jq '.results[0].timeline[1].writer_rows' "$dir/writer.json")"
check "its table is dropped with the run's (claimbench's tables left: $(test_sql "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'claimbench%'"))" \
	test "$(test_sql "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'claimbench%'")" = 0

base=(run --db "$TEST_DB" --strategy skip-locked --arrival-rate 10)
expect_exit 2 'unknown kind; known: warmup, clean' "an unknown kind" "${base[@]}" --phase nap:1s
expect_exit 2 'a duration expected' "a missing duration" "${base[@]}" --phase clean
expect_exit 2 'needs a unit' "a duration without a unit" "${base[@]}" --phase clean:10
expect_exit 2 'a duration such as' "a duration that is no number" "${base[@]}" --phase clean:soon
expect_exit 2 'above 0 and at most 24h' "a zero duration" "${base[@]}" --phase clean:0s
expect_exit 2 'F a factor of --arrival-rate above 0' "load's factor out of range" "${base[@]}" --phase load:0:1s
expect_exit 2 'N sessions from 1 to 16' "active-readers' sessions out of range" "${base[@]}" --phase active-readers:17:1s
expect_exit 2 'takes no argument' "an argument to a kind without one" "${base[@]}" --phase vacuum:2:1s
expect_exit 2 'a warm-up comes first' "a warmup after another phase" "${base[@]}" --phase clean:1s --phase warmup:1s
expect_exit 2 'warmup phases only measures nothing' "warmup phases alone" "${base[@]}" --phase warmup:1s
expect_exit 2 '--phase needs --arrival-rate' "phases without --arrival-rate" run --db "$TEST_DB" --phase clean:1s
expect_exit 2 '--phase needs --arrival-rate above 0' "phases at an arrival rate of 0.0" run --db "$TEST_DB" \
	--arrival-rate 0.0 --phase clean:1s
expect_exit 2 'the phases last 172800 s in all, more than a run may \(86400 s' "phases longer than a day in all" \
	"${base[@]}" --phase clean:24h --phase recovery:24h
expect_exit 2 '--phase with --duration' "phases with --duration" "${base[@]}" --phase clean:1s --duration 5
expect_exit 2 '--phase with --warmup' "phases with --warmup" "${base[@]}" --phase clean:1s --warmup 1
printf '[global]\nstrategy = skip-locked\narrival-rate = 10\n\nphase = clean:1s, load:101:1s\n' >"$dir/bad.ini"
expect_exit 2 "bad.ini:5: phase = clean:1s, load:101:1s: .*at most 100" "a scenario's bad phase, at its file:line" \
	run --db "$TEST_DB" --scenario "$dir/bad.ini"
printf '[global]\nstrategy = skip-locked\narrival-rate = 10\nphase = clean:1s\n[expect]\nx = skip-locked.phase[clean].speed > 0\n' >"$dir/badexp.ini"
expect_exit 2 "badexp.ini:6: expectation \"x\": unknown phase field \"speed\"" "an expectation on an unknown phase field, at its file:line" \
	run --db "$TEST_DB" --scenario "$dir/badexp.ini"
printf '[global]\nstrategy = skip-locked\narrival-rate = 10\nphase = clean:1s\n[expect]\nx = skip-locked.phase[idle-in-tx].errors == 0\n' >"$dir/nophase.ini"
expect_exit 2 "nophase.ini:6: expectation \"x\": phase\[idle-in-tx\]: no timeline \(--phase\) of skip-locked has a phase so named" \
	"an expectation on a phase the timeline lacks, at its file:line" run --db "$TEST_DB" --scenario "$dir/nophase.ini"
printf '[global]\nstrategy = skip-locked\narrival-rate = 10\nphase = clean:1s\n[expect]\nx = skip-locked.phase[clean.errors > 0\n' >"$dir/badref.ini"
expect_exit 2 "badref.ini:6: expectation \"x\": expected phase\[NAME\]\.FIELD" "an unclosed phase[ in an expectation, at its file:line" \
	run --db "$TEST_DB" --scenario "$dir/badref.ini"
expect_exit 2 'idle-in-tx cannot run on sqlite: SQLite' "SQLite refuses idle-in-tx, saying why" \
	run --db "sqlite:$dir/q.db" --arrival-rate 10 --phase idle-in-tx:1s
expect_exit 2 'vacuum cannot run on sqlite: the phase vacuums the queue table alone' "SQLite refuses vacuum, saying why" \
	run --db "sqlite:$dir/q.db" --arrival-rate 10 --phase vacuum:1s
expect_exit 2 'long-writer cannot run on sqlite: SQLite' "SQLite refuses long-writer, saying why" \
	run --db "sqlite:$dir/q.db" --arrival-rate 10 --phase long-writer:1s
expect_exit 2 'adapter:reference: not for an adapter.s run yet: a timeline \(--phase\)' "an adapter's run refuses a timeline" \
	run --db "sqlite:$dir/q.db" --strategy adapter:reference --arrival-rate 10 --phase clean:1s
expect_exit 2 "a timeline \(--phase\): the queue workload's, not the resource workload's" "a guarded workload refuses a timeline" \
	run --db "sqlite:$dir/q.db" --workload resource --arrival-rate 10 --phase clean:1s
