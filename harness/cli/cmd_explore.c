/*
 * `claimbench explore`: every interleaving of K workers' statements, or a seeded sample,
 * per strategy and mode (harness/explore/). Its own options are read here (--claims,
 * --sample, --schedule, --crash, --max-steps, --max-schedules, --expect, --show); the rest are
 * `run`'s, read by invocation_parse: --strategy, --claim-mode, --workers, --jobs, --db,
 * --seed, --format, the recovery options and the strategies' own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exit_status.h"
#include "base/parse.h"
#include "cli/commands.h"
#include "cli/invocation.h"
#include "db/throwaway.h"
#include "queue/run.h"
#include "engine/signals.h"
#include "explore/explore.h"
#include "cli/explore_print.h"

/* The default K, C and J, and the most schedules a depth-first search runs by default. */
#define EXPLORE_DEFAULT_WORKERS 2
#define EXPLORE_DEFAULT_CLAIMS 2
#define EXPLORE_DEFAULT_JOBS 2
#define EXPLORE_DEFAULT_MAX_SCHEDULES 20000
#define EXPLORE_MAX_EXPECTS 8

/* What explore's own options say. */
struct explore_settings {
	long claims;				/* --claims */
	long sample;				/* --sample: 0 for every schedule */
	long max_steps;				/* --max-steps: per worker and schedule; 0: from the claims */
	long max_schedules;			/* --max-schedules */
	bool crashes;				/* --crash */
	const char *schedule;			/* --schedule TRACE */
	int show;				/* --show KIND: its kind, -1 when not given */
	struct explore_expect expects[EXPLORE_MAX_EXPECTS];	/* --expect, in order */
	int n_expects;				/* entries used in expects */
	bool workers_given, jobs_given;		/* run's --workers and --jobs were given */
};

/* Whether arg is option name, as --name VALUE or --name=VALUE; *value its value then (NULL: the next argument). */
static bool is_option(const char *arg, const char *name, const char **value)
{
	size_t n = strlen(name);

	if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, name, n) != 0)
		return false;
	if (arg[2 + n] == '=') {
		*value = arg + 3 + n;
		return true;
	}
	*value = NULL;
	return arg[2 + n] == '\0';
}

/* Reads a whole number of at least min for option name. 0, or -1 with err. */
static int read_count(const char *name, const char *text, long min, long *out, char *err, size_t errlen)
{
	char *end;
	long v = text ? strtol(text, &end, 10) : 0;

	if (!text || !*text || *end || v < min) {
		snprintf(err, errlen, "--%s: expected a whole number of at least %ld, got \"%s\"", name, min,
			 text ? text : "");
		return -1;
	}
	*out = v;
	return 0;
}

/* Reads the value v of explore's own option arg into es. 0, or -1 with err. */
static int take_value(const char *arg, const char *v, struct explore_settings *es, char *err, size_t errlen)
{
	if (strncmp(arg, "--claims", 8) == 0)
		return read_count("claims", v, 1, &es->claims, err, errlen);
	if (strncmp(arg, "--sample", 8) == 0)
		return read_count("sample", v, 1, &es->sample, err, errlen);
	if (strncmp(arg, "--max-steps", 11) == 0)
		return read_count("max-steps", v, 1, &es->max_steps, err, errlen);
	if (strncmp(arg, "--max-schedules", 15) == 0)
		return read_count("max-schedules", v, 1, &es->max_schedules, err, errlen);
	if (strncmp(arg, "--schedule", 10) == 0) {
		es->schedule = v;
		return 0;
	}
	if (strncmp(arg, "--show", 6) == 0) {
		es->show = explore_kind_of(v, strlen(v));
		if (es->show >= 0)
			return 0;
		snprintf(err, errlen, "--show: unknown kind \"%s\" (the kinds of --expect)", v);
		return -1;
	}
	if (es->n_expects == EXPLORE_MAX_EXPECTS) {
		snprintf(err, errlen, "--expect: at most %d", EXPLORE_MAX_EXPECTS);
		return -1;
	}
	return explore_expect_parse(v, &es->expects[es->n_expects++], err, errlen);
}

/*
 * Takes explore's own options out of argv into es, leaving run's in argv (in order, argv[0]
 * kept); *argc becomes their number. 0, or -1 with err.
 */
