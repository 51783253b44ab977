# Explore's expectations in a scenario file ([explore-expect]), on a test server of its own:
# "naive: at least one duplicate schedule" and "skip-locked: no violation over every
# schedule" asserted from a file (2 workers x 1 claim on 1 job in flip mode: 8 and 10
# schedules), a failing line named with its value (exit 1), each bad line refused at
# file:line (exit 2) before anything runs, --schedule replaying one strategy of the file
# (its other lines left out, said so) with the holding line printed live as PASS, and `run`
# leaving the section to explore.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
# A server nothing listens on: a check that got past reading the file would fail to connect (exit 3), not 2.
nowhere="host=/nonexistent port=1 dbname=none connect_timeout=1"

# scenario NAME LINE...: $dir/NAME.ini exploring naive and skip-locked in flip mode on 1 job, its
# [explore-expect] section the LINEs.
scenario() {
	local name=$1
	shift
	printf '[global]\nstrategy = naive:flip,skip-locked:flip\njobs = 1\n\n[explore-expect]\n' >"$dir/$name.ini"
	printf '%s\n' "$@" >>"$dir/$name.ini"
}

# ---- bad lines, refused at file:line before anything runs ----
scenario kind 'naive duplicates = naive.dups >= 1'
expect_exit 2 "kind.ini:6: explore expectation \"naive duplicates\": .*unknown kind \"dups\"" \
	"an unknown kind is refused at its line" explore --db "$nowhere" --claims 1 "$dir/kind.ini"
scenario absent 'cas is safe = cas.violation == 0'
expect_exit 2 "absent.ini:6: explore expectation \"cas is safe\": cas is not explored here" \
	"a strategy the file does not explore is refused at its line" explore --db "$nowhere" --claims 1 "$dir/absent.ini"
scenario mode 'naive held = naive:hold.duplicate >= 1'
expect_exit 2 "mode.ini:6: explore expectation \"naive held\": naive:hold is not explored here" \
	"a mode the file does not explore is refused at its line" explore --db "$nowhere" --claims 1 "$dir/mode.ini"
scenario shape 'naive = duplicate >= 1'
expect_exit 2 "shape.ini:6: explore expectation \"naive\": expected STRATEGY\[:MODE\]\.KIND OP N" \
	"a line without its strategy is refused at its line" explore --db "$nowhere" --claims 1 "$dir/shape.ini"

# ---- the expectations checked against a real explore ----
start_test_server || { echo "not ok - a test server starts"; exit 0; }
scenario holds 'naive duplicates = naive.duplicate >= 1' 'skip-locked is safe = skip-locked:flip.violation == 0'
"$CLAIMBENCH" explore --db "$TEST_DB" --results "$dir/explore.db" --claims 1 --format json "$dir/holds.ini" >"$dir/holds.json" 2>"$dir/holds.err"
check "naive duplicates and skip-locked never violates, from the file (exit 0)" test $? -eq 0
check_jq "$dir/holds.json" 'length == 2 and .[0].complete and .[0].with.duplicate >= 1 and .[1].complete and
	.[1].violating == 0' "both explored over every schedule"

# ---- --schedule replays one strategy of the file, its other lines left out; PASS said live ----
trace=$(jq -r '.[0].shown.trace' "$dir/holds.json")
"$CLAIMBENCH" explore --db "$TEST_DB" --results "$dir/explore.db" --claims 1 --strategy naive:flip --schedule "$trace" \
	"$dir/holds.ini" >"$dir/replay.out" 2>"$dir/replay.err"
status=$?
check "naive's trace $trace replays from the file whose other line is about skip-locked (exit $status)" \
	test "$status" -eq 0
check "the replay says the line about skip-locked was left out" \
	grep -q "^claimbench explore: --schedule replays naive: 1 line of \[explore-expect\] about strategies not replayed left out$" \
	"$dir/replay.err"
check "the replay's holding line is printed live as PASS, with its place and value" \
	grep -Eq "^  PASS  $dir/holds.ini:6: naive duplicates \(naive.duplicate >= 1\)  \(it is 1\)$" "$dir/replay.out"
check "without --schedule, a line about a strategy not explored is still refused (exit 2)" eval \
	'"$CLAIMBENCH" explore --db "$nowhere" --results "$dir/explore.db" --claims 1 --strategy naive:flip \
		"$dir/holds.ini" >/dev/null 2>&1; [ $? -eq 2 ]'
scenario fails 'naive duplicates = naive.duplicate >= 1' 'naive is safe = naive.duplicate == 0'
"$CLAIMBENCH" explore --db "$TEST_DB" --results "$dir/explore.db" --claims 1 --strategy naive:flip "$dir/fails.ini" >/dev/null 2>"$dir/fails.err"
check "a line that fails fails the explore (exit 1)" test $? -eq 1
check "the failing line is named with its value, the holding one not" eval \
	'grep -q "naive flip: expectation failed: naive is safe (naive.duplicate == 0) (it is [1-9]" "$dir/fails.err" &&
	 ! grep -q "naive duplicates" "$dir/fails.err"'

# ---- run leaves the section to explore ----
"$CLAIMBENCH" run --db "sqlite:$dir/q.db" --strategy naive:flip --workers 1 --work-ms 0 --results "$dir/r.db" --format json \
	"$dir/holds.ini" >/dev/null 2>"$dir/run.err"
check "run runs a file with [explore-expect], leaving the section alone (exit 0)" test $? -eq 0
