# Adapters (docs/adapters.md, contract version 1) on a server the test starts: the reference
# adapter (claimbench's skip-locked behind the contract) gives the built-in skip-locked's
# figures on seed 001's classic, and stays exact with 3 replicas at zero work; lost jobs are
# what the library's own table says, not the lines; the reference adapter without its lock
# (--no-lock) shows duplicates, which --verify's record of its table confirms, and one whose
# lines hide a claim (--unreported-claim) fails --verify naming the job (exit 5); pg-boss (when make adapters installed it) runs beside skip-locked
# and recovers a killed replica's jobs by its expiry; a replica SIGKILLed (--crash-replica-at) leaves its jobs in
# hand as crashed executions, each redelivered once to the other replica, or to its replacement
# (--replica-respawn-ms) when it was alone; through a server
# restart (--restart-at) or a killed backend of its (--kill-backend-at) each job in hand is a
# lost line, redelivered after it; the adapter's tables
# are dropped after each run; an adapter's rows say its system and version in the run table,
# JSON, CSV, report and compare; a line that breaks the contract is refused with the adapter,
# replica, line number and the line (exit 7); a silent adapter is stopped by the watchdog
# (exit 4); a claimbench SIGKILLed leaves its adapter's tables and schema, which cleanup --db
# drops by the run's marker (its audit table and function with them), and leaves, saying why,
# while the marker's adapter cannot be loaded, or when a forged marker names no run's queue; manifests that do not parse are refused with file:line (exit 2), as are a missing
# adapter, an engine the manifest does not list, the options an adapter's run does not run
# yet and --verify of an adapter whose manifest says it cannot be checked; a runtime or command not installed, or a replica that exits before ready, is exit 3.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db
adapters=$dir/adapters
tree=$(cd "$(dirname "$0")/../.." && pwd)
export CLAIMBENCH_ADAPTERS="$tree/adapters:$adapters"

if ! start_test_server; then
	skip_missing initdb "adapters on a test server" scripts/install-deps
	exit 0
fi

# new_adapter NAME KEY=VALUE...: a manifest in $adapters/NAME, the reference's with the given keys changed
new_adapter() {
	local name=$1
	shift
	mkdir -p "$adapters/$name"
	sed -e "s/^name = .*/name = $name/" "$tree/adapters/reference/adapter.ini" >"$adapters/$name/adapter.ini"
	for kv in "$@"; do
		local key=${kv%%=*} value=${kv#*=}
		if grep -q "^$key = " "$adapters/$name/adapter.ini"; then
			sed -i "s|^$key = .*|$key = $value|" "$adapters/$name/adapter.ini"
		else
			echo "$key = $value" >>"$adapters/$name/adapter.ini"
		fi
	done
}

# no_adapter_tables: whether the test server holds no table or schema of an adapter's run (claimbench_PID_aN...)
no_adapter_tables() {
	[ "$(test_sql "SELECT count(*) FROM pg_tables WHERE tablename ~ '^claimbench_[0-9]+_a[0-9]+'
		OR schemaname ~ '^claimbench_[0-9]+_a[0-9]+'")" -eq 0 ] &&
		[ "$(test_sql "SELECT count(*) FROM pg_namespace WHERE nspname ~ '^claimbench_[0-9]+_a[0-9]+'")" -eq 0 ]
}

# killed_run NAME ADAPTER: a --verify run of ADAPTER on the test server SIGKILLed once its replicas are
# ready (its audit table, made just before the start, exists), and the replicas given time to stop
killed_run() {
	local name=$1 adapter=$2 pid
	"$CLAIMBENCH" run --db "$TEST_DB" --strategy "adapter:$adapter" --jobs 40 --workers 2 --work-ms 300 --verify \
		--no-progress --results "$store" >/dev/null 2>"$dir/$name.err" &
	pid=$!
	wait_for 60 audit_table_there
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	wait_for 10 no_replica_of "$pid"
}

# audit_table_there: whether an adapter run's audit table is on the test server
audit_table_there() {
	[ "$(test_sql "SELECT count(*) FROM pg_tables WHERE tablename ~ '^claimbench_[0-9]+_a[0-9]+_audit$'")" -ge 1 ]
}

# no_replica_of PID: whether no process has PID as its parent (a killed claimbench's replicas have stopped)
no_replica_of() {
	! pgrep -P "$1" >/dev/null
}

# run_objects: the test server's tables, schemas and functions named as an adapter run's, one line
run_objects() {
	test_sql "SELECT string_agg(n, ' ' ORDER BY n) FROM (SELECT tablename AS n FROM pg_tables UNION ALL
		SELECT nspname FROM pg_namespace UNION ALL SELECT proname FROM pg_proc) o
		WHERE n ~ '^claimbench_[0-9]+_a[0-9]+'"
}

