# The timeline's fault phases (docs/phases.md) on claimbench's throwaway PostgreSQL, each
# shown by what the run recorded in its span: crash-workers:50% of 4 workers: two crash
# records inside the phase; kill-backends:4 for 2 s: 8 kill-backend records inside it and
# the workers reconnected; restart-server: the restart's instant inside the phase; a
# recovery measured after each; the phases' faults stored in run_timeline; pool-exhaustion:260
# beyond the throwaway's 200 connections: the connections held are those pg_stat_activity
# showed, the rest refused and counted, and stored; refused on a server of the test's own (a
# user's); on SQLite crash-workers runs and the three kinds that need a server are refused
# (exit 2) with the reason.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

run_json all --strategy skip-locked --workers 4 --work-ms 5 --jobs 1 --arrival-rate 200 --phase clean:1500ms \
	--phase crash-workers:50%:1s --phase kill-backends:4:2s --phase restart-server:2s --phase recovery:2s
r='.results[0]'
# The fault records of kind K inside the recorded span of phase P, as a jq expression on a run.
in_span() {
	echo "(.timeline[] | select(.name == \"$1\")) as \$p | [.faults[] | select(.kind == \"$2\" and .at_s >= \$p.start_s and .at_s < \$p.end_s)] | length"
}
check "the run of the three fault phases completed (exit 0)" test "$(cat "$dir/all.status")" -eq 0
check_jq "$dir/all.json" "$r | ($(in_span crash-workers crash)) == 2 and ([.faults[] | select(.kind == \"crash\")] | length) == 2 and
	.timeline[1].faults == 2 and .timeline[1].arg == 50" \
	"crash-workers:50% of 4 workers: 2 crashes, both in its span, its faults 2 ($(jq -c "$r | [($(in_span crash-workers crash)), .timeline[1].faults]" "$dir/all.json"))"
check_jq "$dir/all.json" "$r | ($(in_span kill-backends kill-backend)) == 8 and .timeline[2].faults == 8 and .reconnects >= 8" \
	"kill-backends:4 for 2 s: 8 server sessions killed in its span, the workers reconnected ($(jq -c "$r | [($(in_span kill-backends kill-backend)), .timeline[2].faults, .reconnects]" "$dir/all.json"))"
check_jq "$dir/all.json" "$r | ($(in_span restart-server restart)) == 1 and .timeline[3].faults == 1 and
	.timeline[4].recovered != null and .timeline[3].recovered != null and .timeline[0].recovered == null and
	.timeline[0].pool_held == null" \
	"restart-server: the restart's instant inside its span; a recovery measured after it, as after every fault phase, none after clean ($(jq -c "$r | [($(in_span restart-server restart)), .timeline[4].recovered, .timeline[4].recovery_s]" "$dir/all.json"))"
check "the store's run_timeline has each phase's faults" \
	test "$(sqlite3 "$store" "SELECT group_concat(faults, ' ') FROM (SELECT faults FROM run_timeline ORDER BY position)")" = "0 2 8 1 0"

# pool-exhaustion beyond the throwaway server's 200 connections (claimbench exhausts no server of
# the user's: refused on the test server). How many connections open within the phase depends on
# the machine's speed; that those held are the sessions the server showed, and that the server
# refused the rest, does not.
start_test_server || { echo "not ok - a test server of PostgreSQL could not start"; exit 0; }
expect_exit 2 "phase pool-exhaustion cannot run on postgresql: on a server of your own" \
	"pool-exhaustion refused on a server claimbench did not start" \
	run --db "$TEST_DB" --arrival-rate 50 --phase pool-exhaustion:5:1s
run_json pool --strategy skip-locked --workers 2 --work-ms 1 --jobs 1 --arrival-rate 50 \
	--phase clean:1s --phase pool-exhaustion:260:4s --phase recovery:1s
check_jq "$dir/pool.json" "$r.timeline[1] | .pool_held > 100 and .pool_refused > 0 and .pool_held + .pool_refused <= 260 and
	.pool_seen == .pool_held" \
	"pool-exhaustion:260 on the throwaway's 200 connections: the connections held are the sessions the server showed, the rest refused and counted ($(jq -c "$r.timeline[1] | [.pool_held, .pool_refused, .pool_seen]" "$dir/pool.json"), status $(cat "$dir/pool.status"))"
check "the refused connections are said on stderr with the server's reason" \
	grep -q "phase pool-exhaustion: the server refused [0-9]* of its 260 connections (the first: .*" "$dir/pool.err"
check "the store's run_timeline keeps the pool's connections" \
	test "$(sqlite3 "$store" "SELECT pool_seen = pool_held AND pool_refused > 0 FROM run_timeline WHERE name = 'pool-exhaustion'")" = 1

# SQLite: crash-workers runs; the kinds that need a server are refused.
run_json lite --db sqlite:"$dir/lite.db" --strategy update-returning --workers 2 --work-ms 5 --jobs 1 --arrival-rate 50 \
	--phase clean:1s --phase crash-workers:1:1s --phase recovery:1s
check_jq "$dir/lite.json" "$r | .timeline[1].faults == 1 and ($(in_span crash-workers crash)) == 1" \
	"SQLite: crash-workers:1 crashes one worker inside its span (status $(cat "$dir/lite.status"))"
expect_exit 2 "phase kill-backends cannot run on sqlite: it has no server process to terminate" \
	"kill-backends refused on SQLite" run --db sqlite:"$dir/lite.db" --arrival-rate 50 --phase kill-backends:1:1s
expect_exit 2 "phase restart-server cannot run on sqlite: it has no server to restart" \
	"restart-server refused on SQLite" run --db sqlite:"$dir/lite.db" --arrival-rate 50 --phase restart-server:1s
expect_exit 2 "phase pool-exhaustion cannot run on sqlite: it has no server whose connections the pool could exhaust" \
	"pool-exhaustion refused on SQLite" run --db sqlite:"$dir/lite.db" --arrival-rate 50 --phase pool-exhaustion:5:1s
expect_exit 2 "restart-server cannot run on postgresql: on a server of your own it needs --restart-command" \
	"restart-server on a server of one's own without --restart-command refused" \
	run --db "host=/nonexistent dbname=x" --arrival-rate 50 --phase restart-server:1s
expect_exit 2 'crash-workers:N:DURATION, N workers from 1 to 1024, or a share of them above 0 and at most 100% \(25%\), got "0"' \
	"crash-workers:0 refused with its range" run --arrival-rate 50 --phase crash-workers:0:1s
