#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "progress.h"
#include "queue_table.h"
#include "run.h"
#include "signals.h"
#include "worker.h"

/* How often the main thread looks at the workers while they run. */
#define MONITOR_INTERVAL_NS 20000000

/* Quotes prefix+suffix as an identifier into buf. 0, or -1 with err. */
static int table_name(const struct run_plan *plan, struct db_conn *conn, const char *suffix, char *buf,
		      size_t len, char *err, size_t errlen)
{
	char name[128];

	snprintf(name, sizeof(name), "%s%s", plan->cfg->table_prefix, suffix);
	if (plan->db->quote_identifier(conn, name, buf, len) < 0) {
		snprintf(err, errlen, "cannot quote the table name %s", name);
		return -1;
	}
	return 0;
}

/* Sums the workers' completed counts as the progress line sees them. */
static uint64_t progress_done(struct worker *w, int n)
{
	uint64_t done = 0;

	for (int i = 0; i < n; i++)
		done += atomic_load_explicit(&w[i].progress, memory_order_relaxed);
	return done;
}

/* Waits for every worker to finish, drawing progress and passing a Ctrl-C on as a stop. */
static void monitor(struct run_shared *s, struct worker *w, int n, const char *label)
{
	const struct run_config *cfg = s->cfg;
	struct progress p;

	progress_init(&p, stderr, cfg->progress);
	for (;;) {
		int finished = 0;

		for (int i = 0; i < n; i++)
			finished += atomic_load(&w[i].finished);
		if (finished == n)
			break;
		if (signals_interrupted())
			atomic_store(&s->stop, true);
		progress_update(&p, label, progress_done(w, n), cfg->duration_s > 0 ? 0 : (uint64_t)cfg->jobs,
				(double)(clock_now_ns() - s->start_ns) / 1e9);
		clock_sleep_ns(MONITOR_INTERVAL_NS);
	}
	progress_clear(&p);
}

/* Merges the workers' ledgers and computes the metrics into out. 0, or -1 with err. */
static int measure(const struct run_plan *plan, struct worker *w, int n, const struct job_state *final,
		   struct run_result *out, char *err, size_t errlen)
{
	const struct run_config *cfg = plan->cfg;
	struct ledger merged;
	struct ledger *parts = calloc((size_t)n, sizeof(*parts));
	size_t execs = 0, empties = 0;
	int rc = -1;

	if (!parts || !(out->per_worker = calloc((size_t)n, sizeof(*out->per_worker))))
		goto out_free_parts;
	for (int i = 0; i < n; i++) {
		parts[i] = w[i].ledger;
		out->per_worker[i] = w[i].stats;
		execs += w[i].ledger.n_execs;
		empties += w[i].ledger.n_empties;
	}
	if (ledger_init(&merged, execs, empties) < 0 || ledger_merge(&merged, parts, (size_t)n) < 0)
		goto out_free_merged;
	struct metrics_input in = {
		.ledger = &merged,
		.workers = out->per_worker,
		.n_workers = (size_t)n,
		.n_jobs = (size_t)cfg->jobs,
		.work_ns = plan->work_ns,
		.final = final,
		.drain = cfg->duration_s <= 0,
		.duration_ns = (int64_t)(cfg->duration_s * 1e9),
	};
	rc = metrics_compute(&in, &out->metrics);
out_free_merged:
	ledger_free(&merged);
out_free_parts:
	free(parts);
	if (rc < 0)
		snprintf(err, errlen, "out of memory computing the metrics");
	return rc;
}

/* Connects and prepares n workers. 0, or -1 with err (the opened ones are closed). */
static int open_workers(const struct run_plan *plan, struct run_shared *s, struct worker *w, int n,
			char *err, size_t errlen)
{
	size_t expected = (size_t)(2 * plan->cfg->jobs / n) + 64;

	for (int i = 0; i < n; i++) {
		char why[512];

		if (worker_open(&w[i], s, i, plan->target, expected, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "worker %d: %s", i, why);
			while (i--)
				worker_close(&w[i]);
			return -1;
		}
	}
	return 0;
}

