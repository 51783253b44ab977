# A plugin is its file: a copy of the source tree with strategies/skip_locked.c copied to
# skip_locked_copy.c under the name "skip-locked-copy" (and guards/naive.c to naive_copy.c,
# "naive-copy"), and no other file touched, builds; the new binary lists both and runs them
# (the strategy on a throwaway PostgreSQL, the guard on SQLite), the registry's own
# strategies in their order around the new one. The copy builds as the binary under test
# was built, with or without sanitizers; it takes about a minute. And the binary under test
# takes every strategy in every claim mode in one invocation: no fixed bound stops it.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# Every strategy:mode pair list shows on PostgreSQL, comma-separated.
pairs=$("$CLAIMBENCH" list | awk 'NR > 1 && !NF { exit } NR > 1 && $2 != "-" {
	n = split($2, modes, ",")
	for (i = 1; i <= n; i++) {
		sub(/\*/, "", modes[i])
		printf "%s%s:%s", sep, $1, modes[i]
		sep = ","
	}
}')
expect_exit 3 'cannot connect to the database' \
	"every strategy in every claim mode, $(tr , '\n' <<<"$pairs" | wc -l) pairs, is one invocation" \
	run --db "host=127.0.0.1 port=1 connect_timeout=3" --strategy "$pairs" --jobs 1 --results "$tmp/results.db"

tree=$tmp/tree
new=$tree/build/claimbench
# A make of its own, not under the caller's job server.
unset MAKEFLAGS MFLAGS MAKELEVEL

case $(ldd "$CLAIMBENCH" 2>/dev/null) in
*libasan*) sanitize=address,undefined ;;
*libtsan*) sanitize=thread ;;
*) sanitize= ;;
esac

mkdir "$tree"
cp -r Makefile VERSION harness strategies guards scripts "$tree"/
sed 's/skip_locked/skip_locked_copy/g; s/"skip-locked"/"skip-locked-copy"/' strategies/skip_locked.c \
	>"$tree/strategies/skip_locked_copy.c"
sed 's/guard_naive/guard_naive_copy/g; s/"naive"/"naive-copy"/' guards/naive.c >"$tree/guards/naive_copy.c"
check "the copy differs from the tree by the two new files alone" eval \
	'[ "$(for d in harness strategies guards scripts; do diff -r "$d" "$tree/$d"; done; diff Makefile "$tree/Makefile")" = \
	   "$(printf "Only in %s: skip_locked_copy.c\nOnly in %s: naive_copy.c" "$tree/strategies" "$tree/guards")" ]'

started=$(date +%s)
if ! make -C "$tree" --no-print-directory -j2 SANITIZE="$sanitize" build/claimbench >"$tmp/build.log" 2>&1; then
	echo "not ok - the tree with the two new files builds"
	grep -v '^  ' "$tmp/build.log" | head -n 5 >&2
	exit 0
fi
echo "ok - the tree with the two new files builds${sanitize:+ under -fsanitize=$sanitize}"
echo "# the build took $(($(date +%s) - started)) s"

# The registry's strategies as list's rows name them, in its order.
names() {
	"$1" list | awk 'NR > 1 && !NF { exit } NR > 1 { print $1 }'
}
check "list shows skip-locked-copy as it shows skip-locked" eval \
	'"$new" list | grep -Eq "^skip-locked-copy +hold\*,flip +- +hold\*,flip +FOR UPDATE SKIP LOCKED LIMIT 1"'
check "list keeps the registry's order, the copy beside its original" eval \
	'[ "$(names "$new")" = "$(names "$CLAIMBENCH" | sed "/^skip-locked$/a skip-locked-copy")" ]'
check "list guards shows naive-copy" eval '"$new" list guards | grep -Eq "^naive-copy +refresh,exclusive-use,resource +yes +yes "'

# check_run NAME FILTER DESCRIPTION ARGS...: runs the new binary with ARGS, its JSON into
# $tmp/NAME.json; ok when it exits 0 and FILTER holds on that (jq -e alone takes no output for true).
check_run() {
	local name=$1 filter=$2 what=$3 status
	shift 3
	"$new" run --format json --no-progress --results "$tmp/results.db" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	status=$?
	if [ "$status" -ne 0 ]; then
		echo "not ok - $what: exit $status; stderr: $(head -n 2 "$tmp/$name.err")"
		return
	fi
	check_jq "$tmp/$name.json" "$filter" "$what"
}

check_run strategy '.results | length == 1 and (.[0] | .strategy == "skip-locked-copy" and .claim_mode == "hold" and
	.completed == 40 and .duplicates == 0 and .lost == 0 and .complete)' \
	"skip-locked-copy runs on a throwaway PostgreSQL, every job done once" \
	--strategy skip-locked-copy --jobs 40 --workers 4 --work-ms 1
check_run guard '.results | length == 1 and .[0].strategy == "naive-copy" and .[0].claim_mode == "refresh"' \
	"the naive-copy guard runs the refresh workload on SQLite" \
	--workload refresh --guard naive-copy --db "sqlite:$tmp/guard.db" --workers 2 --duration 1
