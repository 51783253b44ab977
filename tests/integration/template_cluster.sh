# The template cluster (db/postgresql/template_cluster.h): the first throwaway PostgreSQL runs initdb
# and keeps its output in the cache; the next ones are copies of it (the same system
# identifier), CLAIMBENCH_CACHE_DIR=none keeps and uses none, a template pruned (its manifest
# not met) or whose copy will not start is replaced, a keep cut short is swept, and a cache that
# cannot be written is said and costs nothing but the time.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
store=$dir/results.db
trap 'rm -rf "$dir"' EXIT
export CLAIMBENCH_CACHE_DIR=$dir/cache

templates() { find "$dir/cache" -mindepth 1 -maxdepth 1 -name 'pg-*' 2>/dev/null | wc -l; }
template() { find "$dir/cache" -mindepth 1 -maxdepth 1 -name 'pg-*' | head -1; }
# identifier DATA: the system identifier pg_control of the data directory DATA holds
identifier() {
	"$(test_server_bin)/pg_controldata" "$1" 2>/dev/null | sed -n 's/^Database system identifier: *//p'
}
# running_identifier NAME: starts a run that waits on its one 30 s job, reads the system
# identifier of its throwaway server, stops it with Ctrl-C; its stderr in $dir/NAME.err
running_identifier() {
	local pid cluster err=$dir/$1.err
	"$CLAIMBENCH" run --strategy skip-locked --jobs 1 --workers 1 --work-ms 30000 --no-progress \
		--results "$store" >/dev/null 2>"$err" &
	pid=$!
	wait_for 30 eval '[ -n "$(throwaway_dir "$err")" ]' &&
		cluster=$(throwaway_dir "$err") &&
		wait_for 30 on_throwaway "$cluster" "SELECT 1" >/dev/null &&
		on_throwaway "$cluster" "SELECT system_identifier FROM pg_control_system()"
	kill -INT "$pid"
	wait "$pid" 2>/dev/null
}

run_json first --strategy skip-locked --jobs 20 --workers 2 --work-ms 1
check "the first run on an empty cache: exit 0 (got $(cat "$dir/first.status"))" test "$(cat "$dir/first.status")" -eq 0
check "it kept one template, whole: a data directory and its manifest (templates: $(templates))" \
	eval '[ "$(templates)" -eq 1 ] && [ -s "$(template)/data/PG_VERSION" ] && grep -Eq "^files [0-9]+ bytes [0-9]+$" "$(template)/manifest"'
check "and said nothing of it ($(grep -c template "$dir/first.err") lines name it)" \
	eval '! grep -q template "$dir/first.err"'
kept=$(identifier "$(template)/data")
check "the template's system identifier can be read ($kept)" test -n "$kept"

second=$(running_identifier second)
check "the next throwaway server is the template's copy: the same system identifier ($second vs $kept)" \
	test "$second" = "$kept"
check "still one template ($(templates))" test "$(templates)" -eq 1

own=$(CLAIMBENCH_CACHE_DIR=none running_identifier none)
check "CLAIMBENCH_CACHE_DIR=none: a server initdb made, its own identifier ($own vs $kept)" \
	eval '[ -n "$own" ] && [ "$own" != "$kept" ]'

# ---- a pruned template (its base/ gone, as a cache cleaner might) is no template: initdb runs, a whole one replaces it ----
rm -rf "$(template)/data/base"
run_json broken --strategy skip-locked --jobs 5 --workers 1 --work-ms 1
check "a run beside a pruned template: exit 0 (got $(cat "$dir/broken.status"); $(head -c 200 "$dir/broken.err"))" \
	test "$(cat "$dir/broken.status")" -eq 0
replaced=$(identifier "$(template)/data")
check "the template is whole again, initdb's new one ($replaced vs $kept)" \
	eval '[ -d "$(template)/data/base" ] && [ -n "$replaced" ] && [ "$replaced" != "$kept" ]'

# ---- a template whose copy will not start (a setting spoilt, its size kept): replaced, the run goes on ----
sed -i 's/^shared_buffers = 128MB/shared_buffers = 128XB/' "$(template)/data/postgresql.conf"
run_json spoilt --strategy skip-locked --jobs 5 --workers 1 --work-ms 1
check "a run from a template whose copy will not start: exit 0 (got $(cat "$dir/spoilt.status"))" \
	test "$(cat "$dir/spoilt.status")" -eq 0
check "it says the copy would not start and was replaced" \
	grep -q "a copy of the template cluster .* would not start (.*): it was replaced, and this server made by initdb" \
	"$dir/spoilt.err"
check "the template is a whole new one ($(identifier "$(template)/data") vs $replaced)" \
	eval 'grep -q "^shared_buffers = 128MB" "$(template)/data/postgresql.conf" && [ "$(identifier "$(template)/data")" != "$replaced" ]'

# ---- a keep cut short over an hour ago is swept by the next keep ----
mkdir "$dir/cache/.new-old123" && touch -d '2 hours ago' "$dir/cache/.new-old123"
rm -rf "$(template)"
run_json swept --strategy skip-locked --jobs 5 --workers 1 --work-ms 1
check "the next keep removes a keep's directory left over an hour ago" test ! -e "$dir/cache/.new-old123"

# ---- a cache that cannot be made: the run goes on with initdb and says why once ----
: >"$dir/a-file"
CLAIMBENCH_CACHE_DIR=$dir/a-file/cache run_json unwritable --strategy skip-locked --jobs 5 --workers 1 --work-ms 1
check "a cache under a file: the run still succeeds (exit $(cat "$dir/unwritable.status"))" \
	test "$(cat "$dir/unwritable.status")" -eq 0
check "and says it could not keep a template, with the reason and the way to keep none" \
	grep -q "could not keep a template cluster (cannot make the cache directory $dir/a-file/cache: .*CLAIMBENCH_CACHE_DIR=none" "$dir/unwritable.err"
