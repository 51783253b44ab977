# scripts/gen-plugins lists every file of strategies/ and guards/ that defines a plugin
# (strategy_NAME in NAME.c, guard_NAME in NAME.c) and nothing else, by .order then .name
# (not by file name), and stops the build, naming the file, when one defines a plugin under
# a name not its own or its .order is not written out; and every folder harness/db/NAME/ a
# file of which defines backend_NAME, by .order, stopping on a folder that defines another's.
# (test_registry checks the order of the registries built from it.)
set -uo pipefail
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/harness"
cp -r strategies guards "$tmp"/
cp -r harness/db "$tmp/harness"/
cp scripts/gen-plugins "$tmp/scripts"/

# defined DIR KIND: the names of DIR's files that define KIND_NAME, one a line, sorted.
defined() {
	grep -l "^const struct $2_ops $2_" "$1"/*.c | xargs -n 1 basename | sed 's/\.c$//' | LC_ALL=C sort
}

# listed LIST: the names the header's LIST holds, one a line, in its order.
listed() {
	sed -n "s/^#define $1(X) //p" "$tmp/plugins.h" | grep -o 'X([A-Za-z0-9_]*)' | sed 's/^X(//; s/)$//'
}

# check_list DIR KIND LIST COUNT: the header's LIST names DIR's plugins of KIND, COUNT counts them.
check_list() {
	local want
	want=$(defined "$1" "$2")
	if [ "$(listed "$3" | LC_ALL=C sort)" = "$want" ] &&
		grep -q "^#define $4 $(wc -l <<<"$want")\$" "$tmp/plugins.h"; then
		echo "ok - $3 names every file of $1/ that defines a plugin, $4 counts them"
	else
		echo "not ok - $3 or $4 differ from the files of $1/"
	fi
}

if "$tmp/scripts/gen-plugins" "$tmp/plugins.h" 2>"$tmp/err"; then
	check_list strategies strategy STRATEGY_FILES STRATEGY_COUNT
	check_list guards guard GUARD_FILES GUARD_COUNT
else
	echo "not ok - gen-plugins writes the header: $(cat "$tmp/err")"
fi

sed 's/strategy_skip_locked\b/strategy_elsewhere/' strategies/skip_locked.c >"$tmp/strategies/misnamed.c"
if "$tmp/scripts/gen-plugins" "$tmp/plugins.h" 2>"$tmp/err"; then
	echo "not ok - gen-plugins takes strategies/misnamed.c, which defines strategy_elsewhere"
elif grep -q "strategies/misnamed.c defines strategy_elsewhere: name it strategy_misnamed" "$tmp/err"; then
	echo "ok - gen-plugins stops on a file defining a strategy under another name, naming both"
else
	echo "not ok - gen-plugins's refusal of a misnamed file says: $(cat "$tmp/err")"
fi
rm "$tmp/strategies/misnamed.c"

# A file named to sort first whose .order ties with skip-locked's and whose .name sorts after it.
sed 's/strategy_skip_locked\b/strategy_aaa_first/; s/"skip-locked"/"skip-locked-zz"/' strategies/skip_locked.c \
	>"$tmp/strategies/aaa_first.c"
if "$tmp/scripts/gen-plugins" "$tmp/plugins.h" 2>"$tmp/err" &&
	listed STRATEGY_FILES | grep -A1 -x skip_locked | tail -n 1 | grep -qx aaa_first; then
	echo "ok - gen-plugins lists by .order, then .name, not by file name"
else
	echo "not ok - gen-plugins's order: $(listed STRATEGY_FILES | tr '\n' ' ') $(cat "$tmp/err")"
fi

sed -i 's/\.order = 40,/.order = SKIP_LOCKED_ORDER,/' "$tmp/strategies/aaa_first.c"
if "$tmp/scripts/gen-plugins" "$tmp/plugins.h" 2>"$tmp/err"; then
	echo "not ok - gen-plugins takes an .order it cannot read"
elif grep -q "strategies/aaa_first.c: .order is not a whole number written out" "$tmp/err"; then
	echo "ok - gen-plugins stops on an .order not written out, naming the file"
else
	echo "not ok - gen-plugins's refusal of an .order not written out says: $(cat "$tmp/err")"
fi
rm "$tmp/strategies/aaa_first.c"

want_backends=$(for d in harness/db/*/; do
	f=$(grep -l "^const struct backend_ops backend_$(basename "$d") = " "$d"*.c) &&
		printf '%s %s\n' "$(sed -n 's/^\t\.order = \([0-9]*\),$/\1/p' "$f" | head -n 1)" "$(basename "$d")"
done | LC_ALL=C sort -k1,1n -k2,2 | awk '{ print $2 }')
if "$tmp/scripts/gen-plugins" "$tmp/plugins.h" 2>"$tmp/err" && [ -n "$want_backends" ] &&
	[ "$(listed BACKEND_FILES)" = "$want_backends" ] &&
	grep -q "^#define BACKEND_COUNT $(wc -l <<<"$want_backends")\$" "$tmp/plugins.h"; then
	echo "ok - BACKEND_FILES names every folder of harness/db/ that defines its backend, by .order ($(tr '\n' ' ' <<<"$want_backends"| sed 's/ $//'))"
else
	echo "not ok - BACKEND_FILES is \"$(listed BACKEND_FILES | tr '\n' ' ')\", want \"$(tr '\n' ' ' <<<"$want_backends")\" $(cat "$tmp/err")"
fi

mkdir "$tmp/harness/db/other"
sed 's/backend_sqlite\b/backend_elsewhere/' harness/db/sqlite/backend_sqlite.c >"$tmp/harness/db/other/driver.c"
if "$tmp/scripts/gen-plugins" "$tmp/plugins.h" 2>"$tmp/err"; then
	echo "not ok - gen-plugins takes harness/db/other/, which defines backend_elsewhere"
elif grep -q "harness/db/other/driver.c defines backend_elsewhere: name it backend_other" "$tmp/err"; then
	echo "ok - gen-plugins stops on a folder defining a backend under another name, naming both"
else
	echo "not ok - gen-plugins's refusal of a misnamed backend folder says: $(cat "$tmp/err")"
fi
