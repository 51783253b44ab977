# scripts/gen-plugins lists every file of strategies/ and guards/ that defines a plugin
# (strategy_NAME in NAME.c, guard_NAME in NAME.c) and nothing else, and stops the build,
# naming the file, when one defines a plugin under a name not its own.
set -uo pipefail
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/scripts"
cp -r strategies guards "$tmp"/
cp scripts/gen-plugins "$tmp/scripts"/

# defined DIR KIND: the names of DIR's files that define KIND_NAME, as X(NAME) entries.
defined() {
	grep -l "^const struct $2_ops $2_" "$1"/*.c | xargs -n 1 basename | sed 's/\.c$//; s/.*/X(&)/' | tr '\n' ' '
}

# check_list DIR KIND LIST COUNT: the header's LIST names DIR's plugins of KIND, COUNT counts them.
check_list() {
	local want
	want=$(defined "$1" "$2")
	if grep -q "^#define $3(X) ${want% }\$" "$tmp/plugins.h" &&
		grep -q "^#define $4 $(wc -w <<<"$want")\$" "$tmp/plugins.h"; then
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