# ---- the reference adapter against the built-in skip-locked: seed 001's classic ----
run_json classic --db "$TEST_DB" --strategy skip-locked,adapter:reference --jobs 200 --workers 10 --work-ms 100
check "skip-locked and adapter:reference run (exit 0)" test "$(cat "$dir/classic.status")" -eq 0
check_each "$dir/classic.json" '.strategy == "adapter:reference"' '.complete and .completed == 200 and
	.executions == 200 and .duplicates == 0 and .lost == 0 and .ledger_mismatches == 0 and
	(.per_worker | length) == 10' "the reference adapter: 200 jobs, no duplicate or loss, the table agrees, 10 workers"
for figure in .duplicates .lost .completed .executions '.per_worker | length' '[.per_worker[].completed] | add'; do
	check_jq "$dir/classic.json" "[.results[] | $figure] | (.[0] == .[1])" \
		"the reference adapter's $figure equals the built-in skip-locked's ($(jq -c "[.results[] | $figure]" \
		"$dir/classic.json" 2>/dev/null))"
done
# Per-worker counts: the classic's shares move by a job or two on a loaded machine, the built-in's
# as the adapter's; two rounds of 400 ms jobs for 10 workers give each worker 2, timing aside.
run_json rounds --db "$TEST_DB" --strategy skip-locked,adapter:reference --jobs 20 --workers 10 --work-ms 400
check_jq "$dir/rounds.json" '[.results[] | [.per_worker[].completed]] | (.[0] == .[1] and (.[0] | all(. == 2)))' \
	"per-worker counts equal the built-in's, 2 each ($(jq -c '[.results[] | [.per_worker[].completed]]' \
	"$dir/rounds.json" 2>/dev/null))"
check "the adapter's table is dropped after its run" no_adapter_tables

