# Strategies a scenario file defines in SQL alone ([strategy NAME]): seed 002's claim as SQL
# beside its built-in twin in a contended drain, a naive SQL claim whose duplicates the
# accounting catches, a SQLite definition, a claim that breaks the harness's contract, and
# every refusal of a bad definition, with the file and line, --lease-ms for a claim that
# sets no lease among them.
# tier: fast
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db
scenario=$(dirname "$0")/sql_strategy.ini

# ---- PostgreSQL: 8 workers drain 300 jobs of 2 ms; the scenario's expectations hold ----
run_json drain "$scenario"
check "the scenario's expectations hold (exit 0)" test "$(cat "$dir/drain.status")" -eq 0
for s in skip-locked seed-002; do
	check_each "$dir/drain.json" ".strategy == \"$s\"" ".completed == 300 and .duplicates == 0 and
		.overlaps == 0 and .lost == 0 and .stuck == 0 and .ledger_mismatches == 0 and .complete" \
		"$s: 300 jobs by 8 workers, no duplicates or losses, the table's audit agrees with the ledger"
done
# naive-select's duplicates: explore.sh finds them among every interleaving, not by a race that may not happen
check_each "$dir/drain.json" '.strategy == "seed-002"' '.params["claim-sql"] |
	startswith("UPDATE {jobs} SET status = '"'"'active'"'"', claimed_by = :worker") and contains("\nRETURNING id, attempts")' \
	"the run records the claim SQL as the scenario wrote it (params.claim-sql)"
check_each "$dir/drain.json" '.strategy == "seed-002"' '.params["complete-sql"] | contains(":attempt")' \
	"and its complete SQL"
check_each "$dir/drain.json" '.strategy == "skip-locked"' '.params | has("claim-sql") | not' \
	"a built-in strategy's run has no SQL parameters"

# ---- SQLite: a definition for both backends, in both modes ----
cat >"$dir/lite.ini" <<INI
[global]
jobs = 200
work-ms = 1
workers = 4
db = sqlite:$dir/q.db

[strategy lite]
backends = postgresql,sqlite
modes = hold,flip
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, claimed_at = {now},
    attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' ORDER BY id LIMIT 1)
    RETURNING id, attempts

[both]
strategy = lite:hold,lite:flip
INI
run_json lite "$dir/lite.ini"
check "a SQLite definition runs on sqlite:PATH (exit 0)" test "$(cat "$dir/lite.status")" -eq 0
check_jq "$dir/lite.json" '[.results[] | select(.strategy == "lite")] | length == 2' "lite runs in hold and flip"
check_each "$dir/lite.json" '.strategy == "lite"' '.completed == 200 and
	.duplicates == 0 and .lost == 0 and .ledger_mismatches == 0' \
	"lite on SQLite, hold and flip: 200 jobs, no duplicates or losses, the audit agrees"

# ---- a claim that marks the job itself (it writes :worker) must return the attempt number: refused when prepared ----
cat >"$dir/noattempt.ini" <<INI
[global]
jobs = 20
workers = 2
db = sqlite:$dir/q.db
[strategy no-attempt]
backends = sqlite
claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, attempts = attempts + 1
    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new' ORDER BY id LIMIT 1) RETURNING id
[one]
strategy = no-attempt
INI
expect_exit 2 "noattempt\.ini:7: claim of strategy no-attempt: returns 1 column; the harness reads the job's id and attempts" \
	"a claim that marks the job without returning its attempts is refused when prepared, saying what it must return" \
	run --no-progress --results "$store" "$dir/noattempt.ini"

# ---- a claim must take at most one job ----
cat >"$dir/rows.ini" <<INI
[global]
jobs = 20
workers = 2
db = sqlite:$dir/q.db
[strategy every-row]
backends = sqlite
claim = SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'
[one]
strategy = every-row
INI
expect_exit 4 "claim of strategy every-row returned several rows: it must take at most one job" \
	"a claim that returns several rows stops the worker, saying why" \
	run --no-progress --results "$store" "$dir/rows.ini"

# ---- statements the server cannot prepare: refused before any run, with the file and line ----
bad() { # bad NAME TEXT: writes $dir/NAME.ini
	printf '%s\n' "$2" >"$dir/$1.ini"
}
bad syntax "[global]
jobs = 10
[strategy mine]
summary = a typo in the claim
claim = SELEC id FROM {jobs} WHERE queue = :queue
[g]
strategy = skip-locked,mine"
expect_exit 2 "syntax\.ini:5: claim of strategy mine: .*syntax error at or near \"SELEC\"" \
	"PostgreSQL: a syntax error in a claim names the scenario file and line" \
	run --no-progress --results "$dir/syntax.db" "$dir/syntax.ini"
check "and nothing ran before the refusal: skip-locked, listed first, stored no run" \
	eval '[ -z "$("$CLAIMBENCH" history --results "$dir/syntax.db" 2>/dev/null | grep skip-locked)" ]'
bad column "[global]
jobs = 10
db = sqlite:$dir/q.db
[strategy mine]
backends = sqlite
claim = SELECT id FROM {jobs} WHERE queue = :queue LIMIT 1
fail = UPDATE {jobs} SET stauts = 'error' WHERE id = :id RETURNING id
[g]
strategy = mine"
expect_exit 2 "column\.ini:7: fail of strategy mine: .*no such column: stauts" \
	"SQLite: an unknown column in a fail statement names the file and line" \
	run --no-progress --results "$store" "$dir/column.ini"

