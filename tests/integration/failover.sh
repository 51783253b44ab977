# A streaming standby of the throwaway PostgreSQL (--standby) and a failover to it
# (--failover-at): the standby made and removed with the primary, by the watchdog after a
# SIGKILL and by cleanup; a failover under synchronous replication losing no acknowledged
# completion; under asynchronous replication the completions lost counted and named per
# job. To make the asynchronous loss certain on a fast machine, the standby is cut off the
# primary's WAL 300 ms before the failover (--failover-lag-ms: its walreceiver stopped by
# clearing primary_conninfo), so that what commits meanwhile is on the old primary alone.
# Seven primary+standby pairs: one for both failovers (two groups of one invocation; the
# second runs on the promoted standby with a new standby made of the old primary), one for
# two failovers without lag (two strategies), one for a reaper under sync with a cut
# standby, one whose mode PGOPTIONS overrides, one killed for the watchdog, one for
# cleanup, and one the test makes itself for --failover-command.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"	# a throwaway cluster under $dir/tmp must be reachable by the postgres user
mkdir -m 1777 "$dir/tmp"
trap 'stop_pair; rm -rf "$dir"' EXIT
store=$dir/results.db

# stop_pair: stops the servers of the pair the test made itself for --failover-command, if any.
stop_pair() {
	[ -n "${pair:-}" ] || return 0
	as_server_user "$TEST_SERVER_BIN/pg_ctl" -D "$pair/p" -m immediate -w stop >/dev/null 2>&1
	as_server_user "$TEST_SERVER_BIN/pg_ctl" -D "$pair/s" -m immediate -w stop >/dev/null 2>&1
	pair=
}

# ---- bad input: refused before anything starts, with the reason, exit 2 ----
expect_exit 2 'standby async cannot run on sqlite: claimbench makes no standby of its throwaway sqlite server' \
	"--standby on SQLite is refused" run --db "sqlite:$dir/lite.db" --standby async --jobs 5 --work-ms 1 \
	--strategy update-returning --no-progress --results "$store"
expect_exit 2 'standby sync: .*multi-host conninfo .*--failover-command' \
	"--standby on a server of the user's is refused, saying what to give instead" \
	run --db "host=$dir port=1 dbname=none" --standby sync --jobs 5 --work-ms 1 --strategy skip-locked \
	--no-progress --results "$store"
expect_exit 2 'failover-at on a server of your own needs --failover-command' \
	"--failover-at on a user's server without --failover-command is refused" \
	run --db "host=$dir port=1 dbname=none" --failover-at 1 --jobs 5 --work-ms 1 --strategy skip-locked \
	--no-progress --results "$store"
expect_exit 2 'failover-at needs a standby to promote: give --standby' "--failover-at without --standby is refused" \
	run --failover-at 1 --jobs 5 --work-ms 1 --strategy skip-locked --no-progress --results "$store"
expect_exit 2 'failover-lag-ms cuts the throwaway standby off before a failover: give --failover-at' \
	"--failover-lag-ms without --failover-at is refused" \
	run --standby async --failover-lag-ms 100 --jobs 5 --work-ms 1 --strategy skip-locked --no-progress \
	--results "$store"
expect_exit 2 'failover-command fails over a server of your own at --failover-at; sqlite has no server claimbench fails over' \
	"--failover-command on SQLite is refused, not ignored" run --db "sqlite:$dir/lite.db" --failover-command true \
	--jobs 5 --work-ms 1 --strategy update-returning --no-progress --results "$store"
expect_exit 2 'failover-command fails over .* at --failover-at; give --failover-at' \
	"--failover-command without --failover-at is refused, not ignored" \
	run --db "host=$dir port=1 dbname=none" --failover-command true --jobs 5 --work-ms 1 --strategy skip-locked \
	--no-progress --results "$store"
expect_exit 2 'failover-command with 2 runs: it fails your pair over once' \
	"--failover-command for two runs is refused: the second would find no standby" \
	run --db "host=$dir port=1 dbname=none" --failover-at 1 --failover-command true --jobs 5 --work-ms 1 \
	--strategy skip-locked,for-update --no-progress --results "$store"
printf '[global]\nfailover-command = true\n' >"$dir/cmd.ini"
expect_exit 2 'cmd.ini:2: failover-command: a scenario file may not run a shell command' \
	"a scenario file's failover-command is refused without --trust-scenario, naming file and line" \
	run --scenario "$dir/cmd.ini" --db "host=$dir port=1 dbname=none" --jobs 5 --no-progress --results "$store"

