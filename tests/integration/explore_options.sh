# claimbench explore's own options are rows of the one option table: --help and the man page
# list them, each bad value is refused with its name (exit 2) before anything runs, run refuses
# them, and a scenario file's workers and jobs are explore's (not overridden by its defaults).
# No server: every check is refused before explore would start one.
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
