#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "engine/signals.h"
#include "model/metric_table.h"
#include "model/timeline.h"
#include "queue/monitor.h"
#include "queue/progress.h"
#include "queue/queue_table.h"

/* How often the monitor looks at the threads while they run. */
#define MONITOR_INTERVAL_NS 20000000

/* How often the monitor looks whether the throwaway server is gone. */
#define SERVER_CHECK_INTERVAL_NS 500000000LL

/* How often the monitor cancels again the statements of threads that have not yet seen the stop. */
#define RECANCEL_INTERVAL_NS 100000000

/* How long the monitor waits for a terminated server process to be gone, and how often it looks. */
#define TERMINATE_WAIT_NS 1000000000LL
#define TERMINATE_POLL_NS 1000000LL

int monitor_init(struct monitor *m, struct run_shared *s, const struct run_threads *t, struct admin *admin,
		 const struct run_plan *plan)
{
	memset(m, 0, sizeof(*m));
	m->s = s;
	m->t = t;
	m->admin = admin;
	m->plan = plan;
	m->lag = replication_lag_unknown();
	for (int kind = 0; kind < FAULT_KIND_COUNT; kind++)
		fault_clock_init(&m->clocks[kind], &s->cfg->faults.when[kind]);
	sampler_init(&m->sampler, s, admin);
	return ledger_init(&m->ledger, 0, 0, 0);
}

void monitor_free(struct monitor *m)
{
	ledger_free(&m->ledger);
	sampler_free(&m->sampler);
}

/* The running totals of t's workers and producers, summed. */
static struct live_totals live_totals(const struct run_threads *t)
{
	struct live_totals sum = { 0 };

	for (int i = 0; i < t->n_workers; i++)
		live_totals_add(&sum, &t->w[i].live);
	for (int i = 0; i < t->n_producers; i++)
		live_totals_add(&sum, &t->p[i].live);
	return sum;
}

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
 * Notes in m's ledger a fault of kind that struck worker (-1: the server) holding job (0:
 * none) at at_ns (clock_now_ns) and lasted duration_ns.
 */
static void note_fault(struct monitor *m, enum fault_kind kind, int worker, int64_t job, int64_t at_ns,
		       int64_t duration_ns)
{
	struct fault_record f = {
		.at_ns = at_ns - m->s->gate.start_ns,
		.duration_ns = duration_ns,
		.job_id = job,
		.kind = kind,
		.worker = worker,
	};

	if (ledger_add_fault(&m->ledger, &f) < 0 && !m->failed) {
		m->failed = true;
		snprintf(m->failure, sizeof(m->failure), "out of memory for the faults");
	}
}

/* Marks m failed for the first reason why. */
static void fail(struct monitor *m, const char *why)
{
	if (m->failed)
		return;
	m->failed = true;
	snprintf(m->failure, sizeof(m->failure), "%s", why);
}

/* Ignores a row of a query: only their number counts. */
static int ignore_row(void *ctx, const int64_t *cols, int ncols)
{
	(void)ctx;
	(void)cols;
	(void)ncols;
	return 0;
}

/* Waits until server process pid is gone, looking every millisecond for at most a second. Whether it went. */
static bool wait_gone(struct monitor *m, int pid)
{
	const struct backend_ops *db = m->s->db;
	int64_t give_up = clock_now_ns() + TERMINATE_WAIT_NS;
	char sql[96];

	snprintf(sql, sizeof(sql), db->sql->session_alive, pid);
	for (;;) {
		int rows = db->query(m->admin->conn, sql, ignore_row, NULL);

		if (rows == 0)
			return true;
		if (rows < 0 || clock_now_ns() >= give_up)
			return false;
		clock_sleep_ns(TERMINATE_POLL_NS);
	}
}

/*
 * Terminates the server process pid of worker w from the admin connection, connecting it
 * anew once when it was lost (a restart), and waits until it is gone, noting it in w's
 * killed_pid when it went. 0, or -1 with m failed.
 */
