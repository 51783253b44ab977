/*
 * `claimbench run`: runs an invocation that invocation.c read and checked: every strategy
 * x worker count x repetition on the chosen database, then the report.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adapter/adapter_run.h"
#include "adapter/manifest.h"
#include "base/exit_status.h"
#include "base/stats.h"
#include "model/engine_name.h"
#include "cli/invocation.h"
#include "cli/options.h"
#include "cli/commands.h"
#include "cli/group_pooler.h"
#include "cli/run_steps.h"
#include "cli/section_select.h"
#include "cli/unstored.h"
#include "output/results_print.h"
#include "plugin/guard.h"
#include "guarded/guarded_run.h"
#include "queue/run.h"
#include "engine/signals.h"
#include "store/store.h"
#include "plugin/strategy.h"
#include "analysis/summary.h"
#include "db/restart_command.h"
#include "db/throwaway.h"
#include "engine/workload.h"
#include "measure/machine_load.h"
#include "generated/version.h"

/* Whether --verify, or the ledger-versus-table check, found a difference in a run of r. */
static bool verify_failed(const struct invocation_result *r)
{
	for (size_t i = 0; i < r->n_results; i++)
		if (r->results[i].verify.n_diffs)
			return true;
	return false;
}

/*
 * Fills the report's header: server version, settings, start time. 0, or -1 with err
 * when the server is unreachable.
 */
