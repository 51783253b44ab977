/*
 * `claimbench explore`: every interleaving of K workers' statements, or a seeded sample,
 * per strategy and mode (harness/explore/). Its command line is read by invocation_parse
 * with explore's rows of the option table: its own (--claims, --sample, --schedule, --crash,
 * --max-steps, --max-schedules, --expect, --show, into command_settings.explore) and run's
 * (--strategy, --claim-mode, --workers, --jobs, --db, --seed, --format, the recovery options
 * and the strategies' own). All of explore but this entry is harness/explore/ (the search,
 * its options' checks, the expectations, the printing, the store's rows); this file reads the
 * invocation, refuses an engine explore cannot drive, starts the server, runs each strategy
 * and mode, and stores each result, keeping those the store refuses (run/run_loop.h).
 */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "base/exit_status.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/scenario.h"
#include "cli/invocation.h"
#include "db/throwaway.h"
#include "queue/run.h"
#include "run/run_loop.h"
#include "engine/signals.h"
#include "explore/explore.h"
#include "explore/explore_options.h"
#include "explore/explore_store.h"
#include "generated/version.h"

/*
 * Where explore starts run's rows from, below the scenario file and the command line: K
 * workers on J jobs, small enough that every schedule can be run.
 */
static const struct invocation_default explore_defaults[] = {
	{ .name = "workers", .value = "2" },
	{ .name = "jobs", .value = "2" },
	{ .name = NULL },
};

/* The backend cfg explores on: --db's, else the one whose throwaway a run prefers. */
static const struct backend_ops *explored_backend(const struct run_config *cfg)
{
	return cfg->backend ? cfg->backend : backend_preferred();
}

/*
 * Refuses a target of an engine explore cannot drive (backend_ops.no_explore says why),
 * before anything connects to it (its target never reaches another engine's client
 * library). 0, or -1 with err.
 */
static int check_engine(const struct run_config *cfg, char *err, size_t errlen)
{
	const struct backend_ops *db = explored_backend(cfg);

	if (!db) {
		snprintf(err, errlen, "no backend makes a throwaway server to explore on: give --db");
		return -1;
	}
	if (!db->no_explore)
		return 0;
	snprintf(err, errlen, "%s cannot be explored: %s", db->title, db->no_explore);
	return -1;
}

/*
 * Refuses what explore cannot do with cfg and es: an engine but PostgreSQL, then what
 * explore_check_options refuses. 0, or -1 with err.
 */
static int check_config(const struct run_config *cfg, const struct explore_options *es, char *err, size_t errlen)
{
	return check_engine(cfg, err, errlen) < 0 ? -1 : explore_check_options(cfg, es, err, errlen);
}

/* The throwaway server, when no --db was given; and its target. */
struct server {
	struct throwaway t;	/* the throwaway PostgreSQL */
	bool ready;		/* t's watchdog started: throwaway_close is due */
	const char *target;	/* where to connect */
};

/*
 * Checks the statements of every strategy the scenario defines in SQL that cfg explores, as
 * run does (run/run_loop.h, check_defined_statements): one the server cannot prepare, or that
 * does more than its table allows without --trust-scenario, is the scenario's error.
 * EXIT_DONE, or EXIT_USAGE, EXIT_UNCONFINED or EXIT_ENVIRONMENT said on stderr.
 */
static int check_defined(const struct run_invocation *inv, const struct run_config *cfg, const char *target)
{
	struct run_plan plan = { .cfg = cfg, .db = explored_backend(cfg), .target = target,
				 .trust_scenario = inv->settings.trust_scenario };
	char err[1024];
	int status = check_defined_statements(cfg, 1, &plan, err, sizeof(err));

	if (status != EXIT_DONE)
		fprintf(stderr, "claimbench explore: %s\n", err);
	return status;
}

/* Where explore's results go besides stdout: the result store, and what it refused. */
struct explore_store {
	struct store *store;			/* the result store */
	const char *path;			/* its path (--results) */
	struct store_session session;		/* the invocation's row */
	struct store_context ctx;		/* host, version, revision, scenario text, "explore" */
	struct invocation_result header;	/* the invocation's header: server, settings, start, seed */
	size_t stored, unstored;		/* explores the store took, and refused */
	char error[1024];			/* why it refused the first */
	FILE *kept;				/* the file the refused ones are kept in (run/run_loop.h), or NULL */
	char kept_path[PATH_MAX];		/* its path */
};

/* Stores r with its verdicts; one the store refuses is kept in st->kept as JSON. */
static void store_one(struct explore_store *st, const struct explore_result *r)
{
	char err[1024];

	if (explore_store_append(st->store, &st->session, &st->ctx, &st->header, r, err, sizeof(err)) == 0) {
		st->stored++;
		return;
	}
	if (st->unstored++ == 0) {
		snprintf(st->error, sizeof(st->error), "%s", err);
		st->kept = unstored_open(st->kept_path, sizeof(st->kept_path));
		if (st->kept)
			explore_print_json_begin(st->kept);
	}
	if (st->kept)
		explore_print_json(st->kept, r, st->unstored == 1);
}

/*
 * Says on stderr where st's explores were stored, and which were refused and where they
 * are kept instead. EXIT_DONE, or EXIT_ENVIRONMENT when the store refused one.
 */
static int finish_store(struct explore_store *st)
{
	fflush(stdout);
	if (st->stored)
		fprintf(stderr, "claimbench: stored in %s as invocation %lld (claimbench show inv:%lld)\n", st->path,
			st->session.invocation_id, st->session.invocation_id);
	if (!st->unstored)
		return EXIT_DONE;
	fprintf(stderr, "claimbench: %zu of %zu explores could not be stored in %s: %s\n", st->unstored,
		st->stored + st->unstored, st->path, st->error);
	if (st->kept) {
		explore_print_json_end(st->kept);
		if (unstored_close(st->kept, st->kept_path))
			fprintf(stderr, "claimbench: their results are in %s (as --format json prints them)\n",
				st->kept_path);
		st->kept = NULL;
	}
	return EXIT_ENVIRONMENT;
}

