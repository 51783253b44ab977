# make install into a DESTDIR stage with PREFIX=/usr: the binary, chart templates, scenarios
# and man page land where docs/usage.md#install says; the staged binary, run from a directory outside
# the source tree, stores a run and draws its report with the installed templates; make
# uninstall takes it all away again.
# tier: fast
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
src=$PWD
build=${CLAIMBENCH%/claimbench}
build=${build#"$src"/}
stage=$tmp/stage
bin=$stage/usr/bin/claimbench
data=$stage/usr/share/claimbench
# A make of its own, not under the caller's job server.
unset MAKEFLAGS MFLAGS MAKELEVEL

# It installs the binary under test as it is (-o): a relink here, after an edit or a commit,
# would rewrite the binary while the tests running beside this one execute it.
if ! make --no-print-directory -o "$build/claimbench" BUILD="$build" DESTDIR="$stage" PREFIX=/usr install >"$tmp/install.log" 2>&1; then
	echo "not ok - make install DESTDIR=STAGE PREFIX=/usr fails"
	grep -v '^ ' "$tmp/install.log" | head -n 3 >&2
	tail -n 2 "$tmp/install.log" >&2
	exit 0
fi
echo "ok - make install DESTDIR=STAGE PREFIX=/usr"

# same_files DIR PATTERN: every source file matching PATTERN has an identical copy in DIR.
same_files() {
	local f
	for f in $2; do
		cmp -s "$f" "$1/$(basename "$f")" || return 1
	done
}

check "the binary is in usr/bin and runs" eval '[ -x "$bin" ] && "$bin" --version | grep -q "^claimbench "'
check "every chart template is in usr/share/claimbench/charts" same_files "$data/charts" "scripts/charts/*.gp"
check "every scenario is in usr/share/claimbench/scenarios" same_files "$data/scenarios" "scenarios/*.ini"
check "the man page is usr/share/man/man1/claimbench.1, in roff" \
	grep -q '^\.TH ' "$stage/usr/share/man/man1/claimbench.1"

mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
unset CLAIMBENCH_SCRIPTS
"$bin" run --strategy skip-locked --jobs 20 --work-ms 1 --no-progress --results "$tmp/r.db" >"$tmp/run.txt" 2>&1
check "the staged binary runs outside the source tree" test $? -eq 0
"$bin" report --last --results "$tmp/r.db" --out "$tmp/rep" >"$tmp/report.txt" 2>&1
status=$?
check "its report finds the installed chart templates (exit $status)" test "$status" -eq 0
[ "$status" -eq 0 ] || head -n 3 "$tmp/report.txt" >&2
check "the report holds its documents and charts" eval \
	'[ -s "$tmp/rep/report.md" ] && [ -s "$tmp/rep/report.html" ] && [ -s "$tmp/rep/throughput.svg" ]'
check "the stored run carries the revision --version prints" eval \
	'[ "$("$bin" show 1 --results "$tmp/r.db" | sed -n "s/^git revision: //p")" = \
	   "$("$bin" --version | sed -E "s/.*\(git (.*)\)$/\1/")" ]'
mkdir "$tmp/empty"
err=$(CLAIMBENCH_SCRIPTS=$tmp/empty "$bin" report --last --results "$tmp/r.db" --out "$tmp/rep2" 2>&1)
check "CLAIMBENCH_SCRIPTS without charts/common.gp is refused by name" \
	grep -q "CLAIMBENCH_SCRIPTS=$tmp/empty holds no charts/common.gp" <<<"$err"
cd "$src" || exit 1

make --no-print-directory BUILD="$build" DESTDIR="$stage" PREFIX=/usr uninstall >"$tmp/uninstall.log" 2>&1
status=$?
check "make uninstall removes every file it installed (exit $status)" eval \
	'[ "$status" -eq 0 ] && [ -z "$(find "$stage" -type f)" ]'
