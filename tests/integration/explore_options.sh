# claimbench explore's own options are rows of the one option table: --help and the man page
# list them, each bad value is refused with its name (exit 2) before anything runs, run refuses
# them, and a scenario file's workers and jobs are explore's (not overridden by its defaults);
# SQLite and MariaDB targets refused before any store or connection; --claims and --max-steps
# beyond a schedule's 512 choices refused, naming the limit; run's options explore does not
# honour (faults, --repeat, --verify, --work-ms, --format csv ...) refused by the one rule, on
# the command line and in a scenario. No server: every check is refused before explore would
# start one.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# A server nothing listens on: a check that got past parsing would fail to connect (exit 3), not 2.
nowhere="host=/nonexistent port=1 dbname=none connect_timeout=1"

# ---- --help and the man page list explore's rows ----
check "explore --help lists its own options as rows, with their defaults" \
	eval '"$CLAIMBENCH" explore --help | grep -Eq -- "^  --max-schedules N +stop .*\(default 20000\)" &&
	      "$CLAIMBENCH" explore --help | grep -Eq -- "^  --claims C +claims each worker makes \(default 2\)"'
check "the man page lists explore's options as option entries" \
	eval '"$CLAIMBENCH" manpage | grep -qx "\\\\fB\\\\-\\\\-max\\\\-schedules\\\\fR \\\\fIN\\\\fR"'

# ---- each bad value refused, its option named ----
expect_exit 2 '^claimbench explore: --claims: expected a whole number from 1 to' "--claims 0 is refused" \
	explore --db "$nowhere" --claims 0
expect_exit 2 '^claimbench explore: --sample: expected a whole number from 1 to' "--sample x is refused" \
	explore --db "$nowhere" --sample x
expect_exit 2 '^claimbench explore: --max-steps: expected a whole number from 1 to' "--max-steps -1 is refused" \
	explore --db "$nowhere" --max-steps -1
expect_exit 2 '^claimbench explore: --max-schedules: expected a whole number from 1 to' \
	"--max-schedules 0 is refused" explore --db "$nowhere" --max-schedules 0
expect_exit 2 '^claimbench explore: --show: unknown kind "dups"' "--show with an unknown kind is refused" \
	explore --db "$nowhere" --show dups
expect_exit 2 '^claimbench explore: --expect "dups > 0": unknown kind' "--expect with an unknown kind is refused" \
	explore --db "$nowhere" --expect 'dups > 0'
expect_exit 2 '^claimbench explore: --expect: at most 8' "a ninth --expect is refused" \
	explore --db "$nowhere" $(for i in 1 2 3 4 5 6 7 8 9; do printf -- '--expect=schedules>=%d ' "$i"; done)
expect_exit 2 '^claimbench explore: option --schedule needs a value' "--schedule without its value is refused" \
	explore --db "$nowhere" --schedule
expect_exit 2 '^claimbench explore: unknown option --bogus' "an unknown option is refused" \
	explore --db "$nowhere" --bogus

# ---- explore's options are explore's alone ----
expect_exit 2 '^claimbench run: unknown option --claims' "run refuses explore's --claims" run --claims 1
expect_exit 2 '^claimbench run: unknown option --max-schedules' "run refuses explore's --max-schedules" \
	run --max-schedules 5
expect_exit 2 '^claimbench run: unknown option --expect' "run refuses explore's --expect" run --expect 'lost == 0'

# ---- a scenario file's workers and jobs are explore's to check ----
printf '[global]\nworkers = 9\n' >"$dir/workers.ini"
expect_exit 2 '^claimbench explore: --workers: explore takes one worker count, 1 to' \
	"a scenario's workers = 9 is refused, not replaced by explore's 2" explore --db "$nowhere" "$dir/workers.ini"
printf '[global]\njobs = 100\n' >"$dir/jobs.ini"
expect_exit 2 '^claimbench explore: --jobs: explore takes at most 64' \
	"a scenario's jobs = 100 is refused, not replaced by explore's 2" explore --db "$nowhere" "$dir/jobs.ini"
printf '[global]\nclaims = 1\n' >"$dir/claims.ini"
expect_exit 2 'claims.*is the command line.s to give' "claims is the command line's, not a scenario key" \
	explore --db "$nowhere" "$dir/claims.ini"