# ---- failovers: sync loses no acknowledged completion, async's losses named per job ----
# 300 jobs of 10 ms on 2 workers drain in 1.5 s or more: the failover at 1 s finds them at work.
# --verify's triggers record every committed change in the primary's own table, which the
# standby replicates: after the failover that record is the new primary's, a witness of
# what it has that the ledger does not make.
cat >"$dir/failover.ini" <<'EOF'
[global]
strategy = skip-locked:hold
jobs = 300
work-ms = 10
workers = 2
failover-at = 1
failover-lag-ms = 300
verify = true
no-progress = true

[sync]
standby = sync

[async]
standby = async
EOF
start=$(date +%s%N)
TMPDIR=$dir/tmp "$CLAIMBENCH" run --scenario "$dir/failover.ini" --results "$store" >"$dir/fo.out" 2>"$dir/fo.err"
status=$?
took=$(elapsed_ms "$start")
cluster=$(throwaway_dir "$dir/fo.err")
check "two failovers on one primary+standby pair: exit 5, the async run's ledger and the new primary disagree \
($status, $took ms: $(head -c 400 "$dir/fo.err" | tr "\n" " "))" test "$status" -eq 5
check "the pair is gone at exit: no directory, no server" \
	eval '[ -n "$cluster" ] && [ ! -e "$cluster" ] && ! pgrep -f "$cluster" >/dev/null'
"$CLAIMBENCH" export 1 --format json --results "$store" >"$dir/sync.json" 2>/dev/null
"$CLAIMBENCH" export 2 --format json --results "$store" >"$dir/async.json" 2>/dev/null
check_jq "$dir/sync.json" '.results[0] | .faults_injected == 1 and .faults[0].kind == "failover" and
	.failover.lost_completions == 0 and .failover.rerun == 0 and .lost == 0 and .completed == 300 and
	.failover.lag_bytes > 0 and .failover.first_completion_ms > 0 and .reconnects >= 2' \
	"sync: the standby cut off behind the primary, yet no acknowledged completion lost, every worker reconnected \
($(jq -c '.results[0] | {failover, lost, completed, reconnects}' "$dir/sync.json" 2>/dev/null))"
check_jq "$dir/async.json" '.results[0] | .faults_injected == 1 and .failover.lost_completions > 0 and
	.failover.rerun == .failover.lost_completions and .failover.left_active == 0 and
	.duplicates >= .failover.lost_completions and .lost == 0 and .completed == 300 and .failover.lag_bytes > 0' \
	"async: acknowledged completions lost on the new primary, each job run again (hold mode), none lost for good \
($(jq -c '.results[0] | {failover, duplicates, lost}' "$dir/async.json" 2>/dev/null))"
lost=$(jq '.results[0].failover.lost_completions' "$dir/async.json" 2>/dev/null)
jobs=$(sed -n 's/.*the failover lost [0-9]* acknowledged completions.*; jobs: //p' "$dir/fo.err")
check "stderr names the jobs whose completion was lost, for the async run alone ($(head -c 160 <<<"$jobs"))" \
	eval '[ -n "$lost" ] && [ "$(grep -c "the failover lost" "$dir/fo.err")" -eq 1 ] &&
	grep -q "the failover lost $lost acknowledged completions (run again: $lost, left active: 0)" "$dir/fo.err" &&
	[ "$(wc -w <<<"${jobs%...}")" -ge 1 ]'
verified=$(sed -n 's/.*verify: executions_committed: ledger [0-9]*, server [0-9]*; jobs //p' "$dir/fo.err")
check "--verify, from the new primary's own record, names the same jobs, and only for the async run ($(head -c 80 <<<"$verified"))" \
	eval '[ "$(grep -c "verify: executions_committed" "$dir/fo.err")" -eq 1 ] && [ -n "$jobs" ] &&
	[ "$(cut -d " " -f 1-10 <<<"$verified")" = "$(cut -d " " -f 1-10 <<<"$jobs")" ] &&
	grep -Eq "verify: executions_committed: ledger ([0-9]+), server ([0-9]+);" "$dir/fo.err" &&
	[ $(( $(sed -En "s/.*executions_committed: ledger ([0-9]+), server ([0-9]+);.*/\1 - \2/p" "$dir/fo.err") )) -eq "$lost" ]'
check "the faults table shows the failover's figures and the delivery verdict" \
	eval 'grep -q "f_lost" "$dir/fo.out" && grep -q "f_first" "$dir/fo.out" &&
	grep -q "acknowledged completions the new primary lacks" "$dir/fo.out" && grep -q "at-least-once" "$dir/fo.out"'

