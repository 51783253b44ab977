# Helpers of the integration scripts: verdict lines the runner counts.
# CLAIMBENCH is the binary under test (tests/run sets it). A script with a line
# "# tier: fast" belongs to the fast tier too (tests/run --fast, make check): keep that
# tier under a minute on 2 cores.
: "${CLAIMBENCH:=build/claimbench}"

# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok - $what"
	else
		echo "not ok - $what"
	fi
}

# skip_missing TOOL WHAT PROVIDER: the check WHAT cannot be made without TOOL, which the project's
# install script PROVIDER installs: "ok - WHAT # SKIP missing TOOL ...", counted as a skip, and
# as a failure when CI=true (tests/run), since CI runs the install scripts.
skip_missing() {
	echo "ok - $2 # SKIP missing $1, which $3 installs"
}

# skip WHAT REASON: the check WHAT cannot be made here for REASON (not a missing tool: root
# needed, a mount refused): "ok - WHAT # SKIP REASON", a skip in CI too.
skip() {
	echo "ok - $1 # SKIP $2"
}

# jq_paths_object FILTER: a jq object {"PATH": (try (PATH) catch null), ...} of the paths FILTER
# names (.a.b, .a["b"], .a[0]), each once; "{}" when it names none. A string literal is scanned
# whole so that a dot inside it is no path, and $v.x or ).x is none of the input's.
jq_paths_object() {
	jq -rn --arg filter "$1" '
		[$filter | scan("\"(?:\\\\.|[^\"\\\\])*\"|(?<![\\w$)\\]\"])\\.[A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*|\\[\"[^\"]*\"\\]|\\[[0-9]+\\])*")
			| select(startswith("\"") | not)]
		| unique | "{" + (map("\(tojson): (try (\(.)) catch null)") | join(", ")) + "}"'
}

