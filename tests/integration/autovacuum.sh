# --autovacuum (docs/phases.md#autovacuum) on claimbench's throwaway PostgreSQL, aggressive then
# off in one invocation, each said on stderr once in force: under aggressive the queue table is
# autovacuumed in the 15 s clean phase (its naptime is 10 s); under off no sample shows an
# autovacuum though the dead tuples pass its threshold, and the vacuum phase's VACUUM is the
# run's one vacuum; the phases' vacuums and autovacuums add up to the rise of the samples'
# counts, and are stored; the mode is a stored parameter; refused (exit 2) on a server of the
# test's own (a user's), on SQLite and beside a standby, saying why.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

run_json sweep --strategy skip-locked --workers 2 --work-ms 1 --jobs 1 --arrival-rate 100 --autovacuum aggressive,off \
	--phase clean:15s --phase vacuum:1s --phase recovery:1s
check "aggressive and off in one invocation (exit $(cat "$dir/sweep.status"))" test "$(cat "$dir/sweep.status")" -eq 0
check_jq "$dir/sweep.json" '[.results[].params.autovacuum] == ["aggressive", "off"]' \
	"the mode is each run's parameter ($(jq -c '[.results[].params.autovacuum]' "$dir/sweep.json"))"
check "stderr says each mode once in force, aggressive before off" \
	eval 'grep -o "autovacuum is [a-z]* from this run on, in force" "$dir/sweep.err" | tr "\n" " " |
		grep -qx "autovacuum is aggressive from this run on, in force autovacuum is off from this run on, in force "'
check_jq "$dir/sweep.json" '.results[0].timeline[0].autovacuums >= 1' \
	"aggressive: the queue table autovacuumed in the 15 s clean phase, its naptime 10 s ($(jq -c '[.results[0].timeline[] | .autovacuums]' "$dir/sweep.json"))"
check_jq "$dir/sweep.json" '.results[1] | ([.samples[].autovacuums] | max) == 0 and ([.samples[].dead_tuples] | max) > 50 and
	([.timeline[].vacuums] | add) == 1 and ([.timeline[].autovacuums] | add) == 0' \
	"off: no autovacuum though the dead tuples passed its threshold of 50; the vacuum phase's the one vacuum ($(jq -c '.results[1] | [([.samples[].dead_tuples] | max), [.timeline[] | [.vacuums, .autovacuums]]]' "$dir/sweep.json"))"
# [the phases' vacuums, their rise in the samples, the phases' autovacuums, theirs], per run
sums='(.timeline | last.end_s) as $to | (.samples | map(select(.t_ms <= $to * 1000))) as $s |
	[([.timeline[].vacuums] | add), ($s | last.vacuums) - ($s | first.vacuums),
	 ([.timeline[].autovacuums] | add), ($s | last.autovacuums) - ($s | first.autovacuums)]'
check_each "$dir/sweep.json" 'true' "$sums | .[0] == .[1] and .[2] == .[3]" \
	"the phases' vacuums and autovacuums add up to the rise of the samples' counts over the timeline ($(jq -c \
	"[.results[] | $sums]" "$dir/sweep.json" 2>/dev/null))"
check "the store's run_timeline holds each phase's vacuums and autovacuums as JSON has them" \
	test "$(sqlite3 "$store" "SELECT group_concat(vacuums || '/' || autovacuums, ' ') FROM (SELECT vacuums, autovacuums
		FROM run_timeline ORDER BY run_id, position)")" = "$(jq -r '[.results[].timeline[] | "\(.vacuums)/\(.autovacuums)"] | join(" ")' "$dir/sweep.json")"

# ---- refusals ----
start_test_server || { echo "not ok - a test server of PostgreSQL could not start"; exit 0; }
expect_exit 2 "on a server of your own it would change the settings of every database on it" \
	"a server of the test's own (a user's) is refused: its settings are not claimbench's" \
	run --db "$TEST_DB" --strategy skip-locked --jobs 10 --autovacuum off
expect_exit 2 "cannot run on sqlite: it has no autovacuum to set" "SQLite refuses it, saying why" \
	run --db "sqlite:$dir/q.db" --strategy naive --jobs 10 --autovacuum aggressive
expect_exit 2 "beside a standby it is not built" "beside a standby it is refused, saying why" \
	run --strategy skip-locked --jobs 10 --standby async --autovacuum aggressive
check "default is the server's own, on any server: accepted on the test's (exit 0)" \
	eval '"$CLAIMBENCH" run --db "$TEST_DB" --strategy skip-locked --jobs 10 --autovacuum default --results "$store" \
	--no-progress >/dev/null 2>&1'
