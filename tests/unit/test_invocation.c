/*
 * Unit tests of `run`'s invocation parsing (cli/invocation.c): defaults from the option
 * table, the command line over the scenario file, sweeps, strategy options, every bad
 * input with its message, and a new option that exists only as one row of a table.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "temp_file.h"
#include "cli/invocation.h"
#include "cli/options.h"
#include "plugin/strategy.h"
#include "model/run_descriptor.h"
#include "store/store.h"

/* The invocation under test: large, so not on the stack. */
static struct run_invocation inv;

/* Parses the NULL-terminated arguments after "run" with table into inv; the outcome, err set on an error. */
static enum invocation_outcome parse_with(const struct option_def *table, char *err, size_t errlen, ...)
{
	char *argv[64] = { "run" };
	int argc = 1;
	va_list ap;
	enum invocation_outcome rc;

	va_start(ap, errlen);
	while (argc < 63 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	invocation_free(&inv);
	err[0] = '\0';
	rc = invocation_parse(table, COMMAND_RUN, NULL, argc, argv, &inv, err, errlen);
	return rc;
}

/* parse_with the commands' own table. */
#define PARSE(err, ...) parse_with(command_options, err, sizeof(err), __VA_ARGS__, (char *)NULL)

/* The settings of strategy name in group g, as its struct (first int members). */
static const int *strategy_ints(size_t g, const char *name)
{
	return strategy_config(&inv.groups[g], strategy_find(name));
}

static void test_defaults(void)
{
	char err[512];
	const struct run_config *cfg = &inv.groups[0];

	CHECK_EQ(PARSE(err, "--no-progress"), INVOCATION_RUN, "no option but --no-progress parses (%s)", err);
	CHECK(inv.n_groups == 1 && cfg->jobs == 200 && cfg->work_ms == 100 && cfg->n_worker_points == 1 &&
	      cfg->workers[0] == 10 && cfg->repeat == 1 && cfg->seed == 1 && cfg->empty_wait_ms == 5,
	      "the defaults are the classic scenario's (200 jobs, 100 ms, 10 workers)");
	CHECK(cfg->all_strategies && cfg->n_strategies == strategy_registry_len, "every strategy by default");
	CHECK(cfg->n_queues == 1 && strcmp(cfg->queues[0], "default") == 0, "one task class called default");
	CHECK(cfg->backend == NULL && cfg->target == NULL && cfg->table_prefix == NULL,
	      "no --db: a throwaway database; no --table-prefix: the run's own");
	CHECK(cfg->db_opts.sqlite_busy_timeout_ms == 5000 &&
	      strcmp(sqlite_journal_modes[cfg->db_opts.sqlite_journal], "wal") == 0 &&
	      strcmp(sqlite_synchronous_levels[cfg->db_opts.sqlite_synchronous], "normal") == 0,
	      "SQLite: WAL, synchronous normal, busy timeout 5 s");
	CHECK(strategy_ints(0, "nowait-backoff")[0] == 5 && strategy_ints(0, "nowait-backoff")[1] == 1000,
	      "nowait-backoff's own defaults: 5 tries, 1000 ms apart");
	CHECK(strategy_ints(0, "ticket")[0] == 5 && strategy_ints(0, "ticket")[1] == 1 &&
	      strategy_ints(0, "ticket")[2] == 60000, "ticket's own defaults: poll 5 ms, X = 1, stale after 60 s");
	CHECK_STR_EQ(cfg->scenario, "classic", "the untouched defaults are named classic");
	CHECK(strcmp(inv.settings.results, "results/claimbench.db") == 0 && inv.settings.scenario == NULL,
	      "the result store's default path; no scenario");
	for (size_t i = 0; i < cfg->n_strategies; i++)
		CHECK_EQ(cfg->strategies[i].mode, cfg->strategies[i].ops->default_mode,
		      "%s runs in its default mode", cfg->strategies[i].ops->name);
}

static void test_command_line(void)
{
	char err[512];
	const struct run_config *cfg = &inv.groups[0];

	CHECK_EQ(PARSE(err, "--strategy", "skip-locked,naive", "--claim-mode", "flip", "--workers", "1,4",
		    "--jobs", "50", "--work-ms", "2.5", "--work-dist", "exp", "--seed", "42", "--queue", "a,b",
		    "--db", "sqlite:/tmp/q.db", "--tries", "3", "--ticket-limit", "4", "--rerun-errors",
		    "--format", "json", "--results", "/tmp/r.db"), INVOCATION_RUN,
	      "every kind of option parses (%s)", err);
	CHECK(cfg->n_strategies == 2 && strcmp(cfg->strategies[0].ops->name, "skip-locked") == 0 &&
	      cfg->strategies[0].mode == MODE_FLIP && cfg->strategies[1].mode == MODE_FLIP,
	      "--claim-mode applies to the strategies given without a mode");
	CHECK(cfg->n_worker_points == 2 && cfg->workers[1] == 4, "--workers is a list of worker counts");
	CHECK(cfg->jobs == 50 && cfg->work_ms == 2.5 && cfg->work_dist == WORK_EXP && cfg->seed == 42,
	      "numbers and words land in their members");
	CHECK(cfg->n_queues == 2 && strcmp(cfg->queues[1], "b") == 0, "--queue a,b: two task classes");
	CHECK(cfg->backend && strcmp(cfg->target, "/tmp/q.db") == 0, "--db sqlite:PATH: the SQLite driver and the path");
	CHECK_EQ(strategy_ints(0, "nowait-backoff")[0], 3, "--tries lands in nowait-backoff's settings");
	CHECK_EQ(strategy_ints(0, "ticket")[1], 4, "--ticket-limit lands in ticket's settings");
	CHECK(cfg->rerun_errors && cfg->format == FORMAT_JSON, "a flag and a word");
	CHECK_STR_EQ(inv.settings.results, "/tmp/r.db", "--results is the command's own setting");
	CHECK_STR_EQ(cfg->scenario, "command line", "a changed command line is named so");
	CHECK(PARSE(err, "--work-ms", "3", "--work-dist", "uniform:5-15") == INVOCATION_RUN &&
	      cfg->work_dist == WORK_UNIFORM && cfg->work_min_ms == 5 && cfg->work_max_ms == 15 && cfg->work_ms == 10,
	      "--work-dist uniform:5-15: a range of work times, its mean 10 ms the --work-ms (%s)", err);
	CHECK(PARSE(err, "--work-dist", "uniform:00000000000000000000000000000000000000000000000000000000000000000005-50")
		      == INVOCATION_ERROR && strstr(err, "MIN and MAX are work times"),
	      "a MIN too long to read whole is refused, not read as its first 63 digits, 0 (%s)", err);
	CHECK(PARSE(err, "--work-dist", "uniform") == INVOCATION_RUN && cfg->work_dist == WORK_UNIFORM &&
	      cfg->work_max_ms == 0 && cfg->work_ms == 100, "--work-dist uniform alone: no range, 0 to twice --work-ms");
	CHECK(PARSE(err, "--strategy", "update-returning:hold,ticket") == INVOCATION_RUN &&
	      inv.groups[0].strategies[0].mode == MODE_HOLD &&
	      inv.groups[0].strategies[1].mode == strategy_find("ticket")->default_mode,
	      "NAME:MODE keeps its mode; the others take their default");
}

static void test_scenario_file(void)
{
	char err[512];
	const char *path = temp_file_write("groups", "[global]\njobs = 30\nworkers = 2\ntries = 2\n"
						 "[slow]\nwork-ms = 10\n[sweep]\njobs = 5,6,7\nbackoff-ms = 1,2\n"
						 "[expect]\nok = skip-locked.duplicates == 0\n");

	CHECK_EQ(PARSE(err, "--scenario", path, "--workers", "3", "--strategy", "skip-locked"), INVOCATION_RUN,
	      "a scenario with two groups parses (%s)", err);
	CHECK_EQ(inv.n_groups, 1 + 3 * 2, "[slow] is one group, [sweep] 3 x 2 sweep points (%zu)", inv.n_groups);
	CHECK(strcmp(inv.groups[0].group, "slow") == 0 && inv.groups[0].jobs == 30 && inv.groups[0].work_ms == 10,
	      "a group takes [global]'s keys and its own");
	CHECK(inv.groups[0].workers[0] == 3 && inv.groups[6].workers[0] == 3, "the command line overrides the file");
	CHECK_EQ(strategy_ints(3, "nowait-backoff")[0], 2, "a strategy option is a scenario key");
	CHECK(inv.groups[1].jobs == 5 && inv.groups[2].jobs == 6 && inv.groups[3].jobs == 7 &&
	      strategy_ints(1, "nowait-backoff")[1] == 1 && strategy_ints(4, "nowait-backoff")[1] == 2,
	      "sweep points vary the first swept key fastest");
	CHECK_STR_EQ(inv.groups[5].sweep, "jobs=6,backoff-ms=2", "a sweep point names its values (%s)",
	      inv.groups[5].sweep);
	CHECK(inv.n_expects == 1 && strcmp(inv.groups[0].scenario, inv.scenario.name) == 0,
	      "expectations are read; the groups carry the scenario's name");
	unlink(path);
}

/* A scenario file's shell command runs only with the user's say: --trust-scenario, or theirs on the command line. */
static void test_scenario_trust(void)
{
	char err[512];
	const char *path = temp_file_write("trusted", "[global]\njobs = 5\nrestart-command = pg_ctl restart\n");

	CHECK(PARSE(err, "--scenario", path, "--trust-scenario") == INVOCATION_RUN && inv.settings.trust_scenario &&
	      strcmp(inv.groups[0].faults.restart_command, "pg_ctl restart") == 0,
	      "with --trust-scenario the file's restart-command is taken (%s)", err);
	CHECK(PARSE(err, "--scenario", path, "--restart-command", "mine") == INVOCATION_RUN &&
	      !inv.settings.trust_scenario && strcmp(inv.groups[0].faults.restart_command, "mine") == 0,
	      "the command line's --restart-command replaces the file's, which then never runs (%s)", err);
	unlink(path);
	path = temp_file_write("server", "[global]\njobs = 5\ndb = host=db.example dbname=queue\n");
	CHECK(PARSE(err, "--scenario", path, "--trust-scenario") == INVOCATION_RUN &&
	      strcmp(inv.groups[0].target, "host=db.example dbname=queue") == 0,
	      "with --trust-scenario the file's server is taken (%s)", err);
	CHECK_EQ(PARSE(err, "--scenario", path, "--db", "sqlite:/tmp/q.db"), INVOCATION_RUN,
	      "the command line's --db replaces the file's (%s)", err);
	unlink(path);
	path = temp_file_write("lite", "[global]\njobs = 5\ndb = sqlite:/tmp/q.db\n");
	CHECK_EQ(PARSE(err, "--scenario", path), INVOCATION_RUN, "a scenario file may name a SQLite file (%s)", err);
	unlink(path);
}

/* Checks that the arguments fail to parse with a message holding want. */
#define REFUSED(want, what, ...)                                                                        \
	do {                                                                                            \
		char e_[768];                                                                           \
		enum invocation_outcome r_ = PARSE(e_, __VA_ARGS__);                                    \
		CHECK(r_ == INVOCATION_ERROR && strstr(e_, want) != NULL, "%s is refused: %s", what, e_); \
	} while (0)

static void test_bad_input(void)
{
	const char *path;
	char long_list[2048];

	REFUSED("unknown option --bogus", "an unknown option", "--bogus");
	REFUSED("option --jobs needs a value", "a missing value", "--jobs");
	REFUSED("--jobs: expected a whole number from 1 to 100000000, got \"0\"", "jobs 0", "--jobs", "0");
	REFUSED("--work-ms: expected a number from 0 to 3.6e+06, got \"-1\"", "a negative work time", "--work-ms", "-1");
	REFUSED("--work-dist: expected one of fixed, uniform, exp", "an unknown word", "--work-dist", "normal");
	REFUSED("--tries: expected a whole number from 1", "a strategy option's bound", "--tries", "0");
	REFUSED("--db: expected a libpq conninfo or URI, or sqlite:PATH, or mariadb:..., got an empty value", "an empty --db",
		"--db", "");
	REFUSED("--table-prefix: expected 1 to 48 letters", "a table prefix with a quote", "--table-prefix", "a\"b");
	REFUSED("strategy naive has no hold claim mode (it supports flip)", "naive asked to hold",
		"--strategy", "naive:hold");
	REFUSED("--strategy: unknown strategy \"nope\"; known: naive", "an unknown strategy", "--strategy", "nope");
	REFUSED("--rerun-errors: only a drain run can be re-run", "a re-run of a timed run", "--rerun-errors",
		"--duration", "2");
	REFUSED("--arrival-rate in a drain run needs --arrival-s", "arrivals with no end", "--arrival-rate", "5");
	REFUSED("--arrival-s needs --arrival-rate", "an arrival time without arrivals", "--arrival-s", "5");
	REFUSED("--db: expected a libpq conninfo or URI, or sqlite:PATH, or mariadb:..., got only blanks", "a blank --db", "--db", " \t");
	REFUSED("--progress-interval: expected 0 (no lines) or a number from 0.1 to 3600, got \"1e-10\"",
		"a progress interval shorter than 0.1 s", "--progress-interval", "1e-10");
	REFUSED("unexpected argument \"extra2\": run takes one scenario file", "a second operand", "extra1", "extra2");
	REFUSED("extra: cannot read the scenario", "one operand is a scenario file", "extra");
	REFUSED("--workers: expected a comma-separated list without empty items, got \"1,,2\"", "an empty worker count",
		"--workers", "1,,2");
	REFUSED("--strategy: expected a comma-separated list without empty items", "a trailing comma", "--strategy",
		"naive,");
	REFUSED("--queue: expected 1 to 16 comma-separated names", "an empty task class", "--queue", "a,,b");
	path = temp_file_write("unknown", "[global]\njobs = 5\nscenario = x.ini\n");
	REFUSED(":3: \"scenario\" in [global]: --scenario is the command line's to give", "--scenario as a scenario key",
		"--scenario", path);
	unlink(path);
	path = temp_file_write("trust", "[global]\njobs = 5\ntrust-scenario = true\n");
	REFUSED(":3: \"trust-scenario\" in [global]: --trust-scenario is the command line's to give, never a scenario "
		"file's", "a scenario file that trusts itself", "--scenario", path);
	unlink(path);
	path = temp_file_write("restart", "[global]\njobs = 5\nrestart-command = touch pwned\n");
	REFUSED(":3: restart-command: a scenario file may not run a shell command (it would run with sh -c as you); "
		"give --trust-scenario", "a scenario file's shell command, without --trust-scenario", "--scenario", path);
	unlink(path);
	path = temp_file_write("server", "[global]\njobs = 5\n[g]\ndb = host=db.example dbname=queue\n");
	REFUSED(":4: db: a scenario file may name a file or a throwaway (sqlite:PATH, mariadb:), not a postgresql server to connect to as "
		"you", "a scenario file's PostgreSQL server, without --trust-scenario", "--scenario", path);
	unlink(path);
	path = temp_file_write("loose", "[global]\njobs = 5\nno-progress = banana\n[g]\nstrategy = skip-locked\n");
	REFUSED("loose.ini:3: no-progress = banana: --no-progress: expected true or false, got \"banana\"",
		"a flag's key that is neither true nor false", "--scenario", path);
	unlink(path);
	path = temp_file_write("interval", "[global]\njobs = 5\nprogress-interval = 0.01\n[g]\nstrategy = skip-locked\n");
	REFUSED("interval.ini:3: progress-interval = 0.01: --progress-interval: expected 0 (no lines) or a number from 0.1",
		"a progress interval shorter than 0.1 s in a file", "--scenario", path);
	unlink(path);
	path = temp_file_write("arrivals", "[global]\njobs = 5\narrival-s = 3\n[g]\nstrategy = skip-locked\n");
	REFUSED("arrivals.ini:3: arrival-s = 3: --arrival-s needs --arrival-rate", "arrival-s without arrival-rate in a file",
		"--scenario", path);
	unlink(path);
	path = temp_file_write("badvalue", "[g]\nwork-ms = fast\n");
	REFUSED("badvalue.ini:2: work-ms = fast: --work-ms: expected a number", "a bad value in a file, located",
		"--scenario", path);
	unlink(path);
	path = temp_file_write("overflow", "[g]\njobs = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n"
					  "seed = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\nproducers = 1,2\n");
	REFUSED("more than 256 groups and sweep points", "a sweep past the group limit", "--scenario", path);
	unlink(path);
	memset(long_list, 0, sizeof(long_list));
	for (int i = 0; i < 40; i++)
		strcat(long_list, i ? ",1" : "1");
	REFUSED("--workers: at most 32 worker counts", "too many worker counts", "--workers", long_list);
}

/* Faults and recovery options: bounds, lists and the options that need each other. */
static void test_bad_fault_input(void)
{
	char long_list[256] = "";

	REFUSED("--crash-at 5: that instant is beyond the run's end (--duration 2)", "a crash after the end",
		"--crash-at", "1,5", "--duration", "2");
	REFUSED("--restart-at 2: that instant is beyond the run's end (--duration 2)", "a restart at the very end",
		"--restart-at", "2", "--duration", "2");
	REFUSED("--crash-at: expected a number from 0 to 86400, got \"-1\"", "a negative instant", "--crash-at", "-1");
	REFUSED("--stall-exec: expected a whole number from 1 to 100000000, got \"0\"", "execution 0",
		"--stall-exec", "0");
	REFUSED("--kill-backend-exec: expected a comma-separated list without empty items", "an empty execution",
		"--kill-backend-exec", "3,,4");
	REFUSED("--crash-rate: expected a number from 0 to 1, got \"1.5\"", "a rate above 1", "--crash-rate", "1.5");
	REFUSED("--fence: expected one of none, owner, attempt", "an unknown fence", "--fence", "maybe");
	REFUSED("--heartbeat-ms needs --lease-ms: it works on leases", "a heartbeat without a lease",
		"--heartbeat-ms", "100");
	REFUSED("--reaper-ms needs --lease-ms: it works on leases", "a reaper without a lease", "--reaper-ms", "100");
	REFUSED("--heartbeat-ms 500 must be shorter than --lease-ms 500", "a heartbeat as long as the lease",
		"--heartbeat-ms", "500", "--lease-ms", "500");
	REFUSED("--reconnect-limit-s: expected a number from 0.1 to 3600", "no time to reconnect",
		"--reconnect-limit-s", "0");
	for (int i = 0; i < 33; i++)
		strcat(long_list, i ? ",1" : "1");
	REFUSED("--crash-exec: at most 32 items", "too many executions", "--crash-exec", long_list);
}

/* The commands' table with one row more, as a contributor would add it. */
static struct option_def extended[128];

/* Copies command_options into extended and appends row. */
static void extend_table(const struct option_def *row)
{
	size_t n = 0;

	while (command_options[n].name && n + 2 < sizeof(extended) / sizeof(extended[0])) {
		extended[n] = command_options[n];
		n++;
	}
	extended[n] = *row;
	extended[n + 1] = (struct option_def){ .name = NULL };
}

/* The value of parameter name in r, or NULL. */
static const char *param(const struct run_result *r, const char *name)
{
	for (size_t i = 0; i < r->n_params; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return r->params[i].value;
	return NULL;
}

/* A run under extended with the row knob given 7 is stored with knob among its parameters. */
static void check_stored(const struct option_def *knob)
{
	char path[128], err[512];
	struct invocation_result rep = { .version = "test", .scenario = "s", .backend = "sqlite", .started_at = "2026-11-23T00:00:00Z" };
	struct run_result run = { .strategy = "ticket", .claim_mode = "flip", .workers = 1, .jobs = 1, .repeat = 1 };
	struct store_context ctx = { .host = "h", .version = "test", .git_revision = "x", .scenario_text = "" };
	struct store_session session = { 0 };
	struct store_run back;
	struct store *store = NULL;
	long long id = 0;

	snprintf(path, sizeof(path), "/tmp/claimbench-test-%ld-params.db", (long)getpid());
	unlink(path);
	parse_with(extended, err, sizeof(err), "--test-knob", "7", "--strategy", "ticket", (char *)NULL);
	rep.results = &run;
	rep.n_results = 1;
	CHECK(run_params_fill(&run, extended, &inv.groups[0], strategy_find("ticket")) == 0 &&
	      param(&run, knob->name) && strcmp(param(&run, knob->name), "7") == 0 && param(&run, "ticket-limit"),
	      "the run's parameters hold the new row's value (and the strategy's own options)");
	CHECK(!param(&run, "format") && !param(&run, "db") && !param(&run, "tries"),
	      "parameters leave out what only says how to run or print, and other strategies' options");
	CHECK(store_open(path, &store, err, sizeof(err)) == 0 &&
	      store_append(store, &session, &ctx, &rep, &run, &id, err, sizeof(err)) == 0 &&
	      store_load(store, id, &back, err, sizeof(err)) == 0, "stored and read back (%s)", err);
	if (id > 0) {
		CHECK(param(&back.run, knob->name) && strcmp(param(&back.run, knob->name), "7") == 0,
		      "the new row's value is stored with the run");
		store_run_free(&back);
	}
	store_close(store);
	run_params_free(&run);
	unlink(path);
}

static void test_one_row_makes_an_option(void)
{
	static const struct option_def knob = {
		.name = "test-knob", .type = OPTION_INT, .place = OPTION_IN_RUN, .commands = COMMAND_BIT(COMMAND_RUN),
		.offset = offsetof(struct run_config, empty_retries), .flags = OPTION_SWEEP, .min = 0, .max = 99,
		.def = "4", .arg = "K", .help = "a knob that exists only as a row of the table",
	};
	struct option_set set;
	char err[512], *help = NULL;
	size_t help_len = 0;
	FILE *out;
	const char *path;

	extend_table(&knob);
	CHECK(parse_with(extended, err, sizeof(err), "--no-progress", (char *)NULL) == INVOCATION_RUN &&
	      inv.groups[0].empty_retries == 4, "the new row's default applies (%s)", err);
	CHECK(parse_with(extended, err, sizeof(err), "--test-knob", "7", (char *)NULL) == INVOCATION_RUN &&
	      inv.groups[0].empty_retries == 7, "the new row parses on the command line (%s)", err);
	CHECK(parse_with(extended, err, sizeof(err), "--test-knob", "100", (char *)NULL) == INVOCATION_ERROR &&
	      strstr(err, "--test-knob: expected a whole number from 0 to 99") != NULL,
	      "the new row's bounds are checked (%s)", err);
	path = temp_file_write("knob", "[global]\ntest-knob = 1,2,3\n");
	CHECK(parse_with(extended, err, sizeof(err), "--scenario", path, (char *)NULL) == INVOCATION_RUN &&
	      inv.n_groups == 3 && inv.groups[2].empty_retries == 3 && strcmp(inv.groups[2].sweep, "test-knob=3") == 0,
	      "the new row is a scenario key and sweeps (%s)", err);
	unlink(path);
	CHECK_EQ(option_set_build(&set, extended, COMMAND_RUN, err, sizeof(err)), 0, "the set builds (%s)", err);
	out = open_memstream(&help, &help_len);
	if (out) {
		option_set_print(&set, out);
		fclose(out);
	}
	CHECK(help && strstr(help, "--test-knob K") && strstr(help, "a knob that exists only as a row of the table") &&
	      strstr(help, "(default 4)"), "the new row shows in --help with its value name, help and default");
	free(help);
	CHECK_EQ(parse_with(command_options, err, sizeof(err), "--test-knob", "7", (char *)NULL), INVOCATION_ERROR,
	      "without the row the option does not exist");
	check_stored(&knob);
}

/*
 * Every row of run's options, the strategies' too, gets a getopt code that is not one of
 * getopt's own (':' a missing value, '?' an unknown option), however many rows there are:
 * row 58 once read as "needs a value" whatever it was given.
 */
static void test_option_codes(void)
{
	struct option_set set;
	char err[256];
	bool clash = false;

	CHECK(option_set_build(&set, command_options, COMMAND_RUN, err, sizeof(err)) == 0 && set.n_rows > 58,
	      "run's option set builds, with more rows than the code of ':' (%zu)", set.n_rows);
	for (size_t i = 0; i <= set.n_rows; i++)
		clash |= set.longopts[i].val == ':' || set.longopts[i].val == '?' || set.longopts[i].val < 256;
	CHECK(!clash, "no option's getopt code is a character, ':' and '?' above all");
	CHECK(PARSE(err, "--tries", "3", "--ticket-limit", "4", "--candidates", "2", "--sample-ms", "50") ==
	      INVOCATION_RUN && strategy_ints(0, "nowait-backoff")[0] == 3 && inv.groups[0].pressure.sample_ms == 50,
	      "the options at the end of the set parse with their values (%s)", err);
}

/* explore's command line: its own rows into command_settings.explore, its defaults of run's rows below the file. */
static void test_explore(void)
{
	static const struct invocation_default defaults[] = { { "workers", "2" }, { "jobs", "2" }, { NULL, NULL } };
	const char *path = temp_file_write("explore", "[global]\njobs = 5\n");
	char *plain[] = { "explore", NULL };
	char *given[] = { "explore", "--workers", "1", "--expect", "duplicate > 0", "--expect=lost == 0", "--show",
			  "violation", "--claims", "3", "--crash", (char *)path, NULL };
	struct option_set set;
	char err[512];

	CHECK(option_set_build(&set, command_options, COMMAND_EXPLORE, err, sizeof(err)) == 0 &&
	      option_set_find(&set, "claims") && option_set_find(&set, "lease-ms") && option_set_find(&set, "tries"),
	      "explore's set holds its own rows, run's and the strategies' (%zu rows)", set.n_rows);
	CHECK(option_set_build(&set, command_options, COMMAND_RUN, err, sizeof(err)) == 0 &&
	      !option_set_find(&set, "claims") && !option_set_find(&set, "expect"), "run's set holds none of explore's");
	invocation_free(&inv);
	CHECK(invocation_parse(command_options, COMMAND_EXPLORE, defaults, 1, plain, &inv, err, sizeof(err)) ==
		      INVOCATION_RUN && inv.groups[0].workers[0] == 2 && inv.groups[0].jobs == 2 &&
		      inv.settings.explore.claims == 2 && inv.settings.explore.max_schedules == 20000 &&
		      inv.settings.explore.show == -1 && inv.settings.explore.n_expects == 0,
	      "explore's defaults: 2 workers, 2 jobs, 2 claims, 20000 schedules, nothing shown or expected (%s)", err);
	invocation_free(&inv);
	CHECK(invocation_parse(command_options, COMMAND_EXPLORE, defaults, 12, given, &inv, err, sizeof(err)) ==
		      INVOCATION_RUN && inv.groups[0].workers[0] == 1 && inv.groups[0].jobs == 5,
	      "the file's jobs and the command line's workers are over explore's defaults (%s)", err);
	CHECK(inv.settings.explore.claims == 3 && inv.settings.explore.crashes &&
		      inv.settings.explore.show == EXPECT_VIOLATION && inv.settings.explore.n_expects == 2 &&
		      strcmp(inv.settings.explore.expects[1].text, "lost == 0") == 0,
	      "explore's own options land in command_settings.explore, --expect in order");
	unlink(path);
}

/*
 * explore's one rule: each of run's rows is explore's or refused by name (never dropped), on
 * the command line and in a file, each refused row with a getopt code of its own.
 */
static void test_explore_refuses(void)
{
	const char *path = temp_file_write("explore-refused", "[global]\nrepeat = 3\n");
	char *crash[] = { "explore", "--crash-exec", "1", NULL };
	char *file[] = { "explore", (char *)path, NULL };
	static struct option_set set;
	size_t run_rows = 0, placed = 0;
	bool distinct = true;
	char err[512];

	CHECK(option_set_build(&set, command_options, COMMAND_EXPLORE, err, sizeof(err)) == 0, "explore's set builds (%s)",
	      err);
	for (const struct option_def *o = command_options; o->name; o++) {
		if (!(o->commands & COMMAND_BIT(COMMAND_RUN)))
			continue;
		run_rows++;
		placed += option_set_find(&set, o->name) != NULL || option_set_refuses(&set, o->name) != NULL;
	}
	CHECK(run_rows > 0 && placed == run_rows && option_set_refuses(&set, "crash-exec") &&
	      option_set_refuses(&set, "repeat") && !option_set_refuses(&set, "lease-ms") &&
	      option_set_find(&set, "lease-ms"), "each of run's %zu rows is explore's or refused (%zu placed)", run_rows,
	      placed);
	for (size_t i = 0; set.longopts[i].name; i++)
		for (size_t j = i + 1; set.longopts[j].name; j++)
			distinct &= set.longopts[i].val != set.longopts[j].val;
	CHECK(distinct && set.n_refused > 0, "explore's %zu rows, --help and %zu refused rows have distinct codes",
	      set.n_rows, set.n_refused);
	invocation_free(&inv);
	CHECK(invocation_parse(command_options, COMMAND_EXPLORE, NULL, 3, crash, &inv, err, sizeof(err)) ==
		      INVOCATION_ERROR && strcmp(err, "--crash-exec is run's: explore does not honour it") == 0,
	      "explore --crash-exec 1 is refused by name (%s)", err);
	invocation_free(&inv);
	CHECK(invocation_parse(command_options, COMMAND_EXPLORE, NULL, 2, file, &inv, err, sizeof(err)) ==
		      INVOCATION_ERROR && strstr(err, ":2: \"repeat\" in [global]: --repeat is run's: explore does not "
						 "honour it"),
	      "a file's repeat is refused at its line by the same rule (%s)", err);
	invocation_free(&inv);
	err[0] = '\0';
	CHECK(invocation_parse(command_options, COMMAND_RUN, NULL, 3, crash, &inv, err, sizeof(err)) == INVOCATION_RUN,
	      "run takes --crash-exec 1 (%s)", err);
	unlink(path);
}

int main(void)
{
	test_defaults();
	test_command_line();
	test_option_codes();
	test_scenario_file();
	test_scenario_trust();
	test_bad_input();
	test_bad_fault_input();
	test_one_row_makes_an_option();
	test_explore();
	test_explore_refuses();
	invocation_free(&inv);
	return check_exit_status();
}
