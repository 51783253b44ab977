#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "db/ownership.h"
#include "engine/producer.h"
#include "engine/progress.h"
#include "engine/queue_table.h"
#include "engine/run.h"
#include "engine/signals.h"
#include "model/run_param.h"
#include "engine/worker.h"

/* How often the main thread looks at the workers while they run. */
#define MONITOR_INTERVAL_NS 20000000

/* How long a statement of the harness's own may wait for a lock once the run is stopping. */
#define STOPPING_LOCK_WAIT_MS 500

/* How often the monitor cancels again the statements of threads that have not yet seen the stop. */
#define RECANCEL_INTERVAL_NS 100000000

/*
 * Names the run's tables (prefix + "jobs", + "tickets") in s, quoted for SQL, and writes
 * the owner note that marks them as this process's: pid, host, start and the tables, so
 * that `claimbench cleanup` can tell a dead run's tables. 0, or -1 with err.
 */
static int name_tables(const struct run_plan *plan, struct db_conn *conn, struct run_shared *s, char *err,
		       size_t errlen)
{
	struct owner self;
	char prefix[64];

	if (plan->cfg->table_prefix)
		snprintf(prefix, sizeof(prefix), "%s", plan->cfg->table_prefix);
	else
		snprintf(prefix, sizeof(prefix), "claimbench_%ld_", (long)getpid());
	snprintf(s->jobs_name, sizeof(s->jobs_name), "%sjobs", prefix);
	snprintf(s->tickets_name, sizeof(s->tickets_name), "%stickets", prefix);
	if (plan->db->quote_identifier(conn, s->jobs_name, s->jobs_table, sizeof(s->jobs_table)) < 0 ||
	    plan->db->quote_identifier(conn, s->tickets_name, s->tickets_table, sizeof(s->tickets_table)) < 0) {
		snprintf(err, errlen, "cannot quote the table names of prefix %s", prefix);
		return -1;
	}
	owner_self(&self);
	snprintf(self.tables[0], sizeof(self.tables[0]), "%s", s->jobs_name);
	snprintf(self.tables[1], sizeof(self.tables[1]), "%s", s->tickets_name);
	self.n_tables = 2;
	owner_format(&self, s->owner, sizeof(s->owner));
	s->names = (struct sql_names){
		.jobs = s->jobs_table, .tickets = s->tickets_table, .owner = s->owner, .dialect = plan->db->kind,
	};
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

/* The run's threads the monitor waits for. */
struct run_threads {
	struct worker *w;	/* the workers */
	int n_workers;		/* workers started */
	struct producer *p;	/* the producers */
	int n_producers;	/* producers started */
};

/* Whether every thread of t has finished its loop. */
static bool all_finished(const struct run_threads *t)
{
	for (int i = 0; i < t->n_workers; i++)
		if (!atomic_load(&t->w[i].finished))
			return false;
	for (int i = 0; i < t->n_producers; i++)
		if (!atomic_load(&t->p[i].finished))
			return false;
	return true;
}

/*
 * Cancels the statements of the threads of t that have not yet seen the stop: one may
 * have begun a statement (and be blocked in it) after the signal's own cancel.
 */
static void cancel_unstopped(const struct run_shared *s, const struct run_threads *t)
{
	for (int i = 0; i < t->n_workers; i++)
		if (!atomic_load(&t->w[i].saw_stop))
			s->db->cancel(t->w[i].conn);
	for (int i = 0; i < t->n_producers; i++)
		if (!atomic_load(&t->p[i].finished))
			s->db->cancel(t->p[i].conn);
}

/*
 * Waits for every worker and producer to finish, drawing progress. A signal becomes
 * the run's stop, and every RECANCEL_INTERVAL_NS after it the statements of threads that
 * have not seen it yet are cancelled.
 */
static void monitor(struct run_shared *s, const struct run_threads *t, const char *label)
{
	const struct run_config *cfg = s->cfg;
	int64_t next_cancel = 0;
	struct progress p;

	progress_init(&p, stderr, !cfg->no_progress);
	while (!all_finished(t)) {
		if (run_stopping(s)) {
			atomic_store(&s->stop, true);
			if (clock_now_ns() >= next_cancel) {
				cancel_unstopped(s, t);
				next_cancel = clock_now_ns() + RECANCEL_INTERVAL_NS;
			}
		}
		progress_update(&p, label, progress_done(t->w, t->n_workers),
				cfg->duration_s > 0 ? 0 : (uint64_t)(s->backlog + s->arrivals),
				(double)(clock_now_ns() - s->start_ns) / 1e9);
		clock_sleep_ns(MONITOR_INTERVAL_NS);
	}
	progress_clear(&p);
}

/*
 * Merges the workers' and producers' ledgers and computes the metrics and the time series
 * into out. 0, or -1 with err.
 */
static int measure(const struct run_shared *s, const struct run_threads *t, const struct job_state *final,
		   struct run_result *out, char *err, size_t errlen)
{
	const struct run_config *cfg = s->cfg;
	size_t n_parts = (size_t)t->n_workers + (size_t)t->n_producers;
	struct ledger merged;
	struct ledger *parts = calloc(n_parts, sizeof(*parts));
	struct producer_stats *producers = calloc((size_t)t->n_producers + 1, sizeof(*producers));
	int rc = -1;

	memset(&merged, 0, sizeof(merged));
	if (!parts || !producers || !(out->per_worker = calloc((size_t)t->n_workers, sizeof(*out->per_worker))))
		goto out_free_parts;
	for (int i = 0; i < t->n_workers; i++) {
		parts[i] = t->w[i].ledger;
		out->per_worker[i] = t->w[i].stats;
	}
	for (int i = 0; i < t->n_producers; i++) {
		parts[t->n_workers + i] = t->p[i].ledger;
		producers[i] = t->p[i].stats;
	}
	if (ledger_merge(&merged, parts, n_parts) < 0)
		goto out_free_merged;
	struct metrics_input in = {
		.ledger = &merged,
		.workers = out->per_worker,
		.n_workers = (size_t)t->n_workers,
		.producers = producers,
		.n_producers = (size_t)t->n_producers,
		.n_jobs = (size_t)(s->backlog + s->arrivals),
		.n_backlog = (size_t)s->backlog,
		.work_ns = s->work_ns,
		.enqueued_ns = s->enqueued_ns,
		.final = final,
		.n_queues = (size_t)cfg->n_queues,
		.drain = cfg->duration_s <= 0 && !run_stopping(s),
		.duration_ns = (int64_t)(cfg->duration_s * 1e9),
	};
	rc = metrics_compute(&in, &out->metrics);
	if (rc == 0)
		rc = metrics_series(&in, &out->series, &out->n_series);
out_free_merged:
	ledger_free(&merged);
out_free_parts:
	free(producers);
	free(parts);
	if (rc < 0)
		snprintf(err, errlen, "out of memory computing the metrics");
	return rc;
}

/* Connects and prepares n workers. 0, or -1 with err (the opened ones are closed). */
static int open_workers(const struct run_plan *plan, struct run_shared *s, struct worker *w, int n,
			char *err, size_t errlen)
{
	const struct run_config *cfg = plan->cfg;
	size_t expected = (size_t)(2 * (s->backlog + s->arrivals) / n) + 64;
	size_t empties = expected;

	/* while producers insert, an idle worker claims in vain about once per empty wait */
	if (s->arrivals)
		empties += (size_t)(run_config_arrival_s(cfg) * 1000 /
				    (cfg->empty_wait_ms > 0 ? cfg->empty_wait_ms : 1));

	for (int i = 0; i < n; i++) {
		char why[512];

		if (worker_open(&w[i], s, i, plan->target, expected, empties, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "worker %d: %s", i, why);
			while (i--)
				worker_close(&w[i]);
			return -1;
		}
	}
	return 0;
}

/* Connects and prepares n producers. 0, or -1 with err (the opened ones are closed). */
static int open_producers(const struct run_plan *plan, struct run_shared *s, struct producer *p, int n,
			  char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		char why[512];

		if (producer_open(&p[i], s, i, plan->target, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "producer %d: %s", i, why);
			while (i--)
				producer_close(&p[i]);
			return -1;
		}
	}
	return 0;
}

