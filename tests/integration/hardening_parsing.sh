# Hostile text where claimbench parses it: passwords shorter than their mask, expectations
# nested past any use, NUL bytes and long lines in a scenario, loose values, JSON files
# without end. Each is refused with its file and line and the bad-input exit status, or
# masked, and nothing crashes (run it under AddressSanitizer too).
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

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
	"a scenario whose comments hold password=a password=b ... is masked, not overflowed" run "$dir/comments.ini"