/* Reports aborted workers on stderr. true when any aborted. */
static bool report_aborts(const struct worker *w, int n)
{
	bool any = false;

	for (int i = 0; i < n; i++) {
		if (!w[i].aborted)
			continue;
		fprintf(stderr, "claimbench: %s\n", w[i].abort_reason);
		any = true;
	}
	return any;
}

int run_one(const struct run_plan *plan, const struct strategy_choice *choice, int workers, int repeat,
	    struct run_result *out, char *err, size_t errlen)
{
	const struct run_config *cfg = plan->cfg;
	struct run_shared s = {
		.cfg = cfg,
		.db = plan->db,
		.strategy = choice->ops,
		.mode = choice->mode,
		.work_ns = plan->work_ns,
		.gate_lock = PTHREAD_MUTEX_INITIALIZER,
		.gate_opened = PTHREAD_COND_INITIALIZER,
	};
	struct db_conn *admin = NULL;
	struct worker *w = calloc((size_t)workers, sizeof(*w));
	struct job_state *final = calloc((size_t)cfg->jobs, sizeof(*final));
	char label[96], why[512];
	int started = 0, rc = -1;
	bool have_final;

	atomic_init(&s.stop, false);
	memset(out, 0, sizeof(*out));
	*out = (struct run_result){
		.strategy = choice->ops->name,
		.claim_mode = claim_mode_name(choice->mode),
		.workers = workers,
		.jobs = cfg->jobs,
		.work_ms = cfg->work_ms,
		.work_dist = work_dist_name(cfg->work_dist),
		.duration_s = cfg->duration_s,
		.repeat = repeat,
	};
	if (!w || !final) {
		snprintf(err, errlen, "out of memory");
		goto out_free;
	}
	if (plan->db->connect(plan->target, &cfg->db_opts, &admin, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot connect: %s", why);
		goto out_free;
	}
	if (table_name(plan, admin, "jobs", s.jobs_table, sizeof(s.jobs_table), err, errlen) < 0 ||
	    table_name(plan, admin, "tickets", s.tickets_table, sizeof(s.tickets_table), err, errlen) < 0)
		goto out_disconnect;
	queue_table_drop(admin, &s);
	if (queue_table_create(admin, &s, cfg->jobs, err, errlen) < 0)
		goto out_drop;
	if (open_workers(plan, &s, w, workers, err, errlen) < 0)
		goto out_drop;
	for (; started < workers; started++)
		if (worker_start(&w[started]) < 0)
			break;
	if (started < workers) {
		snprintf(err, errlen, "cannot start worker thread %d", started);
		atomic_store(&s.stop, true);
	}
	worker_open_gate(&s, (int64_t)(cfg->duration_s * 1e9));
	snprintf(label, sizeof(label), "%s %s x%d #%d", choice->ops->name, out->claim_mode, workers, repeat);
	monitor(&s, w, started, label);
	for (int i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	if (started < workers)
		goto out_close;
	have_final = queue_table_final_state(admin, &s, final, cfg->jobs, why, sizeof(why)) == 0;
	if (!have_final)
		fprintf(stderr, "claimbench: %s: %s; metrics that need it are left out\n", label, why);
	if (measure(plan, w, workers, have_final ? final : NULL, out, err, errlen) < 0)
		goto out_close;
	out->complete = !report_aborts(w, workers) && !atomic_load(&s.stop) && have_final;
	if (out->metrics.ledger_mismatches)
		fprintf(stderr, "claimbench: %s: the ledger and the table's final state disagree on %llu jobs\n",
			label, (unsigned long long)out->metrics.ledger_mismatches);
	rc = 0;
out_close:
	for (int i = 0; i < workers; i++)
		worker_close(&w[i]);
out_drop:
	queue_table_drop(admin, &s);
out_disconnect:
	plan->db->disconnect(admin);
out_free:
	free(final);
	free(w);
	if (rc < 0)
		run_result_free(out);
	return rc;
}

void run_result_free(struct run_result *r)
{
	free(r->per_worker);
	r->per_worker = NULL;
}
