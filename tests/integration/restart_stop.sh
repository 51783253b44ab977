# A restart command (--restart-command) and the run's stop: it is ended by the run's own
# stop, whatever the reason, not by a signal only. Here the run stops because it cannot
# progress (every execution loses its connection) while the restart command hangs: the
# command's process group is ended at once, not at --restart-limit-s (60 s by default).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
chmod 755 "$dir"
trap 'stop_test_server; rm -rf "$dir"' EXIT
store=$dir/results.db

if ! start_test_server; then
	echo "not ok - a test server could not be started"
	exit 0
fi
# group_gone: whether no process of the restart command's process group (its pid) is left.
group_gone() {
	[ -s "$dir/hang.pid" ] && ! pgrep -g "$(cat "$dir/hang.pid")" >/dev/null
}
# Every execution holds its transaction open through 100 ms of work, and the server ends a
# session idle in a transaction after 50 ms: the run stops for want of progress within
# seconds, while the restart command struck at 0.1 s still sleeps.
start=$(date +%s%N)
timeout 90 "$CLAIMBENCH" run --db "$TEST_DB options='-c idle_in_transaction_session_timeout=50'" \
	--strategy skip-locked:hold --workers 2 --jobs 20 --work-ms 100 --restart-at 0.1 \
	--restart-command "echo \$\$ >$dir/hang.pid; sleep 40" --no-progress --results "$store" \
	>/dev/null 2>"$dir/err"
status=$?
took=$(elapsed_ms "$start")
check "a run that cannot progress ends a hanging restart command at once: exit 4 in under 20 s ($status, $took ms: \
$(head -c 300 "$dir/err"))" eval \
	'[ "$status" -eq 4 ] && [ "$took" -lt 20000 ] && grep -q "the run cannot progress" "$dir/err" &&
	grep -q -- "--restart-command was ended by the stop" "$dir/err"'
check "and no process of its group is left" wait_for 5 group_gone
"$CLAIMBENCH" cleanup --db "$TEST_DB" >/dev/null 2>&1

# The command's shell exits at the SIGTERM that ends it (at its limit, here): its process
# group is sent SIGKILL while the shell is still an unreaped zombie, which keeps the group's
# number its own; reaped first, the number could be an unrelated process's by the SIGKILL.
# Checked in the order of the system calls, under strace.
if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace: leaks are checked in the other run.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=kill,wait4,waitid -o "$dir/trace" "$CLAIMBENCH" run --db "$TEST_DB" \
		--strategy skip-locked --workers 2 --jobs 100000 --work-ms 0 --duration 4 --restart-at 0.5 \
		--restart-command "echo \$\$ >$dir/term.pid; sleep 25" --restart-limit-s 1 --no-progress \
		--results "$store" >/dev/null 2>"$dir/term.err"
	shell=$(cat "$dir/term.pid" 2>/dev/null)
	killed=$(grep -n "kill(-$shell, SIGKILL)" "$dir/trace" | head -1 | cut -d: -f1)
	reaped=$(grep -En "wait4\($shell, .*\) = $shell\$" "$dir/trace" | head -1 | cut -d: -f1)
	check "the command's group is sent SIGKILL before its shell is reaped (trace lines: kill $killed, reap $reaped)" \
		eval '[ -n "$shell" ] && [ -n "$killed" ] && [ -n "$reaped" ] && [ "$killed" -lt "$reaped" ] &&
		grep -q -- "--restart-command was still running after 1 s" "$dir/term.err"'
else
	echo "ok - # skip strace is not installed: the order of SIGKILL and reaping is not traced"
fi
"$CLAIMBENCH" cleanup --db "$TEST_DB" >/dev/null 2>&1
