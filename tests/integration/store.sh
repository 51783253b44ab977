# The result store's commands refuse what they cannot read, each with its message and exit status.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'mountpoint -q "$tmp/full" && umount "$tmp/full"; rm -rf "$tmp"' EXIT
# An empty store: a run's store emptied (its rows go with the invocation's). A reading
# command never makes one of an empty file (store_ownership.sh).
empty="$tmp/empty.db"
"$CLAIMBENCH" run --db sqlite: --strategy update-returning --jobs 1 --work-ms 1 --no-progress --results "$empty" \
	>/dev/null 2>&1
sqlite3 "$empty" "PRAGMA foreign_keys = ON; DELETE FROM invocations"

expect_exit 3 'no result store at /nonexistent/dir/x\.db' "history on a missing store" \
	history --results /nonexistent/dir/x.db
expect_exit 2 'RUN: expected a run id .*got "abc"' "show with a bad run id" show abc
expect_exit 2 'missing RUN' "show without a run id" show
expect_exit 3 "no run 12345 in $empty" "show of a run the store does not hold" show 12345 --results "$empty"
expect_exit 3 "no run 12345" "export of a run the store does not hold" export 12345 --format json --results "$empty"
expect_exit 2 '--format: expected one of csv, json, got "xml"' "export in an unknown format" export 1 --format xml
expect_exit 2 'option --format needs a value' "export with --format and no value" export 1 --format
expect_exit 2 'missing --format' "export without --format" export 1
expect_exit 2 'unknown option --bogus' "history with an unknown option" history --bogus
expect_exit 2 '--limit: expected a whole number' "history with a negative limit" history --limit -1

echo "not a database, just text" >"$tmp/text.db"
expect_exit 3 'text.db is not a claimbench result store \(not an SQLite database\)' \
	"history on a file that is not SQLite" history --results "$tmp/text.db"

check "history on an empty store prints the header and exits 0" eval \
	'[ "$("$CLAIMBENCH" history --results "$empty")" = "$("$CLAIMBENCH" history --results "$empty" | head -n 1)" ] &&
	 "$CLAIMBENCH" history --results "$empty" | grep -q "makespan_s"'
check "history, show and export document their options" eval \
	'"$CLAIMBENCH" history --help | grep -q -- "--limit" && "$CLAIMBENCH" show --help | grep -q -- "--results" &&
	 "$CLAIMBENCH" export --help | grep -q -- "--format csv|json"'
check "the usage lists history, show and export" eval \
	'[ "$("$CLAIMBENCH" --help | grep -Ec "^  (history|show|export) ")" -eq 3 ]'

# A run written straight into the store with two parameters: show and export print them.
if command -v sqlite3 >/dev/null; then
	sqlite3 "$empty" "
		INSERT INTO invocations (id, started_at, host, claimbench_version, git_revision, server_version, seed)
		VALUES (1, 'x', 'h', 'v', 'g', 's', 1);
		INSERT INTO runs (id, invocation_id, strategy, claim_mode, workers, jobs, repeat, complete, completed)
		VALUES (1, 1, 'skip-locked', 'hold', 2, 10, 1, 1, 10);
		INSERT INTO run_params (run_id, position, name, value) VALUES (1, 0, 'work-ms', '100'), (1, 1, 'queue', 'a,b');"
	check "show prints the run's parameters in order, and unknown figures as -" eval \
		'out=$("$CLAIMBENCH" show 1 --results "$empty") &&
		 grep -A2 "^parameters:" <<<"$out" | tr "\n" "|" | grep -q "^parameters:|  work-ms = 100|  queue = a,b|" &&
		 grep -Eq "^skip-locked +hold +2 +- +- +- +- +10 " <<<"$out"'
	"$CLAIMBENCH" export 1 --format json --results "$empty" >"$tmp/export.json"
	check_jq "$tmp/export.json" '.results[0].params == {"work-ms": "100", "queue": "a,b"} and
		.results[0].completed == 10 and .results[0].duplicates == null and .results[0].fairness.jain == null' \
		"export prints the parameters as an object, unknown figures as null"
	check "export --format csv leaves unknown figures empty" eval \
		'"$CLAIMBENCH" export 1 --format csv --results "$empty" | tail -n 1 | grep -q "^skip-locked,hold,2,10,,,,1,true,,,0,,,,,10,,"'
	# A crafted row's worker count sizes the per-worker counters: refused with its value, not "out of memory".
	sqlite3 "$empty" "
		INSERT INTO runs (id, invocation_id, strategy, claim_mode, workers, jobs, repeat, complete, completed)
		VALUES (2, 1, 'skip-locked', 'hold', 2000000000, 10, 1, 1, 10);
		INSERT INTO run_workers (run_id, worker, completed, claims, empty, retries, give_ups, busy_ns)
		VALUES (2, 0, 10, 10, 0, 0, 0, 0);"
	expect_exit 3 '^claimbench show: run 2: its workers, 2000000000, is no number of workers \(1 to 1024\)' \
		"show of a stored run with 2000000000 workers names the value" show 2 --results "$empty"
else
	skip_missing sqlite3 "show and export of a run written into the store" scripts/install-deps
fi

# A run refused by a full filesystem leaves a 3-byte -shm and an empty -wal beside its store
# (SQLite's, which it cannot grow): history and show still read the store. A tmpfs of 600 kB
# is filled up; mounting needs root, so the check is skipped without it.
mkdir "$tmp/full"
"$CLAIMBENCH" run --db sqlite: --strategy update-returning --jobs 1 --work-ms 1 --no-progress \
	--results "$tmp/good.db" >/dev/null 2>&1
if mount -t tmpfs -o size=600k tmpfs "$tmp/full" 2>/dev/null; then
	cp "$tmp/good.db" "$tmp/full/store.db"
	dd if=/dev/zero of="$tmp/full/fill" bs=1k 2>/dev/null
	"$CLAIMBENCH" run --db sqlite: --strategy update-returning --jobs 1 --work-ms 1 --no-progress \
		--results "$tmp/full/store.db" >/dev/null 2>"$tmp/full.err"
	refused=$?
	left=$(cd "$tmp/full" && stat -c "%n:%s" store.db-shm store.db-wal 2>/dev/null | tr "\n" " ")
	"$CLAIMBENCH" history --results "$tmp/full/store.db" >"$tmp/full-history.out" 2>&1
	history=$?
	"$CLAIMBENCH" show 1 --results "$tmp/full/store.db" >"$tmp/full-show.out" 2>&1
	show=$?
	check "after a run refused on a full filesystem (exit $refused, left: $left), history (exit $history) and show (exit $show) read the store" \
		eval '[ "$refused" -eq 3 ] && [ "$history" -eq 0 ] && [ "$show" -eq 0 ] &&
		      grep -Eq "^ +1 +1 " "$tmp/full-history.out" && grep -q "^run 1 of invocation 1" "$tmp/full-show.out"'
	umount "$tmp/full"
else
	echo "ok - # SKIP cannot mount a tmpfs (not root?): no full filesystem"
fi
