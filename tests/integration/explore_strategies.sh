# claimbench explore over the strategies that claim safely, on a test server of its own: no
# duplicate, lost, stuck or zombie job in any schedule of 2 workers x 2 claims on 2 jobs for
# update-returning, advisory, cas, delete-returning, move-table and batch in each mode they
# have (skip-locked and for-update: explore.sh); skip-locked-cursor (six statements a claim)
# over every schedule of 2 workers x 1 claim; ticket, whose polls make its space too large to
# run whole, over a seeded sample. The timing-free replacement of the drains' "no duplicates"
# for these strategies.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'stop_test_server; rm -rf "$dir"' EXIT
start_test_server || { echo "not ok - a test server starts"; exit 0; }

safe=update-returning:hold,update-returning:flip,advisory,cas,delete-returning,move-table,batch:hold,batch:flip
explore_json safe --strategy "$safe" --expect 'violation == 0' --expect 'error == 0' --expect 'bounded == 0'
check "no violation, error or bound in any schedule of 2 x 2 (exit 0)" test "$(cat "$dir/safe.status")" -eq 0
for sm in ${safe//,/ }; do
	s=${sm%:*} m=${sm#*:}
	[ "$s" = "$sm" ] && m=flip
	check_each "$dir/safe.json" ".strategy == \"$s\" and .claim_mode == \"$m\"" ".complete and
		.schedules > 0 and .violating == 0 and .with.duplicate == 0 and .with.lost == 0 and .with.stuck == 0" \
		"$s in $m mode: every schedule run ($(jq ".[] | select(.strategy == \"$s\" and .claim_mode == \"$m\") |
		.schedules" "$dir/safe.json" 2>/dev/null)), none with a duplicate, lost or stuck job"
done
check_each "$dir/safe.json" '.strategy == "update-returning"' '.with["empty-claimable"] > 0' \
	"update-returning: some claims come back empty while the other job was claimable (its re-check under READ COMMITTED)"

explore_json cursor --strategy skip-locked-cursor:hold,skip-locked-cursor:flip --claims 1 --expect 'violation == 0' \
	--expect 'bounded == 0'
check "skip-locked-cursor: no violation in any schedule of 2 x 1, hold and flip (exit 0)" \
	test "$(cat "$dir/cursor.status")" -eq 0
check_jq "$dir/cursor.json" 'length == 2 and all(.[]; .complete and .schedules > 100)' \
	"skip-locked-cursor: every schedule run in both modes"

# a worker polls the line at every step it is given: a budget of 80 statements lets every drawn schedule end
explore_json ticket --strategy ticket:hold,ticket:flip --sample 40 --seed 7 --max-steps 80 --expect 'violation == 0' \
	--expect 'bounded == 0'
check "ticket: no violation in 40 seeded schedules of 2 x 2, none bounded, hold and flip (exit 0)" \
	test "$(cat "$dir/ticket.status")" -eq 0
check_jq "$dir/ticket.json" 'all(.[]; .sampled and .schedules == 40 and .space > 40)' \
	"ticket: a sample, the space it was drawn from estimated larger"
