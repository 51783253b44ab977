/* `claimbench run`: every strategy x worker count x repetition, then the report. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/exit_status.h"
#include "cli/invocation.h"
#include "cli/commands.h"
#include "output/report.h"
#include "engine/run.h"
#include "engine/signals.h"
#include "store/store.h"
#include "engine/strategy.h"
#include "analysis/summary.h"
#include "db/tmp_postgres.h"
#include "engine/workload.h"

/* Writes into buf why strategy st cannot run on db. */
static void refusal_reason(const struct strategy_ops *st, const struct backend_ops *db, char *buf, size_t len)
{
	unsigned missing = st->needs_caps[db->kind] & ~db->caps;

	if (!missing) {
		snprintf(buf, len, "it has no SQL for %s", db->name);
		return;
	}
	snprintf(buf, len, "it needs %s, and %s", missing & CAP_SKIP_LOCKED ? "FOR UPDATE SKIP LOCKED" :
		 missing & CAP_NOWAIT ? "FOR UPDATE NOWAIT" : missing & CAP_ROW_LOCKS ? "row locks" :
		 "advisory locks", db->locking);
}

/*
 * Refuses, before anything runs, a strategy that was asked for by name and cannot run
 * on db, saying why. With --strategy all the ones db cannot run are left out instead,
 * with a note on stderr; never is another strategy run in their place. 0, or -1 with err.
 */
static int check_backend(struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	size_t kept = 0;
	char why[256];

	for (size_t i = 0; i < cfg->n_strategies; i++) {
		const struct strategy_ops *st = cfg->strategies[i].ops;

		if (strategy_runs_on(st, db)) {
			cfg->strategies[kept++] = cfg->strategies[i];
			continue;
		}
		refusal_reason(st, db, why, sizeof(why));
		if (!cfg->all_strategies) {
			snprintf(err, errlen, "strategy %s cannot run on %s: %s", st->name, db->name, why);
			return -1;
		}
		fprintf(stderr, "claimbench: leaving out %s, which cannot run on %s: %s\n", st->name, db->name, why);
	}
	cfg->n_strategies = kept;
	return 0;
}

/*
 * Creates an empty temporary SQLite file under $TMPDIR (or /tmp) and writes its path
 * into path (PATH_MAX bytes). 0, or -1 with err.
 */
static int temp_sqlite_create(char *path, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if (snprintf(path, PATH_MAX, "%s/claimbench-XXXXXX.db", dir) >= PATH_MAX) {
		snprintf(err, errlen, "TMPDIR is too long");
		return -1;
	}
	fd = mkstemps(path, 3);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a temporary SQLite file in %s: %s", dir, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* Removes the temporary SQLite file at path and the journal files SQLite may have left beside it. */
static void temp_sqlite_remove(const char *path)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	char name[PATH_MAX + 16];

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", path, suffixes[i]);
		unlink(name);
	}
}

/*
 * Fills the report's header: server version, settings, start time. 0, or -1 with err
 * when the server is unreachable.
 */
static int describe_server(struct report *r, const struct backend_ops *db, const char *target,
			   const struct db_options *opts, char *err, size_t errlen)
{
	struct db_conn *conn;
	time_t now = time(NULL);
	char why[512];
	int n;

	if (db->connect(target, opts, &conn, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot connect to the database: %s", why);
		return -1;
	}
	if (db->server_version(conn, r->server_version, sizeof(r->server_version)) < 0)
		snprintf(r->server_version, sizeof(r->server_version), "unknown");
	n = db->settings(conn, r->settings, DB_MAX_SETTINGS);
	if (n < 0)
		fprintf(stderr, "claimbench: cannot read the server's settings: %s\n", db->error_message(conn));
	r->n_settings = n < 0 ? 0 : (size_t)n;
	db->disconnect(conn);
	strftime(r->started_at, sizeof(r->started_at), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	return 0;
}

/* What the runs of one invocation share besides the report. */
struct run_session {
	struct report *report;		/* where results accumulate */
	struct store *store;		/* the result store */
	struct store_session stored;	/* the invocation's row in the store */
	struct store_context ctx;	/* host, version, revision, scenario text */
};

/* Runs one group's matrix into the report, storing each run. EXIT_DONE, EXIT_INCOMPLETE or EXIT_ENVIRONMENT. */
static int run_matrix(const struct run_config *cfg, const struct run_plan *plan, struct run_session *rs)
{
	struct report *r = rs->report;
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
				res->group = cfg->group;
				res->sweep = cfg->sweep;
				r->n_results++;
				incomplete |= !res->complete;
				if (store_append(rs->store, &rs->stored, &rs->ctx, r, res, NULL, err, sizeof(err)) < 0)
					fprintf(stderr, "claimbench: the run was not stored: %s\n", err);
			}
		}
	}
	return incomplete ? EXIT_INCOMPLETE : EXIT_DONE;
}