static int take_own_options(int *argc, char **argv, struct explore_settings *es, char *err, size_t errlen)
{
	int kept = 1;

	for (int i = 1; i < *argc; i++) {
		const char *arg = argv[i], *v;

		if (is_option(arg, "crash", &v) && !v) {
			es->crashes = true;
			continue;
		}
		if (is_option(arg, "workers", &v))
			es->workers_given = true;
		if (is_option(arg, "jobs", &v))
			es->jobs_given = true;
		if (!(is_option(arg, "claims", &v) || is_option(arg, "sample", &v) || is_option(arg, "max-steps", &v) ||
		      is_option(arg, "max-schedules", &v) || is_option(arg, "schedule", &v) || is_option(arg, "expect", &v) ||
		      is_option(arg, "show", &v))) {
			argv[kept++] = argv[i];
			continue;
		}
		if (!v) {
			if (i + 1 >= *argc) {
				snprintf(err, errlen, "%s: expected a value", arg);
				return -1;
			}
			v = argv[++i];
		}
		if (take_value(arg, v, es, err, errlen) < 0)
			return -1;
	}
	*argc = kept;
	argv[kept] = NULL;
	return 0;
}

/* Refuses what explore cannot do with cfg: SQLite, several worker counts, a timed run, arrivals. 0, or -1 with err. */
static int check_config(const struct run_config *cfg, const struct explore_settings *es, char *err, size_t errlen)
{
	if (cfg->backend && cfg->backend->kind == BACKEND_SQLITE) {
		snprintf(err, errlen, "SQLite cannot be explored: its lock is the whole database, so a step that waits "
			 "for it waits in SQLite's busy handler, not on a lock the server can name (docs/explore.md)");
		return -1;
	}
	if (cfg->n_worker_points != 1 || cfg->workers[0] < 1 || cfg->workers[0] > EXPLORE_MAX_WORKERS) {
		snprintf(err, errlen, "--workers: explore takes one worker count, 1 to %d", EXPLORE_MAX_WORKERS);
		return -1;
	}
	if (cfg->duration_s > 0 || cfg->arrival_rate > 0 || cfg->n_queues > 1 || cfg->fail_rate > 0) {
		snprintf(err, errlen, "explore runs a backlog of jobs in one queue: --duration, --arrival-rate, --queue "
			 "with several classes and --fail-rate are run's");
		return -1;
	}
	if (cfg->jobs > 64) {
		snprintf(err, errlen, "--jobs: explore takes at most 64 jobs (every schedule is run)");
		return -1;
	}
	if (es->schedule && es->sample) {
		snprintf(err, errlen, "--schedule replays one schedule: --sample does not go with it");
		return -1;
	}
	return 0;
}

/* The throwaway server, when no --db was given; and its target. */
struct server {
	struct throwaway t;	/* the throwaway PostgreSQL */
	bool ready;		/* t's watchdog started: throwaway_close is due */
	const char *target;	/* where to connect */
};

/*
 * Checks the statements of every strategy the scenario defines in SQL that cfg explores, as
 * run does (engine/run.h, run_check_statements): one the server cannot prepare, or that does
 * more than its table allows without --trust-scenario, is the scenario's error. EXIT_DONE,
 * or EXIT_USAGE or EXIT_ENVIRONMENT said on stderr.
 */
static int check_defined(const struct run_invocation *inv, const struct run_config *cfg, const char *target)
{
	struct run_plan plan = { .cfg = cfg, .db = &backend_postgresql, .target = target,
				 .trust_scenario = inv->settings.trust_scenario };
	char err[1024];

	for (size_t i = 0; i < cfg->n_strategies; i++) {
		bool defined = false;

		for (size_t d = 0; d < inv->strategies.n; d++)
			defined |= inv->strategies.ops[d] == cfg->strategies[i].ops;
		if (!defined)
			continue;
		switch (run_check_statements(&plan, &cfg->strategies[i], err, sizeof(err))) {
		case 0:
			break;
		case 1:
			fprintf(stderr, "claimbench explore: %s\n", err);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "claimbench explore: %s\n", err);
			return EXIT_ENVIRONMENT;
		}
	}
	return EXIT_DONE;
}

