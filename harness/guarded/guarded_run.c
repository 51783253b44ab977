#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/admin.h"
#include "engine/run_plan.h"
#include "guarded/acquire.h"
#include "guarded/guarded_run.h"
#include "guarded/guarded_worker.h"
#include "model/metric_table.h"

/* Acquisitions a worker is sized for per second of the run, up to RESERVED_S seconds, before its array grows. */
#define EXPECTED_ACQS_PER_S 2000
#define RESERVED_S 10.0

/* The run's duration in ns: --duration, or the default of a guarded run. */
static int64_t duration_ns_of(const struct run_config *cfg)
{
	return (int64_t)((cfg->duration_s > 0 ? cfg->duration_s : GUARDED_DEFAULT_DURATION_S) * 1e9);
}

/* The run's result with what cfg and guard say of it, and no figure yet. */
static struct run_result result_of(const struct run_config *cfg, const struct guard_ops *guard, int workers,
				   int repeat)
{
	return (struct run_result){
		.strategy = guard->name,
		.claim_mode = workload_name((enum workload)cfg->guarded.workload),
		.workers = workers,
		.work_ms = cfg->work_ms,
		.work_dist = work_dist_name(WORK_FIXED),
		.duration_s = (double)duration_ns_of(cfg) / 1e9,
		.repeat = repeat,
		.probes = { TABLE_PROBE_UNKNOWN, TABLE_PROBE_UNKNOWN },
	};
}

/* Connects and prepares n workers. 0, or -1 with err (the opened ones are closed). */
static int open_workers(struct guarded_shared *g, struct guarded_worker *w, int n, char *err, size_t errlen)
{
	double seconds = (double)duration_ns_of(g->cfg) / 1e9;
	size_t expected = (size_t)((seconds < RESERVED_S ? seconds : RESERVED_S) * EXPECTED_ACQS_PER_S) + 64;

	for (int i = 0; i < n; i++) {
		char why[512];

		if (guarded_worker_open(&w[i], g, i, expected, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "worker %d: %s", i, why);
			while (i--)
				guarded_worker_close(&w[i]);
			return -1;
		}
	}
	return 0;
}

/* The thread: waits for the gate, then runs its workload's cycles until the time is up. */
static void *guarded_worker_main(void *arg)
{
	struct guarded_worker *w = arg;
	enum workload workload = guarded_plan_of(w)->workload;
	int rc = 0;

	run_wait_gate(&w->g->gate);
	while (rc == 0 && !guarded_time_up(w)) {
		if (workload == WORKLOAD_REFRESH)
			rc = refresh_cycle(w);
		else if (workload == WORKLOAD_RESOURCE)
			rc = request_cycle(w);
		else
			rc = guarded_is_refresher(w) ? refresher_cycle(w) : use_cycle(w);
	}
	w->finished_ns = guarded_now(w);
	return NULL;
}

/*
 * Starts the thread of w, opened (guarded_worker_open): it waits for the gate, then works
 * until the run's end. 0, or -1.
 */
static int guarded_worker_start(struct guarded_worker *w)
{
	return pthread_create(&w->thread, NULL, guarded_worker_main, w) == 0 ? 0 : -1;
}

/*
 * Starts the n workers, opens the gate and joins them. The number started; when fewer
 * than n, the run was stopped.
 */