/* Runs every group of inv on one database. EXIT_DONE, EXIT_INCOMPLETE or EXIT_ENVIRONMENT. */
static int run_groups(const struct run_invocation *inv, struct run_plan *plan, struct run_session *rs)
{
	int status = EXIT_DONE;

	for (size_t g = 0; g < inv->n_groups && status != EXIT_ENVIRONMENT; g++) {
		const struct run_config *cfg = &inv->groups[g];
		int64_t *work_ns = workload_make(cfg->jobs + run_config_arrivals(cfg), cfg->work_ms, cfg->work_dist,
						 cfg->seed);
		int group_status;

		if (!work_ns) {
			fprintf(stderr, "claimbench run: out of memory\n");
			return EXIT_ENVIRONMENT;
		}
		plan->cfg = cfg;
		plan->work_ns = work_ns;
		group_status = run_matrix(cfg, plan, rs);
		free(work_ns);
		if (group_status != EXIT_DONE)
			status = group_status;
		if (signals_interrupted())
			break;
	}
	return status;
}

/* Prints r in the asked format on stdout, with the repeat summaries and the expectations' verdicts. */
static bool print_report(const struct run_invocation *inv, const struct report *r)
{
	const struct run_config *cfg = &inv->groups[0];
	FILE *verdicts = cfg->format == FORMAT_TABLE ? stdout : stderr;
	bool all_pass;

	if (cfg->format == FORMAT_JSON)
		report_print_json(stdout, r);
	else if (cfg->format == FORMAT_CSV)
		report_print_csv(stdout, r);
	else
		report_print_table(stdout, r);
	if (cfg->format == FORMAT_TABLE)
		summary_print_table(stdout, r);
	all_pass = verdicts_print(verdicts, inv->expects, inv->n_expects, r);
	fflush(stdout);
	return all_pass;
}

/* The number of runs inv asks for. */
static size_t count_runs(const struct run_invocation *inv)
{
	size_t n = 0;

	for (size_t g = 0; g < inv->n_groups; g++)
		n += inv->groups[g].n_strategies * inv->groups[g].n_worker_points * (size_t)inv->groups[g].repeat;
	return n;
}