# ---- a failover without --failover-lag-ms, then another run on the same pair ----
# The old primary, stopped by the first run's failover, must be made the new standby before
# the second run: else that run's failover stops the only live server (exit 4 before the fix).
start=$(date +%s%N)
TMPDIR=$dir/tmp timeout 120 "$CLAIMBENCH" run --format json --standby async --failover-at 0.5 \
	--strategy skip-locked,for-update --jobs 200 --work-ms 10 --workers 2 --no-progress --results "$store" \
	>"$dir/twice.json" 2>"$dir/twice.err"
status=$?
check "two runs with a failover each (no lag) on one pair: both fail over cleanly, exit 0 \
($status, $(elapsed_ms "$start") ms: $(grep -v "throwaway PostgreSQL in\|stored in" "$dir/twice.err" | head -c 300 | tr "\n" " "))" \
	test "$status" -eq 0
check_jq "$dir/twice.json" '.results | length == 2' "both runs are reported"
check_each "$dir/twice.json" 'true' '.faults_injected == 1 and .faults[0].kind == "failover" and
	.lost == 0 and .completed == 200' "each run struck its failover and lost no job"

# ---- sync, the standby cut off long before the failover, and a reaper ----
# Commits wait on the cut standby holding their row locks; the reaper runs on the monitor
# thread: before the fix its UPDATE waited on such a row, the monitor with it, and the
# failover never struck (the run hung). 60 s bound, about 6 s with the fix.
start=$(date +%s%N)
TMPDIR=$dir/tmp timeout -s INT 60 "$CLAIMBENCH" run --format json --standby sync --failover-at 1.5 \
	--failover-lag-ms 1300 --lease-ms 200 --reaper-ms 50 --strategy skip-locked:flip --jobs 300 --work-ms 10 \
	--workers 2 --no-progress --results "$store" >"$dir/reaper.json" 2>"$dir/reaper.err"
status=$?
check "sync with a cut standby and a reaper: the failover strikes and the run ends, exit 0 \
($status, $(elapsed_ms "$start") ms: $(grep -v "throwaway PostgreSQL in\|stored in" "$dir/reaper.err" | head -c 300 | tr "\n" " "))" \
	test "$status" -eq 0
check_jq "$dir/reaper.json" '.results[0] | .faults_injected == 1 and .faults[0].kind == "failover" and
	.failover.lost_completions == 0 and .lost == 0 and .completed == 300' \
	"the reaper's pass held by a commit waiting on the standby gave way: no acknowledged completion lost \
($(jq -c '.results[0] | {failover, lost, completed}' "$dir/reaper.json" 2>/dev/null))"

# ---- the standby mode is checked in force, not only set ----
# A session's synchronous_commit set elsewhere (PGOPTIONS here) would run the workers under
# another mode than the one named: before the fix the run went on (exit 0).
PGOPTIONS='-c synchronous_commit=local' TMPDIR=$dir/tmp expect_exit 3 "synchronous_commit is not on, which --standby sync needs.*PGOPTIONS" \
	"--standby sync whose synchronous_commit is overridden is refused before the run, saying which setting" \
	run --standby sync --strategy skip-locked --jobs 5 --work-ms 1 --workers 1 --no-progress --results "$store"

# ---- SIGKILL: the watchdog stops both servers and removes the directory ----
# standby_runs CLUSTER: whether the standby's postmaster of CLUSTER runs (its socket directory names it).
standby_runs() {
	pgrep -f "unix_socket_directories=$1/standby" >/dev/null
}
# at_work CLUSTER: whether a worker of the run is connected to the primary of CLUSTER: the run began.
at_work() {
	[ "$(on_throwaway "$1" "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'claimbench'" \
		2>/dev/null)" -ge 1 ]
}
TMPDIR=$dir/tmp "$CLAIMBENCH" run --standby async --strategy skip-locked --workers 1 --jobs 20 --work-ms 20000 \
	--no-progress --results "$store" >/dev/null 2>"$dir/kill.err" &
pid=$!
wait_for 20 grep -q 'throwaway PostgreSQL in' "$dir/kill.err"
cluster=$(throwaway_dir "$dir/kill.err")
check "the standby runs beside the primary, in the primary's directory" wait_for 30 standby_runs "$cluster"
wait_for 20 at_work "$cluster"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL: the watchdog removes the directory within 10 s" wait_for 10 eval '[ ! -e "$cluster" ]'
check "and no server of it is left, the standby's included" eval '! pgrep -f "$cluster" >/dev/null'