static int terminate(struct monitor *m, struct worker *w, int pid)
{
	const struct backend_ops *db = m->s->db;
	char sql[64], why[512];

	snprintf(sql, sizeof(sql), db->sql->terminate_session, pid);
	if ((m->admin->conn && db->exec(m->admin->conn, sql) == 0) ||
	    (admin_reconnected(m->admin) && db->exec(m->admin->conn, sql) == 0)) {
		if (wait_gone(m, pid))
			atomic_store(&w->killed_pid, pid);
		return 0;
	}
	snprintf(why, sizeof(why), "terminating server process %d: %s", pid,
		 m->admin->conn ? db->error_message(m->admin->conn) : "no connection");
	fail(m, why);
	return -1;
}

/*
 * Terminates the server process of every worker that asked for it (a kill-backend planned
 * for its job), and only then tells it so: its work goes on until its connection is gone.
 */
static void serve_kill_requests(struct monitor *m)
{
	for (int i = 0; i < m->t->n_workers; i++) {
		struct worker *w = &m->t->w[i];
		int pid;

		if (!atomic_load(&w->kill_requested))
			continue;
		pid = atomic_load(&w->server_pid);
		if (pid > 0)
			terminate(m, w, pid);
		atomic_store(&w->kill_requested, false);
	}
}

/*
 * Of m's workers that are still running, the one the fault of kind due now strikes, drawn
 * from the seed as the draw-th of its kind: with with_job, among those with a job in hand and
 * no fault handed to them yet; else among those connected. -1 when none is.
 */
static int pick_worker(const struct monitor *m, enum fault_kind kind, size_t draw, bool with_job)
{
	bool eligible[MAX_WORKERS];
	int n = m->t->n_workers;

	for (int i = 0; i < n; i++) {
		struct worker *w = &m->t->w[i];

		eligible[i] = !atomic_load(&w->finished) &&
			      (with_job ? atomic_load(&w->job_in_hand) != 0 && atomic_load(&w->pending_fault) == 0
					: atomic_load(&w->server_pid) > 0);
	}
	return fault_pick(m->s->cfg->seed, kind, draw, eligible, (size_t)n);
}

/* run_stopping for a server_restart's fn, which knows nothing of the run: run is the run's struct run_gate. */
static bool run_is_stopping(const void *run)
{
	return run_stopping(run);
}

/*
 * Restarts the server now (kind FAULT_RESTART) or fails it over to its standby
 * (FAULT_FAILOVER), noting it and how long it took until the server took connections
 * again; one that fails fails m.
 */
static void restart_server(struct monitor *m, enum fault_kind kind)
{
	const struct server_restart *how = kind == FAULT_FAILOVER ? &m->plan->failover : &m->plan->restart;
	const char *doing = kind == FAULT_FAILOVER ? "failing the server over" : "restarting the server";
	int64_t start;
	char err[400], why[512];

	if (!how->fn) {
		snprintf(why, sizeof(why), "%s: it cannot be done", doing);
		fail(m, why);
		return;
	}
	if (kind == FAULT_FAILOVER && m->lag.bytes == METRIC_UNKNOWN && isnan(m->lag.ms))
		replication_lag_sample(m->admin, &m->lag);
	start = clock_now_ns();
	if (how->fn(how->ctx, run_is_stopping, &m->s->gate, err, sizeof(err)) < 0) {
		snprintf(why, sizeof(why), "%s: %s", doing, err);
		fail(m, why);
	}
	note_fault(m, kind, -1, 0, start, clock_now_ns() - start);
}

/*
 * Injects a fault of kind, the draw-th of its kind: a crash or a stall is handed to a worker
 * with a job in hand, a kill-backend terminates a worker's server process, a restart
 * restarts the server. Whether it struck: false when no worker could take it now.
 */
static bool strike(struct monitor *m, enum fault_kind kind, size_t draw)
{
	int i;

	if (kind == FAULT_RESTART || kind == FAULT_FAILOVER) {
		restart_server(m, kind);
		return true;
	}
	i = pick_worker(m, kind, draw, kind != FAULT_KILL_BACKEND);
	if (i < 0)
		return false;
	if (kind != FAULT_KILL_BACKEND) {
		atomic_store(&m->t->w[i].pending_fault, kind + 1);
		return true;
	}
	note_fault(m, kind, i, atomic_load(&m->t->w[i].job_in_hand), clock_now_ns(), 0);
	terminate(m, &m->t->w[i], atomic_load(&m->t->w[i].server_pid));
	return true;
}

