#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/ownership.h"
#include "engine/admin.h"
#include "engine/run_plan.h"
#include "engine/signals.h"
#include "measure/ledger_table.h"
#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "queue/monitor.h"
#include "queue/pressure.h"
#include "queue/timeline_runner.h"
#include "queue/producer.h"
#include "queue/queue_table.h"
#include "queue/run.h"
#include "queue/run_account.h"
#include "queue/run_measure.h"
#include "queue/server_costs.h"
#include "queue/table_probe.h"
#include "queue/verify_audit.h"
#include "queue/worker_loop.h"

/*
 * Names the run's tables (prefix + "jobs", + "tickets", with --verify + "audit", with a
 * long-writer phase + "writer") in s, quoted for SQL, and keeps the owner (pid, host,
 * start) whose note marks each table the run creates, so that `claimbench cleanup` can
 * tell a dead run's tables. 0, or -1 with err.
 */
static int name_tables(const struct run_plan *plan, struct db_conn *conn, struct run_shared *s, char *err,
		       size_t errlen)
{
	char prefix[64];

	run_tables_prefix(plan->cfg->table_prefix, prefix, sizeof(prefix));
	if (run_table_name(plan->db, conn, prefix, "jobs", s->jobs_name, sizeof(s->jobs_name), s->jobs_table,
			   sizeof(s->jobs_table), err, errlen) < 0 ||
	    run_table_name(plan->db, conn, prefix, "tickets", s->tickets_name, sizeof(s->tickets_name),
			   s->tickets_table, sizeof(s->tickets_table), err, errlen) < 0 ||
	    (plan->cfg->verify && run_table_name(plan->db, conn, prefix, "audit", s->audit_name, sizeof(s->audit_name),
						 s->audit_table, sizeof(s->audit_table), err, errlen) < 0) ||
	    (timeline_has_kind(&plan->cfg->timeline, TIMELINE_LONG_WRITER) &&
	     run_table_name(plan->db, conn, prefix, "writer", s->writer_name, sizeof(s->writer_name), s->writer_table,
			    sizeof(s->writer_table), err, errlen) < 0))
		return -1;
	owner_self(&s->owner);
	s->names = (struct sql_names){
		.jobs = s->jobs_table, .tickets = s->tickets_table, .audit = *s->audit_name ? s->audit_table : NULL,
		.writer = *s->writer_name ? s->writer_table : NULL,
		.owner = &s->owner, .sql = plan->db->sql,
	};
	sql_names_lease(&s->names, &s->recovery_sql, s->mode == MODE_FLIP ? plan->cfg->recovery.lease_ms : 0,
			plan->cfg->recovery.reaper_ms > 0);
	return 0;
}

/* Drops the tables of s (a struct run_shared) that the run made, for admin_drop_tables. 0, or -1 with err. */
static int drop_tables(void *s, struct db_conn *conn, char *err, size_t errlen)
{
	return queue_table_drop(conn, s, err, errlen);
}
/* Connects and prepares n workers. 0, or -1 with err (the opened ones are closed). */
static int open_workers(struct run_shared *s, struct worker *w, int n, char *err, size_t errlen)
{
	const struct run_config *cfg = s->cfg;
	size_t expected = (size_t)(2 * (s->backlog + s->arrivals) / n) + 64;
	size_t empties = expected;

	/* while producers insert, an idle worker claims in vain about once per empty wait */
	if (s->arrivals)
		empties += (size_t)(run_config_arrival_s(cfg) * 1000 /
				    (cfg->empty_wait_ms > 0 ? cfg->empty_wait_ms : 1));

	for (int i = 0; i < n; i++) {
		char why[512];

		if (worker_open(&w[i], s, i, expected, empties, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "worker %d: %s", i, why);
			while (i--)
				worker_close(&w[i]);
			return -1;
		}
	}
	return 0;
}

