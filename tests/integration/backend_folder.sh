# A backend is its folder, harness/db/NAME/: no file outside harness/db/ names a backend (its
# dialect DIALECT_NAME in a branch, its driver backend_NAME, its prefix, its folder's headers;
# strategies' and guards' per-dialect SQL tables and harness/plugin/ excepted) or includes its
# client library (the result store's SQLite excepted), the lines that do listed; and a copy of the source tree with harness/db/sqlite copied to harness/db/lite,
# its identifiers renamed by docs/extending.md's sed and no other file touched, builds (as the
# binary under test was built), passes scripts/check-layers, lists lite among the backends, runs
# a queue on it and names it in its refusals. The copy's build takes about a minute.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# names_outside ROOT: every line of ROOT's C files outside harness/db/ that names a backend of
# ROOT's harness/db/*/ folders, as FILE:LINE:TEXT, sorted.
names_outside() (
	cd "$1" || exit 2
	local names alt upper branch
	names=$(for d in harness/db/*/; do [ -d "$d" ] && basename "$d"; done | tr '\n' ' ')
	[ -n "$names" ] || names="postgresql sqlite mariadb" # a tree whose backends are no folders yet
	alt=$(sed 's/ *$//; s/ /|/g' <<<"$names")
	upper=$(tr a-z A-Z <<<"$alt")
	branch="dialect *[!=]= *DIALECT_|DIALECT_($upper) *[!=]=|\\bbackend_($alt)\\b|BACKEND_($upper)_PREFIX"
	branch+="|\"db/($alt)/|kind *[!=]= *BACKEND_"
	{
		grep -rnE --include='*.c' --include='*.h' "DIALECT_($upper)\\b|$branch" harness |
			grep -vE '^harness/(db|plugin)/'
		grep -rnE --include='*.c' --include='*.h' "$branch" strategies guards $(ls -d adapters 2>/dev/null)
	} | LC_ALL=C sort
)

outside=$(names_outside . | sed '/^$/d')
check "no file outside harness/db/ names a backend" \
	eval '[ -z "$outside" ] || { sed "s/^/# /" <<<"$outside" | head -n 20; false; }'
# Nor does one include a backend's client library: libpq, libmariadb, or sqlite3 but for the
# result store (harness/store/), a SQLite file whatever backend the runs had.
clients=$(grep -rnE --include='*.c' --include='*.h' '^#include <(libpq-fe|libpq/|mysql|mariadb/|sqlite3)' \
	harness strategies guards | grep -vE '^harness/db/|^harness/store/[a-z_]+\.[ch]:[0-9]+:#include <sqlite3\.h>' |
	LC_ALL=C sort)
check "no file outside harness/db/ includes a backend's client library (the store's SQLite excepted)" \
	eval '[ -z "$clients" ] || { sed "s/^/# /" <<<"$clients"; false; }'

# The recipe of docs/extending.md ("A backend"), for sqlite copied as lite.
tree=$tmp/tree
new=$tree/build/claimbench
mkdir "$tree"
cp -r Makefile VERSION harness strategies guards scripts "$tree"/
recipe=$(awk '/^<!-- backend recipe -->$/ { on = 1; next } on && /^```/ { if (++fence == 2) exit; next } on && fence == 1' \
	docs/extending.md)
check "docs/extending.md holds the recipe's sed" eval '[ -n "$recipe" ]'
(cd "$tree" && OLD=sqlite && NEW=lite && eval "$recipe") >"$tmp/recipe.log" 2>&1
check "the copy differs from the tree by the new folder alone" eval \
	'[ "$(for d in harness strategies guards scripts; do diff -r "$d" "$tree/$d"; done; diff Makefile "$tree/Makefile")" = \
	   "Only in $tree/harness/db: lite" ]'
check "no file of the copy outside harness/db/ names lite" eval '[ "$(names_outside "$tree")" = "$found" ]'
check "the copy's folders include no other backend's (scripts/check-layers)" scripts/check-layers "$tree"

# A make of its own, not under the caller's job server.
unset MAKEFLAGS MFLAGS MAKELEVEL
case $(ldd "$CLAIMBENCH" 2>/dev/null) in
*libasan*) sanitize=address,undefined ;;
*libtsan*) sanitize=thread ;;
*) sanitize= ;;
esac
started=$(date +%s)
if ! make -C "$tree" --no-print-directory -j2 SANITIZE="$sanitize" build/claimbench >"$tmp/build.log" 2>&1; then
	echo "not ok - the tree with the copied backend builds"
	grep -v '^  ' "$tmp/build.log" | head -n 5 >&2
	exit 0
fi
echo "ok - the tree with the copied backend builds${sanitize:+ under -fsanitize=$sanitize}"
echo "# the build took $(($(date +%s) - started)) s"

check "list backends lists lite, selected by lite:PATH, speaking SQLite's dialect, with a throwaway" eval \
	'"$new" list backends | grep -Eq "^lite +lite:PATH +sqlite +yes +- *$"'
check "list backends lists the tree's own backends too" eval \
	'[ "$("$new" list backends | awk "NR > 1 && NF { print \$1 }" | grep -v "^lite$")" = \
	   "$("$CLAIMBENCH" list backends | awk "NR > 1 && NF { print \$1 }")" ]'
check "list shows a lite column beside sqlite's, every strategy's modes the same on both" eval \
	'"$new" list | awk "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; ok = c[\"lite\"] && c[\"sqlite\"]; next }
		!NF { exit } ok && \$c[\"lite\"] != \$c[\"sqlite\"] { ok = 0 } END { exit !ok }"'

"$new" run --format json --no-progress --results "$tmp/results.db" --db "lite:$tmp/queue.db" --strategy for-update \
	--jobs 30 --workers 2 --work-ms 1 >"$tmp/run.json" 2>"$tmp/run.err"
status=$?
if [ "$status" -eq 0 ]; then
	check_jq "$tmp/run.json" '.backend == "lite" and (.results | length == 1) and
		(.results[0] | .completed == 30 and .duplicates == 0 and .lost == 0)' \
		"for-update runs on lite:PATH, the run's backend lite, every job done once"
else
	echo "not ok - for-update runs on lite:PATH: exit $status; stderr: $(head -n 2 "$tmp/run.err")"
fi

# expect_new WANT PATTERN WHAT ARGS...: expect_exit with the copy's binary.
expect_new() {
	CLAIMBENCH=$new expect_exit "$@"
}
expect_new 2 '^claimbench run: --standby async cannot run on lite: claimbench makes no standby of its throwaway lite server$' \
	"--standby on lite is refused in lite's name" \
	run --no-progress --results "$tmp/results.db" --db "lite:$tmp/queue.db" --standby async --jobs 5
expect_new 2 '^claimbench run: strategy skip-locked cannot run on lite: it needs FOR UPDATE SKIP LOCKED' \
	"a strategy lite's capabilities cannot run is refused in lite's name" \
	run --no-progress --results "$tmp/results.db" --db "lite:$tmp/queue.db" --strategy skip-locked --jobs 5
expect_new 2 '^claimbench run: --kill-backend-at, -exec and -rate cannot run on lite: it has no server process' \
	"a fault lite has no server for is refused in lite's name" \
	run --no-progress --results "$tmp/results.db" --db "lite:$tmp/queue.db" --kill-backend-at 1 --jobs 5