/* Whether a worker or producer of t stopped on an error. */
static bool any_aborted(const struct run_threads *t)
{
	for (int i = 0; i < t->n_workers; i++)
		if (t->w[i].aborted)
			return true;
	for (int i = 0; i < t->n_producers; i++)
		if (t->p[i].aborted)
			return true;
	return false;
}

/* Reports aborted workers and producers on stderr. true when any aborted. */
static bool report_aborts(const struct run_threads *t)
{
	bool any = false;

	for (int i = 0; i < t->n_workers; i++) {
		if (!t->w[i].aborted)
			continue;
		fprintf(stderr, "claimbench: %s\n", t->w[i].abort_reason);
		any = true;
	}
	for (int i = 0; i < t->n_producers; i++) {
		if (!t->p[i].aborted)
			continue;
		fprintf(stderr, "claimbench: %s\n", t->p[i].abort_reason);
		any = true;
	}
	return any;
}

/* A new array of total enqueue times: 0 for the backlog, INT64_MAX for the arrivals until inserted. */
static int64_t *enqueue_times(long backlog, long total)
{
	int64_t *enq = calloc((size_t)total, sizeof(*enq));

	for (long i = backlog; enq && i < total; i++)
		enq[i] = INT64_MAX;
	return enq;
}

/*
 * Starts the workers and producers of t (counting those started in t), opens the gate
 * and waits for them all. A thread that cannot start stops the run; 0, or -1 with err then.
 */
