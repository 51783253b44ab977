# --verify on MariaDB: the server's own record of a run (InnoDB row triggers writing the run's
# audit table) agrees with the ledger's figures for every strategy and mode MariaDB runs
# (checked against `claimbench list`) at 16 workers and zero work, and with crashes under a
# lease, a reaper and stale tickets and with crashes and no lease (stuck and lost jobs;
# ticket:hold under crashes four times over, and its stale tickets by a stall); for the
# strategies that keep their contract under them, with killed connections (naive too, four
# times over), stalls past the lease (fenced and unfenced, each zombie or refusal tied to a
# lease redelivery); every strategy with a server restart (the throwaway, killed and started
# again), and naive with kills at instants, no more statements in doubt than lost connections;
# a strategy whose completion really marks a second job done is caught (exit 5, the figure and
# the jobs on stderr and in JSON); the audit table carries the run's owner note, and it and
# its triggers are dropped with the run, or by cleanup after a killed one.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
store=$dir/results.db
server_pid=
stop_server() {
	[ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	rm -rf "$dir"
}
trap stop_server EXIT

# ---- a server of the test's own, standing for a user's (as mariadb_strategies.sh starts it) ----
mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
chmod 755 "$dir"
mkdir "$dir/m"
as=()
if [ "$(id -u)" -eq 0 ]; then
	account=mysql
	id -u "$account" >/dev/null 2>&1 || account=nobody
	chown "$account" "$dir/m"
	as=(setpriv --reuid="$(id -u "$account")" --regid="$(id -g "$account")" --init-groups --)
fi
"${as[@]}" mariadb-install-db --no-defaults --datadir="$dir/m/data" --auth-root-authentication-method=normal \
	--skip-test-db --innodb-log-file-size=16M >"$dir/install.log" 2>&1
"${as[@]}" "$mariadbd" --no-defaults --datadir="$dir/m/data" --socket="$dir/m/sock" --skip-networking \
	--innodb-log-file-size=16M --innodb-buffer-pool-size=64M --log-error="$dir/m/server.log" >/dev/null 2>&1 &
server_pid=$!
sql() { mariadb --no-defaults -S "$dir/m/sock" -uroot -N -B "$@"; }
server_up() { sql -e "SELECT 1" >/dev/null; }
check "the test's own MariaDB server starts" wait_for 30 server_up
sql -e "CREATE DATABASE q"
db="mariadb:host=$dir/m/sock user=root dbname=q"

# claimbench_objects: the tables and triggers of claimbench runs left in database q.
claimbench_objects() {
	sql -e "SELECT (SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'q' AND
		TABLE_NAME LIKE 'claimbench%'), (SELECT count(*) FROM information_schema.TRIGGERS WHERE
		TRIGGER_SCHEMA = 'q' AND TRIGGER_NAME LIKE 'claimbench%')" | tr '\t' ' '
}

# Every strategy:mode pair `claimbench list` says MariaDB runs, comma-separated.
offered=$(offered_pairs mariadb)
count=$(tr ',' '\n' <<<"$offered" | wc -l)

# ---- every strategy and mode, 16 workers, zero work: no difference ----
run_json all --db "$db" --verify --strategy "$offered" --tries 50 --backoff-ms 5 --jobs 200 --workers 16 --work-ms 0
check "MariaDB, every strategy and mode at 16 workers with --verify: exit 0 (got $(cat "$dir/all.status"))" \
	test "$(cat "$dir/all.status")" -eq 0
ran=$(jq -r '[.results[] | .strategy + ":" + .claim_mode] | join(",")' "$dir/all.json")
check "the runs cover every pair claimbench lists for mariadb (listed: $offered; ran: $ran)" \
	eval '[ "$count" -ge 15 ] && [ "$offered" = "$ran" ]'
check_each "$dir/all.json" 'true' '.verified and .verify_differences == [] and .complete' \
	"every run verified, with no difference between the ledger and the server's record"
check_each "$dir/all.json" '.strategy == "naive"' '.duplicates > 0' \
	"naive's duplicates (which the server's record shows too) are there to verify"
# InnoDB's hold-mode deadlocks at REPEATABLE READ may repeat a job (mariadb_strategies.sh): one per deadlock at most,
# a batch claim's 10 (its rolled-back transaction held them all).
check_each "$dir/all.json" '.strategy != "naive"' \
	'.completed == 200 and .duplicates <= .errors.deadlock * (if .strategy == "batch" then 10 else 1 end) and
	.overlaps == 0 and .lost == 0 and .ledger_mismatches == 0' \
	"every strategy but naive: 200 jobs, no losses, the ledger agrees with the table"