/*
 * Reads sc's [explore-expect] section (none: no expectations) into out, each line's
 * strategy and mode among cfg's (explore_scenario_add; replay: one schedule replayed). 0,
 * or -1 with "file:line: ..." in err.
 */
static int load_scenario_expects(const struct scenario *sc, const struct run_config *cfg, bool replay,
				 struct explore_scenario_expects *out, char *err, size_t errlen)
{
	const struct scenario_section *sec = scenario_section(sc, EXPLORE_EXPECT_SECTION);

	out->n = 0;
	out->left_out = 0;
	for (size_t i = 0; sec && i < sec->n_entries; i++) {
		const struct scenario_entry *e = &sec->entries[i];

		if (explore_scenario_add(out, sc->path, e->line, e->key, e->value, cfg, replay, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/*
 * Explores every strategy of cfg, printing each result (the table, then its expectations'
 * verdicts; the JSON with them), checking es's expectations and the scenario's (in_file)
 * and storing it with their verdicts in st; the exit status.
 */
static int explore_all(const struct run_config *cfg, const struct explore_options *es,
		       const struct explore_scenario_expects *in_file, const char *target, struct explore_store *st)
{
	int status = EXIT_DONE;
	bool json = cfg->format == FORMAT_JSON;

	if (json)
		explore_print_json_begin(stdout);
	for (size_t i = 0; i < cfg->n_strategies; i++) {
		struct explore_plan plan = {
			.cfg = cfg, .db = explored_backend(cfg), .target = target, .choice = cfg->strategies[i],
			.workers = cfg->workers[0], .claims = (int)es->claims,
			.max_steps = (int)explore_max_steps(es),
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
		if (!json) {
			explore_print_table(stdout, &r);
			fflush(stdout);
		}
		if (es->n_expects && !r.complete && !r.sampled && !es->schedule)
			fprintf(stderr, "claimbench explore: %s %s: --max-schedules stopped the search after %ld schedules: "
				"the expectations are checked over those, not over every schedule\n", plan.choice.ops->name,
				claim_mode_name(plan.choice.mode), r.explored);
		if (!explore_check(&r, es, in_file, stderr, json ? NULL : stdout) && status == EXIT_DONE)
			status = EXIT_EXPECTATION;
		if (json) {
			explore_print_json(stdout, &r, i == 0);
			fflush(stdout);
		}
		store_one(st, &r);
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
	static struct explore_scenario_expects in_file;
	static struct explore_store st;
	const struct explore_options *es = &inv.settings.explore;
	struct run_config *cfg;
	char host[INVOCATION_HOST_MAX];
	char err[1024];
	int status = EXIT_ENVIRONMENT;

	switch (invocation_parse(command_options, COMMAND_EXPLORE, explore_defaults, argc, argv, &inv, err,
				 sizeof(err))) {
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
			"checks --expect and [" EXPLORE_EXPECT_SECTION "]\n");
	cfg->work_ms = 0;
	if (inv.n_groups != 1 || check_config(cfg, es, err, sizeof(err)) < 0 ||
	    load_scenario_expects(&inv.scenario, cfg, es->schedule != NULL, &in_file, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench explore: %s\n",
			inv.n_groups != 1 ? "explore takes one run group: no sweep, one scenario section" : err);
		invocation_free(&inv);
		return EXIT_USAGE;
	}
	if (in_file.left_out)
		fprintf(stderr, "claimbench explore: --schedule replays %s: %d line%s of [" EXPLORE_EXPECT_SECTION "] about "
			"strategies not replayed left out\n", cfg->n_strategies == 1 ? cfg->strategies[0].ops->name :
			"the strategies given", in_file.left_out, in_file.left_out == 1 ? "" : "s");
	st.path = inv.settings.results;
	if (store_open(st.path, &st.store, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench explore: cannot open the result store: %s\n(choose another with --results)\n",
			err);
		invocation_free(&inv);
		return EXIT_ENVIRONMENT;
	}
	st.ctx = invocation_store_context(&inv, "explore", host);
	st.header = (struct invocation_result){ .version = CLAIMBENCH_VERSION, .scenario = cfg->scenario,
						.backend = explored_backend(cfg)->name, .seed = cfg->seed };
	server.target = cfg->target;
	if (!cfg->target) {
		if (throwaway_prepare(&server.t, err, sizeof(err)) < 0 ||
		    (server.ready = true, throwaway_open(&server.t, explored_backend(cfg), 0, &server.target, err,
							 sizeof(err)) < 0)) {
			fprintf(stderr, "claimbench explore: %s: %s\n", explored_backend(cfg)->throwaway->start_failed, err);
			goto out;
		}
	}
	if (signals_install(err, sizeof(err)) < 0 ||
	    describe_server(&st.header, explored_backend(cfg), server.target, &cfg->db_opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench explore: %s\n", err);
		goto out;
	}
	status = check_defined(&inv, cfg, server.target);
	if (status == EXIT_DONE)
		status = explore_all(cfg, es, &in_file, server.target, &st);
	if (finish_store(&st) != EXIT_DONE && status != EXIT_INCOMPLETE)
		status = EXIT_ENVIRONMENT;
out:
	if (server.ready)
		throwaway_close(&server.t);
	store_close(st.store);
	invocation_free(&inv);
	return status;
}