int describe_server(struct invocation_result *r, const struct backend_ops *db, const char *target,
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

/*
 * Runs the s-th strategy of cfg, or its s-th guard in a guarded workload, at workers into
 * res. 0, or -1 with err.
 */
static int run_point(const struct run_config *cfg, const struct run_plan *plan, size_t s, int workers, int rep,
		     struct run_result *res, char *err, size_t errlen)
{
	if (cfg->guarded.workload != WORKLOAD_QUEUE)
		return guarded_run_one(plan, cfg->guarded.guards[s], workers, rep, res, err, errlen);
	if (adapter_of_strategy(cfg->strategies[s].ops))
		return adapter_run_one(plan, &cfg->strategies[s], workers, rep, res, err, errlen);
	return run_one(plan, &cfg->strategies[s], workers, rep, res, err, errlen);
}

/* The most runs --repeat auto makes of a case (--repeat-max's bound). */
#define REPEAT_AUTO_CAP 1000

/*
 * The 95 % interval's half-width of the throughput of the n runs, in % of its mean
 * (Student's t, as stats_summarize has it); INFINITY when the mean is not above 0.
 */
static double interval_pct(const struct run_result *runs, size_t n)
{
	double values[REPEAT_AUTO_CAP];
	struct stats_summary s;
	size_t used = 0;

	for (size_t i = 0; i < n && used < REPEAT_AUTO_CAP; i++)
		if (isfinite(runs[i].metrics.throughput_jps))
			values[used++] = runs[i].metrics.throughput_jps;
	if (used < n)
		return INFINITY;
	s = stats_summarize(values, used);
	return s.mean > 0 ? 100.0 * s.ci95 / s.mean : INFINITY;
}

/* Says on stderr how many runs --repeat auto made of the case of runs (n of them) and whether their interval met --repeat-ci. */
static void say_repeats(const struct run_config *cfg, const struct run_result *runs, size_t n)
{
	char width[32], verdict[96];
	double pct;

	if (!n)
		return;
	pct = interval_pct(runs, n);
	if (isfinite(pct))
		snprintf(width, sizeof(width), "+-%.1f %%", pct);
	else
		snprintf(width, sizeof(width), "unknown");
	if (pct <= cfg->repeat_ci_pct && n >= REPEAT_AUTO_MIN)
		snprintf(verdict, sizeof(verdict), "within --repeat-ci %g %%", cfg->repeat_ci_pct);
	else
		snprintf(verdict, sizeof(verdict), "wider than --repeat-ci %g %% at --repeat-max %d", cfg->repeat_ci_pct,
			 cfg->repeat_max);
	fprintf(stderr, "claimbench: --repeat auto: %s %s x%d: %zu runs, the throughput's 95 %% interval %s of its "
			"mean, %s\n", runs[0].strategy, runs[0].claim_mode, runs[0].workers, n, width, verdict);
}

/* Says on stderr that run res ran on a machine busier than its cores, when it did. */
static void warn_overloaded(const struct run_result *res)
{
	const struct machine_figures *m = &res->metrics.machine;

	if (m->overloaded != 1)
		return;
	fprintf(stderr, "claimbench: %s %s x%d #%d started on a machine busier than its %llu cores (load average %.2f, "
			"in which the invocation's own run before counts for about a minute): its timings may carry other "
			"work's noise\n",
		res->strategy, res->claim_mode, res->workers, res->repeat, (unsigned long long)m->cores, m->load_start);
}

/*
 * Runs one group's matrix into the report, storing each run. EXIT_DONE, EXIT_CONTRACT (an adapter broke
 * its contract), EXIT_INCOMPLETE (also when a
 * signal stopped a run's setup) or EXIT_ENVIRONMENT.
 */
static int run_matrix(const struct run_config *cfg, const struct run_plan *plan, struct run_session *rs)
{
	struct invocation_result *r = rs->report;
	bool guarded = cfg->guarded.workload != WORKLOAD_QUEUE;
	size_t n = guarded ? cfg->guarded.n_guards : cfg->n_strategies;
	bool incomplete = false, broken = false;
	char err[1024];

	for (size_t s = 0; s < n; s++) {
		for (size_t p = 0; p < cfg->n_worker_points; p++) {
			size_t first = r->n_results;

			for (int rep = 1; rep <= run_config_repeat_cap(cfg); rep++) {
				struct run_result *res = &r->results[r->n_results];
				struct machine_sample before, after;

				if (signals_interrupted())
					return EXIT_INCOMPLETE;
				machine_sample_take(&before);
				if (run_point(cfg, plan, s, cfg->workers[p], rep, res, err, sizeof(err)) < 0) {
					fprintf(stderr, "claimbench: %s: %s%s\n", guarded ? cfg->guarded.guards[s]->name :
						cfg->strategies[s].ops->name,
						signals_interrupted() ? "interrupted while setting up the run: " : "", err);
					return signals_interrupted() ? EXIT_INCOMPLETE : EXIT_ENVIRONMENT;
				}
				res->group = cfg->group;
				res->sweep = cfg->sweep;
				engine_name(res->engine, sizeof(res->engine), r->backend, r->server_version);
				machine_sample_take(&after);
				res->metrics.machine = machine_figures_between(&before, &after);
				warn_overloaded(res);
				r->n_results++;
				if (run_params_fill(res, command_options, cfg, guarded ? NULL : cfg->strategies[s].ops) < 0) {
					fprintf(stderr, "claimbench run: out of memory\n");
					return EXIT_ENVIRONMENT;
				}
				incomplete |= !res->complete;
				broken |= res->contract_broken;
				if (store_append(rs->store, &rs->stored, &rs->ctx, r, res, &res->run_id, err, sizeof(err)) < 0 &&
				    rs->unstored++ == 0)
					snprintf(rs->store_error, sizeof(rs->store_error), "%s", err);
				if (!cfg->repeat && rep >= REPEAT_AUTO_MIN &&
				    interval_pct(&r->results[first], (size_t)rep) <= cfg->repeat_ci_pct)
					break;
			}
			if (!cfg->repeat)
				say_repeats(cfg, &r->results[first], r->n_results - first);
		}
	}
	return broken ? EXIT_CONTRACT : incomplete ? EXIT_INCOMPLETE : EXIT_DONE;
}

/*
 * Prepares the statements of every strategy a scenario defines in SQL that a group runs,
 * once each, before anything runs: a statement the server cannot prepare is the
 * scenario's error. EXIT_DONE, or EXIT_USAGE with err ("FILE:LINE: claim of strategy
 * NAME: ..."), EXIT_UNCONFINED with err (the server does not let the harness make the
 * account that confines it: queue/run_account.h) or EXIT_ENVIRONMENT with err.
 */
int check_defined_statements(const struct run_invocation *inv, struct run_plan *plan, char *err,
				    size_t errlen)
{
	for (size_t d = 0; d < inv->strategies.n; d++) {
		const struct strategy_ops *ops = inv->strategies.ops[d];

		for (size_t g = 0; g < inv->n_groups; g++) {
			const struct run_config *cfg = &inv->groups[g];
			size_t i = 0;

			while (i < cfg->n_strategies && cfg->strategies[i].ops != ops)
				i++;
			if (i == cfg->n_strategies)
				continue;
			plan->cfg = cfg;
			switch (run_check_statements(plan, &cfg->strategies[i], err, errlen)) {
			case 0:
				break;
			case 1:
				return EXIT_USAGE;
			case 2:
				return EXIT_UNCONFINED;
			default:
				return EXIT_ENVIRONMENT;
			}
			break;
		}
	}
	return EXIT_DONE;
}

/*
 * Runs every group of inv on one database, each through its pooler when it asks for one.
 * EXIT_DONE, EXIT_INCOMPLETE, EXIT_ENVIRONMENT, or EXIT_USAGE (--pooler where plan has no
 * pooler directory).
 */
int run_groups(const struct run_invocation *inv, struct run_plan *plan, struct run_session *rs)
{
	int status = EXIT_DONE;

	for (size_t g = 0; g < inv->n_groups && status != EXIT_ENVIRONMENT && status != EXIT_USAGE; g++) {
		const struct run_config *cfg = &inv->groups[g];
		const struct work_spec spec = workload_spec(cfg);
		int64_t *work_ns = workload_make(cfg->jobs + run_config_arrivals(cfg), &spec, cfg->seed);
		struct restart_command restart = {
			.command = cfg->faults.restart_command,
			.option = "--restart-command",
			.limit_s = cfg->faults.restart_limit_s,
		};
		struct restart_command failover = {
			.command = cfg->faults.failover_command,
			.option = "--failover-command",
			.limit_s = cfg->faults.restart_limit_s,
		};
		int group_status;

		if (!work_ns) {
			fprintf(stderr, "claimbench run: out of memory\n");
			return EXIT_ENVIRONMENT;
		}
		plan->cfg = cfg;
		plan->work_ns = work_ns;
		if (cfg->target) {
			plan->restart = (struct server_restart){ .fn = restart_command_run, .ctx = &restart };
			plan->failover = (struct server_restart){ .fn = restart_command_run, .ctx = &failover };
		}
		group_status = group_pooler_start(plan, cfg);
		if (group_status == EXIT_DONE)
			group_status = run_matrix(cfg, plan, rs);
		group_pooler_stop(plan);
		free(work_ns);
		if (group_status != EXIT_DONE)
			status = group_status;
		if (signals_interrupted())
			break;
	}
	return status;
}

/* Whether name is among the n names. */
static bool name_in(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/*
 * Prints r in the asked format on stdout, with the repeat summaries and the expectations'
 * verdicts (SKIP for those naming what the backend left out).
 */
static bool print_results(const struct run_invocation *inv, const struct invocation_result *r)
{
	const struct run_config *cfg = &inv->groups[0];
	const char *left_out[MAX_STRATEGIES];
	size_t n_left_out = 0;
	FILE *verdicts = cfg->format == FORMAT_TABLE ? stdout : stderr;
	bool all_pass;

	if (cfg->format == FORMAT_JSON)
		results_print_json(stdout, r);
	else if (cfg->format == FORMAT_CSV)
		results_print_csv(stdout, r);
	else
		results_print_table(stdout, r);
	if (cfg->format == FORMAT_TABLE)
		summary_print_table(stdout, r);
	for (size_t g = 0; g < inv->n_groups; g++)
		for (size_t i = 0; i < inv->groups[g].n_left_out && n_left_out < MAX_STRATEGIES; i++)
			if (!name_in(left_out, n_left_out, inv->groups[g].left_out[i]))
				left_out[n_left_out++] = inv->groups[g].left_out[i];
	all_pass = verdicts_print(verdicts, inv->expects, inv->n_expects, r, left_out, n_left_out);
	fflush(stdout);
	return all_pass;
}

/*
 * Says on stderr which invocation and runs of the store at path hold r, and how to name
 * them: nothing when none was stored.
 */
static void announce_stored(const struct invocation_result *r, const char *path)
{
	long long first = 0, last = 0, stored = 0;

	for (size_t i = 0; i < r->n_results; i++) {
		if (!r->results[i].run_id)
			continue;
		first = first ? first : r->results[i].run_id;
		last = r->results[i].run_id;
		stored++;
	}
	if (!r->invocation_id || !first)
		return;
	fprintf(stderr, "claimbench: stored in %s as invocation %lld, ", path, r->invocation_id);
	if (stored == 1)
		fprintf(stderr, "run %lld", first);
	else
		fprintf(stderr, "%s%lld runs from %lld to %lld", last - first + 1 == stored ? "" : "not consecutive: ",
			stored, first, last);
	fprintf(stderr, " (claimbench report inv:%lld; claimbench compare --last)\n", r->invocation_id);
}

/* The number of runs inv asks for. */
size_t count_runs(const struct run_invocation *inv)
{
	size_t n = 0;

	for (size_t g = 0; g < inv->n_groups; g++)
		n += (inv->groups[g].guarded.workload == WORKLOAD_QUEUE ? inv->groups[g].n_strategies :
		      inv->groups[g].guarded.n_guards) * inv->groups[g].n_worker_points *
		     (size_t)run_config_repeat_cap(&inv->groups[g]);
	return n;
}

/*
 * Writes the whole report as JSON into a new file under $TMPDIR (or /tmp) when runs could
 * not be stored, and says where, so that nothing measured is lost. EXIT_ENVIRONMENT.
 */
int keep_unstored(const struct run_session *rs, const char *store_path)
{
	char path[PATH_MAX];
	FILE *f;

	fprintf(stderr, "claimbench: %zu of %zu runs could not be stored in %s: %s\n", rs->unstored,
		rs->report->n_results, store_path, rs->store_error);
	f = unstored_open(path, sizeof(path));
	if (!f)
		return EXIT_ENVIRONMENT;
	results_print_json(f, rs->report);
	if (unstored_close(f, path))
		fprintf(stderr, "claimbench: every run's results are in %s (claimbench compare reads it)\n", path);
	return EXIT_ENVIRONMENT;
}

/* Reports why the throwaway database could not be made, in the driver's words, with its hint. */
static void report_throwaway_failure(const struct backend_ops *db, const char *err)
{
	const struct backend_throwaway *t = db->throwaway;

	fprintf(stderr, "claimbench run: %s: %s\n", t ? t->start_failed : "cannot make a throwaway database", err);
	if (t && t->start_hint)
		fprintf(stderr, "%s\n", t->start_hint);
}

/* Whether a group of inv asks for a standby of the throwaway server (--standby). */
static bool wants_standby(const struct run_invocation *inv)
{
	for (size_t g = 0; g < inv->n_groups; g++)
		if (inv->groups[g].faults.standby != STANDBY_NONE)
			return true;
	return false;
}

/* Whether a group of inv runs through a pooler. */
static bool uses_pooler(const struct run_invocation *inv)
{
	for (size_t g = 0; g < inv->n_groups; g++)
		if (inv->groups[g].pooler != POOLER_NONE)
			return true;
	return false;
}

int cmd_run(int argc, char **argv)
{
	static struct run_invocation inv;
	static struct throwaway throwaway;
	struct invocation_result r = { .version = CLAIMBENCH_VERSION };
	const struct backend_ops *db;
	struct run_plan plan = { .cfg = NULL };
	struct run_session rs = { .report = &r };
	char host[INVOCATION_HOST_MAX];
	const struct run_config *cfg;
	bool throwaway_ready = false;
	void *user_target_note = NULL;
	bool user_target_noted = false;
	size_t left_out = 0;
	char err[1024];
	int status = EXIT_ENVIRONMENT;

	switch (invocation_parse(command_options, COMMAND_RUN, NULL, argc, argv, &inv, err, sizeof(err))) {
	case INVOCATION_HELP:
		invocation_free(&inv);
		return EXIT_DONE;
	case INVOCATION_ERROR:
		fprintf(stderr, "claimbench run: %s\n(see claimbench run --help)\n", err);
		invocation_free(&inv);
		return EXIT_USAGE;
	case INVOCATION_RUN:
		break;
	}
	if (inv.settings.sections && section_select(&inv, inv.settings.sections, &left_out, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n(see claimbench run --help)\n", err);
		invocation_free(&inv);
		return EXIT_USAGE;
	}
	if (left_out)
		fprintf(stderr, "claimbench run: --section: %zu expectation%s of [expect] left out: %s runs of the "
			"sections left out\n", left_out, left_out == 1 ? "" : "s", left_out == 1 ? "it needs" : "they need");
	cfg = &inv.groups[0];
	db = invocation_backend(&inv, err, sizeof(err));
	if (!db) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_free;
	}
	plan.db = db;
	if (invocation_check_on(&inv, db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		status = EXIT_USAGE;
		goto out_free;
	}
	if (!cfg->target || uses_pooler(&inv)) {
		if (throwaway_prepare(&throwaway, err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench run: %s\n", err);
			goto out_free;
		}
		throwaway_ready = true;
	}
	if (uses_pooler(&inv)) {
		if (pooler_open(&throwaway.pooler, &throwaway.wd, err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench run: %s\n", err);
			goto out_release;
		}
		plan.pooler = &throwaway.pooler;
	}
	if (store_open(inv.settings.results, &rs.store, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: cannot open the result store: %s\n(choose another with --results)\n",
			err);
		goto out_release;
	}
	rs.ctx = invocation_store_context(&inv, "run", host);
	if (signals_install(err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_close;
	}
	r.scenario = cfg->scenario;
	r.backend = db->name;
	r.seed = cfg->seed;
	r.results = calloc(count_runs(&inv), sizeof(*r.results));
	if (!r.results) {
		fprintf(stderr, "claimbench run: out of memory\n");
		goto out_close;
	}
	plan.target = cfg->target;
	if (cfg->target && db->target_note) {
		if (db->target_note(cfg->target, &user_target_note, err, sizeof(err)) < 0) {
			free(user_target_note);
			fprintf(stderr, "claimbench run: %s\n", err);
			goto out_stop;
		}
		user_target_noted = true;
	}
	plan.trust_scenario = inv.settings.trust_scenario;
	if (!cfg->target) {
		if (throwaway_open(&throwaway, db, invocation_connections(&inv), &plan.target, err, sizeof(err)) < 0) {
			report_throwaway_failure(db, err);
			goto out_stop;
		}
		throwaway_announce(&throwaway, !cfg->backend);
		plan.restart = (struct server_restart){ .fn = throwaway_restart, .ctx = &throwaway };
		plan.server_gone = throwaway_server_gone;
		plan.server_ctx = &throwaway;
		if (wants_standby(&inv)) {
			if (throwaway_add_standby(&throwaway, &plan.target, err, sizeof(err)) < 0) {
				fprintf(stderr, "claimbench run: cannot start the throwaway server's standby: %s\n", err);
				goto out_stop;
			}
			plan.failover = (struct server_restart){ .fn = throwaway_failover, .ctx = &throwaway };
			plan.standby_ready = throwaway_standby_ready;
			plan.standby_cut = throwaway_standby_cut;
			plan.standby_ctx = &throwaway;
		}
	}
	if (describe_server(&r, db, plan.target, &cfg->db_opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_stop;
	}
	status = check_defined_statements(&inv, &plan, err, sizeof(err));
	if (status != EXIT_DONE) {
		fprintf(stderr, "claimbench run: %s%s\n", signals_interrupted() ? "interrupted: " : "", err);
		status = signals_interrupted() ? EXIT_INCOMPLETE : status;
		goto out_stop;
	}
	status = run_groups(&inv, &plan, &rs);
	r.invocation_id = rs.stored.invocation_id;
	if (r.n_results && !print_results(&inv, &r) && status == EXIT_DONE)
		status = EXIT_EXPECTATION;
	if (verify_failed(&r) && (status == EXIT_DONE || status == EXIT_EXPECTATION)) {
		fprintf(stderr, "claimbench: the ledger and the server's record disagree (--verify), or the ledger and the "
			"table's final state with nothing to explain it (see above)\n");
		status = EXIT_VERIFY;
	}
	announce_stored(&r, inv.settings.results);
	if (status == EXIT_INCOMPLETE)
		fprintf(stderr, "claimbench: results incomplete%s\n",
			signals_interrupted() ? " (interrupted)" : " (a worker aborted, or the run could not progress)");
	if (rs.unstored && keep_unstored(&rs, inv.settings.results) != EXIT_DONE && status != EXIT_INCOMPLETE)
		status = EXIT_ENVIRONMENT;
out_stop:
	if (user_target_noted && db->target_restore(cfg->target, user_target_note, err, sizeof(err)) != 0)
		fprintf(stderr, "claimbench: %s\n", err);
	for (size_t i = 0; i < r.n_results; i++)
		run_result_free(&r.results[i]);
	free(r.results);
out_close:
	store_close(rs.store);
out_release:
	if (throwaway_ready)
		throwaway_close(&throwaway);
out_free:
	invocation_free(&inv);
	return status;
}