check "no difference printed" eval '! grep -q "verify: [a-z_+]*: ledger" "$dir/all.err"'
check "the runs' audit tables and triggers are dropped with their tables (tables, triggers left: $(claimbench_objects))" \
	test "$(claimbench_objects)" = "0 0"

# ---- crashes under a lease, a reaper and stale tickets; crashes with no lease ----
run_json lease --db "$db" --verify --strategy "$offered" --tries 50 --backoff-ms 5 --jobs 100 --workers 4 \
	--work-ms 5 --crash-exec 10,40 --respawn-ms 50 --lease-ms 300 --reaper-ms 100 --stale-ms 300
check "2 crashes, a lease and a reaper: exit 0 (got $(cat "$dir/lease.status"))" test "$(cat "$dir/lease.status")" -eq 0
check_each "$dir/lease.json" 'true' '.verified and .verify_differences == [] and .faults_injected == 2' \
	"with 2 crashes, a lease and a reaper: every run verified without a difference"
check_jq "$dir/lease.json" '[.results[] | .redeliveries] | add >= 2 * '"$count" \
	"the crashes made redeliveries to verify, 2 a run at least"
check_jq "$dir/lease.json" '[.results[] | .reaped] | add >= 10' "and the reaper's give-backs"
run_json stuck --db "$db" --verify --strategy "$offered" --tries 50 --backoff-ms 5 --jobs 100 --workers 4 \
	--work-ms 5 --crash-exec 10,40 --respawn-ms 50 --stale-ms 300
check "2 crashes and no lease: exit 0 (got $(cat "$dir/stuck.status"))" test "$(cat "$dir/stuck.status")" -eq 0
check_each "$dir/stuck.json" 'true' '.verified and .verify_differences == [] and .faults_injected == 2' \
	"with 2 crashes and no lease: every run verified without a difference"
check_each "$dir/stuck.json" '.strategy == "skip-locked" and .claim_mode == "flip"' '.stuck == 2 and .lost == 2' \
	"flip mode with no lease strands each crashed job: the stuck and lost jobs the record is compared on"
# ticket:hold under crashes: a crashed holder's ticket blocks the line until it is stale, by
# when the tickets queued behind it are as old and go with it; the next claims then take the
# job a live holder is committing, waiting on its row lock, and return just after its
# COMMIT, often before the holder's thread sees it return: the holder is no zombie (the
# ledger measures its hold to when the COMMIT was sent, docs/metrics.md). 4 runs of 6 showed
# the lock-waiting claim before the ledger measured the holder by its COMMIT's return. A
# waiting worker's poll deletes its own ticket too once it is stale: its claim then holds
# no exclusion, a stale-ticket redelivery on both sides (1 run in 4 under load parted on it).
run_json ticket_hold --db "$db" --verify --strategy ticket:hold --repeat 4 --tries 50 --backoff-ms 5 --jobs 100 \
	--workers 4 --work-ms 5 --crash-exec 10,40 --respawn-ms 50 --stale-ms 300
check_each "$dir/ticket_hold.json" 'true' '.verified and .verify_differences == [] and .faults_injected == 2' \
	"ticket:hold, 2 crashes and stale tickets, 4 runs: every run verified without a difference"
check_each "$dir/ticket_hold.json" 'true' '.redeliveries >= 2' \
	"each run's 2 crashes made redeliveries to verify ($(jq -c '[.results[] | [.redeliveries_crash, .redeliveries_stale_ticket]]' \
	"$dir/ticket_hold.json"): after a crash and after a stale ticket, a run)"
check_each "$dir/ticket_hold.json" 'true' '.zombie_completions == 0 and .overlaps == 0' \
	"ticket:hold: no zombie or overlap (the lock-waiting claim returned after the holder's commit)"
# A stall past the stale limit deletes the stalled holder's ticket for certain (a crash's
# ticket, above, goes stale only when its job is still unclaimed then: 4 runs in CI had none).
run_json ticket_stall --db "$db" --verify --strategy ticket:hold --repeat 2 --tries 50 --backoff-ms 5 --jobs 30 \
	--workers 3 --work-ms 10 --stall-exec 5 --stall-ms 600 --stale-ms 200