/* Explores every strategy of cfg, printing each result; the exit status. */
static int explore_all(const struct run_config *cfg, const struct explore_settings *es, const char *target)
{
	int status = EXIT_DONE;
	bool json = cfg->format == FORMAT_JSON;

	if (json)
		explore_print_json_begin(stdout);
	for (size_t i = 0; i < cfg->n_strategies; i++) {
		struct explore_plan plan = {
			.cfg = cfg, .db = &backend_postgresql, .target = target, .choice = cfg->strategies[i],
			.workers = cfg->workers[0], .claims = (int)es->claims,
			.max_steps = (int)(es->max_steps ? es->max_steps : 6 * es->claims + 6),
			.max_schedules = es->max_schedules, .sample = es->sample, .seed = cfg->seed,
			.crashes = es->crashes, .schedule = es->schedule, .show = es->show,
		};
		struct explore_result r;
		char err[1024];
		int rc = explore_one(&plan, &r, err, sizeof(err));

		if (rc != 0) {
			fprintf(stderr, "claimbench explore: %s %s: %s%s\n", plan.choice.ops->name,
				claim_mode_name(plan.choice.mode), rc == 1 && es->schedule ? "--schedule: " : "", err);
			explore_result_free(&r);
			status = rc == 1 ? EXIT_USAGE : EXIT_ENVIRONMENT;
			break;
		}
		if (json)
			explore_print_json(stdout, &r, i == 0);
		else
			explore_print_table(stdout, &r);
		if (es->n_expects && !r.complete && !r.sampled && !es->schedule)
			fprintf(stderr, "claimbench explore: %s %s: --max-schedules stopped the search after %ld schedules: "
				"the expectations are checked over those, not over every schedule\n", plan.choice.ops->name,
				claim_mode_name(plan.choice.mode), r.explored);
		for (int e = 0; e < es->n_expects; e++)
			if (!explore_expect_holds(&es->expects[e], &r, stderr) && status == EXIT_DONE)
				status = EXIT_EXPECTATION;
		explore_result_free(&r);
		if (signals_interrupted()) {
			status = EXIT_INCOMPLETE;
			break;
		}
	}
	if (json)
		explore_print_json_end(stdout);
	return status;
}

int cmd_explore(int argc, char **argv)
{
	static struct run_invocation inv;
	static struct server server;
	struct explore_settings es = { .claims = EXPLORE_DEFAULT_CLAIMS, .max_schedules = EXPLORE_DEFAULT_MAX_SCHEDULES,
				       .show = -1 };
	struct run_config *cfg;
	char err[1024];
	int status = EXIT_ENVIRONMENT;

	for (int i = 1; i < argc; i++) {
		static struct option_set set;

		if (strcmp(argv[i], "--help") != 0 && strcmp(argv[i], "-h") != 0)
			continue;
		if (option_set_build(&set, command_options, COMMAND_RUN, err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench explore: %s\n", err);
			return EXIT_ENVIRONMENT;
		}
		command_print_usage(command_find("explore"), &set, stdout);
		return EXIT_DONE;
	}
	if (take_own_options(&argc, argv, &es, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench explore: %s\n(see claimbench explore --help)\n", err);
		return EXIT_USAGE;
	}
	switch (invocation_parse(command_options, argc, argv, &inv, err, sizeof(err))) {
	case INVOCATION_HELP:
		invocation_free(&inv);
		return EXIT_DONE;
	case INVOCATION_ERROR:
		fprintf(stderr, "claimbench explore: %s\n(see claimbench explore --help)\n", err);
		invocation_free(&inv);
		return EXIT_USAGE;
	case INVOCATION_RUN:
		break;
	}
	cfg = &inv.groups[0];
	if (inv.n_expects)
		fprintf(stderr, "claimbench explore: the scenario's [expect] section is run's, left unchecked: explore "
			"checks --expect\n");
	if (!es.workers_given) {
		cfg->workers[0] = EXPLORE_DEFAULT_WORKERS;
		cfg->n_worker_points = 1;
	}
	if (!es.jobs_given)
		cfg->jobs = EXPLORE_DEFAULT_JOBS;
	cfg->work_ms = 0;
	if (inv.n_groups != 1 || check_config(cfg, &es, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench explore: %s\n",
			inv.n_groups != 1 ? "explore takes one run group: no sweep, one scenario section" : err);
		invocation_free(&inv);
		return EXIT_USAGE;
	}
	server.target = cfg->target;
	if (!cfg->target) {
		if (throwaway_prepare(&server.t, err, sizeof(err)) < 0 ||
		    (server.ready = true, throwaway_open(&server.t, &backend_postgresql, &server.target, err,
							 sizeof(err)) < 0)) {
			fprintf(stderr, "claimbench explore: cannot start a throwaway PostgreSQL: %s\n", err);
			goto out;
		}
	}
	if (signals_install(err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench explore: %s\n", err);
		goto out;
	}
	status = check_defined(&inv, cfg, server.target);
	if (status == EXIT_DONE)
		status = explore_all(cfg, &es, server.target);
out:
	if (server.ready)
		throwaway_close(&server.t);
	invocation_free(&inv);
	return status;
}