# check_jq FILE FILTER DESCRIPTION: ok when FILE holds JSON and jq -e FILTER holds on it (jq -e
# alone exits 0 on an empty file, so a run that printed nothing would pass every filter). jq -e
# judges only the filter's last output: for a condition on each run use check_each. A failure
# names the filter and what jq printed (its output or error, cut to 300 characters), then the
# values of the paths the filter names (jq_paths_object; each cut to 120 characters): when
# FILTER starts with a path without [] piped on (".results[0] | .completed == 10", ".[0].shown |
# ..."), those after the pipe in that path's output, "values in .results[0]: .completed=9", else
# the filter's own in the document, "values: .regressions=1".
check_jq() {
	local seen context=. body=$2 fields values
	local piped='^[[:space:]]*(\.[][A-Za-z0-9_."]*)[[:space:]]*\|(.*)$'
	if [ ! -s "$1" ]; then
		echo "not ok - $3 ($1 is empty)"
		return
	fi
	if seen=$(jq -e "$2" "$1" 2>&1); then
		echo "ok - $3"
		return
	fi
	seen=${seen//$'\n'/ }
	if [[ $2 =~ $piped && ${BASH_REMATCH[1]} != *"[]"* ]]; then
		context=${BASH_REMATCH[1]}
		body=${BASH_REMATCH[2]}
	fi
	fields=$(jq_paths_object "$body")
	values=$(jq -r 'def shown: tojson | if length > 120 then .[:120] + "..." else . end;
		first('"$context"') | '"$fields"' | to_entries | map("\(.key)=\(.value | shown)") | join(" ")' "$1" 2>/dev/null)
	values=${values//$'\n'/ }
	if [ -n "$values" ]; then
		values="; values$([ "$context" = . ] || echo " in $context"): $values"
	fi
	echo "not ok - $3 (jq -e '$2' failed; jq printed: ${seen:0:300}$values)"
}

# check_each FILE SELECT COND DESCRIPTION: ok when FILE's runs (its .results; ab's and
# compare's .comparisons; FILE itself when it is an array, as explore's JSON is) include at
# least one for which the jq boolean SELECT holds ("true" for every run) and the jq boolean
# COND holds on every such run (each of COND's outputs true, and at least one). Not ok when
# FILE is empty or not JSON, when no run matches ("no run matches SELECT"), or when some
# matching runs fail: then the line names each failing run (up to 5) by its strategy,
# claim_mode, group, sweep, repeat, workers and metric (those present) and gives the value, in
# that run, of every path COND names (.a.b, .a["b"], .a[0]; null when absent), or the error
# COND raised. Write COND's paths from the run (.claim_latency_ms.p50, not
# .claim_latency_ms | .p50) so that the values shown are the run's.
check_each() {
	local file=$1 select=$2 cond=$3 what=$4 fields verdict
	if [ ! -s "$file" ]; then
		echo "not ok - $what: $file is empty"
		return
	fi
	if ! jq -e 'type == "array" or (.results // .comparisons | type == "array")' "$file" >/dev/null 2>&1; then
		echo "not ok - $what: $file is not JSON holding runs (.results, .comparisons or an array)"
		return
	fi
	fields=$(jq_paths_object "$cond")
	verdict=$(jq -r '
		def shown: tojson | if length > 120 then .[:120] + "..." else . end;
		def named: . as $run | ["strategy", "claim_mode", "group", "sweep", "repeat", "workers", "metric"]
			| map(select($run[.] != null) | "\(.)=\($run[.] | shown)") | join(" ");
		def why_not: try ([('"$cond"')] | if length > 0 and all(. == true) then empty else "false" end)
			catch "error: \(.)";
		def values: '"$fields"' | to_entries | map("\(.key)=\(.value | shown)") | join(" ");
		[if type == "array" then .[] else (.results // .comparisons)[] end | select('"$select"')] as $runs
		| [$runs[] | why_not as $why | "{\(named): \(if $why == "false" then values else $why end)}"] as $failing
		| if ($runs | length) == 0 then "none"
		  elif ($failing | length) == 0 then "ok"
		  else "\($failing | length) of \($runs | length) matching runs fail: \($failing[:5] | join("; "))"
			+ (if ($failing | length) > 5 then " and \(($failing | length) - 5) more" else "" end)
		  end' "$file" 2>&1)
	case $verdict in
	ok) echo "ok - $what" ;;
	none) echo "not ok - $what: no run matches $select" ;;
	*) echo "not ok - $what: ${verdict//$'\n'/ }" ;;
	esac
}

# check_time_bound FILE SELECT COND DESCRIPTION: check_each for a bound the machine's pace sets
# (a queue wait, a lock wait, the jobs a timed run got done), which other work on the machine can
# break: as check_each, but when it fails and
# the harness recorded every run SELECT matches as started on a machine busier than its cores
# (machine.overloaded), a skip that gives check_each's failure: the bound then judged that load,
# not the run (scenarios.sh counts steady.ini's queue-wait bound so too).
check_time_bound() {
	local line
	line=$(check_each "$@")
	if [[ $line == "not ok - "* ]] &&
		jq -e "[(.results // .comparisons)[] | select($2)] | length > 0 and all(.machine.overloaded == true)" \
			"$1" >/dev/null 2>&1; then
		skip "$4" "a bound on time failed in runs the harness recorded as started overloaded (machine.overloaded): ${line#"not ok - $4: "}"
	else
		echo "$line"
	fi
}

# expect_exit STATUS PATTERN DESCRIPTION ARGS...: runs claimbench ARGS and checks its exit
# status and that stderr matches the extended regex PATTERN.
expect_exit() {
	local want=$1 pattern=$2 what=$3 err status
	shift 3
	err=$("$CLAIMBENCH" "$@" 2>&1 >/dev/null)
	status=$?
	if [ "$status" -eq "$want" ] && grep -Eq -- "$pattern" <<<"$err"; then
		echo "ok - $what (exit $status)"
	else
		echo "not ok - $what: exit $status, want $want; stderr: $(head -n 3 <<<"$err")"
	fi
}

# offered_pairs BACKEND: every strategy:mode pair `claimbench list` says BACKEND runs (its
# column found by the header's name), comma-separated, in the list's order: the registry's, so
# that a new strategy or mode is in every run made of it.
offered_pairs() {
	"$CLAIMBENCH" list | awk -v backend="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == backend) col = i; next }
		NF == 0 { exit }
		col && $col != "-" { n = split($col, m, ","); for (i = 1; i <= n; i++) { sub(/\*$/, "", m[i])
			printf "%s%s:%s", sep, $1, m[i]; sep = "," } }'
}

# unoffered BACKEND: the strategies `claimbench list` says cannot run on BACKEND ("-"), one per line.
unoffered() {
	"$CLAIMBENCH" list | awk -v backend="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == backend) col = i; next }
		NF == 0 { exit }
		col && $col == "-" { print $1 }'
}

# wait_for SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds; false on timeout.
wait_for() {
	local tries=$(($1 * 10))
	shift
	while ! "$@" 2>/dev/null; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# run_json NAME ARGS...: claimbench run --format json --no-progress --results "$store" ARGS,
# its output into $dir/NAME.json, its stderr into $dir/NAME.err and its exit status into
# $dir/NAME.status ($dir and $store are the calling script's).
run_json() {
	local name=$1
	shift
	"$CLAIMBENCH" run --format json --no-progress --results "$store" "$@" >"$dir/$name.json" 2>"$dir/$name.err"
	echo $? >"$dir/$name.status"
}

# explore_json NAME ARGS...: claimbench explore --db TEST_DB --format json --results $dir/explore.db
# ARGS (the calling script's test server, start_test_server, and a store in its $dir), its output
# into $dir/NAME.json, its stderr into $dir/NAME.err and its exit status into $dir/NAME.status.
explore_json() {
	local name=$1
	shift
	"$CLAIMBENCH" explore --db "$TEST_DB" --format json --results "$dir/explore.db" "$@" >"$dir/$name.json" \
		2>"$dir/$name.err"
	echo $? >"$dir/$name.status"
}

# A PostgreSQL server the test itself starts, standing for a user's own server: in a
# temporary directory, on a Unix socket only, never port 5432; run as the postgres system
# user when the test runs as root. start_test_server sets TEST_SERVER_DIR and TEST_DB (a
# conninfo, superuser "tester"); stop_test_server removes it all. It runs with fsync=off: its
# commits reach the kernel as ever (a server killed or restarted immediately loses nothing),
# only not the disk, which no test crashes; a commit's wait for the disk is no test's subject
# and cost explore.sh and explore_strategies.sh about a third of their CPU, half their time.
test_server_bin() {
	local d
	for d in "${CLAIMBENCH_PG_BINDIR:-}" "$(pg_config --bindir 2>/dev/null)" /usr/lib/postgresql/*/bin; do
		[ -n "$d" ] && [ -x "$d/initdb" ] && { echo "$d"; return 0; }
	done
	return 1
}

# as_server_user COMMAND...: runs COMMAND as the user that owns the test server.
as_server_user() {
	if [ "$(id -u)" -eq 0 ]; then
		su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
	else
		"$@"
	fi
}

start_test_server() {
	local bin
	bin=$(test_server_bin) || return 1
	TEST_SERVER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/claimbench-test-pg-XXXXXX")
	[ "$(id -u)" -eq 0 ] && chown postgres "$TEST_SERVER_DIR"
	as_server_user "$bin/initdb" -D "$TEST_SERVER_DIR/data" -U tester --auth=trust --no-sync >/dev/null 2>&1 &&
		as_server_user "$bin/pg_ctl" -D "$TEST_SERVER_DIR/data" -l "$TEST_SERVER_DIR/log" -w \
			-o "-c listen_addresses='' -c unix_socket_directories=$TEST_SERVER_DIR -p 15433 -c fsync=off" start >/dev/null ||
		return 1
	TEST_DB="host=$TEST_SERVER_DIR port=15433 dbname=postgres user=tester"
	TEST_SERVER_BIN=$bin
}

# test_restart_command: a --restart-command that restarts the test server (start_test_server's) in
# immediate mode, as its owner
test_restart_command() {
	if [ "$(id -u)" -eq 0 ]; then
		printf '%q ' su postgres -s /bin/sh -c "$TEST_SERVER_BIN/pg_ctl -D $TEST_SERVER_DIR/data -m immediate -w restart >/dev/null"
	else
		echo "$TEST_SERVER_BIN/pg_ctl -D $TEST_SERVER_DIR/data -m immediate -w restart >/dev/null"
	fi
}

stop_test_server() {
	[ -n "${TEST_SERVER_DIR:-}" ] || return 0
	as_server_user "$TEST_SERVER_BIN/pg_ctl" -D "$TEST_SERVER_DIR/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$TEST_SERVER_DIR"
	TEST_SERVER_DIR=
}

# start_test_mariadb: starts a MariaDB server of the test's own (standing for a user's own
# server) in a new directory under TMPDIR: its own data directory and socket, no TCP; as root
# run as the account claimbench's throwaway MariaDB runs as (mysql where a package made it, else
# nobody: mariadb-server-core, all scripts/install-deps installs, makes no account). Sets
# TEST_MARIADB_DIR, TEST_MARIADB_PID, TEST_MARIADB_SOCK and TEST_MARIADB (a --db for its
# database q, as root); 1 when it does not answer within 30 s (its log in the directory).
start_test_mariadb() {
	local mariadbd account as=()
	mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
	TEST_MARIADB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/claimbench-test-mariadb-XXXXXX")
	chmod 755 "$TEST_MARIADB_DIR"
	mkdir "$TEST_MARIADB_DIR/m"
	if [ "$(id -u)" -eq 0 ]; then
		account=mysql
		id -u "$account" >/dev/null 2>&1 || account=nobody
		chown "$account" "$TEST_MARIADB_DIR/m"
		as=(setpriv --reuid="$(id -u "$account")" --regid="$(id -g "$account")" --init-groups --)
	fi
	"${as[@]}" mariadb-install-db --no-defaults --datadir="$TEST_MARIADB_DIR/m/data" \
		--tmpdir="$TEST_MARIADB_DIR/m" --auth-root-authentication-method=normal --skip-test-db \
		--innodb-log-file-size=16M >"$TEST_MARIADB_DIR/install.log" 2>&1
	# (setpriv executes the server in its own place, no process between: $! is the server's pid)
	"${as[@]}" "$mariadbd" --no-defaults --datadir="$TEST_MARIADB_DIR/m/data" --socket="$TEST_MARIADB_DIR/m/sock" \
		--tmpdir="$TEST_MARIADB_DIR/m" --skip-networking --innodb-log-file-size=16M --innodb-buffer-pool-size=64M \
		--log-error="$TEST_MARIADB_DIR/m/server.log" >/dev/null 2>&1 &
	TEST_MARIADB_PID=$!
	TEST_MARIADB_SOCK=$TEST_MARIADB_DIR/m/sock
	wait_for 30 test_mariadb_sql -e "SELECT 1" >/dev/null || return 1
	test_mariadb_sql -e "CREATE DATABASE q" || return 1
	TEST_MARIADB="mariadb:host=$TEST_MARIADB_SOCK user=root dbname=q"
}

# test_mariadb_sql ARGS...: the mariadb client on the test's MariaDB as root, rows tab-separated, no header.
test_mariadb_sql() {
	mariadb --no-defaults -S "$TEST_MARIADB_SOCK" -uroot -N -B "$@"
}

# stop_test_mariadb: kills the test's MariaDB (SIGKILL: nothing of it is kept) and removes its directory.
stop_test_mariadb() {
	[ -n "${TEST_MARIADB_DIR:-}" ] || return 0
	kill -KILL "$TEST_MARIADB_PID" 2>/dev/null && wait "$TEST_MARIADB_PID" 2>/dev/null
	rm -rf "$TEST_MARIADB_DIR"
	TEST_MARIADB_DIR=
}

# test_sql SQL: runs SQL on the test server with psql, printing its rows unaligned.
test_sql() {
	psql "$TEST_DB" -XAtq -c "$1"
}

# throwaway_dir FILE: the throwaway cluster's directory claimbench named on stderr (in FILE).
throwaway_dir() {
	sed -n 's/^claimbench: throwaway PostgreSQL in //p' "$1"
}

# on_throwaway DIR SQL: runs SQL on the throwaway cluster in DIR.
on_throwaway() {
	psql "host=$1 port=15432 dbname=postgres user=claimbench" -XAtq -c "$2"
}

# jobs_done_at_least ERR_FILE PID N: whether the run of process PID, its stderr in ERR_FILE,
# has finished N jobs or more on its throwaway server (for wait_for: stop a run once it has
# done some work, however long the server took to start).
jobs_done_at_least() {
	local cluster
	cluster=$(throwaway_dir "$1")
	[ -n "$cluster" ] &&
		[ "$(on_throwaway "$cluster" "SELECT count(*) FROM claimbench_$2_jobs WHERE status = 'done'" 2>/dev/null)" -ge "$3" ]
}

# elapsed_ms START_NS: the milliseconds since START_NS ($(date +%s%N)).
elapsed_ms() {
	echo $(( ($(date +%s%N) - $1) / 1000000 ))
}