# ---- explore runs on PostgreSQL alone: another engine's target refused before anything connects ----
# On af91ccb mariadb: explored a throwaway PostgreSQL stored as MariaDB's, and a MariaDB conninfo
# went to libpq, its password with it. Neither a store nor a throwaway server is made here.
mkdir "$dir/tmp"
for target in mariadb: 'mariadb:host=/nonexistent/mysqld.sock user=root password=s3cret dbname=x'; do
	err=$(TMPDIR=$dir/tmp "$CLAIMBENCH" explore --db "$target" --strategy naive:flip --claims 1 --jobs 1 \
		--results "$dir/engine.db" 2>&1 >/dev/null)
	status=$?
	check "explore --db ${target%% *}...: MariaDB refused, exit 2 ($status), before any store, server or connection" \
		eval '[ "$status" -eq 2 ] && grep -q "^claimbench explore: MariaDB cannot be explored: .*PostgreSQL alone" <<<"$err" &&
		      ! grep -q -e s3cret -e PGSQL -e "connect" <<<"$err" && [ ! -e "$dir/engine.db" ] &&
		      [ -z "$(ls -A "$dir/tmp")" ]'
done
expect_exit 2 '^claimbench explore: SQLite cannot be explored' "explore --db sqlite: is refused, exit 2" \
	explore --db sqlite: --results "$dir/engine.db"
printf '[global]\ndb = mariadb:\n' >"$dir/mariadb.ini"
expect_exit 2 '^claimbench explore: MariaDB cannot be explored' "a scenario's db = mariadb: is refused, exit 2" \
	explore --strategy naive:flip --claims 1 --jobs 1 --results "$dir/engine.db" "$dir/mariadb.ini"

# ---- a schedule's 512 choices: --claims and --max-steps that could overflow them refused at once ----
# On af91ccb the search failed after its set-up, exit 3 ("more than 512 choices in one schedule").
expect_exit 2 '^claimbench explore: --claims: at most 41 with 2 workers, got 1000: .*512 choices' \
	"--claims 1000 (6C+6 = 6006 steps a worker) is refused, naming the 512-choice limit" explore --db "$nowhere" --claims 1000
expect_exit 2 '^claimbench explore: --max-steps: at most 255 with 2 workers, got 100000: .*512 choices' \
	"--max-steps 100000 is refused, naming the limit" explore --db "$nowhere" --max-steps 100000
expect_exit 2 '^claimbench explore: --max-steps: at most 170 with 3 workers, got 171' \
	"--max-steps 171 with 3 workers is refused (3 x 171 + a crash + an expiry > 512)" \
	explore --db "$nowhere" --workers 3 --max-steps 171
expect_exit 3 'cannot connect' "--max-steps 170 with 3 workers fits: past parsing, to the connection (exit 3)" \
	explore --db "$nowhere" --workers 3 --max-steps 170 --results "$dir/fits.db"
expect_exit 3 'cannot connect' "--claims 41 with 2 workers fits (6C+6 = 252): to the connection (exit 3)" \
	explore --db "$nowhere" --claims 41 --results "$dir/fits.db"

# ---- run's options explore does not honour: refused by the one rule, on the command line and in a file ----
# On af91ccb each of these was accepted and ignored (--crash-exec, a fault, among them).
for option in "--crash-exec 1" "--crash-at 0.5" "--stall-rate 0.5" "--kill-backend-exec 1" "--repeat 3" "--verify" \
	"--restart-at 1" "--snapshot-at 1" "--vacuum-at 1" "--work-ms 5" "--sample-ms 5" "--empty-retries 3" \
	"--heartbeat-ms 10" "--workload refresh" "--no-progress" "--progress-interval 1" "--section a" \
	"--duration 1" "--arrival-rate 10" "--fail-rate 0.5" "--standby async" "--failover-at 1" "--pooler session"; do
	name=${option%% *}
	expect_exit 2 "^claimbench explore: $name is run's: explore does not honour it" "explore refuses $option" \
		explore --db "$nowhere" $option
done
expect_exit 2 '^claimbench explore: --format: explore prints table or json, got csv' "explore refuses --format csv" \
	explore --db "$nowhere" --format csv
printf '[global]\nstrategy = naive:flip\nrepeat = 3\n' >"$dir/repeat.ini"
expect_exit 2 'repeat.ini:3: "repeat" in \[global\]: --repeat is run.s: explore does not honour it' \
	"a scenario's repeat = 3 is refused at its line by the same rule" explore --db "$nowhere" "$dir/repeat.ini"
check "run still takes the options explore refuses" eval \
	'"$CLAIMBENCH" run --help | grep -q -- "--crash-exec" && ! "$CLAIMBENCH" explore --help | grep -q -- "--crash-exec"'
check "explore --help still lists what it honours (--lease-ms, --fence, --isolation, a strategy's --tries)" eval \
	'h=$("$CLAIMBENCH" explore --help) && grep -q -- "--lease-ms" <<<"$h" && grep -q -- "--fence" <<<"$h" &&
	 grep -q -- "--isolation" <<<"$h" && grep -q -- "--tries" <<<"$h"'
