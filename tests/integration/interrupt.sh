# Ctrl-C stops the workers, keeps what was measured, marks it incomplete, exits 4
# and leaves no throwaway server behind.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out.json err=$tmp/err
"$CLAIMBENCH" run --results "$tmp/results.db" --format json --no-progress --strategy for-update --jobs 200 --work-ms 50 >"$out" 2>"$err" &
pid=$!
wait_for 30 jobs_done_at_least "$err" "$pid" 4
kill -INT "$pid"
wait "$pid"
check "interrupted run exits 4" test $? -eq 4
check_jq "$out" '.results[0] | .complete == false and .completed > 0 and .completed < 200' \
	"interrupted run keeps its measurements and is marked incomplete"
check "stderr says the results are incomplete" grep -q 'results incomplete (interrupted)' "$err"
dir=$(throwaway_dir "$err")
check "the throwaway cluster's directory is removed" test -n "$dir" -a ! -e "$dir"
check "no server of it is left running" eval '! pgrep -f -- "$dir" >/dev/null'