/* Injects the fault of kind whose instant is due (strike); it waits for a worker when none could take it. */
static void strike_due(struct monitor *m, enum fault_kind kind)
{
	struct fault_clock *clock = &m->clocks[kind];

	if (strike(m, kind, clock->next))
		clock->next++;
}

/*
 * Strikes the faults the timeline's phase in progress has due since its recorded start
 * (model/timeline.h), as strike_due does an instant's; those no worker could take
 * now wait for one, while the phase lasts. Their draws follow the instants' (from
 * MAX_FAULT_POINTS on), so that the phases' do not repeat theirs.
 */
static void strike_phase_faults(struct monitor *m)
{
	struct timeline_runner *r = m->timeline;
	int now = r ? atomic_load(&r->phase_now) : 0;
	const struct timeline_step *step;
	double since_s;
	long due, taken;
	int kind;

	if (!now)
		return;
	step = &m->s->cfg->timeline.steps[now - 1];
	kind = timeline_fault_kind(step->kind);
	if (kind < 0)
		return;
	since_s = (double)(clock_now_ns() - m->s->gate.start_ns - r->phases[now - 1].start_ns) / 1e9;
	due = timeline_faults_due(step, m->t->n_workers, since_s);
	/* In the phase while striking, and only while the runner has not ended it (its phase_now re-read each time). */
	atomic_store(&r->striking, now);
	while (m->phase_struck[now - 1] < due && atomic_load(&r->phase_now) == now &&
	       strike(m, (enum fault_kind)kind, MAX_FAULT_POINTS + (size_t)m->phase_draws)) {
		m->phase_struck[now - 1]++;
		m->phase_draws++;
	}
	/*
	 * A crash handed to a worker has struck once the worker took it (its pending fault
	 * cleared, its record written): until then the phase's count leaves it out, so that
	 * the phase does not end before its record.
	 */
	taken = m->phase_struck[now - 1];
	for (int i = 0; i < m->t->n_workers; i++)
		taken -= atomic_load(&m->t->w[i].pending_fault) != 0;
	atomic_store(&r->phase_faults[now - 1], taken > 0 ? taken : 0);
	atomic_store(&r->striking, 0);
}

/*
 * Cuts the standby off its primary's WAL --failover-lag-ms before the run's failover, once
 * (at the start when the failover is due sooner); one that fails fails m.
 */
static void cut_standby(struct monitor *m, double elapsed_s)
{
	const struct fault_plan *faults = &m->s->cfg->faults;
	const struct fault_trigger *when = &faults->when[FAULT_FAILOVER];
	char err[400], why[512];

	if (m->standby_cut || !faults->failover_lag_ms || !when->n_at ||
	    elapsed_s < when->at_s[0] - faults->failover_lag_ms / 1000.0)
		return;
	m->standby_cut = true;
	if (!m->plan->standby_cut) {
		fail(m, "cutting the standby off its primary: there is no throwaway standby");
		return;
	}
	if (m->plan->standby_cut(m->plan->standby_ctx, err, sizeof(err)) < 0) {
		snprintf(why, sizeof(why), "cutting the standby off its primary: %s", err);
		fail(m, why);
	}
}

/*
 * The reaper's pass, when it is due: gives jobs whose lease ran out back to new, noting each
 * in m's ledger (m fails when it cannot). A pass that fails is tried again at the next.
 */
static void reap(struct monitor *m, int64_t now)
{
	const struct recovery_plan *rec = &m->s->cfg->recovery;
	char err[512];
	int rc;

	if (!rec->reaper_ms || m->s->mode != MODE_FLIP || now < m->next_reap_ns)
		return;
	m->next_reap_ns = now + MS_TO_NS(rec->reaper_ms);
	rc = m->admin->conn ? queue_table_reap(m->admin->conn, m->s, &m->ledger, &m->reaped, err, sizeof(err)) : -1;
	if (rc == -1 && admin_reconnected(m->admin))
		rc = queue_table_reap(m->admin->conn, m->s, &m->ledger, &m->reaped, err, sizeof(err));
	if (rc == -2)
		fail(m, err);
}

