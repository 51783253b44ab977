# report --out and its folder: a symbolic link planted in the folder is refused and its
# target never written (as root); a non-empty folder claimbench did not make is refused unless
# --force; its own folder is written again and again (make demo's results/demo-report); and
# a folder swapped between its check and its writes changes nothing: claimbench opens the
# folder once, checks what it opened, and reaches every file through that descriptor
# (openat, unlinkat, fstatat; gnuplot by fchdir), never by the folder's path again. The swap
# itself is a race; what is checked is the mechanism, deterministically: under strace no
# system call names the folder's path at all (the parent is opened and the folder is
# reached from it by name). And the folder's parent must be one no one else may change.
. "$(dirname "$0")/lib.sh"

top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT

# ======== planted links and folders claimbench did not make ========
tmp=$top/planted
mkdir "$tmp"
store=$tmp/r.db
"$CLAIMBENCH" run --db sqlite: --strategy update-returning --workers 2 --jobs 20 --work-ms 1 --no-progress \
	--results "$store" >/dev/null 2>&1 || echo "not ok - the run the reports are of failed"

# report_into DIR: claimbench report --last of $store into DIR; its stderr in $tmp/err (the
# part's own $tmp and $store, as set when it is called), its exit status echoed.
report_into() {
	"$CLAIMBENCH" report --last --results "$store" --out "$1" >/dev/null 2>"$tmp/err"
	echo $?
}

check "a report into a new folder writes it and marks it" eval \
	'[ "$(report_into "$tmp/rep")" -eq 0 ] && [ -s "$tmp/rep/report.md" ] && [ -f "$tmp/rep/.claimbench-report" ]'
check "a report into the folder it made before replaces its files (exit 0)" eval \
	'touch -d @1 "$tmp/rep/report.md" && [ "$(report_into "$tmp/rep")" -eq 0 ] && [ "$(stat -c %Y "$tmp/rep/report.md")" -gt 1 ]'

# A link planted in claimbench's own folder, where each file of the report goes.
for name in report.md report.html timeline.svg timeline.tsv gnuplot.log; do
	echo precious >"$tmp/victim"
	rm -f "$tmp/rep/$name"
	ln -s "$tmp/victim" "$tmp/rep/$name"
	status=$(report_into "$tmp/rep")
	check "a link planted as $name: refused, exit 3, its target untouched ($status: $(head -c 200 "$tmp/err"))" eval \
		'[ "$status" -eq 3 ] && grep -q "$tmp/rep/$name is a symbolic link: refusing to write through it" "$tmp/err" &&
		[ "$(cat "$tmp/victim")" = precious ] && [ -L "$tmp/rep/$name" ]'
	rm -f "$tmp/rep/$name"
done

mkdir "$tmp/other"
echo mine >"$tmp/other/notes.txt"
status=$(report_into "$tmp/other")
check "a folder holding what no report wrote is refused, exit 2, nothing in it touched, --force named ($status)" eval \
	'[ "$status" -eq 2 ] && grep -q "holds files and claimbench did not make it" "$tmp/err" && grep -q -- "--force" "$tmp/err" &&
	[ "$(ls -A "$tmp/other")" = notes.txt ] && [ "$(cat "$tmp/other/notes.txt")" = mine ]'
mkdir -m 777 "$tmp/shared"
status=$(report_into "$tmp/shared")
check "a folder others may write into is refused, exit 2 ($status)" eval \
	'[ "$status" -eq 2 ] && grep -q "a folder that others may write into" "$tmp/err" && [ -z "$(ls -A "$tmp/shared")" ]'
ln -s "$tmp/rep" "$tmp/link"
status=$(report_into "$tmp/link")
check "--out naming a symbolic link is refused, exit 2 ($status)" eval \
	'[ "$status" -eq 2 ] && grep -q "is a symbolic link, not a folder" "$tmp/err"'
