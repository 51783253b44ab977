# report --out against a folder swapped between its check and its writes: claimbench opens
# the folder once, checks what it opened, and reaches every file through that descriptor
# (openat, unlinkat, fstatat; gnuplot by fchdir), never by the folder's path again, so a
# folder renamed and replaced by a link or another folder meanwhile changes nothing. The
# swap itself is a race; what is checked here is the mechanism, deterministically: under
# strace no system call names the folder's path at all (the parent is opened and the folder
# is reached from it by name). And the folder's parent must be one no one else may change.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
store=$tmp/r.db
"$CLAIMBENCH" run --db sqlite: --strategy update-returning --workers 2 --jobs 20 --work-ms 1 --no-progress \
	--results "$store" >/dev/null 2>&1 || echo "not ok - the run the reports are of failed"

# report_into DIR: claimbench report --last into DIR; its stderr in $tmp/err, its exit status echoed.
report_into() {
	"$CLAIMBENCH" report --last --results "$store" --out "$1" >/dev/null 2>"$tmp/err"
	echo $?
}

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
