# Every strategy in every claim mode it supports, and the knobs that change its shape.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
"$CLAIMBENCH" run --results "$tmp/results.db" --format json --no-progress --jobs 120 --work-ms 5 --workers 8 --tries 50 --backoff-ms 5 \
	--strategy naive,for-update:hold,for-update:flip,nowait-backoff:hold,nowait-backoff:flip,skip-locked:hold,skip-locked:flip,ticket:hold,ticket:flip,update-returning:hold,update-returning:flip \
	>"$out" 2>/dev/null
check "all strategies in all their modes run (exit 0)" test $? -eq 0
for sm in for-update:hold for-update:flip nowait-backoff:hold nowait-backoff:flip skip-locked:hold \
	skip-locked:flip ticket:hold ticket:flip update-returning:hold update-returning:flip; do
	s=${sm%:*} m=${sm#*:}
	check_each "$out" ".strategy == \"$s\" and .claim_mode == \"$m\"" \
		".duplicates == 0 and .overlaps == 0 and .lost == 0 and .completed == 120 and .ledger_mismatches == 0" \
		"$s in $m mode: 120 jobs, no duplicates, overlaps or losses"
done
check_each "$out" '.strategy == "ticket" and .claim_mode == "hold"' \
	'.makespan_s >= 0.9 * 120 * 0.005' "ticket hold with X=1: the work itself is serialised"

"$CLAIMBENCH" run --results "$tmp/results.db" --format json --no-progress --jobs 60 --work-ms 20 --workers 6 --strategy ticket:hold \
	--ticket-limit 3 >"$out" 2>/dev/null
check_jq "$out" '.results[0] | .duplicates > 0 and .lost == 0' \
	"ticket with X=3: three claimers select with no lock, so duplicates appear (X=1 is the exclusion)"

"$CLAIMBENCH" run --results "$tmp/results.db" --format json --no-progress --jobs 40 --work-ms 50 --workers 4 --strategy nowait-backoff:hold \
	--tries 2 --backoff-ms 10 >"$out" 2>/dev/null
check_jq "$out" '.results[0] | .give_ups > 0 and .errors.lock_not_available == .retries + .give_ups and
	.duplicates == 0 and .completed == 40' "nowait-backoff: gives up after --tries and counts it"

"$CLAIMBENCH" run --results "$tmp/results.db" --format json --no-progress --jobs 100000 --work-ms 0 --workers 4 --duration 1 \
	--strategy skip-locked:flip >"$out" 2>/dev/null
check_jq "$out" '.results[0] | .duration_s == 1 and .completed > 0 and .completed < 100000 and .lost == 0 and
	(.throughput_jps - .completed / 1 | fabs) < 0.001' "timed run: throughput is completed / duration"

"$CLAIMBENCH" run --results "$tmp/results.db" --format csv --no-progress --jobs 20 --work-ms 1 --workers 2 --strategy skip-locked \
	--work-dist exp >"$out" 2>/dev/null
check "csv: a header and one row" eval '[ "$(wc -l <"$out")" -eq 2 ] && head -n 1 "$out" | grep -q "^strategy,"'