/* Connects and prepares n producers. 0, or -1 with err (the opened ones are closed). */
static int open_producers(struct run_shared *s, struct producer *p, int n, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		char why[512];

		if (producer_open(&p[i], s, i, why, sizeof(why)) < 0) {
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

/*
 * Reports a run stopped for want of progress, aborted workers and producers, and a fault
 * that failed, on stderr. true when there was any.
 */
static bool report_aborts(const struct monitor *m, const char *label)
{
	const struct run_threads *t = m->t;
	const struct run_shared *s = m->s;
	bool any = m->failed;

	if (atomic_load(&s->no_progress)) {
		fprintf(stderr, "claimbench: %s: stopped: the run cannot progress: its workers lost their connection or "
			"crashed %ld times in a row with no job completed; the last: %s\n", label, s->loss_limit,
			s->no_progress_reason);
		any = true;
	}
	if (m->failed)
		fprintf(stderr, "claimbench: %s: %s\n", label, m->failure);
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

/*
 * Notes in out->strategy_failure the first abort reason of m's workers when every abort of
 * the run was by the strategy's own statements and nothing else (a stop, the monitor, a
 * producer, lost connections) ended it; "" else.
 */
static void note_strategy_failure(const struct monitor *m, struct run_result *out)
{
	const struct run_threads *t = m->t;
	const char *first = NULL;

	out->strategy_failure[0] = '\0';
	if (m->failed || atomic_load(&m->s->no_progress) || run_stopping(&m->s->gate))
		return;
	for (int i = 0; i < t->n_producers; i++)
		if (t->p[i].aborted)
			return;
	for (int i = 0; i < t->n_workers; i++) {
		if (!t->w[i].aborted)
			continue;
		if (!t->w[i].aborted_by_strategy)
			return;
		if (!first)
			first = t->w[i].abort_reason;
	}
	if (first)
		snprintf(out->strategy_failure, sizeof(out->strategy_failure), "%s", first);
}

/* A new array of total enqueue times: 0 for the backlog, INT64_MAX for the arrivals until inserted. */
static int64_t *enqueue_times(long backlog, long total)
{
	int64_t *enq = calloc((size_t)total, sizeof(*enq));

	for (long i = backlog; enq && i < total; i++)
		enq[i] = INT64_MAX;
	return enq;
}

/* A new array of total execution counters, each 0. */
static atomic_uint *execution_counters(long total)
{
	atomic_uint *counters = malloc((size_t)total * sizeof(*counters));

	for (long i = 0; counters && i < total; i++)
		atomic_init(&counters[i], 0);
	return counters;
}

/* Joins the first n workers and the producers of t. */
static void join_threads(const struct run_threads *t, int n_workers)
{
	for (int i = 0; i < n_workers; i++)
		pthread_join(t->w[i].thread, NULL);
	for (int i = 0; i < t->n_producers; i++)
		pthread_join(t->p[i].thread, NULL);
}

/*
 * Starts the pressure and timeline threads, the workers and producers of t (counting
 * those started in t), opens the gate and watches them until they have all finished,
 * then ends the pressure phases and the timeline. A thread that cannot start stops the
 * run; 0, or -1 with err then.
 */
static int start_and_wait(struct monitor *m, struct run_threads *t, struct pressure *pressure,
			  struct timeline_runner *timeline, int workers, int producers, const char *label, char *err,
			  size_t errlen)
{
	struct run_shared *s = m->s;
	int rc = 0;

	atomic_store(&s->producers_running, producers);
	if (pressure_start(pressure) < 0) {
		snprintf(err, errlen, "cannot start the pressure thread");
		return -1;
	}
	if (timeline_start(timeline) < 0) {
		snprintf(err, errlen, "cannot start the timeline thread");
		atomic_store(&s->gate.stop, true);
		run_open_gate(&s->gate, 0, 0);
		pressure_join(pressure);
		return -1;
	}
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
		atomic_store(&s->gate.stop, true);
		rc = -1;
	}
	run_open_gate(&s->gate, (int64_t)(s->cfg->duration_s * 1e9), (int64_t)(s->cfg->warmup_s * 1e9));
	monitor_watch(m, label);
	join_threads(t, t->n_workers);
	pressure_join(pressure);
	timeline_join(timeline);
	return rc;
}

/*
 * The second pass of --rerun-errors and --rerun-stuck: once the first has drained the
 * queue, give the jobs that failed, or those left active, back to state new (seed 000's
 * clear and free) and run the same workers again until it drains anew. The start instant
 * stays the first pass's, so the makespan covers both. 0, or -1 with err.
 */
static int rerun(struct admin *admin, struct monitor *m, const char *label, char *err, size_t errlen)
{
	struct run_shared *s = m->s;
	const struct run_threads *t = m->t;
	int started = 0;

	if ((s->cfg->rerun_errors && queue_table_clear_errors(admin->conn, s, err, errlen) < 0) ||
	    (s->cfg->recovery.rerun_stuck && queue_table_free_stuck(admin->conn, s, &m->ledger, err, errlen) < 0))
		return -1;
	s->pass = 2;
	for (int i = 0; i < t->n_workers; i++) {
		atomic_store(&t->w[i].saw_stop, false);
		atomic_store(&t->w[i].finished, false);
	}
	for (; started < t->n_workers; started++)
		if (worker_start(&t->w[started]) < 0)
			break;
	if (started < t->n_workers) {
		for (int i = started; i < t->n_workers; i++)
			atomic_store(&t->w[i].finished, true);
		atomic_store(&s->gate.stop, true);
	}
	monitor_watch(m, label);
	for (int i = 0; i < started; i++)
		pthread_join(t->w[i].thread, NULL);
	if (started < t->n_workers) {
		snprintf(err, errlen, "cannot start worker thread %d for the re-run", started);
		return -1;
	}
	return 0;
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
		.probes = { TABLE_PROBE_UNKNOWN, TABLE_PROBE_UNKNOWN },
	};
}

/* Whether the run of s, once its first pass is over, has a second one (--rerun-errors, --rerun-stuck). */
static bool reruns(const struct run_shared *s, const struct run_threads *t)
{
	return (s->cfg->rerun_errors || s->cfg->recovery.rerun_stuck) && s->cfg->duration_s <= 0 && !run_stopping(&s->gate) &&
	       !any_aborted(t);
}

/*
 * Says on stderr how many of what the strategy's workers must not still hold once stopped
 * (advisory locks) they still hold, while they are still connected; nothing when none.
 */
static void report_leftovers(const struct admin *admin, const struct run_shared *s, const char *label)
{
	int64_t count = 0;
	char why[512];

	if (!admin->conn || !s->strategy->leftover_sql[s->db->dialect])
		return;
	if (queue_table_leftovers(admin->conn, s, &count, why, sizeof(why)) < 0)
		fprintf(stderr, "claimbench: %s: %s\n", label, why);
	else if (count)
		fprintf(stderr, "claimbench: %s: %lld %s of the run still held at its end: leaked\n", label,
			(long long)count, s->strategy->leftover_what);
}

/*
 * --verify: reads the server's record of the run into audit, unless the run was stopped
 * (its give-backs are not compared) or the record cannot be read: says so on stderr then,
 * and audit stays empty.
 */
static void read_audit(struct admin *admin, const struct run_shared *s, const char *label, struct audit_record *audit)
{
	char why[512];

	if (!s->created_audit)
		return;
	if (run_stopping(&s->gate)) {
		fprintf(stderr, "claimbench: %s: not verified: the run was stopped\n", label);
		return;
	}
	if ((admin->conn && verify_audit_read(admin->conn, s, &audit->events, &audit->n, why, sizeof(why)) == 0) ||
	    (admin_reconnected(admin) && verify_audit_read(admin->conn, s, &audit->events, &audit->n, why,
							   sizeof(why)) == 0))
		return;
	fprintf(stderr, "claimbench: %s: not verified: %s\n", label, admin->conn ? why : "no connection");
}

/*
 * Runs the threads of t from the gate to their end, both passes, then reads the table's
 * final state (and, with --verify, the server's record) and computes out. 0, or -1 with err.
 */
static int run_and_measure(struct admin *admin, struct monitor *m, struct run_threads *t, struct pressure *pressure,
			   struct timeline_runner *timeline, int workers, int producers, const char *label,
			   struct run_result *out, char *err, size_t errlen)
{
	struct run_shared *s = m->s;
	long total = s->backlog + s->arrivals;
	struct job_state *final = calloc((size_t)total, sizeof(*final));
	struct audit_record audit = { 0 };
	char why[512];
	bool have_final;
	int rc = -1;

	if (!final) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	table_probe_take(admin, s, &out->probes[PROBE_BEFORE], label);
	s->costs.read_before = server_costs_read(admin, s, &s->costs.before);
	if (start_and_wait(m, t, pressure, timeline, workers, producers, label, err, errlen) < 0 ||
	    run_keep_timeline(timeline, label, out, err, errlen) < 0)
		goto out_free;
	if (reruns(s, t) && rerun(admin, m, label, err, errlen) < 0)
		goto out_free;
	s->costs.read_after = server_costs_read(admin, s, &s->costs.after);
	if (run_stopping(&s->gate) && admin->conn)
		s->db->set_lock_wait(admin->conn, RUN_STOPPING_LOCK_WAIT_MS);
	else
		table_probe_take(admin, s, &out->probes[PROBE_AFTER], label);
	have_final = queue_table_read_final(admin, s, final, total, why, sizeof(why)) == 0;
	if (!have_final)
		fprintf(stderr, "claimbench: %s: %s; the figures that need it are unknown\n", label, why);
	report_leftovers(admin, s, label);
	read_audit(admin, s, label, &audit);
	if (run_measure(s, m, have_final ? final : NULL, &audit, out, err, errlen) < 0 ||
	    run_keep_diagnostics(m, pressure, label, out, err, errlen) < 0)
		goto out_free;
	monitor_report_unstruck(m, label);
	if (out->metrics.dry.ran_dry == 1)
		fprintf(stderr, "claimbench: %s: ran out of jobs %.2f s into its %g s; %llu claims came back empty after; its "
			"throughput is over the time jobs were there\n", label, out->metrics.dry.at_s, s->cfg->duration_s,
			(unsigned long long)out->metrics.dry.empty_after);
	note_strategy_failure(m, out);
	out->complete = !report_aborts(m, label) && !run_stopping(&s->gate) && have_final && !timeline->failed;
	verify_report(&out->verify, label, "their answer lost with the connection");
	ledger_table_report_errors(&out->verify, s->cfg->group, label);
	if (out->metrics.failover.lost_completions && out->metrics.failover.lost_completions != METRIC_UNKNOWN)
		fprintf(stderr, "claimbench: %s: the failover lost %llu acknowledged completions (run again: %llu, left "
			"active: %llu); jobs: %s\n", label, (unsigned long long)out->metrics.failover.lost_completions,
			(unsigned long long)out->metrics.failover.rerun, (unsigned long long)out->metrics.failover.left_active,
			out->failover_jobs);
	if (out->metrics.failover.claims_lost && out->metrics.failover.claims_lost != METRIC_UNKNOWN)
		fprintf(stderr, "claimbench: %s: the failover lost %llu claims of jobs in hand: the new primary lacked "
			"them\n", label, (unsigned long long)out->metrics.failover.claims_lost);
	rc = 0;
out_free:
	free(audit.events);
	free(final);
	return rc;
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
		.strategy_config = cfg->strategy_configs[choice->kind].bytes,
		.mode = choice->mode,
		.workers = workers,
		.pass = 1,
		.backlog = cfg->jobs,
		.arrivals = arrivals,
		.target = plan->client_target ? plan->client_target : plan->target,
		.server_target = plan->target,
	};
	struct run_threads t = {
		.w = calloc((size_t)workers, sizeof(*t.w)),
		.p = calloc((size_t)producers + 1, sizeof(*t.p)),
	};
	struct admin admin = { .db = plan->db, .target = plan->target, .opts = &cfg->db_opts,
			       .server_gone = plan->server_gone, .server_ctx = plan->server_ctx };
	struct pressure pressure = { 0 };
	struct timeline_runner timeline = { .n_phases = 0 };
	struct run_account account = { .made = false };
	struct monitor m;
	char label[256];
	int rc = -1;

	run_gate_init(&s.gate);
	instants_init(&s.instants, workers);
	atomic_init(&s.producers_running, 0);
	atomic_init(&s.executions_started, 0);
	atomic_init(&s.next_identity, workers);
	atomic_init(&s.losses_in_a_row, 0);
	atomic_init(&s.no_progress, false);
	s.loss_limit = (long)workers * RUN_LOSSES_WITHOUT_PROGRESS_PER_WORKER;
	if (s.loss_limit < RUN_MIN_LOSSES_WITHOUT_PROGRESS)
		s.loss_limit = RUN_MIN_LOSSES_WITHOUT_PROGRESS;
	*out = result_of(cfg, choice, workers, repeat, arrivals);
	run_label(label, sizeof(label), cfg, choice->ops->name, out->claim_mode, workers, repeat);
	s.work_ns = plan->work_ns;
	s.enqueued_ns = enqueue_times(cfg->jobs, total);
	s.job_executions = execution_counters(total);
	if (!t.w || !t.p || !s.work_ns || !s.enqueued_ns || !s.job_executions ||
	    monitor_init(&m, &s, &t, &admin, plan) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out_free;
	}
	if (plan->standby_ready &&
	    plan->standby_ready(plan->standby_ctx, cfg->faults.standby, err, errlen) < 0)
		goto out_disconnect;
	if (admin_open(&admin, err, errlen) < 0 || name_tables(plan, admin.conn, &s, err, errlen) < 0)
		goto out_disconnect;
	server_costs_plan(&admin, &s);
	if (queue_table_create(admin.conn, &s, cfg->jobs, err, errlen) < 0)
		goto out_drop;
	if (cfg->verify && verify_audit_install(admin.conn, &s, err, errlen) < 0)
		goto out_drop;
	if (run_account_wanted(plan, &s)) {
		if (run_account_make(&account, &s, &admin, err, errlen) != 0)
			goto out_drop;
		s.target = account.target;
	}
	if (open_workers(&s, t.w, workers, err, errlen) < 0)
		goto out_drop_account;
	if (open_producers(&s, t.p, producers, err, errlen) < 0)
		goto out_close_workers;
	if (pressure_open(&pressure, &s, err, errlen) < 0 || timeline_open(&timeline, &s, err, errlen) < 0)
		goto out_close_pressure;
	m.timeline = &timeline;
	rc = run_and_measure(&admin, &m, &t, &pressure, &timeline, workers, producers, label, out, err, errlen);
out_close_pressure:
	if (timeline.s)
		timeline_close(&timeline);
	pressure_close(&pressure);
	for (int i = 0; i < producers; i++)
		producer_close(&t.p[i]);
out_close_workers:
	for (int i = 0; i < workers; i++)
		worker_close(&t.w[i]);
out_drop_account:
	run_account_drop(&account, &s, &admin, label);
out_drop:
	if (!run_leaves_tables(plan))
		admin_drop_tables(&admin, drop_tables, &s, label);
out_disconnect:
	admin_close(&admin);
	monitor_free(&m);
out_free:
	run_gate_destroy(&s.gate);
	free(s.job_executions);
	free(s.enqueued_ns);
	free(t.p);
	free(t.w);
	if (rc < 0)
		run_result_free(out);
	return rc;
}