# ---- bad definitions: each refused with the file and line, exit 2, before a database is touched ----
refused() { # refused NAME PATTERN TEXT
	bad "$1" "$3"
	expect_exit 2 "$1\.ini:$2" "$1: refused at $(cut -d: -f1 <<<"$2")" run --no-progress --results "$store" "$dir/$1.ini"
}
refused unknown-param "3: claim of strategy mine: unknown placeholder :queu " "[global]
[strategy mine]
claim = SELECT id FROM {jobs} WHERE queue = :queu"
refused no-value "3: claim of strategy mine: no value for the placeholder :id " "[global]
[strategy mine]
claim = SELECT id FROM {jobs} WHERE id = :id"
refused unknown-table "3: claim of strategy mine: unknown placeholder \{job\}" "[global]
[strategy mine]
claim = SELECT id FROM {job} WHERE queue = :queue"
refused numbered "4: complete of strategy mine: write parameters by name" "[global]
[strategy mine]
claim = SELECT id FROM {jobs} WHERE queue = :queue
complete = UPDATE {jobs} SET status = 'done' WHERE id = \$1 RETURNING id"
refused no-claim "2: \[strategy mine\]: no claim key" "[global]
[strategy mine]
modes = flip"
refused mode "4: strategy mine: modes: unknown name \"grab\"; known: hold flip" "[global]
[strategy mine]
claim = SELECT 1
modes = flip,grab"
refused backend "4: strategy mine: backends: unknown name \"mysql\"; known: postgresql sqlite" "[global]
[strategy mine]
claim = SELECT 1
backends = mysql"
refused twice "4: key given twice in this section \(first at line 3\)" "[global]
[strategy mine]
claim = SELECT 1
claim = SELECT 2"
refused built-in "2: \[strategy skip-locked\]: skip-locked is a built-in strategy" "[global]
[strategy skip-locked]
claim = SELECT 1"
refused unknown-key "4: strategy mine: unknown key \"lock\"" "[global]
[strategy mine]
claim = SELECT 1
lock = yes"
refused bad-name "2: \[strategy a,b\]: a strategy's name is a word" "[global]
[strategy a,b]
claim = SELECT 1"
bad pg-only "[global]
db = sqlite:$dir/q.db
[strategy mine]
claim = SELECT id FROM {jobs} WHERE queue = :queue LIMIT 1
[g]
strategy = mine"
expect_exit 2 "strategy mine cannot run on sqlite: it has no SQL for sqlite" \
	"a definition for PostgreSQL alone (the default) is refused on SQLite, as a built-in is" \
	run --no-progress --results "$store" "$dir/pg-only.ini"

# ---- --lease-ms for a claim that marks its job itself but sets no lease: refused at its line ----
# (the job's lease_until would stay NULL: a crashed worker's job lost to the lease and the reaper)
lease_claim() { # lease_claim SET: a definition for both backends whose claim marks the job, SET added to its SET
	printf '%s\n' "[strategy mine]" "backends = postgresql,sqlite" \
		"claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, claimed_at = {now},$1" \
		"    attempts = attempts + 1" \
		"    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND {claimable} ORDER BY id LIMIT 1)" \
		"    RETURNING id, attempts"
}
{ printf '[global]\njobs = 20\nworkers = 2\nwork-ms = 1\ndb = sqlite:%s\n' "$dir/lease.db"; lease_claim ""
  printf '[crashes]\nstrategy = mine\nlease-ms = 300\nreaper-ms = 100\n'; } >"$dir/no-lease.ini"
expect_exit 2 "no-lease\.ini:8: claim of strategy mine: --lease-ms 300, but the claim sets no lease: it marks its job active itself \(:worker\) and has no \{lease_until\}" \
	"a flip claim that marks its job with no {lease_until}, run with --lease-ms: refused at the claim's line" \
	run --no-progress --results "$store" "$dir/no-lease.ini"
# explore runs on PostgreSQL only, and refuses run's own keys (work-ms)
grep -v '^db = \|^work-ms = ' "$dir/no-lease.ini" >"$dir/no-lease-pg.ini"
expect_exit 2 "no-lease-pg\.ini:6: claim of strategy mine: --lease-ms 300, but the claim sets no lease" \
	"explore refuses it too, before a server starts" explore --results "$store" --jobs 1 --claims 1 "$dir/no-lease-pg.ini"
sed 's/^lease-ms = 300$/lease-ms = 0/; /^reaper-ms/d' "$dir/no-lease.ini" >"$dir/no-lease-none.ini"
"$CLAIMBENCH" run --no-progress --results "$store" "$dir/no-lease-none.ini" >/dev/null 2>&1
status=$?
check "the same claim without --lease-ms runs (exit $status)" test "$status" -eq 0
{ printf '[global]\njobs = 20\nworkers = 2\nwork-ms = 1\ndb = sqlite:%s\n' "$dir/lease.db"
  lease_claim " lease_until = {lease_until},"; printf '[crashes]\nstrategy = mine\nlease-ms = 300\nreaper-ms = 100\n'; } \
	>"$dir/lease.ini"
"$CLAIMBENCH" run --no-progress --results "$store" "$dir/lease.ini" >/dev/null 2>"$dir/lease.err"
status=$?
check "with lease_until = {lease_until} in its claim, --lease-ms runs (exit $status)" test "$status" -eq 0