/* Applies check_backend to every group. 0, or -1 with err. */
static int check_groups(struct run_invocation *inv, const struct backend_ops *db, char *err, size_t errlen)
{
	for (size_t g = 0; g < inv->n_groups; g++) {
		const struct run_config *cfg = &inv->groups[g];
		int most = 0;

		if (check_backend(&inv->groups[g], db, err, errlen) < 0)
			return -1;
		if (cfg->n_strategies == 0) {
			snprintf(err, errlen, "no strategy asked for can run on %s", db->name);
			return -1;
		}
		for (size_t p = 0; p < cfg->n_worker_points; p++)
			most = cfg->workers[p] > most ? cfg->workers[p] : most;
		if (!cfg->target && db->kind == BACKEND_POSTGRESQL &&
		    most + (run_config_arrivals(cfg) ? cfg->producers : 0) + 2 > TMP_POSTGRES_MAX_CONNECTIONS) {
			snprintf(err, errlen, "%d workers%s need more connections than the throwaway server's %d; "
				 "give --db a server of your own", most, run_config_arrivals(cfg) ? " and producers" : "",
				 TMP_POSTGRES_MAX_CONNECTIONS);
			return -1;
		}
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static struct run_invocation inv;
	struct tmp_postgres pg;
	struct report r = { .version = CLAIMBENCH_VERSION };
	const struct backend_ops *db;
	struct run_plan plan = { .cfg = NULL };
	struct run_session rs = { .report = &r };
	bool own_server = false, own_file = false;
	char temp_db[PATH_MAX], host[256] = "unknown";
	const struct run_config *cfg;
	char err[1024];
	int status = EXIT_ENVIRONMENT;

	memset(&pg, 0, sizeof(pg));
	switch (cli_parse_run(argc, argv, &inv, err, sizeof(err))) {
	case CLI_HELP:
		cli_invocation_free(&inv);
		return EXIT_DONE;
	case CLI_ERROR:
		fprintf(stderr, "claimbench run: %s\n(see claimbench run --help)\n", err);
		cli_invocation_free(&inv);
		return EXIT_USAGE;
	case CLI_RUN:
		break;
	}
	cfg = &inv.groups[0];
	db = cfg->backend ? cfg->backend : tmp_postgres_available() ? &backend_postgresql : &backend_sqlite;
	for (size_t g = 0; g < inv.n_groups; g++)
		inv.groups[g].backend = db;
	plan.db = db;
	if (check_groups(&inv, db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		status = EXIT_USAGE;
		goto out_free;
	}
	if (store_open(inv.results_path, &rs.store, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: cannot open the result store: %s\n(choose another with --results)\n",
			err);
		goto out_free;
	}
	gethostname(host, sizeof(host) - 1);
	rs.ctx = (struct store_context){
		.host = host,
		.version = CLAIMBENCH_VERSION,
		.git_revision = CLAIMBENCH_GIT_REVISION,
		.scenario_text = inv.has_scenario ? inv.scenario.text : inv.command_line,
	};
	signals_install();
	r.scenario = cfg->scenario;
	r.backend = db->name;
	r.seed = cfg->seed;
	r.results = calloc(count_runs(&inv), sizeof(*r.results));
	if (!r.results) {
		fprintf(stderr, "claimbench run: out of memory\n");
		goto out_close;
	}
	plan.target = cfg->target;
	if (!cfg->target && db->kind == BACKEND_SQLITE) {
		if (temp_sqlite_create(temp_db, err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench run: %s\n", err);
			goto out_stop;
		}
		own_file = true;
		plan.target = temp_db;
		fprintf(stderr, "claimbench: no PostgreSQL server programs found; using a temporary SQLite "
				"database %s (removed at exit; give --db to choose)\n", temp_db);
	} else if (!cfg->target) {
		if (tmp_postgres_start(&pg, err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench run: cannot start a throwaway PostgreSQL: %s\n"
					"(install the server with: apt-get install postgresql, or give --db)\n", err);
			goto out_stop;
		}
		own_server = true;
		plan.target = pg.conninfo;
		fprintf(stderr, "claimbench: throwaway PostgreSQL in %s\n", pg.dir);
	}
	if (describe_server(&r, db, plan.target, &cfg->db_opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_stop;
	}
	status = run_groups(&inv, &plan, &rs);
	if (r.n_results && !print_report(&inv, &r) && status == EXIT_DONE)
		status = EXIT_EXPECTATION;
	if (status == EXIT_INCOMPLETE)
		fprintf(stderr, "claimbench: results incomplete%s\n",
			signals_interrupted() ? " (interrupted)" : " (a worker aborted)");
out_stop:
	if (own_server)
		tmp_postgres_stop(&pg);
	if (own_file)
		temp_sqlite_remove(temp_db);
	for (size_t i = 0; i < r.n_results; i++)
		run_result_free(&r.results[i]);
	free(r.results);
out_close:
	store_close(rs.store);
out_free:
	cli_invocation_free(&inv);
	return status;
}