mkdir "$tmp/empty"
check "an empty folder takes a report" eval '[ "$(report_into "$tmp/empty")" -eq 0 ] && [ -s "$tmp/empty/report.html" ]'
mkdir "$tmp/legacy"
cp "$tmp/rep"/report.md "$tmp/rep"/*.svg "$tmp/rep"/*.tsv "$tmp/legacy/"
check "a folder holding only report-named files but no mark is refused too: claimbench cannot tell it made it" eval \
	'[ "$(report_into "$tmp/legacy")" -eq 2 ] && [ ! -e "$tmp/legacy/.claimbench-report" ]'
check "--force takes it, writes the report and leaves a file of another name alone" eval \
	'echo mine >"$tmp/legacy/notes.txt" &&
	"$CLAIMBENCH" report --last --results "$store" --out "$tmp/legacy" --force >/dev/null 2>"$tmp/err" &&
	[ -f "$tmp/legacy/.claimbench-report" ] && [ -s "$tmp/legacy/report.html" ] && [ "$(cat "$tmp/legacy/notes.txt")" = mine ]'

# ======== the folder reached through its descriptor, under strace ========
tmp=$top/race
mkdir "$tmp"
store=$tmp/r.db
"$CLAIMBENCH" run --db sqlite: --strategy update-returning --workers 2 --jobs 20 --work-ms 1 --no-progress \
	--results "$store" >/dev/null 2>&1 || echo "not ok - the run the reports are of failed"


mkdir "$tmp/race"
out=$tmp/race/rep
if ! command -v strace >/dev/null; then
	skip_missing strace "report --out reaches its folder through descriptors, traced" scripts/install-test-deps
elif [ "$(report_into "$out")" -ne 0 ]; then
	echo "not ok - the first report into $out failed: $(head -c 300 "$tmp/err")"
else
	# A second report into the folder it made: every file is replaced (unlinked, created), as a swap would exploit.
	# LeakSanitizer cannot run under ptrace (an ASan build would exit 1): leaks are checked in the other runs.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -s 4096 -e trace=%file,fchdir -o "$tmp/trace" \
		"$CLAIMBENCH" report --last --results "$store" --out "$out" >/dev/null 2>"$tmp/err"
	status=$?
	# execve's arguments hold --out, and getcwd returns the path (gnuplot asks): neither opens anything by it.
	grep -Ev 'execve\(|getcwd\(' "$tmp/trace" | grep -F "\"$out" >"$tmp/by-path"
	check "a report replacing its files names its folder's path in no system call, only its parent's ($status; \
$(wc -l <"$tmp/by-path") by path: $(head -c 300 "$tmp/by-path"))" eval \
		'[ "$status" -eq 0 ] && [ ! -s "$tmp/by-path" ] && grep -q "openat(AT_FDCWD, \"$tmp/race\"" "$tmp/trace"'
	check "its files are replaced through the folder's descriptor (unlinkat, openat with O_EXCL|O_NOFOLLOW)" eval \
		'grep -Eq "unlinkat\([0-9]+, \"report.md\"" "$tmp/trace" &&
		grep -Eq "openat\([0-9]+, \"report.md\", O_WRONLY\|O_CREAT\|O_EXCL\|O_NOFOLLOW\|O_CLOEXEC" "$tmp/trace"'
	check "gnuplot enters the folder by its descriptor (fchdir), never chdir by path" eval \
		'grep -Eq "fchdir\([0-9]+\) += 0" "$tmp/trace" && ! grep -q "[^f]chdir(" "$tmp/trace"'
fi

mkdir -m 777 "$tmp/open"
status=$(report_into "$tmp/open/rep")
check "a folder in a parent others may write into (not sticky) is refused, exit 2, nothing made ($status)" eval \
	'[ "$status" -eq 2 ] && grep -q "a folder that others may write into" "$tmp/err" && [ ! -e "$tmp/open/rep" ]'
mkdir -m 1777 "$tmp/sticky"
check "a folder in a sticky parent others may write into (as /tmp) takes a report" eval \
	'[ "$(report_into "$tmp/sticky/rep")" -eq 0 ] && [ -s "$tmp/sticky/rep/report.md" ]'
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 755 "$tmp/theirs"
	chown nobody "$tmp/theirs"
	status=$(report_into "$tmp/theirs/rep")
	check "as root, a folder in another user's parent is refused, exit 2 ($status)" eval \
		'[ "$status" -eq 2 ] && grep -q "another user.s folder" "$tmp/err" && [ ! -e "$tmp/theirs/rep" ]'
fi
mkdir -p "$tmp/nested"
check "missing parents are made writable by no one else, and take the report" eval \
	'[ "$(report_into "$tmp/nested/a/b/rep")" -eq 0 ] && [ "$(stat -c %a "$tmp/nested/a/b")" = 755 ]'
