# Every bad input gets a clear message and its own exit status, before anything runs.
# tier: fast
. "$(dirname "$0")/lib.sh"

# The runs that get as far as the result store open one of the test's own.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db

# The strategies the registry holds, as list's rows name them (up to its blank line), in its order.
listed=$("$CLAIMBENCH" list | awk 'NR > 1 && !NF { exit } NR > 1 { print $1 }')

expect_exit 2 'unknown option --bogus' "unknown option" run --bogus
expect_exit 2 'needs a value' "option without its value" run --jobs
expect_exit 2 "unknown strategy \"nope\"; known: $(echo $listed)\$" \
	"unknown strategy names the known ones, as list does" run --strategy nope
expect_exit 2 '--workers: expected a whole number from 1 to 1024, got "abc"' "non-numeric worker count" \
	run --workers abc
expect_exit 2 '--workers: expected a whole number' "worker count 0" run --workers 2,0
expect_exit 2 '--jobs: expected a whole number' "jobs 0" run --jobs 0
expect_exit 2 '--jobs: expected a whole number' "jobs with trailing text" run --jobs 12x
expect_exit 2 '--work-ms: expected a number' "negative work time" run --work-ms -1
expect_exit 2 '--duration: expected a number' "duration nan" run --duration nan
expect_exit 2 '--work-dist: expected one of fixed, uniform, exp' "unknown work distribution" run --work-dist normal
expect_exit 2 '--work-dist uniform:15-5: MIN must be below MAX' "a range upside down" run --work-dist uniform:15-5
expect_exit 2 '--work-dist uniform:5-5: MIN must be below MAX \(one work time for every job is --work-dist fixed' \
	"an empty range" run --work-dist uniform:5-5
expect_exit 2 '--work-dist uniform:5: expected uniform:MIN-MAX' "a range with one end" run --work-dist uniform:5
expect_exit 2 '--work-dist uniform:-1-5: MIN and MAX are work times in ms, from 0 to 3600000' "a negative end" \
	run --work-dist uniform:-1-5
expect_exit 2 '--work-dist uniform:1-5x: MIN and MAX are work times in ms' "an end with trailing text" \
	run --work-dist uniform:1-5x
expect_exit 2 '--work-dist uniform:0-4000000: MIN and MAX are work times in ms, from 0 to 3600000' \
	"an end beyond an hour" run --work-dist uniform:0-4000000
expect_exit 2 '--work-dist exp:1-5: only uniform takes a range' "a range for exp" run --work-dist exp:1-5
expect_exit 2 '--work-ms 3 and --work-dist uniform:5-15 disagree: the range.s mean is 10 ms' \
	"--work-ms after a range, disagreeing with its mean" run --work-dist uniform:5-15 --work-ms 3
expect_exit 2 '--format: expected one of table, csv, json' "unknown format" run --format xml
expect_exit 2 '--claim-mode: expected one of hold, flip' "unknown claim mode" run --claim-mode grab
expect_exit 2 'strategy naive has no hold claim mode \(it supports flip\)' "naive asked to hold" \
	run --strategy naive --claim-mode hold
expect_exit 2 'strategy naive has no hold claim mode' "naive:hold in the list" run --strategy skip-locked,naive:hold
expect_exit 2 'unexpected argument "extra2": run takes one scenario file' "a second stray argument" run extra1 extra2
expect_exit 2 'unknown command "fly"' "unknown command" fly
expect_exit 2 'unexpected argument' "list takes no argument" list --all
expect_exit 3 'cannot connect to the database' "unreachable server" \
	run --db "host=127.0.0.1 port=1 connect_timeout=3" --strategy skip-locked --jobs 1 --results "$store"
expect_exit 3 'cannot connect to the database' "missing socket directory" \
	run --db "host=/nonexistent/claimbench port=5999" --strategy skip-locked --jobs 1 --results "$store"

expect_exit 2 "--db: the conninfo is malformed: .*or for SQLite sqlite:PATH, or sqlite: for a throwaway" \
	"--db sqlite is refused before anything runs, pointing to sqlite:PATH and sqlite:" run --db sqlite --jobs 1
err=$("$CLAIMBENCH" run --db "postgresql://alice:s3cr3tpw@127.0.0.1:1/db?connect_timeout=3" --jobs 1 --results "$store" 2>&1)
check "a password in --db never appears in the output" eval '! grep -q s3cr3tpw <<<"$err"'

check "run --help exits 0 and documents every option" eval \
	'"$CLAIMBENCH" run --help | grep -q -- "--ticket-limit"'
check "--version prints the version and the git revision" eval \
	'"$CLAIMBENCH" --version | grep -Eq "^claimbench [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]{7,}(-dirty)?|unknown)\)$"'
check "--version's version is the VERSION file's" eval \
	'[ "$("$CLAIMBENCH" --version | cut -d " " -f 2)" = "$(cat VERSION)" ]'
# Every strategy a file of strategies/ defines (sql_defined.c builds those of scenarios, named elsewhere).
defined=$(sed -n 's/^\t\.name = "\(.*\)",$/\1/p' strategies/*.c | sort)
check "list names every strategy of strategies/ with its modes on postgresql and sqlite" eval \
	'[ -n "$defined" ] && [ "$("$CLAIMBENCH" list | grep -E "^[a-z-]+ +[a-z,]*\*[a-z*,]* +([a-z*,]+|-) " |
		cut -d " " -f 1 | sort)" = "$defined" ]'
check "list shows skip-locked as impossible on sqlite" eval \
	'"$CLAIMBENCH" list | grep -Eq "^skip-locked +hold\*,flip +- "'
check "run --help documents the SQLite options" eval \
	'"$CLAIMBENCH" run --help | grep -q -- "--sqlite-busy-timeout-ms"'
check "no command prints the usage and exits 2" eval '"$CLAIMBENCH" >/dev/null 2>&1; [ $? -eq 2 ]'
expect_exit 2 '--fail-rate: expected a number from 0 to 1' "a failure rate above 1" run --fail-rate 2
expect_exit 2 '--rerun-errors: only a drain run can be re-run' "re-running a timed run" \
	run --rerun-errors --duration 1
expect_exit 2 '--queue: expected 1 to 16 comma-separated names' "an empty task class" run --queue a,,b
expect_exit 2 '--empty-retries: expected a whole number' "negative empty retries" run --empty-retries -1
expect_exit 2 '--workers: expected a whole number from 1 to 1024' "more workers than claimbench takes" \
	run --workers 1025 --strategy skip-locked
expect_exit 2 'a swept value is longer than 63 bytes' "an overlong swept value" \
	run --tries 1,1111111111111111111111111111111111111111111111111111111111111111111