static int start_and_wait(struct run_shared *s, struct run_threads *t, int workers, int producers,
			  const char *label, char *err, size_t errlen)
{
	int rc = 0;

	atomic_store(&s->producers_running, producers);
	for (; t->n_workers < workers; t->n_workers++)
		if (worker_start(&t->w[t->n_workers]) < 0)
			break;
	for (; t->n_workers == workers && t->n_producers < producers; t->n_producers++)
		if (producer_start(&t->p[t->n_producers]) < 0)
			break;
	if (t->n_workers < workers || t->n_producers < producers) {
		snprintf(err, errlen, "cannot start %s thread %d", t->n_workers < workers ? "worker" : "producer",
			 t->n_workers < workers ? t->n_workers : t->n_producers);
		atomic_fetch_sub(&s->producers_running, producers - t->n_producers);
		atomic_store(&s->stop, true);
		rc = -1;
	}
	worker_open_gate(s, (int64_t)(s->cfg->duration_s * 1e9));
	monitor(s, t, label);
	for (int i = 0; i < t->n_workers; i++)
		pthread_join(t->w[i].thread, NULL);
	for (int i = 0; i < t->n_producers; i++)
		pthread_join(t->p[i].thread, NULL);
	return rc;
}

/*
 * The second pass of --rerun-errors: once the first has drained the queue, give the jobs
 * that failed back to state new and run the same workers again until it drains anew.
 * The start instant stays the first pass's, so the makespan covers both. 0, or -1 with err.
 */