/* Injects what is due now: the workers' kill requests, the faults at instants and of phases, the reaper's pass. */
static void inject(struct monitor *m)
{
	int64_t now = clock_now_ns();
	double elapsed_s = (double)(now - m->s->gate.start_ns) / 1e9;

	serve_kill_requests(m);
	cut_standby(m, elapsed_s);
	for (int kind = 0; kind < FAULT_KIND_COUNT; kind++)
		if (fault_clock_due(&m->clocks[kind], elapsed_s))
			strike_due(m, (enum fault_kind)kind);
	strike_phase_faults(m);
	if (!m->next_reap_ns)
		m->next_reap_ns = now + MS_TO_NS(m->s->cfg->recovery.reaper_ms);
	reap(m, now);
}

/*
 * Stops the run of m, failed, when the throwaway server is gone (its postmaster died): no
 * thread could connect again, and each would try for its reconnect limit.
 */
static void watch_server(struct monitor *m, int64_t now)
{
	if (now < m->next_server_check_ns)
		return;
	m->next_server_check_ns = now + SERVER_CHECK_INTERVAL_NS;
	if (!admin_server_gone(m->admin))
		return;
	fail(m, ADMIN_SERVER_GONE);
	atomic_store(&m->s->gate.stop, true);
}

void monitor_watch(struct monitor *m, const char *label)
{
	struct run_shared *s = m->s;
	const struct run_config *cfg = s->cfg;
	int64_t next_cancel = 0, now;
	struct live_totals totals;
	struct progress p;

	progress_init(&p, stderr, !cfg->no_progress);
	if (!m->lines_ready)
		interval_lines_init(&m->lines, stderr, cfg->progress_interval_s, s->gate.start_ns, s->gate.measured_from_ns,
				    m->t->n_producers > 0);
	m->lines_ready = true;
	while (!all_finished(m->t)) {
		if (run_stopping(&s->gate)) {
			atomic_store(&s->gate.stop, true);
			if (clock_now_ns() >= next_cancel) {
				signals_cancel_again();
				next_cancel = clock_now_ns() + RECANCEL_INTERVAL_NS;
			}
		} else {
			inject(m);
			watch_server(m, clock_now_ns());
		}
		now = clock_now_ns();
		if (!run_stopping(&s->gate))
			sampler_take_if_due(&m->sampler, m->t, now);
		totals = live_totals(m->t);
		if (interval_lines_due(&m->lines, now)) {
			progress_clear(&p);
			interval_lines_print(&m->lines, label, &totals, now);
		}
		progress_update(&p, label, totals.completed, cfg->duration_s > 0 ? 0 : (uint64_t)(s->backlog + s->arrivals),
				now - s->gate.start_ns);
		clock_sleep_ns(MONITOR_INTERVAL_NS);
	}
	progress_clear(&p);
	totals = live_totals(m->t);
	interval_lines_finish(&m->lines, label, &totals, clock_now_ns());
}

void monitor_report_unstruck(const struct monitor *m, const char *label)
{
	long executions = atomic_load(&m->s->executions_started);
	size_t left[FAULT_KIND_COUNT];

	for (int kind = 0; kind < FAULT_KIND_COUNT; kind++) {
		const struct fault_trigger *t = &m->s->cfg->faults.when[kind];

		left[kind] = m->clocks[kind].n - m->clocks[kind].next;
		for (size_t i = 0; i < t->n_exec; i++)
			if (t->exec[i] > executions)
				fprintf(stderr, "claimbench: %s: the %s at execution %ld never struck: the run had %ld\n", label,
					fault_kind_names[kind], t->exec[i], executions);
	}
	for (int i = 0; i < m->t->n_workers; i++) {
		int pending = atomic_load(&m->t->w[i].pending_fault);

		if (pending)
			left[pending - 1]++;
	}
	for (int kind = 0; kind < FAULT_KIND_COUNT; kind++)
		if (left[kind])
			fprintf(stderr, "claimbench: %s: %zu %s fault%s due at an instant never struck: the run ended "
				"first, or no worker had a job in hand\n", label, left[kind], fault_kind_names[kind],
				left[kind] == 1 ? "" : "s");
}