check_each "$dir/ticket_stall.json" 'true' '.verified and .verify_differences == [] and .redeliveries_stale_ticket >= 1 and
	.zombie_completions == 0 and .overlaps == 0' \
	"ticket:hold, a stall past the stale limit, 2 runs: stale-ticket redeliveries, verified without a difference"
check "no difference printed under crashes" eval '! grep -q "verify: [a-z_+]*: ledger" "$dir/lease.err" "$dir/stuck.err" "$dir/ticket_hold.err" "$dir/ticket_stall.err"'

# ---- killed connections, stalls past the lease: the strategies that keep their contract under them ----
# (advisory's session lock too: a holder whose session the fault ended is a redelivery by it,
# as the record has it; naive apart, below)
kept=for-update:hold,for-update:flip,nowait-backoff:hold,nowait-backoff:flip,skip-locked:hold,skip-locked:flip
kept=$kept,ticket:hold,ticket:flip,advisory:flip,cas:flip,delete-returning:flip,move-table:flip,batch:hold,batch:flip
run_json kill --db "$db" --verify --strategy "$kept" --tries 50 --backoff-ms 5 --jobs 100 --workers 4 --work-ms 10 \
	--kill-backend-exec 20,60 --lease-ms 2000 --respawn-ms 50
check_each "$dir/kill.json" 'true' '.verified and .verify_differences == [] and .faults_injected == 2' \
	"2 killed connections (KILL CONNECTION): every run verified without a difference"
# naive under killed connections planned for its executions: the worker's completion is
# sent once the monitor saw its server process gone, so it committed nothing, though the
# table may show the job done over its claim by a racer's completion; the worker does not
# take that for its own (before, 4 runs of 5 parted: executions_committed, ledger 1 more)
run_json kill_naive --db "$db" --verify --strategy naive:flip --repeat 4 --tries 50 --backoff-ms 5 --jobs 100 \
	--workers 4 --work-ms 10 --kill-backend-exec 20,60 --lease-ms 2000 --respawn-ms 50
check_each "$dir/kill_naive.json" 'true' '.verified and .verify_differences == [] and .faults_injected == 2' \
	"naive:flip, 2 killed connections, 4 runs: every run verified without a difference"
check_jq "$dir/kill_naive.json" '[.results[] | .race_duplicates] | add > 0' \
	"naive's races, the completions over another's claim, are there to verify"
for fence in none attempt; do
	run_json "stall_$fence" --db "$db" --verify --strategy skip-locked:flip,ticket:flip,cas:flip,batch:flip \
		--jobs 100 --workers 4 --work-ms 5 --stall-exec 30,90 --stall-ms 1000 --lease-ms 300 --fence "$fence"
	check_each "$dir/stall_$fence.json" 'true' '.verified and .verify_differences == [] and .faults_injected == 2' \
		"2 stalls past the lease, --fence $fence: every run verified without a difference"
done
# Each job a lease redelivery took from its stalled holder is one late completion: a zombie
# unfenced, refused fenced (a batch's stall holds all its jobs); how many the stalls made is
# the run's own record, not a margin on the machine's speed.
check_each "$dir/stall_none.json" 'true' '.zombie_completions == .redeliveries_lease and .fenced == 0' \
	"unfenced, every job taken from a stalled holder is a zombie the record shows too (zombies, lease redeliveries: $(
	jq -c '[.results[] | [.zombie_completions, .redeliveries_lease]]' "$dir/stall_none.json"))"
check_each "$dir/stall_attempt.json" 'true' '.fenced == .redeliveries_lease and .zombie_completions == 0' \
	"fenced, each is refused and writes nothing (fenced, lease redeliveries: $(
	jq -c '[.results[] | [.fenced, .redeliveries_lease]]' "$dir/stall_attempt.json"))"
check_jq "$dir/stall_none.json" '[.results[] | .redeliveries_lease] | add > 0' \
	"the stalls outlived their lease and made lease redeliveries to verify"
check "no difference printed under killed connections and stalls" \
	eval '! grep -q "verify: [a-z_+]*: ledger" "$dir/kill.err" "$dir/kill_naive.err" "$dir/stall_none.err" \
	"$dir/stall_attempt.err"'

# ---- a server restart (the throwaway, killed and started again) ----
# (batch and naive too: a batch claim whose answer the restart lost is its jobs' claims in
# doubt, one statement's; naive's completion across the restart may be read back as
# another's: a completion in doubt, docs/metrics.md)
run_json restart --db mariadb: --verify --strategy "naive:flip,$kept" --tries 50 --backoff-ms 5 \
	--jobs 200 --workers 4 --work-ms 10 --restart-at 0.5 --lease-ms 2000