static int rerun_errors(struct db_conn *admin, struct run_shared *s, struct run_threads *t, const char *label,
			char *err, size_t errlen)
{
	int started = 0;

	if (queue_table_clear_errors(admin, s, err, errlen) < 0)
		return -1;
	s->pass = 2;
	for (int i = 0; i < t->n_workers; i++)
		atomic_store(&t->w[i].finished, false);
	for (; started < t->n_workers; started++)
		if (worker_start(&t->w[started]) < 0)
			break;
	if (started < t->n_workers) {
		for (int i = started; i < t->n_workers; i++)
			atomic_store(&t->w[i].finished, true);
		atomic_store(&s->stop, true);
	}
	monitor(s, t, label);
	for (int i = 0; i < started; i++)
		pthread_join(t->w[i].thread, NULL);
	if (started < t->n_workers) {
		snprintf(err, errlen, "cannot start worker thread %d for the re-run", started);
		return -1;
	}
	return 0;
}

/* The harness's own connection to the run's database: it creates, reads back and drops the tables. */
struct admin {
	const struct run_plan *plan;	/* where it connects */
	struct db_conn *conn;		/* the connection, NULL when closed */
};

/* Connects a and has a signal cancel its statements. 0, or -1 with err. */
static int admin_open(struct admin *a, char *err, size_t errlen)
{
	char why[512];

	if (a->plan->db->connect(a->plan->target, &a->plan->cfg->db_opts, &a->conn, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot connect: %s", why);
		return -1;
	}
	if (signals_watch(a->plan->db, a->conn) < 0) {
		snprintf(err, errlen, "out of memory");
		a->plan->db->disconnect(a->conn);
		a->conn = NULL;
		return -1;
	}
	return 0;
}

/* Closes a's connection, if open. */
static void admin_close(struct admin *a)
{
	if (!a->conn)
		return;
	signals_unwatch(a->conn);
	a->plan->db->disconnect(a->conn);
	a->conn = NULL;
}

/*
 * After a step of the admin failed: when its connection was lost (a server restart, a
 * network cut), connects anew so that the step can be tried again. true when it did.
 */
static bool admin_reconnected(struct admin *a)
{
	char err[512];

	if (a->plan->db->error_kind(a->conn) != ERR_CONNECTION_LOST)
		return false;
	admin_close(a);
	if (admin_open(a, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench: the harness's own connection was lost and could not be made anew: %s\n", err);
		return false;
	}
	return true;
}

/* Reads the final state of the total jobs into final, connecting anew once after a lost connection. 0, or -1 with err. */
static int read_final_state(struct admin *a, const struct run_shared *s, struct job_state *final, long total,
			    char *err, size_t errlen)
{
	if (queue_table_final_state(a->conn, s, final, total, err, errlen) == 0)
		return 0;
	if (!admin_reconnected(a))
		return -1;
	return queue_table_final_state(a->conn, s, final, total, err, errlen);
}

/* Drops the tables the run created, connecting anew once after a lost connection; says so when it cannot. */
static void drop_tables(struct admin *a, struct run_shared *s)
{
	char err[512];

	if (!a->conn && admin_open(a, err, sizeof(err)) < 0)
		goto left;
	if (queue_table_drop(a->conn, s, err, sizeof(err)) == 0)
		return;
	if (admin_reconnected(a) && queue_table_drop(a->conn, s, err, sizeof(err)) == 0)
		return;
left:
	fprintf(stderr, "claimbench: %s; its tables are left behind (claimbench cleanup removes them)\n", err);
}

/* The run's result with what the plan and choice say of it, and no figure yet. */
static struct run_result result_of(const struct run_config *cfg, const struct strategy_choice *choice, int workers,
				   int repeat, long arrivals)
{
	return (struct run_result){
		.strategy = choice->ops->name,
		.claim_mode = claim_mode_name(choice->mode),
		.workers = workers,
		.jobs = cfg->jobs,
		.work_ms = cfg->work_ms,
		.work_dist = work_dist_name(cfg->work_dist),
		.duration_s = cfg->duration_s,
		.arrival_rate = arrivals ? cfg->arrival_rate : 0,
		.repeat = repeat,
	};
}

int run_one(const struct run_plan *plan, const struct strategy_choice *choice, int workers, int repeat,
	    struct run_result *out, char *err, size_t errlen)
{
	const struct run_config *cfg = plan->cfg;
	long arrivals = run_config_arrivals(cfg), total = cfg->jobs + arrivals;
	int producers = arrivals ? cfg->producers : 0;
	struct run_shared s = {
		.cfg = cfg,
		.db = plan->db,
		.strategy = choice->ops,
		.strategy_config = strategy_config(cfg, choice->ops),
		.mode = choice->mode,
		.pass = 1,
		.backlog = cfg->jobs,
		.arrivals = arrivals,
		.gate_lock = PTHREAD_MUTEX_INITIALIZER,
		.gate_opened = PTHREAD_COND_INITIALIZER,
	};
	struct run_threads t = {
		.w = calloc((size_t)workers, sizeof(*t.w)),
		.p = calloc((size_t)producers + 1, sizeof(*t.p)),
	};
	struct admin admin = { .plan = plan };
	struct job_state *final = calloc((size_t)total, sizeof(*final));
	char label[96], why[512];
	bool have_final;
	int rc = -1;

	atomic_init(&s.stop, false);
	atomic_init(&s.producers_running, 0);
	*out = result_of(cfg, choice, workers, repeat, arrivals);
	s.work_ns = plan->work_ns;
	s.enqueued_ns = enqueue_times(cfg->jobs, total);
	if (!t.w || !t.p || !final || !s.work_ns || !s.enqueued_ns) {
		snprintf(err, errlen, "out of memory");
		goto out_free;
	}
	if (admin_open(&admin, err, errlen) < 0 || name_tables(plan, admin.conn, &s, err, errlen) < 0)
		goto out_disconnect;
	if (queue_table_create(admin.conn, &s, cfg->jobs, err, errlen) < 0)
		goto out_drop;
	if (open_workers(plan, &s, t.w, workers, err, errlen) < 0)
		goto out_drop;
	if (open_producers(plan, &s, t.p, producers, err, errlen) < 0)
		goto out_close_workers;
	snprintf(label, sizeof(label), "%s %s x%d #%d", choice->ops->name, out->claim_mode, workers, repeat);
	if (start_and_wait(&s, &t, workers, producers, label, err, errlen) < 0)
		goto out_close;
	if (cfg->rerun_errors && !run_stopping(&s) && !any_aborted(&t) &&
	    rerun_errors(admin.conn, &s, &t, label, err, errlen) < 0)
		goto out_close;
	if (run_stopping(&s))
		plan->db->set_lock_wait(admin.conn, STOPPING_LOCK_WAIT_MS);
	have_final = read_final_state(&admin, &s, final, total, why, sizeof(why)) == 0;
	if (!have_final)
		fprintf(stderr, "claimbench: %s: %s; the figures that need it are unknown\n", label, why);
	if (measure(&s, &t, have_final ? final : NULL, out, err, errlen) < 0)
		goto out_close;
	out->complete = !report_aborts(&t) && !run_stopping(&s) && have_final;
	if (out->metrics.ledger_mismatches)
		fprintf(stderr, "claimbench: %s: the ledger and the table's final state disagree on %llu jobs\n",
			label, (unsigned long long)out->metrics.ledger_mismatches);
	rc = 0;
out_close:
	for (int i = 0; i < producers; i++)
		producer_close(&t.p[i]);
out_close_workers:
	for (int i = 0; i < workers; i++)
		worker_close(&t.w[i]);
out_drop:
	drop_tables(&admin, &s);
out_disconnect:
	admin_close(&admin);
out_free:
	free(s.enqueued_ns);
	free(final);
	free(t.p);
	free(t.w);
	if (rc < 0)
		run_result_free(out);
	return rc;
}

void run_result_free(struct run_result *r)
{
	free(r->per_worker);
	r->per_worker = NULL;
	free(r->series);
	r->series = NULL;
	r->n_series = 0;
	run_params_free(r);
}
