# Hostile text where claimbench parses it: passwords shorter than their mask, expectations
# nested past any use, NUL bytes and long lines in a scenario, loose values, JSON files
# without end. Each is refused with its file and line and the bad-input exit status, or
# masked, and nothing crashes (run it under AddressSanitizer too).
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db	# where a run would go that a refusal failed to stop

# repeat N TEXT: TEXT N times.
repeat() {
	local i out=
	for ((i = 0; i < $1; i++)); do out+=$2; done
	printf '%s' "$out"
}

# ---- passwords shorter than the mask grow the text they are masked in ----
expect_exit 2 '--jobs: expected a whole number' "a --restart-command holding PGPASSWORD=a is masked, not overflowed" \
	run --jobs 0 --restart-command 'PGPASSWORD=a pg_ctl restart'
expect_exit 2 '--jobs: expected a whole number' "300 x password=a in one argument are masked, not overflowed" \
	run --jobs 0 --restart-command "$(repeat 300 'password=a ')"
{
	echo '[global]'
	# 3,956 bytes, read into 4,096, with 352 one-byte passwords in comments: masked, the text grows by 704.
	for ((i = 0; i < 22; i++)); do echo "; $(repeat 16 'password=a ')"; done
	echo 'jobs = 0'
} >"$dir/comments.ini"
expect_exit 2 'comments.ini:24: jobs = 0: --jobs: expected a whole number' \
	"a scenario whose comments hold password=a password=b ... is masked, not overflowed" run --results "$store" "$dir/comments.ini"

# ---- expectations nested past any use: refused with the file and line, no stack overflow ----
{
	printf '[global]\njobs = 10\n[g]\nstrategy = skip-locked\n[expect]\ndeep = skip-locked.duplicates ==\n'
	for ((i = 0; i < 100; i++)); do echo '    -'; done
	echo '    0'
} >"$dir/minus.ini"
expect_exit 2 'minus.ini:6: expectation "deep": expected at most 32 levels of \( and unary - inside each other' \
	"100 continuation lines of - in an expectation are refused with the file and line" run --results "$store" "$dir/minus.ini"
sed 's/^    -$/    (/' "$dir/minus.ini" >"$dir/paren.ini"
expect_exit 2 'paren.ini:6: expectation "deep": expected at most 32 levels of \( and unary - inside each other' \
	"100 continuation lines of ( are refused likewise" run --results "$store" "$dir/paren.ini"
printf '[global]\njobs = 10\n[g]\nstrategy = skip-locked\n[expect]\ndeep = %s\n' \
	"$(repeat 60000 -)0 == 0" >"$dir/deep.ini"
expect_exit 2 'deep.ini:6: expectation "deep": expected at most 32 levels' \
	"60,000 minus signs on one line are refused likewise" run --results "$store" "$dir/deep.ini"

# ---- a scenario is text: a NUL byte is refused, not a way to hide the rest of a line ----
printf '[global]\njobs = 10\n; a comment\0 that hides\nworkers = 2\n' >"$dir/nul.ini"
expect_exit 2 'nul.ini:3: a NUL byte in the line: a scenario is text' "a NUL byte is refused with the file and line" \
	run --results "$store" "$dir/nul.ini"
{
	printf '[global]\njobs = 10\n; '
	repeat 70000 x
	printf '\n[g]\nstrategy = skip-locked\n'
} >"$dir/long.ini"
expect_exit 2 'long.ini:3: line too long: a line may hold at most 65536 bytes' \
	"a line beyond 64 KiB is refused with the file and line" run --results "$store" "$dir/long.ini"

# ---- loose values: each refused with what was expected, the file and line for a scenario ----
printf '[global]\njobs = 10\nno-progress = banana\n[g]\nstrategy = skip-locked\n' >"$dir/banana.ini"
expect_exit 2 'banana.ini:3: no-progress = banana: --no-progress: expected true or false, got "banana"' \
	"no-progress = banana is refused" run --results "$store" "$dir/banana.ini"
for bad in 0x10 1e999 1/0 '0/0'; do
	printf '[global]\njobs = 10\n[g]\nstrategy = skip-locked\n[expect]\nloose = skip-locked.duplicates != %s\n' \
		"$bad" >"$dir/loose.ini"
	expect_exit 2 'loose.ini:6: expectation "loose": expected (a decimal number|a number within the range|a divisor other than 0)' \
		"the expectation skip-locked.duplicates != $bad is refused" run --results "$store" "$dir/loose.ini"
done
expect_exit 2 '--progress-interval: expected 0 \(no lines\) or a number from 0.1 to 3600, got "1e-10"' \
	"--progress-interval 1e-10 is refused, not silent" run --results "$store" --strategy skip-locked --jobs 10 --progress-interval 1e-10
expect_exit 2 '--arrival-s needs --arrival-rate' "--arrival-s without --arrival-rate is refused, not ignored" \
	run --results "$store" --strategy skip-locked --jobs 10 --arrival-s 5
expect_exit 2 '--db: expected a libpq conninfo or URI, or sqlite:PATH, or mariadb:..., got only blanks' \
	"--db \" \" is refused, not libpq's defaults" run --results "$store" --strategy skip-locked --jobs 10 --db " "
expect_exit 2 '--db: expected a libpq conninfo or URI, or sqlite:PATH, got a blank value' \
	"cleanup --db \" \" is refused too, not libpq's defaults" cleanup --dry-run --db " "

# ---- files a command reads are bounded while read ----
echo '{"results": [{"strategy": "a", "claim_mode": "hold", "workers": 1}]}' >"$dir/base.json"
expect_exit 3 'candidate /dev/zero: /dev/zero: larger than the 64 MiB a result file may hold' \
	"compare refuses a file without end (/dev/zero) after 64 MiB" compare "$dir/base.json" /dev/zero
expect_exit 3 'baseline /dev/stdin: /dev/stdin: larger than the 64 MiB a result file may hold' \
	"and a pipe that brings more than 64 MiB" compare /dev/stdin "$dir/base.json" < <(head -c 70M /dev/zero)

# ---- a real claim on one line of several hundred bytes runs ----
cat >"$dir/oneline.ini" <<'INI'
[global]
jobs = 100
work-ms = 1
workers = 4

[strategy one-line]
summary = seed 002's claim with an attempt cap, each statement written on one line
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, claimed_at = now(), attempts = attempts + 1 WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' AND attempts < 1000 AND (claimed_at IS NULL OR claimed_at < now() + interval '1 day') AND (claimed_by IS NULL OR claimed_by >= 0) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, attempts ; a comment after the statement
complete = UPDATE {jobs} SET status = 'done', done_at = now() WHERE id = :id AND status = 'active' AND claimed_by = :worker AND attempts = :attempt RETURNING id
modes = flip

[drain]
strategy = one-line

[expect]
the one-line claim completes every job = one-line.completed == 100
INI
claim_bytes=$(grep -m1 '^claim = ' "$dir/oneline.ini" | wc -c)
run_json oneline "$dir/oneline.ini"
check "a claim of $claim_bytes bytes on one line runs (exit 0; a line held 198 bytes)" \
	test "$(cat "$dir/oneline.status")" -eq 0
check_jq "$dir/oneline.json" '[.results[] | select(.strategy == "one-line")] | length == 1' "the one-line claim runs once"
check_each "$dir/oneline.json" '.strategy == "one-line"' '.completed == 100 and .duplicates == 0 and
	.lost == 0 and .ledger_mismatches == 0 and (.params["claim-sql"] | endswith("RETURNING id, attempts"))' \
	"its 100 jobs done once each, the audit agrees, the claim kept whole without its comment"
