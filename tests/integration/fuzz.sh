# The libFuzzer targets of tests/fuzz/ (scenario files, expectations, compare's JSON reader,
# a result store read by history, show, export and compare, an adapter's contract line), built with clang,
# AddressSanitizer and UBSan by scripts/fuzz and run a few seconds each:
# they keep building and linking, and what a short run finds shows at once. scripts/fuzz
# SECONDS runs them longer; a crash's input is left in build-fuzz/crashes/.
. "$(dirname "$0")/lib.sh"

seconds=${CLAIMBENCH_FUZZ_SECONDS:-5}
# 0 runs nothing: make test's sanitized pass, whose sanitizers the targets have in every pass.
if [ "$seconds" = 0 ]; then
	echo "# skipped: CLAIMBENCH_FUZZ_SECONDS=0"
	exit 0
fi
out=$(nice scripts/fuzz "$seconds" 2>&1)
status=$?
for src in tests/fuzz/fuzz_*.c; do
	target=$(basename "$src" .c)
	verdict=$(grep "^$target: " <<<"$out")
	if grep -Eq "^$target: [0-9]+ runs in $seconds s, no crash$" <<<"$verdict"; then
		echo "ok - $verdict"
	else
		echo "not ok - $target: builds, links and runs $seconds s without a crash (${verdict:-no verdict})"
	fi
done
if [ "$status" -ne 0 ]; then
	tail -n 20 <<<"$out" >&2
	echo "not ok - scripts/fuzz exited with status $status"
fi