int run_check_statements(const struct run_plan *plan, const struct strategy_choice *choice, char *err, size_t errlen)
{
	struct run_shared s = {
		.cfg = plan->cfg,
		.db = plan->db,
		.strategy = choice->ops,
		.mode = choice->mode,
		.target = plan->target,
		.server_target = plan->target,
	};
	struct admin admin = { .db = plan->db, .target = plan->target, .opts = &plan->cfg->db_opts,
			       .server_gone = plan->server_gone, .server_ctx = plan->server_ctx };
	struct run_account account = { .made = false };
	struct db_conn *confined = NULL;
	int rc = -1;

	if (admin_open(&admin, err, errlen) < 0 || name_tables(plan, admin.conn, &s, err, errlen) < 0)
		goto out_disconnect;
	if (queue_table_create(admin.conn, &s, 0, err, errlen) < 0)
		goto out_drop;
	if (run_account_wanted(plan, &s)) {
		rc = run_account_make(&account, &s, &admin, err, errlen);
		if (rc != 0) {
			rc = rc > 0 ? 2 : -1;
			goto out_drop;
		}
		rc = -1;
		if (plan->db->connect(account.target, &plan->cfg->db_opts, &confined, err, errlen) < 0)
			goto out_drop_account;
	}
	rc = worker_check_strategy(&s, confined ? confined : admin.conn, !plan->trust_scenario, err, errlen);
	plan->db->disconnect(confined);
out_drop_account:
	run_account_drop(&account, &s, &admin, choice->ops->name);
out_drop:
	admin_drop_tables(&admin, drop_tables, &s, choice->ops->name);
out_disconnect:
	admin_close(&admin);
	return rc;
}
