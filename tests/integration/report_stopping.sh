# report --out as root meets it: a symbolic link planted in its folder is refused and its
# target never written; a non-empty folder claimbench did not make is refused unless --force;
# its own folder is written again and again (make demo's results/demo-report).
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
