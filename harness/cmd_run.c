/* `claimbench run`: every strategy x worker count x repetition, then the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "report.h"
#include "run.h"
#include "signals.h"
#include "strategy.h"
#include "tmp_postgres.h"
#include "workload.h"

/* Refuses strategies the backend cannot run. 0, or -1 with err. */
static int check_backend(const struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	for (size_t i = 0; i < cfg->n_strategies; i++) {
		const struct strategy_ops *st = cfg->strategies[i].ops;

		if (!(st->backends & BACKEND_BIT(db->kind)) || (st->needs_caps & ~db->caps)) {
			snprintf(err, errlen, "strategy %s cannot run on %s: it needs %s", st->name, db->name,
				 st->needs_caps & CAP_SKIP_LOCKED ? "FOR UPDATE SKIP LOCKED" :
				 st->needs_caps & CAP_NOWAIT ? "FOR UPDATE NOWAIT" :
				 st->needs_caps & CAP_ROW_LOCKS ? "row locks" : "a form for this backend");
			return -1;
		}
	}
	return 0;
}

/* Fills the report's header: server version, start time. 0, or -1 with err when the server is unreachable. */
static int describe_server(struct report *r, const struct backend_ops *db, const char *target, char *err,
			   size_t errlen)
{
	struct db_conn *conn;
	time_t now = time(NULL);
	char why[512];

	if (db->connect(target, &conn, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot connect to the database: %s", why);
		return -1;
	}
	if (db->server_version(conn, r->server_version, sizeof(r->server_version)) < 0)
		snprintf(r->server_version, sizeof(r->server_version), "unknown");
	db->disconnect(conn);
	strftime(r->started_at, sizeof(r->started_at), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	return 0;
}

/* Runs the whole matrix into r (which has room for it). EXIT_DONE, EXIT_INCOMPLETE or EXIT_ENVIRONMENT. */
static int run_matrix(const struct run_config *cfg, const struct run_plan *plan, struct report *r)
{
	bool incomplete = false;
	char err[1024];

	for (size_t s = 0; s < cfg->n_strategies; s++) {
		for (size_t p = 0; p < cfg->n_worker_points; p++) {
			for (int rep = 1; rep <= cfg->repeat; rep++) {
				struct run_result *res = &r->results[r->n_results];

				if (signals_interrupted())
					return EXIT_INCOMPLETE;
				if (run_one(plan, &cfg->strategies[s], cfg->workers[p], rep, res, err, sizeof(err)) < 0) {
					fprintf(stderr, "claimbench: %s: %s\n", cfg->strategies[s].ops->name, err);
					return EXIT_ENVIRONMENT;
				}
				r->n_results++;
				incomplete |= !res->complete;
			}
		}
	}
	return incomplete ? EXIT_INCOMPLETE : EXIT_DONE;
}

/* Prints r in the asked format on stdout. */
static void print_report(const struct run_config *cfg, const struct report *r)
{
	if (cfg->format == FORMAT_JSON)
		report_print_json(stdout, r);
	else if (cfg->format == FORMAT_CSV)
		report_print_csv(stdout, r);
	else
		report_print_table(stdout, r);
	fflush(stdout);
}

int cmd_run(int argc, char **argv)
{
	struct run_config cfg;
	struct tmp_postgres pg;
	struct report r = { .version = CLAIMBENCH_VERSION };
	const struct backend_ops *db = &backend_postgresql;
	struct run_plan plan = { .cfg = &cfg, .db = db };
	int64_t *work_ns = NULL;
	bool own_server = false;
	char err[1024];
	int status = EXIT_ENVIRONMENT;

	memset(&pg, 0, sizeof(pg));
	switch (cli_parse_run(argc, argv, &cfg, err, sizeof(err))) {
	case CLI_HELP:
		return EXIT_DONE;
	case CLI_ERROR:
		fprintf(stderr, "claimbench run: %s\n(see claimbench run --help)\n", err);
		return EXIT_USAGE;
	case CLI_RUN:
		break;
	}
	if (check_backend(&cfg, db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		return EXIT_USAGE;
	}
	signals_install();
	r.scenario = cfg.scenario;
	r.backend = db->name;
	r.seed = cfg.seed;
	r.results = calloc(cfg.n_strategies * cfg.n_worker_points * (size_t)cfg.repeat, sizeof(*r.results));
	work_ns = workload_make(cfg.jobs, cfg.work_ms, cfg.work_dist, cfg.seed);
	if (!r.results || !work_ns) {
		fprintf(stderr, "claimbench run: out of memory\n");
		goto out_free;
	}
	plan.work_ns = work_ns;
	plan.target = cfg.db;
	if (!cfg.db) {
		if (tmp_postgres_start(&pg, err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench run: cannot start a throwaway PostgreSQL: %s\n"
					"(install the server with: apt-get install postgresql, or give --db)\n", err);
			goto out_stop;
		}
		own_server = true;
		plan.target = pg.conninfo;
		fprintf(stderr, "claimbench: throwaway PostgreSQL in %s\n", pg.dir);
	}
	if (describe_server(&r, db, plan.target, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_stop;
	}
	status = run_matrix(&cfg, &plan, &r);
	if (r.n_results)
		print_report(&cfg, &r);
	if (status == EXIT_INCOMPLETE)
		fprintf(stderr, "claimbench: results incomplete%s\n",
			signals_interrupted() ? " (interrupted)" : " (a worker aborted)");
out_stop:
	if (own_server)
		tmp_postgres_stop(&pg);
out_free:
	for (size_t i = 0; i < r.n_results; i++)
		run_result_free(&r.results[i]);
	free(r.results);
	free(work_ns);
	return status;
}