# ---- SIGKILL of claimbench and its watchdog: cleanup stops the standby too ----
TMPDIR=$dir/tmp "$CLAIMBENCH" run --standby sync --strategy skip-locked --workers 1 --jobs 20 --work-ms 20000 \
	--no-progress --results "$store" >/dev/null 2>"$dir/kill2.err" &
pid=$!
wait_for 20 grep -q 'throwaway PostgreSQL in' "$dir/kill2.err"
cluster=$(throwaway_dir "$dir/kill2.err")
wait_for 30 standby_runs "$cluster"
wait_for 20 at_work "$cluster"
watchdog=$(pgrep -P "$pid" -f claimbench | head -n 1)
kill -KILL "$watchdog" "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL of claimbench and its watchdog leaves the pair running" standby_runs "$cluster"
out=$(TMPDIR=$dir/tmp "$CLAIMBENCH" cleanup)
check "cleanup says it removed the pair's directory" grep -q "removed $cluster" <<<"$out"
check "after cleanup neither server runs and the directory is gone" \
	eval '[ ! -e "$cluster" ] && ! pgrep -f "$cluster" >/dev/null'

# ---- a pair of the user's own: --failover-command, clients through its multi-host conninfo ----
TEST_SERVER_BIN=$(test_server_bin)
pair=$(mktemp -d "$dir/tmp/pair-XXXXXX")
[ "$(id -u)" -eq 0 ] && chown postgres "$pair"
opts="-c listen_addresses='' -c unix_socket_directories=$pair"
as_server_user "$TEST_SERVER_BIN/initdb" -D "$pair/p" -U tester --auth=trust --no-sync >/dev/null 2>&1 &&
	as_server_user "$TEST_SERVER_BIN/pg_ctl" -D "$pair/p" -l "$pair/p.log" -w -o "$opts -p 15441" start >/dev/null &&
	as_server_user "$TEST_SERVER_BIN/pg_basebackup" -D "$pair/s" -d "host=$pair port=15441 user=tester" -R \
		-X stream -c fast --no-sync >/dev/null 2>&1 &&
	as_server_user "$TEST_SERVER_BIN/pg_ctl" -D "$pair/s" -l "$pair/s.log" -w -o "$opts -p 15442" start >/dev/null
check "the test's own primary and standby started" test $? -eq 0
printf '%s/pg_ctl -D %s/p -m immediate -w stop && %s/pg_ctl -D %s/s -w promote\n' "$TEST_SERVER_BIN" "$pair" \
	"$TEST_SERVER_BIN" "$pair" >"$pair/failover.sh"
command="sh $pair/failover.sh"
[ "$(id -u)" -eq 0 ] && command="su postgres -s /bin/sh $pair/failover.sh"
# a failover command that fails: the message names --failover-command ("the restart command" before)
expect_exit 4 "failing the server over: --failover-command exited with status 3" \
	"a failing --failover-command makes the run incomplete, its message naming the option" \
	run --db "host=$pair,$pair port=15441,15442 dbname=postgres user=tester target_session_attrs=read-write" \
	--failover-at 0.3 --failover-command "exit 3" --strategy skip-locked:flip --workers 2 --jobs 100 --work-ms 10 \
	--no-progress --results "$store"
run_json own --db "host=$pair,$pair port=15441,15442 dbname=postgres user=tester target_session_attrs=read-write" \
	--failover-at 0.5 --failover-command "$command" --strategy skip-locked:flip --lease-ms 1000 --reaper-ms 100 \
	--workers 2 --jobs 150 --work-ms 10
check "--failover-command fails the user's pair over and the run goes on to the end (exit $(cat "$dir/own.status"): \
$(head -c 300 "$dir/own.err" | tr "\n" " "))" test "$(cat "$dir/own.status")" -eq 0
check_jq "$dir/own.json" '.results[0] | .faults[0].kind == "failover" and .completed == 150 and .lost == 0 and
	.reconnects >= 2 and (.failover.lag_bytes | type) == "number" and (.failover.lost_completions | type) == "number"' \
	"every worker reconnected to the promoted standby; the lag sampled from pg_stat_replication; the losses counted \
($(jq -c '.results[0] | {failover, lost, completed, reconnects}' "$dir/own.json" 2>/dev/null))"
# own_tables: the claimbench tables left on the new primary.
own_tables() {
	psql "host=$pair port=15442 dbname=postgres user=tester" -XAtqc \
		"SELECT count(*) FROM pg_tables WHERE tablename LIKE 'claimbench%'"
}
check "the run's tables were dropped on the new primary" test "$(own_tables)" = 0
stop_pair
