# Helpers of the integration scripts: verdict lines the runner counts.
# CLAIMBENCH is the binary under test (tests/run sets it). A script with a line
# "# tier: fast" belongs to the fast tier too (tests/run --fast, make check): keep that
# tier under a minute on 2 cores.
: "${CLAIMBENCH:=build/claimbench}"

# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok - $what"
	else
		echo "not ok - $what"
	fi
}

# check_jq FILE FILTER DESCRIPTION: ok when jq -e FILTER holds on FILE.
check_jq() {
	if jq -e "$2" "$1" >/dev/null 2>&1; then
		echo "ok - $3"
	else
		echo "not ok - $3 (jq -e '$2' failed)"
	fi
}

# expect_exit STATUS PATTERN DESCRIPTION ARGS...: runs claimbench ARGS and checks its exit
# status and that stderr matches the extended regex PATTERN.
expect_exit() {
	local want=$1 pattern=$2 what=$3 err status
	shift 3
	err=$("$CLAIMBENCH" "$@" 2>&1 >/dev/null)
	status=$?
	if [ "$status" -eq "$want" ] && grep -Eq -- "$pattern" <<<"$err"; then
		echo "ok - $what (exit $status)"
	else
		echo "not ok - $what: exit $status, want $want; stderr: $(head -n 3 <<<"$err")"
	fi
}