static int start_and_join(struct guarded_shared *g, struct guarded_worker *w, int n)
{
	int started = 0;

	for (; started < n; started++)
		if (guarded_worker_start(&w[started]) < 0)
			break;
	if (started < n)
		atomic_store(&g->gate.stop, true);
	run_open_gate(&g->gate, duration_ns_of(g->cfg), 0);
	for (int i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	return started;
}

/*
 * Fills out's per-worker counters, errors and figures from the n workers; the run lasted
 * until the last of them stopped (past --duration by the cycle in hand, short of it when
 * interrupted). 0, or -1 when out of memory.
 */
static int measure(const struct run_config *cfg, const struct guarded_worker *w, int n, struct run_result *out)
{
	struct acquisitions_input in = {
		.resources = cfg->guarded.workload == WORKLOAD_RESOURCE ? cfg->guarded.resources : 1,
		.limit = cfg->guarded.workload == WORKLOAD_RESOURCE ? cfg->guarded.limit : 1,
		.stale_ns = cfg->guarded.workload == WORKLOAD_RESOURCE ? 0 : (int64_t)cfg->guarded.stale_ms * 1000000,
	};
	struct acquisition *all;
	size_t total = 0;
	int rc = -1;

	for (int i = 0; i < n; i++) {
		total += w[i].n_acqs;
		if (w[i].finished_ns > in.duration_ns)
			in.duration_ns = w[i].finished_ns;
	}
	if (!in.duration_ns)
		in.duration_ns = duration_ns_of(cfg);
	all = malloc((total + 1) * sizeof(*all));
	out->per_worker = calloc((size_t)n, sizeof(*out->per_worker));
	if (!all || !out->per_worker)
		goto out;
	metrics_set_unknown(&out->metrics);
	out->metrics.errors_total = 0;
	for (int k = 0; k < ERR_KIND_COUNT; k++)
		out->metrics.errors[k] = 0;
	for (int i = 0; i < n; i++) {
		struct worker_stats *ws = &out->per_worker[i];

		hist_init(&ws->claim_latency);
		memcpy(all + in.n, w[i].acqs, w[i].n_acqs * sizeof(*all));
		in.n += w[i].n_acqs;
		ws->claims = w[i].n_acqs;
		for (size_t a = 0; a < w[i].n_acqs; a++)
			ws->completed += w[i].acqs[a].grant_ns >= 0 && w[i].acqs[a].outcome != ACQ_ERROR;
		for (int k = 0; k < ERR_KIND_COUNT; k++) {
			ws->errors[k] = w[i].errors[k];
			out->metrics.errors[k] += w[i].errors[k];
			out->metrics.errors_total += w[i].errors[k];
		}
	}
	in.acqs = all;
	if (acquisitions_figures(&in, &out->metrics.guarded) < 0 ||
	    acquisitions_holder_series(&in, &out->holders, &out->n_holders) < 0)
		goto out;
	rc = 0;
out:
	free(all);
	return rc;
}

/* Drops the tables of t (a struct guarded_tables) that the run made, for admin_drop_tables. 0, or -1 with err. */
static int drop_tables(void *t, struct db_conn *conn, char *err, size_t errlen)
{
	return guarded_tables_drop(t, conn, err, errlen);
}

/* Says on stderr why each aborted worker stopped. true when one did. */
static bool report_aborts(const struct guarded_worker *w, int n, const char *label)
{
	bool any = false;

	for (int i = 0; i < n; i++) {
		if (!w[i].aborted)
			continue;
		fprintf(stderr, "claimbench: %s: %s\n", label, w[i].abort_reason);
		any = true;
	}
	return any;
}

int guarded_run_one(const struct run_plan *plan, const struct guard_ops *guard, int workers, int repeat,
		    struct run_result *out, char *err, size_t errlen)
{
	const struct run_config *cfg = plan->cfg;
	struct guarded_tables tables = { .db = plan->db, .workload = (enum workload)cfg->guarded.workload };
	struct guarded_shared g = {
		.cfg = cfg, .db = plan->db, .target = plan->target, .guard = guard, .tables = &tables,
	};
	struct guarded_worker *w = calloc((size_t)workers, sizeof(*w));
	struct admin admin = { .db = plan->db, .target = plan->target, .opts = &cfg->db_opts,
			       .server_gone = plan->server_gone, .server_ctx = plan->server_ctx };
	char label[256];
	int started, rc = -1;

	*out = result_of(cfg, guard, workers, repeat);
	run_label(label, sizeof(label), cfg, guard->name, out->claim_mode, workers, repeat);
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	run_gate_init(&g.gate);
	if (admin_open(&admin, err, errlen) < 0 ||
	    guarded_tables_name(&tables, admin.conn, cfg->table_prefix, cfg->guarded.wait_limit_ms, err, errlen) < 0)
		goto out_disconnect;
	if (guarded_tables_create(&tables, admin.conn, err, errlen) < 0)
		goto out_drop;
	if (open_workers(&g, w, workers, err, errlen) < 0)
		goto out_drop;
	started = start_and_join(&g, w, workers);
	if (measure(cfg, w, started, out) < 0) {
		snprintf(err, errlen, "out of memory computing the figures");
		goto out_close;
	}
	out->complete = !report_aborts(w, started, label) && started == workers && !run_stopping(&g.gate);
	rc = 0;
out_close:
	for (int i = 0; i < workers; i++)
		guarded_worker_close(&w[i]);
out_drop:
	if (!run_leaves_tables(plan))
		admin_drop_tables(&admin, drop_tables, &tables, label);
out_disconnect:
	admin_close(&admin);
	run_gate_destroy(&g.gate);
	free(w);
	if (rc < 0)
		run_result_free(out);
	return rc;
}