check "a restart on the throwaway MariaDB: exit 0 (got $(cat "$dir/restart.status"))" \
	test "$(cat "$dir/restart.status")" -eq 0
check_each "$dir/restart.json" 'true' '.verified and .verify_differences == [] and .reconnects >= 4' \
	"a restart: every run reconnected, read its record back and verified without a difference"
# verify_in_doubt counts jobs; the rule is one statement in doubt per lost connection, and a
# batch claim's one statement holds up to --batch (10) jobs
check_each "$dir/restart.json" 'true' '.verify_in_doubt <= .reconnects * (if .strategy == "batch" then 10 else 1 end)' \
	"no more statements in doubt than lost connections ($(jq -c '[.results[] | select(.verify_in_doubt > 0) |
	.strategy + ":" + .claim_mode + " " + (.verify_in_doubt | tostring)]' "$dir/restart.json"))"
# naive under kills at instants: a kill may land while a completion is in flight
run_json kill_at_naive --db mariadb: --verify --strategy naive:flip --repeat 3 --tries 50 --backoff-ms 5 \
	--jobs 100 --workers 4 --work-ms 10 --kill-backend-at 0.05,0.1,0.15,0.2 --lease-ms 2000 --respawn-ms 50
check_each "$dir/kill_at_naive.json" 'true' '.verified and .verify_differences == [] and .verify_in_doubt <= .reconnects' \
	"naive:flip, 4 kills at instants, 3 runs: verified without a difference, no more in doubt than lost connections"

# ---- a completion that also marks the next job done, unknown to the harness: caught ----
cat >"$dir/double.ini" <<'EOF'
[global]
jobs = 40
work-ms = 0
workers = 2
no-progress = true

[strategy double-complete]
summary = completes its job and marks the next one done as well, unseen by the harness
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'
                ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, attempts
complete = UPDATE {jobs} SET status = 'done' WHERE id = :id + 1 AND status = 'new';
    UPDATE {jobs} SET status = 'done', done_at = NOW(6) WHERE id = :id RETURNING id
modes = flip
backends = mariadb

[double]
strategy = double-complete
EOF
run_json double "$dir/double.ini" --db "$db" --verify --trust-scenario
check "MariaDB: a difference fails the run with exit 5 (got $(cat "$dir/double.status"))" \
	test "$(cat "$dir/double.status")" -eq 5
check "the difference is printed figure by figure with its jobs" grep -Eq \
	"double-complete flip x2 #1: verify: completed: ledger ([0-9]+), server 40; jobs [0-9]+( [0-9]+)*$" "$dir/double.err"
check "the run says why it failed" grep -q "the ledger and the server's record disagree" "$dir/double.err"
check_jq "$dir/double.json" '.results[0] | .verified and (.verify_differences[] | select(.figure == "completed") |
	.server == 40 and .ledger < 40 and (.jobs | length) == 40 - .ledger)' \
	"JSON: verified, the difference with both values and the jobs the ledger missed"

# ---- a killed --verify run: its audit table carries the run's note; cleanup drops it, the triggers with the queue table ----
"$CLAIMBENCH" run --db "$db" --verify --strategy move-table --workers 2 --jobs 20 --work-ms 20000 \
	--no-progress --results "$store" >/dev/null 2>&1 &
pid=$!
# audit_ready: the run's audit table and its 6 triggers (insert, update, delete on 2 tables) are in q.
audit_ready() {
	[ "$(sql -e "SELECT count(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'q' AND
		TRIGGER_NAME LIKE 'claimbench\_${pid}\_audit\_%'")" -eq 6 ]
}
wait_for 20 audit_ready
check "the audit table carries the run's owner note" eval '[ "$(sql -e "SELECT count(*) FROM information_schema.TABLES
	WHERE TABLE_SCHEMA = '"'q'"' AND TABLE_NAME = '"'claimbench_${pid}_audit'"' AND
	TABLE_COMMENT LIKE '"'claimbench run: pid $pid %_audit%'"'")" -eq 1 ]'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
out=$("$CLAIMBENCH" cleanup --db "$db")
check "cleanup drops a dead --verify run's audit table" grep -q "dropped table claimbench_${pid}_audit" <<<"$out"
check "nothing of the killed run is left, its triggers gone with its tables (tables, triggers: $(claimbench_objects))" \
	test "$(claimbench_objects)" = "0 0"