# ---- an adapter's rows say its system and version: the run table, JSON, report and compare ----
check_jq "$dir/classic.json" '[.results[] | select(.strategy == "adapter:reference") | .params] |
	(.[0]["adapter-system"] == "claimbench skip-locked" and .[0]["adapter-version"] == "1")' \
	"JSON: the adapter's run carries its system and version ($(jq -c '[.results[] | .params["adapter-system"],
	.params["adapter-version"]]' "$dir/classic.json" 2>/dev/null))"
for side in base cand; do
	"$CLAIMBENCH" run --db "$TEST_DB" --strategy skip-locked,adapter:reference --jobs 20 --workers 2 --work-ms 0 \
		--no-progress --results "$dir/label.db" >"$dir/label_$side.txt" 2>/dev/null
done
check "the run table labels the adapter's row with its system and version ($(grep -o -m 1 '^adapter:[^ ]* ([^)]*)' \
	"$dir/label_cand.txt"))" grep -q '^adapter:reference (claimbench skip-locked 1) ' "$dir/label_cand.txt"
check "and a built-in strategy's row with its name alone" grep -q '^skip-locked  *hold ' "$dir/label_cand.txt"
# the first invocation's runs: 1 skip-locked, 2 the adapter's
"$CLAIMBENCH" export --results "$dir/label.db" --format csv 2 >"$dir/label.csv" 2>&1
"$CLAIMBENCH" export --results "$dir/label.db" --format csv 1 >"$dir/label_builtin.csv" 2>&1
check "CSV: the adapter's row carries its system and version in adapter_system and adapter_version, a built-in's leaves them empty ($(
	tail -n 1 "$dir/label.csv" | cut -c1-80))" eval '
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		{ if (\$col[\"strategy\"] != \"adapter:reference\" || \$col[\"adapter_system\"] != \"claimbench skip-locked\" ||
		      \$col[\"adapter_version\"] != \"1\") bad = 1 }
		END { exit bad || NR < 2 }" "$dir/label.csv" &&
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		{ if (\$col[\"strategy\"] != \"skip-locked\" || \$col[\"adapter_system\"] != \"\") bad = 1 }
		END { exit bad || NR < 2 }" "$dir/label_builtin.csv"'
"$CLAIMBENCH" compare --results "$dir/label.db" inv:1 inv:2 >"$dir/label_compare.txt" 2>&1
check "compare labels the adapter's group with its system and version" \
	grep -q '^adapter:reference (claimbench skip-locked 1) hold' "$dir/label_compare.txt"
if command -v gnuplot >/dev/null; then
	"$CLAIMBENCH" report --results "$dir/label.db" inv:2 --out "$dir/label_report" >/dev/null 2>&1
	check "the report's summary and figures label the adapter's rows with its system and version" \
		grep -q '^| adapter:reference:hold (claimbench skip-locked 1) |' "$dir/label_report/report.md"
	check "and its figures' rows" grep -q '| adapter:reference (claimbench skip-locked 1) | hold |' \
		"$dir/label_report/report.md"
else
	skip_missing gnuplot "the report's labels of an adapter's rows" scripts/install-deps
fi

# ---- lost jobs are the library's table's: a manifest whose done state the table never holds ----
new_adapter unkept done_states=kept
run_json unkept --db "$TEST_DB" --strategy adapter:unkept --jobs 30 --workers 3 --work-ms 0
check_each "$dir/unkept.json" 'true' '.completed == 30 and .lost == 30 and .ledger_mismatches == 30' \
	"jobs the lines say finished but the state table does not hold done: all 30 lost, 30 ledger mismatches"

# ---- three replicas of zero work: still exact ----
run_json replicas --db "$TEST_DB" --strategy adapter:reference --replicas 3 --jobs 600 --workers 4 --work-ms 0
check_each "$dir/replicas.json" 'true' '.complete and .completed == 600 and .duplicates == 0 and .lost == 0 and
	.workers == 12 and (.per_worker | length) == 12 and ([.per_worker[].completed] | add) == 600' \
	"3 replicas of 4 workers, zero work: 600 jobs, a per-worker row per seat, no duplicate or loss"

# ---- pg-boss 10 (make adapters installs it): the classic beside skip-locked, every execution counted ----
if ! command -v node >/dev/null; then
	skip_missing node "pg-boss beside skip-locked on the classic" scripts/install-test-deps
elif [ ! -e "$tree/adapters/pg-boss/node_modules/pg-boss/package.json" ]; then
	skip_missing "adapters/pg-boss/node_modules" "pg-boss beside skip-locked on the classic" \
		"scripts/install-test-deps (make adapters)"
else
	run_json pgboss --db "$TEST_DB" --strategy skip-locked,adapter:pg-boss --jobs 200 --workers 10 --work-ms 100
	check "skip-locked and adapter:pg-boss in one invocation (exit 0)" test "$(cat "$dir/pgboss.status")" -eq 0
	check_each "$dir/pgboss.json" '.strategy == "adapter:pg-boss"' '.complete and .claim_mode == "flip" and
		.completed == 200 and .executions == 200 and .race_duplicates == 0 and .redeliveries == 0 and .lost == 0 and .ledger_mismatches == 0 and
		(.per_worker | length) == 10 and ([.per_worker[].completed] | add) == 200' \
		"pg-boss: 200 jobs by 10 workers, no duplicate or loss, its own table (state completed) agrees with the lines"
	check "pg-boss's schema is dropped after its run" no_adapter_tables
	# a replica killed: its jobs in hand come back by pg-boss's expiry (2 s here), redone by the other
	PGBOSS_EXPIRE_IN_SECONDS=2 run_json pgboss_crash --db "$TEST_DB" --strategy adapter:pg-boss --replicas 2 \
		--workers 2 --jobs 40 --work-ms 100 --crash-replica-at 0.5 --verify
	crashed=$(sed -n 's/.*replica 0 died with \([0-9]*\) jobs in hand.*/\1/p' "$dir/pgboss_crash.err")
	check "pg-boss: the killed replica's jobs in hand are named (${crashed:-?})" test "${crashed:-0}" -ge 1
	check_each "$dir/pgboss_crash.json" 'true' ".complete and .completed + .completions_unknown == 40 and .lost == 0 and
		.integrity_errors == 0 and .redeliveries == ${crashed:-0} - .completions_unknown and
		.executions == 40 + .redeliveries and .race_duplicates == 0 and .faults_injected == 1" \
		"pg-boss: the ${crashed:-?} crashed executions' jobs recovered by its expiry (or done unseen), each done once more, no race, none lost"
	check_each "$dir/pgboss_crash.json" 'true' '.verified and (.verify_differences | length) == 0' \
		"--verify: pg-boss's own table's record (its state flips) agrees with the lines"
	PGBOSS_EXPIRE_IN_SECONDS=2 run_json pgboss_restart --db "$TEST_DB" --strategy adapter:pg-boss --jobs 100 \
		--workers 4 --work-ms 20 --restart-at 0.5 --restart-command "$(test_restart_command)" --verify
	check_each "$dir/pgboss_restart.json" 'true' '.complete and .completed + .completions_unknown == 100 and
		.lost == 0 and .integrity_errors == 0 and .race_duplicates == 0 and .redeliveries == .redeliveries_restart and
		.redeliveries_restart + .completions_unknown == .errors.connection_lost and .verified and
		(.verify_differences | length) == 0' \
		"pg-boss through a server restart: its completions cut are lost lines, each job redone by its expiry (or done unseen), --verify agrees"
	killed_run pgboss_killed pg-boss
	"$CLAIMBENCH" cleanup --db "$TEST_DB" >"$dir/pgboss_cleanup.out" 2>&1
	check "a killed pg-boss run: cleanup --db drops pg-boss's schema by the run's marker, then the marker and the audit" \
		grep -Eq '^dropped what adapter pg-boss made for queue claimbench_[0-9]+_a[0-9]+ ' "$dir/pgboss_cleanup.out"
	check "nothing of the killed pg-boss run is left ($(run_objects))" test -z "$(run_objects)"
fi

# ---- claims without a lock: duplicates ----
new_adapter broken args=--no-lock system="claimbench reference without its lock" claim_mode=flip
run_json broken --db "$TEST_DB" --strategy adapter:broken --jobs 200 --workers 8 --work-ms 20 --verify
check_each "$dir/broken.json" 'true' '.race_duplicates > 0 and .completed == 200 and
	.executions == .completed + .race_duplicates and .lost == 0' \
	"the adapter that claims without a lock: race duplicates counted, every execution one of them or a job's first"
check_each "$dir/broken.json" 'true' '.verified and (.verify_differences | length) == 0' \
	"--verify: the server's record of its table (every claim and completion) agrees with its lines' duplicates"

# ---- --verify: a claim the lines never reported is caught by the server's record ----
new_adapter liar args=--unreported-claim system="claimbench reference hiding a claim"
run_json liar --db "$TEST_DB" --strategy skip-locked,adapter:liar --jobs 50 --workers 4 --work-ms 0 --verify
check "an adapter whose lines hide a claim fails --verify (exit 5, got $(cat "$dir/liar.status"))" \
	test "$(cat "$dir/liar.status")" -eq 5
check_each "$dir/liar.json" '.strategy == "skip-locked"' '.verified and (.verify_differences | length) == 0' \
	"--verify beside it: the built-in skip-locked's record agrees"
check_each "$dir/liar.json" '.strategy == "adapter:liar"' '.verified and .duplicates == 0 and
	(.verify_differences | length) == 1 and .verify_differences[0].figure == "duplicates" and
	.verify_differences[0].ledger == 0 and .verify_differences[0].server == 1 and
	(.verify_differences[0].jobs | length) == 1' \
	"the hidden claim: duplicates ledger 0, server 1, one job named, nothing else differs"
check "stderr names the difference (verify: duplicates: ledger 0, server 1; jobs N)" \
	grep -Eq "adapter:liar hold x4 #1: verify: duplicates: ledger 0, server 1; jobs [0-9]+$" "$dir/liar.err"
check "--verify's audit table and trigger function are dropped after the runs" test "$(test_sql "SELECT count(*)
	FROM pg_proc WHERE proname ~ '^claimbench_[0-9]+_a[0-9]+_audit'")" -eq 0

# ---- a replica SIGKILLed: its jobs in hand are crashed executions, redone by the other ----
run_json crash --db "$TEST_DB" --strategy adapter:reference --replicas 2 --workers 2 --jobs 40 --work-ms 100 \
	--crash-replica-at 0.55 --verify
crashed=$(sed -n 's/.*replica 0 died with \([0-9]*\) jobs in hand.*/\1/p' "$dir/crash.err")
check "the killed replica's jobs in hand are named (replica 0 died with ${crashed:-?} jobs in hand)" \
	test "${crashed:-0}" -ge 1
# A crashed job whose completion committed before the kill (no line said so) is a completion
# unknown, done in the table and not redelivered; every other is redelivered once.
check_each "$dir/crash.json" 'true' ".complete and .completed + .completions_unknown == 40 and .lost == 0 and
	.integrity_errors == 0 and .redeliveries_crash == ${crashed:-0} - .completions_unknown and
	.executions == 40 + .redeliveries_crash and .race_duplicates == 0 and .faults_injected == 1" \
	"every job done, the ${crashed:-?} crashed executions each redelivered once (the holder's transaction died) or done unseen, no race, one fault"
check_each "$dir/crash.json" 'true' '.verified and (.verify_differences | length) == 0' \
	"--verify: the server's record agrees, the dead replica's unsaid claims and completions at most in doubt"
check "the crash run's table is dropped" no_adapter_tables
# a lone replica killed and replaced (--replica-respawn-ms): the replacement, a new process in its seats, finishes the drain
run_json respawn --db "$TEST_DB" --strategy adapter:reference --workers 2 --jobs 40 --work-ms 100 \
	--crash-replica-at 0.5 --replica-respawn-ms 100 --verify
check "the killed replica is replaced, told a number beyond the replicas' ($(grep -o 'replica 0 replaced at .*' \
	"$dir/respawn.err"))" grep -q 'replica 0 replaced at [0-9.]* s (told it is replica 1)' "$dir/respawn.err"
crashed=$(sed -n 's/.*replica 0 died with \([0-9]*\) jobs in hand.*/\1/p' "$dir/respawn.err")
check_each "$dir/respawn.json" 'true' ".complete and .completed + .completions_unknown == 40 and .lost == 0 and
	.integrity_errors == 0 and .redeliveries_crash == ${crashed:-0} - .completions_unknown and .race_duplicates == 0 and
	(.per_worker | length) == 2 and ([.per_worker[].completed] | add) == .completed and .verified and
	(.verify_differences | length) == 0" \
	"one replica killed and replaced: its ${crashed:-?} crashed jobs redone in its own 2 seats, none lost, --verify agrees"

# ---- the server restarted (--restart-at): every replica's connections cut, its jobs in hand lost ----
restart_cmd=$(test_restart_command)
# (100 ms jobs: the 4 workers are between jobs for a few ms a job, so that some hold one at the restart)
run_json restart --db "$TEST_DB" --strategy skip-locked,adapter:reference --jobs 60 --workers 4 --work-ms 100 \
	--restart-at 0.5 --restart-command "$restart_cmd" --verify
check "skip-locked and adapter:reference through a server restart (exit $(cat "$dir/restart.status"))" \
	test "$(cat "$dir/restart.status")" -eq 0
check_each "$dir/restart.json" 'true' '.complete and .completed + .completions_unknown == 60 and .lost == 0 and
	.integrity_errors == 0 and .ledger_mismatches == 0 and .faults_injected == 1 and .race_duplicates == 0 and
	.redeliveries == .redeliveries_restart and .executions == .completed + .completions_unknown + .redeliveries and
	.verified and (.verify_differences | length) == 0' \
	"through a restart: every job done once or redelivered after the restart, none lost, no race, --verify agrees"
check_each "$dir/restart.json" '.strategy == "adapter:reference"' '.errors.connection_lost >= 1 and
	.redeliveries_restart + .completions_unknown == .errors.connection_lost' \
	"the reference adapter's lost lines: each job in hand at the restart redelivered after it, or done unseen"

# ---- the adapter's backends killed (--kill-backend-at): its sessions, named by PGAPPNAME, terminated ----
run_json kill --db "$TEST_DB" --strategy adapter:reference --jobs 200 --workers 4 --work-ms 20 \
	--kill-backend-at 0.3,0.6 --verify
check "both kills struck one of the adapter's sessions ($(grep -c "killed backend [0-9]*, one of the adapter's" \
	"$dir/kill.err") of 2)" test "$(grep -c "killed backend [0-9]*, one of the adapter's" "$dir/kill.err")" -eq 2
check_each "$dir/kill.json" 'true' '.complete and .faults_injected == 2 and .completed + .completions_unknown == 200 and
	.lost == 0 and .race_duplicates == 0 and .integrity_errors == 0 and .redeliveries == .redeliveries_killed_backend and
	.redeliveries_killed_backend + .completions_unknown == .errors.connection_lost and .verified and
	(.verify_differences | length) == 0' \
	"a killed backend's job in hand is a lost line, redelivered after the kill (or done unseen), none lost, --verify agrees"

# ---- a line that breaks the contract ----
mkdir -p "$adapters/garbled"
cat >"$adapters/garbled/garbled.sh" <<'SH'
echo ready
while read -r verb rest; do
	case $verb in
	flush) echo "enqueued 20" ;;
	start) echo "claimed 1 1 0"; echo "finished 1 one 0" ;;
	stop) echo stopped; exit 0 ;;
	esac
done
SH
new_adapter garbled runtime=bash command=garbled.sh
expect_exit 7 'adapter garbled: replica 0: line 4: "finished 1 one 0": expected "finished JOB ATTEMPT WORKER' \
	"a malformed line is refused with the adapter, replica, line number, the line and what was expected" \
	run --db "$TEST_DB" --strategy adapter:garbled --jobs 20 --workers 1 --no-progress --results "$store"
mkdir -p "$adapters/twice"
sed -e 's/echo "finished 1 one 0"/echo "claimed 2 1 0"/' "$adapters/garbled/garbled.sh" >"$adapters/twice/twice.sh"
new_adapter twice runtime=bash command=twice.sh
expect_exit 7 'line 4: "claimed 2 1 0": expected worker 0 to end job 1 \(attempt 1\) before it claims another' \
	"a worker that claims while it holds a job breaks the contract" \
	run --db "$TEST_DB" --strategy adapter:twice --jobs 20 --workers 1 --no-progress --results "$store"

# ---- a claimbench SIGKILLed: cleanup --db drops what its adapter made, by the run's marker ----
killed_run killed reference
left=$(run_objects)
check "a killed run leaves its marker, audit table and function, and the adapter's table ($left)" \
	grep -Eq '_a[0-9]+_adapter .*_a[0-9]+_audit .*_a[0-9]+_audit .*_a[0-9]+_jobs' <<<"$left"
"$CLAIMBENCH" cleanup --db "$TEST_DB" >"$dir/cleanup.out" 2>&1
check "cleanup --db drops what adapter reference made for the dead run's queue, by its manifest" \
	grep -Eq '^dropped what adapter reference made for queue claimbench_[0-9]+_a[0-9]+ ' "$dir/cleanup.out"
check "then the marker, the audit table and its function ($(tr '\n' ';' <"$dir/cleanup.out"))" \
	grep -Ezq 'dropped table claimbench_[0-9]+_a[0-9]+_adapter.*dropped function claimbench_[0-9]+_a[0-9]+_audit\(\)' \
	"$dir/cleanup.out"
check "nothing of the killed run is left on the server ($(run_objects))" test -z "$(run_objects)"
# the marker names an adapter no folder holds any more: left alone, saying so, and dropped once it is back
new_adapter vanishing
killed_run vanishing vanishing
dead_note=$(test_sql "SELECT obj_description(c.oid, 'pg_class') FROM pg_class c WHERE relname ~ '^claimbench_[0-9]+_a[0-9]+_adapter$'")
mv "$adapters/vanishing" "$adapters/vanished"
"$CLAIMBENCH" cleanup --db "$TEST_DB" >"$dir/cleanup2.out" 2>&1
check "a dead run's marker whose adapter cannot be loaded is left alone, saying why ($(grep -m 1 -o "a dead adapter run.s marker: no adapter [^:]*" "$dir/cleanup2.out"))" \
	grep -Eq '^left alone: table claimbench_[0-9]+_a[0-9]+_adapter \(a dead adapter run.s marker: no adapter .vanishing' \
	"$dir/cleanup2.out"
left=$(run_objects)
check "and the run's other tables and function with it ($left)" \
	grep -Eq '_a[0-9]+_adapter .*_a[0-9]+_audit .*_a[0-9]+_audit .*_a[0-9]+_jobs' <<<"$left"
mv "$adapters/vanished" "$adapters/vanishing"
"$CLAIMBENCH" cleanup --db "$TEST_DB" >"$dir/cleanup3.out" 2>&1
check "with its adapter back, the next cleanup drops it all ($(run_objects))" test -z "$(run_objects)"
# a marker forged for another name (the dead run's note copied onto it, sealed with its oid):
# its "queue" is no run's queue name, so nothing it names is dropped
test_sql "CREATE TABLE public_adapter (adapter text NOT NULL); INSERT INTO public_adapter VALUES ('pg-boss');
	CREATE TABLE public_kept (id int)" >/dev/null
oid=$(test_sql "SELECT 'public_adapter'::regclass::oid")
forged=$(sed -e "s/; table [^ ]* oid [0-9]*/; table public_adapter oid $oid/" <<<"$dead_note")
test_sql "COMMENT ON TABLE public_adapter IS '$forged'" >/dev/null
"$CLAIMBENCH" cleanup --db "$TEST_DB" >"$dir/cleanup4.out" 2>&1
check "a forged marker whose queue is no run's is left alone, saying why ($(grep -m 1 -o 'public is no queue name' \
	"$dir/cleanup4.out"))" grep -q '^left alone: table public_adapter (a marker.s name, but public is no queue name' \
	"$dir/cleanup4.out"
check "and nothing it names is dropped (public.public_kept is there)" \
	test "$(test_sql "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename = 'public_kept'")" -eq 1
test_sql "DROP TABLE public_adapter, public_kept" >/dev/null

# ---- a replica that exits before it is ready ----
mkdir -p "$adapters/quitter"
printf 'echo "quitter: cannot start" >&2\nexit 1\n' >"$adapters/quitter/quitter.sh"
new_adapter quitter runtime=bash command=quitter.sh
expect_exit 3 'adapter quitter: replica 0 ended before it was ready' "a replica that exits before ready is refused" \
	run --db "$TEST_DB" --strategy adapter:quitter --jobs 5 --no-progress --results "$store"

# ---- a silent adapter: the watchdog ----
mkdir -p "$adapters/silent"
cat >"$adapters/silent/silent.sh" <<'SH'
echo ready
while read -r verb rest; do
	case $verb in
	flush) echo "enqueued 20" ;;
	esac
done
SH
new_adapter silent runtime=bash command=silent.sh
expect_exit 4 'adapter silent: the watchdog stopped the run: no line from any replica for 500 ms' \
	"an adapter that stops reporting is stopped by the watchdog, the run incomplete" \
	run --db "$TEST_DB" --strategy adapter:silent --jobs 20 --workers 1 --adapter-silence-ms 500 --no-progress \
	--results "$store"

# ---- manifests that do not parse, adapters and runtimes missing, engines not listed ----
new_adapter nokey
sed -i 's/^engines = postgresql/engines postgresql/' "$adapters/nokey/adapter.ini"
line=$(grep -n '^engines postgresql' "$adapters/nokey/adapter.ini" | cut -d: -f1)
expect_exit 2 "nokey/adapter.ini:$line: expected KEY = VALUE, got \"engines postgresql\"" \
	"a manifest line without = is refused with file:line" run --db "$TEST_DB" --strategy adapter:nokey
new_adapter unknown colour=blue
expect_exit 2 'unknown/adapter.ini:[0-9]+: unknown key "colour"; expected one of: contract, name' \
	"an unknown key is refused with file:line and the keys expected" run --db "$TEST_DB" --strategy adapter:unknown
new_adapter oracle engines=oracle
expect_exit 2 'oracle/adapter.ini:[0-9]+: engines: expected backends. names \(postgresql, sqlite, mariadb\)' \
	"an engine claimbench does not know is refused with file:line" run --db "$TEST_DB" --strategy adapter:oracle
new_adapter future contract=2
expect_exit 2 'future/adapter.ini:[0-9]+: contract: this claimbench speaks contract version 1; got "2"' \
	"a manifest of another contract version is refused" run --db "$TEST_DB" --strategy adapter:future
new_adapter halfway
sed -i '/^state_column/d' "$adapters/halfway/adapter.ini"
expect_exit 2 'halfway/adapter.ini:[0-9]+: expected the key state_column' \
	"a manifest missing a key is refused" run --db "$TEST_DB" --strategy adapter:halfway
new_adapter global tables=public.jobs
expect_exit 2 'global/adapter.ini: tables: expected each table to name \{queue\}' \
	"a manifest whose tables are not the run's own is refused" run --db "$TEST_DB" --strategy adapter:global
expect_exit 2 'no adapter "nosuch": none of .*nosuch/adapter.ini exists' "a missing adapter is refused" \
	run --db "$TEST_DB" --strategy adapter:nosuch
new_adapter noruntime runtime=claimbench-no-such-runtime command=garbled.sh needs="a runtime never installed"
expect_exit 3 'adapter noruntime: its runtime "claimbench-no-such-runtime" is not on PATH \(it needs: a runtime never installed\)' \
	"an adapter whose runtime is missing is refused" \
	run --db "$TEST_DB" --strategy adapter:noruntime --jobs 5 --no-progress --results "$store"
new_adapter nocommand command=claimbench-no-such-adapter
expect_exit 3 'adapter nocommand: its command "claimbench-no-such-adapter" is neither in' \
	"an adapter whose executable is missing is refused" \
	run --db "$TEST_DB" --strategy adapter:nocommand --jobs 5 --no-progress --results "$store"
expect_exit 2 'adapter:reference.*does not list this engine' "an engine the manifest does not list is refused" \
	run --db "sqlite:$dir/q.db" --strategy adapter:reference --jobs 5 --no-progress --results "$store"
expect_exit 2 "adapter:reference: not for an adapter's run yet: --pipeline \\(contract version 1" \
	"what contract version 1 does not run for an adapter is refused before anything runs (--pipeline)" \
	run --db "$TEST_DB" --strategy skip-locked,adapter:reference --pipeline --jobs 5
new_adapter noverify no_verify="its rows say nothing"
expect_exit 2 "adapter:noverify: --verify cannot check it: its rows say nothing" \
	"--verify of an adapter whose manifest says it cannot be checked is refused with its reason" \
	run --db "$TEST_DB" --strategy adapter:noverify --verify --jobs 5
new_adapter nostate state_table='"{queue}_elsewhere"'
expect_exit 3 'adapter nostate: --verify cannot check it: its state table "claimbench_[0-9]+_a[0-9]+_elsewhere" is not there' \
	"--verify of an adapter whose state table is not there once it is ready stops the run with the table named" \
	run --db "$TEST_DB" --strategy adapter:nostate --verify --jobs 5 --no-progress --results "$store"
expect_exit 2 "adapter:reference: not for an adapter's run yet: the faults" "and the faults but --crash-replica-at" \
	run --db "$TEST_DB" --strategy adapter:reference --crash-exec 3 --jobs 5
expect_exit 2 "--replicas: only an adapter's run has replicas" "--replicas without an adapter is refused" \
	run --db "$TEST_DB" --strategy skip-locked --replicas 2 --jobs 5
expect_exit 2 "--replica-respawn-ms replaces the replica --crash-replica-at kills" \
	"--replica-respawn-ms without --crash-replica-at is refused" \
	run --db "$TEST_DB" --strategy adapter:reference --replica-respawn-ms 100 --jobs 5
check "no adapter's table is left on the server" no_adapter_tables
