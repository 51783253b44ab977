/*
 * The run loop of an invocation (run_loop.h): the machine sampled around each run, the
 * server described, its groups, their pgbouncers, their matrices of runs, what the store
 * refused.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adapter/adapter_run.h"
#include "adapter/manifest.h"
#include "base/exit_status.h"
#include "base/stats.h"
#include "db/pooler.h"
#include "db/restart_command.h"
#include "engine/signals.h"
#include "engine/workload.h"
#include "guarded/guarded_run.h"
#include "model/metric_table.h"
#include "model/result.h"
#include "model/run_descriptor.h"
#include "output/results_print.h"
#include "plugin/guard.h"
#include "queue/run.h"
#include "run/run_loop.h"

/*
 * How busy the machine is: its 1-minute load average (getloadavg) and the CPU time a
 * hypervisor stole (/proc/stat's steal column), taken at a run's start and end so that
 * a run says what noise it ran under.
 */

/* One reading of the machine. */
struct machine_sample {
	double load1;		/* the 1-minute load average; NaN when getloadavg failed */
	bool cpu_known;		/* /proc/stat's cpu line was read */
	uint64_t steal;		/* its steal ticks, summed over the CPUs */
	uint64_t total;		/* all its ticks (user to steal) */
};

/* Reads /proc/stat's first line ("cpu user nice system idle iowait irq softirq steal ...") into s. */
static void read_cpu_line(struct machine_sample *s)
{
	unsigned long long v[8];
	FILE *f = fopen("/proc/stat", "r");

	s->cpu_known = false;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7]) == 8) {
		s->total = 0;
		for (int i = 0; i < 8; i++)
			s->total += v[i];
		s->steal = v[7];
		s->cpu_known = true;
	}
	fclose(f);
}

/* Reads the machine now into s. */
static void machine_sample_take(struct machine_sample *s)
{
	double load[1];

	s->load1 = getloadavg(load, 1) == 1 ? load[0] : NAN;
	read_cpu_line(s);
}

/*
 * The figures of a run between readings start and end: both load averages, the steal
 * over the interval in % of its ticks (NaN unless both read /proc/stat and ticks passed),
 * the processors online, and whether a load average exceeded them.
 */
static struct machine_figures machine_figures_between(const struct machine_sample *start,
						       const struct machine_sample *end)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct machine_figures m = { .load_start = start->load1, .load_end = end->load1, .steal_pct = NAN,
				     .cores = cores > 0 ? (uint64_t)cores : METRIC_UNKNOWN };

	if (start->cpu_known && end->cpu_known && end->total > start->total && end->steal >= start->steal)
		m.steal_pct = 100.0 * (double)(end->steal - start->steal) / (double)(end->total - start->total);
	if (cores <= 0 || (isnan(m.load_start) && isnan(m.load_end)))
		m.overloaded = METRIC_UNKNOWN;
	else
		/* at the start only: by its end the load average counts the run's own workers and server */
		m.overloaded = m.load_start > (double)cores;
	return m;
}

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

int pooler_clients(const struct run_config *cfg)
{
	int most = 0;

	for (size_t p = 0; p < cfg->n_worker_points; p++)
		most = cfg->workers[p] > most ? cfg->workers[p] : most;
	return most + (run_config_arrivals(cfg) ? cfg->producers : 0);
}

/*
 * Starts cfg's pgbouncer, when cfg asks for one, and points plan's workers and producers at
 * it (plan->client_target), saying so on stderr. EXIT_DONE; EXIT_USAGE when plan has no
 * pooler directory (a command that does not start one); EXIT_ENVIRONMENT when it would not
 * start; both with the reason on stderr.
 */
static int group_pooler_start(struct run_plan *plan, const struct run_config *cfg)
{
	char err[1024], server[3 * POOLER_CONNINFO_MAX];
	const char *target = plan->target;

	if (cfg->pooler == POOLER_NONE)
		return EXIT_DONE;
	if (!plan->pooler) {
		fprintf(stderr, "claimbench: --pooler runs with claimbench run\n");
		return EXIT_USAGE;
	}
	/* With a throwaway standby the target names both servers: pgbouncer is given the one that takes writes. */
	if (plan->standby_ready) {
		if (pooler_narrow_server(plan->target, server, sizeof(server), err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench: cannot start pgbouncer: %s\n", err);
			return EXIT_ENVIRONMENT;
		}
		target = server;
	}
	if (pooler_start(plan->pooler, target, pooler_mode_names[cfg->pooler], cfg->server_connections,
			 pooler_clients(cfg), signals_interrupted, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench: cannot start pgbouncer: %s\n", err);
		return EXIT_ENVIRONMENT;
	}
	fprintf(stderr, "claimbench: pgbouncer in %s, %s pooling over %d server connections\n", plan->pooler->dir,
		pooler_mode_names[cfg->pooler], cfg->server_connections);
	plan->client_target = plan->pooler->conninfo;
	return EXIT_DONE;
}

/* Stops the group's pgbouncer, if one runs, and points the workers at the server again. */
static void group_pooler_stop(struct run_plan *plan)
{
	if (plan->pooler && plan->client_target)
		pooler_stop(plan->pooler);
	plan->client_target = NULL;
}

/*
 * Runs the s-th strategy of cfg, or its s-th guard in a guarded workload, at workers into
 * res, the throwaway server's autovacuum first set to cfg's mode. 0, or -1 with err.
 */
static int run_point(const struct run_config *cfg, const struct run_plan *plan, size_t s, int workers, int rep,
		     struct run_result *res, char *err, size_t errlen)
{
	if (plan->set_autovacuum && plan->set_autovacuum(plan->server_ctx, cfg->autovacuum, err, errlen) < 0)
		return -1;
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
				if (rs->params_fill(res, cfg, guarded ? NULL : cfg->strategies[s].ops) < 0) {
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

int check_defined_statements(const struct run_config *groups, size_t n, struct run_plan *plan, char *err,
			     size_t errlen)
{
	for (size_t d = 0; n && d < groups[0].n_defined; d++) {
		const struct strategy_ops *ops = groups[0].defined[d];

		for (size_t g = 0; g < n; g++) {
			const struct run_config *cfg = &groups[g];
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

int run_groups(const struct run_config *groups, size_t n, struct run_plan *plan, struct run_session *rs)
{
	int status = EXIT_DONE;

	for (size_t g = 0; g < n && status != EXIT_ENVIRONMENT && status != EXIT_USAGE; g++) {
		const struct run_config *cfg = &groups[g];
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

size_t count_runs(const struct run_config *groups, size_t n)
{
	size_t runs = 0;

	for (size_t g = 0; g < n; g++)
		runs += (groups[g].guarded.workload == WORKLOAD_QUEUE ? groups[g].n_strategies : groups[g].guarded.n_guards) *
			groups[g].n_worker_points * (size_t)run_config_repeat_cap(&groups[g]);
	return runs;
}

FILE *unstored_open(char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, len, "%s/claimbench-unstored-XXXXXX.json", dir);
	fd = mkstemps(path, 5);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "claimbench: nor could they be written to %s: %s; they are only in the output above\n",
			dir, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

bool unstored_close(FILE *f, const char *path)
{
	if (fclose(f) != 0) {
		fprintf(stderr, "claimbench: writing %s failed: %s\n", path, strerror(errno));
		return false;
	}
	return true;
}

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
