/* An explore session and one schedule in it; see explore_session.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "queue/job.h"
#include "queue/queue_table.h"
#include "explore/explore_session.h"
#include "explore/outcome.h"
#include "explore/step_driver.h"
#include "measure/metrics.h"

/*
 * The workers' sessions' settings, where the server lets them set them: the deadlock detector's
 * delay, and a plan made for each execution, so that a reused connection plans as a fresh one does.
 */
#define EXPLORE_SESSION_SETTINGS "SET plan_cache_mode = force_custom_plan; SET deadlock_timeout = '20ms'"

/* One worker thread's arguments. */
struct seat_arg {
	struct explore_session *x;	/* its session */
	int index;			/* its seat */
};

/* A worker's thread: its claims, through the strategy's hooks and the life of a job a run uses. */
static void *seat_main(void *arg)
{
	struct seat_arg *a = arg;
	struct explore_session *x = a->x;
	struct worker *w = &x->w[a->index];
	const struct strategy_ops *st = x->s.strategy;

	for (int c = 0; c < x->plan->claims && !run_stopping(&x->s.gate) && !w->aborted; c++) {
		int64_t job_id = 0, start = clock_now_ns(), end;
		enum claim_result r;
		int n = 1;

		struct claimable before = explore_claimable(x, w);

		w->held_flags = 0;
		r = st->claim_batch ? st->claim_batch(w, w->batch, w->batch_max, &n) : st->claim(w, &job_id);
		end = clock_now_ns();
		w->stats.claims++;
		if (r == CLAIM_OK) {
			if (!run_stopping(&x->s.gate))
				explore_look_order(x, w, st->claim_batch ? w->batch[0].id : job_id, before);
			if ((st->claim_batch ? worker_execute_batch(w, n, start, end)
					     : worker_execute(w, job_id, start, end)) < 0)
				break;
		} else if (r == CLAIM_EMPTY) {
			struct empty_claim e = { .start_ns = start - x->s.gate.start_ns, .end_ns = end - x->s.gate.start_ns,
						 .worker = w->index, .count = 1 };

			w->stats.empty++;
			if (ledger_add_empty(&w->ledger, &e) < 0)
				w->ledger_full = true;
			if (!run_stopping(&x->s.gate))
				explore_look_empty(x, w, before);
		}
	}
	scheduler_seat_finished(&x->sched, a->index);
	return NULL;
}

/* Whether the server process pid waits on a lock another of the schedule's sessions holds. 1, 0, or -1. */
static int blocked_in_server(void *ctx, int pid)
{
	struct explore_session *x = ctx;

	return explore_blocked_seen_on(x, step_driver_real_conn(x->admin.conn), pid);
}

/*
 * Gives the jobs back to their first state: the tables emptied, the ticket table's
 * numbering restarted, the jobs loaded anew. DELETE, not TRUNCATE, which costs a new file
 * per table at every schedule (docs/explore.md gives the figures). 0, or -1 with err.
 */
static int reset_tables(struct explore_session *x, char *err, size_t errlen)
{
	char sql[1024];
	int n = snprintf(sql, sizeof(sql), "DELETE FROM %s", x->s.jobs_table);

	if (x->s.created_tickets)
		snprintf(sql + n, sizeof(sql) - (size_t)n, "; DELETE FROM %s; SELECT setval(d.objid::regclass, 1, false) "
			 "FROM pg_depend AS d JOIN pg_class AS c ON c.oid = d.objid AND c.relkind = 'S' "
			 "WHERE d.refobjid = '%s'::regclass", x->s.tickets_table, x->s.tickets_table);
	if (x->db->exec(x->admin.conn, sql) < 0 ||
	    x->db->load_jobs(x->admin.conn, x->s.jobs_table, x->plan->cfg, x->plan->cfg->jobs) < 0) {
		snprintf(err, errlen, "resetting the tables: %s", x->db->error_message(x->admin.conn));
		return -1;
	}
	return 0;
}

/* Connects and prepares the workers, each on its seat. 0, or -1 with err (none left open). */
static int open_workers(struct explore_session *x, char *err, size_t errlen)
{
	size_t expected = (size_t)x->plan->claims * 2 + 8;

	for (int i = 0; i < x->plan->workers; i++) {
		char why[512];

		step_driver_seat_next(i);
		if (worker_open(&x->w[i], &x->s, i, expected, expected, why, sizeof(why)) < 0) {
			step_driver_seat_next(-1);
			snprintf(err, errlen, "worker %d: %s", i, why);
			while (i--)
				worker_close(&x->w[i]);
			return -1;
		}
		x->plan->db->exec(step_driver_real_conn(x->w[i].conn), EXPLORE_SESSION_SETTINGS);
	}
	x->workers_open = true;
	return 0;
}

/* Closes the workers' connections, if open. */
static void close_workers(struct explore_session *x)
{
	for (int i = 0; x->workers_open && i < x->plan->workers; i++)
		worker_close(&x->w[i]);
	x->workers_open = false;
}

/*
 * Makes the workers ready for a schedule: those of the last one again, as they were
 * before it (an empty ledger, no counts), when it left nothing on their sessions (no
 * crash, no bound, no abort) and the strategy keeps no state of its own per worker;
 * else connected anew. 0, or -1 with err.
 */
static int ready_workers(struct explore_session *x, char *err, size_t errlen)
{
	if (!x->workers_reusable) {
		close_workers(x);
		return open_workers(x, err, errlen);
	}
	for (int i = 0; i < x->plan->workers; i++) {
		struct worker *w = &x->w[i];

		w->ledger.n_execs = w->ledger.n_empties = w->ledger.n_errors = w->ledger.n_faults = 0;
		w->ledger.n_returns = 0;
		memset(&w->stats, 0, sizeof(w->stats));
		hist_init(&w->stats.claim_latency);
		w->begin_pending = false;
		atomic_store(&w->saw_stop, false);
		atomic_store(&w->finished, false);
	}
	return 0;
}

/* Frees what explore_session_open took of x beside its connections and tables. */
static void free_parts(struct explore_session *x)
{
	run_gate_destroy(&x->s.gate);
	free(x->work_ns);
	free(x->final);
	free(x->s.job_executions);
	ledger_free(&x->returns);
	step_driver_stop();
	scheduler_free(&x->sched);
	pthread_mutex_destroy(&x->probe_lock);
}

int explore_session_open(struct explore_session *x, const struct explore_plan *plan, char *err, size_t errlen)
{
	const struct run_config *cfg = plan->cfg;
	char prefix[64];

	memset(x, 0, sizeof(*x));
	x->plan = plan;
	pthread_mutex_init(&x->probe_lock, NULL);
	if (scheduler_init(&x->sched, plan->workers, plan->max_steps) < 0) {
		pthread_mutex_destroy(&x->probe_lock);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (ledger_init(&x->returns, 0, 0, 0) < 0) {
		scheduler_free(&x->sched);
		pthread_mutex_destroy(&x->probe_lock);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	x->db = step_driver_start(plan->db, &x->sched);
	x->s = (struct run_shared){
		.cfg = cfg, .db = x->db, .strategy = plan->choice.ops,
		.strategy_config = cfg->strategy_configs[plan->choice.kind].bytes, .mode = plan->choice.mode,
		.workers = plan->workers, .pass = 1, .backlog = cfg->jobs, .target = plan->target,
	};
	run_gate_init(&x->s.gate);
	x->s.gate.open = true;
	x->s.gate.virtual_time = true;
	atomic_init(&x->s.next_identity, plan->workers);
	x->s.loss_limit = RUN_MIN_LOSSES_WITHOUT_PROGRESS;
	x->work_ns = calloc((size_t)cfg->jobs, sizeof(*x->work_ns));
	x->final = calloc((size_t)cfg->jobs, sizeof(*x->final));
	x->s.job_executions = calloc((size_t)cfg->jobs, sizeof(*x->s.job_executions));
	x->s.work_ns = x->work_ns;
	if (!x->work_ns || !x->final || !x->s.job_executions) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	x->admin = (struct admin){ .db = x->db, .target = plan->target, .opts = &cfg->db_opts };
	if (admin_open(&x->admin, err, errlen) < 0)
		goto fail;
	snprintf(prefix, sizeof(prefix), "%sexplore_%ld_", cfg->table_prefix ? cfg->table_prefix : "claimbench_",
		 (long)getpid());
	snprintf(x->s.jobs_name, sizeof(x->s.jobs_name), "%sjobs", prefix);
	snprintf(x->s.tickets_name, sizeof(x->s.tickets_name), "%stickets", prefix);
	if (x->db->quote_identifier(x->admin.conn, x->s.jobs_name, x->s.jobs_table, sizeof(x->s.jobs_table)) < 0 ||
	    x->db->quote_identifier(x->admin.conn, x->s.tickets_name, x->s.tickets_table,
				    sizeof(x->s.tickets_table)) < 0) {
		snprintf(err, errlen, "cannot quote the table names of prefix %s", prefix);
		goto fail_admin;
	}
	owner_self(&x->s.owner);
	x->s.names = (struct sql_names){ .jobs = x->s.jobs_table, .tickets = x->s.tickets_table, .owner = &x->s.owner,
					 .sql = plan->db->sql };
	sql_names_lease(&x->s.names, &x->s.recovery_sql, x->s.mode == MODE_FLIP ? cfg->recovery.lease_ms : 0,
			cfg->recovery.reaper_ms > 0);
	step_driver_shorten(0, x->s.jobs_table, "{jobs}");
	step_driver_shorten(1, x->s.tickets_table, "{tickets}");
	if (queue_table_create(x->admin.conn, &x->s, cfg->jobs, err, errlen) < 0)
		goto fail_tables;
	for (int i = 0; i < plan->workers; i++) {
		if (plan->db->connect(plan->target, &cfg->db_opts, &x->probe[i], err, errlen) < 0)
			goto fail_tables;
	}
	return 0;
fail_tables:
	explore_session_close(x);
	return -1;
fail_admin:
	admin_close(&x->admin);
fail:
	free_parts(x);
	return -1;
}

/* Drops the tables of s (a struct run_shared) that the session made, for admin_drop_tables. 0, or -1 with err. */
static int drop_tables(void *s, struct db_conn *conn, char *err, size_t errlen)
{
	return queue_table_drop(conn, s, err, errlen);
}

void explore_session_close(struct explore_session *x)
{
	for (int i = 0; i < x->plan->workers; i++)
		if (x->probe[i])
			x->plan->db->disconnect(x->probe[i]);
	close_workers(x);
	admin_drop_tables(&x->admin, drop_tables, &x->s, "explore");
	admin_close(&x->admin);
	free_parts(x);
}

/* Whether the server process pid is gone (a crashed worker's, which rolls back what it held). */
static bool process_gone(struct explore_session *x, int pid)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM pg_stat_activity WHERE pid = %d", pid);
	return explore_value_of(x->plan->db, step_driver_real_conn(x->admin.conn), sql) == 0;
}

/*
 * The scheduler's abandon: drops seat's connection as a crashed process's, and waits until
 * the server let it go; x->crash_lingers when it did not within SETTLE_TIMEOUT_NS.
 */
static void abandon_seat(void *ctx, int seat)
{
	struct explore_session *x = ctx;
	int pid = x->sched.seats[seat].pid;
	int64_t give_up = clock_now_ns() + SETTLE_TIMEOUT_NS;
	bool gone;

	step_driver_abandon(seat);
	while (!(gone = process_gone(x, pid)) && clock_now_ns() < give_up)
		clock_sleep_ns(200000);
	x->crash_lingers = !gone;
}

/*
 * The number of jobs active with a lease now that no worker's open transaction holds (whose
 * lease can run out), -1 on an error.
 */
static int64_t leased_jobs(struct explore_session *x)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM (SELECT 1 FROM %s WHERE status = 'active' AND lease_until IS "
		 "NOT NULL FOR UPDATE SKIP LOCKED) AS leased", x->s.jobs_table);
	return explore_value_of(x->plan->db, step_driver_real_conn(x->admin.conn), sql);
}

/* The choices at a settled point into out (room for 2 * workers + 1). How many. */
static int choices_now(struct explore_session *x, struct choice *out)
{
	const struct explore_plan *p = x->plan;
	bool fresh_offered = false;
	int n = 0;

	pthread_mutex_lock(&x->sched.lock);
	for (int i = 0; i < p->workers; i++) {
		const struct seat *t = &x->sched.seats[i];

		if (t->state != SEAT_WAITING)
			continue;
		/* workers are alike: of those that have made no step, the first stands for them all */
		if (t->steps == 0 && fresh_offered)
			continue;
		fresh_offered |= t->steps == 0;
		out[n++] = (struct choice){ CHOICE_STEP, i };
	}
	for (int i = 0; p->crashes && !x->crashed && i < p->workers; i++)
		if (x->sched.seats[i].state == SEAT_WAITING && x->sched.seats[i].steps > 0)
			out[n++] = (struct choice){ CHOICE_CRASH, i };
	pthread_mutex_unlock(&x->sched.lock);
	if (x->s.mode == MODE_FLIP && p->cfg->recovery.lease_ms > 0 && !x->expired && n && leased_jobs(x) > 0)
		out[n++] = (struct choice){ CHOICE_EXPIRE, -1 };
	return n;
}

/*
 * Lets every active lease run out, and the reaper, when there is one, give their jobs back;
 * noted as an event. The reaper's UPDATE meets no lock: every worker is settled, and the
 * rows whose lease ran out are those no transaction held a moment before.
 */
static void expire_leases(struct explore_session *x)
{
	char sql[1024], result[EXPLORE_TEXT], err[256];
	struct db_conn *conn = step_driver_real_conn(x->admin.conn);
	int64_t n;

	x->expired = true;
	/* a row a worker's open transaction holds is being written: its lease is not the one that runs out */
	snprintf(sql, sizeof(sql), "WITH e AS (UPDATE %s SET lease_until = now() - interval '1 hour' WHERE id IN "
		 "(SELECT id FROM %s WHERE status = 'active' AND lease_until IS NOT NULL FOR UPDATE SKIP LOCKED) "
		 "RETURNING 1) SELECT count(*) FROM e", x->s.jobs_table, x->s.jobs_table);
	n = explore_value_of(x->plan->db, conn, sql);
	x->expired = n > 0;
	if (n >= 0 && x->plan->cfg->recovery.reaper_ms > 0) {
		uint64_t before = x->reaped;

		if (queue_table_reap(x->admin.conn, &x->s, &x->returns, &x->reaped, err, sizeof(err)) < 0)
			snprintf(result, sizeof(result), "leases of %lld jobs ran out; the reaper failed", (long long)n);
		else
			snprintf(result, sizeof(result), "leases of %lld jobs ran out; the reaper gave back %llu",
				 (long long)n, (unsigned long long)(x->reaped - before));
	} else if (n >= 0) {
		snprintf(result, sizeof(result), "leases of %lld jobs ran out", (long long)n);
	} else {
		snprintf(result, sizeof(result), "could not: %s", x->plan->db->error_message(conn));
	}
	scheduler_note(&x->sched, EVENT_EXPIRE, -1, "the leases expire", result);
}

/* Starts the schedule's worker threads. The number started. */
static int start_seats(struct explore_session *x, pthread_t *threads, struct seat_arg *args)
{
	int started = 0;

	for (; started < x->plan->workers; started++) {
		args[started] = (struct seat_arg){ x, started };
		if (pthread_create(&threads[started], NULL, seat_main, &args[started]) != 0)
			break;
	}
	return started;
}

/*
 * After no settled point came within SETTLE_TIMEOUT_NS: names in err the first worker whose
 * statement is still in the server (end_statements then ends every worker's).
 */
static void name_hung(struct explore_session *x, char *err, size_t errlen)
{
	int first = -1;

	pthread_mutex_lock(&x->sched.lock);
	for (int i = 0; i < x->plan->workers && first < 0; i++) {
		if (!x->sched.seats[i].in_server)
			continue;
		first = i;
		snprintf(err, errlen, "worker %d's statement neither returned nor blocked within %lld s: %s", i,
			 SETTLE_TIMEOUT_NS / 1000000000LL, x->sched.seats[i].next);
	}
	pthread_mutex_unlock(&x->sched.lock);
	if (first < 0)
		snprintf(err, errlen, "the workers did not settle within %lld s", SETTLE_TIMEOUT_NS / 1000000000LL);
}

/* How often end_statements cancels again the statement of a worker that still runs. */
#define CANCEL_AGAIN_NS (100 * 1000000LL)

/*
 * After a failed schedule, once the scheduler is released: cancels the statement of each
 * of the started workers that still runs, again every CANCEL_AGAIN_NS until every one is
 * done, so that none runs its statement to its end (a claim that sleeps an hour): one not
 * in the server when the search failed sends its next statement on the release, and a
 * cancel sent before that statement reaches the server ends nothing.
 */
static void end_statements(struct explore_session *x, int started)
{
	bool running[EXPLORE_MAX_WORKERS];

	for (long long wait_ns = 0; scheduler_seats_running(&x->sched, started, wait_ns, running);
	     wait_ns = CANCEL_AGAIN_NS)
		for (int i = 0; i < started; i++)
			if (running[i] && x->w[i].conn)
				x->plan->db->cancel(step_driver_real_conn(x->w[i].conn));
}

/*
 * Drives the schedule from settled point to settled point, each choice asked of choose,
 * until every worker is done or the schedule is bounded. 0; 1 when choose refused; -1
 * with err on a hang, or when a crashed worker's server session outlived SETTLE_TIMEOUT_NS.
 */
static int drive(struct explore_session *x, choose_fn choose, void *ctx, struct trace *t, char *err, size_t errlen)
{
	for (;;) {
		struct choice options[2 * EXPLORE_MAX_WORKERS + 1];
		bool released;
		int n, pick;

		if (scheduler_settle(&x->sched, blocked_in_server, x, SETTLE_TIMEOUT_NS) < 0) {
			name_hung(x, err, errlen);
			return -1;
		}
		pthread_mutex_lock(&x->sched.lock);
		released = x->sched.released;
		pthread_mutex_unlock(&x->sched.lock);
		if (released)
			return 0;
		n = choices_now(x, options);
		if (n == 0) {
			bool any_blocked = false;

			pthread_mutex_lock(&x->sched.lock);
			for (int i = 0; i < x->plan->workers; i++)
				any_blocked |= x->sched.seats[i].state == SEAT_RUNNING;
			pthread_mutex_unlock(&x->sched.lock);
			if (!any_blocked)
				return 0;
			if (scheduler_await_return(&x->sched, SETTLE_TIMEOUT_NS) < 0) {
				snprintf(err, errlen, "the workers wait on each other and the server ends none");
				return -1;
			}
			continue;
		}
		if (t->n == TRACE_MAX) {
			snprintf(err, errlen, "more than %d choices in one schedule", TRACE_MAX);
			return -1;
		}
		pick = choose(ctx, t->n, options, n);
		if (pick < 0)
			return 1;
		t->at[t->n] = options[pick];
		t->options[t->n] = n;
		t->taken[t->n++] = pick;
		if (options[pick].kind == CHOICE_STEP) {
			scheduler_grant(&x->sched, options[pick].worker);
		} else if (options[pick].kind == CHOICE_CRASH) {
			x->crashed = true;
			x->crash_ns = clock_now_ns();
			scheduler_crash(&x->sched, options[pick].worker, abandon_seat, x);
			if (x->crash_lingers) {
				snprintf(err, errlen, "worker %d crashed, and its server session (process %d) did not "
					 "end within %lld s: its locks may still be held", options[pick].worker,
					 x->sched.seats[options[pick].worker].pid, SETTLE_TIMEOUT_NS / 1000000000LL);
				return -1;
			}
		} else {
			expire_leases(x);
		}
	}
}

/* Moves the schedule's events into out. 0, or -1 when out of memory. */
static int keep_events(struct explore_session *x, struct schedule_outcome *out)
{
	out->n_events = x->sched.n_events;
	out->events = malloc((out->n_events ? out->n_events : 1) * sizeof(*out->events));
	if (!out->events)
		return -1;
	memcpy(out->events, x->sched.events, out->n_events * sizeof(*out->events));
	for (size_t i = 0; i < out->n_events; i++)
		out->blocked |= out->events[i].blocked;
	return 0;
}

int explore_session_run(struct explore_session *x, choose_fn choose, void *ctx, struct schedule_outcome *out, char *err,
		size_t errlen)
{
	pthread_t threads[EXPLORE_MAX_WORKERS];
	struct seat_arg args[EXPLORE_MAX_WORKERS];
	int started, rc;

	memset(out, 0, sizeof(*out));
	memset(x->found, 0, sizeof(x->found));
	x->returns.n_returns = 0;
	x->reaped = 0;
	x->expired = false;
	x->crashed = false;
	x->crash_lingers = false;
	atomic_store(&x->s.gate.stop, false);
	for (long j = 0; j < x->plan->cfg->jobs; j++)
		atomic_store(&x->s.job_executions[j], 0);
	if (reset_tables(x, err, errlen) < 0 || ready_workers(x, err, errlen) < 0)
		return -1;
	scheduler_begin(&x->sched);
	x->s.gate.start_ns = x->s.gate.measured_from_ns = clock_now_ns();
	started = start_seats(x, threads, args);
	if (started < x->plan->workers) {
		snprintf(err, errlen, "cannot start worker thread %d", started);
		rc = -1;
	} else {
		rc = drive(x, choose, ctx, &out->trace, err, errlen);
	}
	pthread_mutex_lock(&x->sched.lock);
	out->bounded = x->sched.bounded;
	pthread_mutex_unlock(&x->sched.lock);
	if (rc == 0 && !out->bounded && x->s.mode == MODE_FLIP && x->plan->cfg->recovery.lease_ms > 0 &&
	    x->plan->cfg->recovery.reaper_ms > 0 && leased_jobs(x) > 0)
		expire_leases(x);
	atomic_store(&x->s.gate.stop, true);
	scheduler_release(&x->sched);
	if (rc < 0)
		end_statements(x, started);
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_lock(&x->sched.lock);
	x->sched.armed = false;
	pthread_mutex_unlock(&x->sched.lock);
	if (rc == 0 && !out->bounded && explore_check_outcome(x, out, err, errlen) < 0)
		rc = -1;
	if (rc >= 0 && keep_events(x, out) < 0) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	x->workers_reusable = rc == 0 && !out->bounded && !x->crashed && !x->s.strategy->worker_init;
	for (int i = 0; i < x->plan->workers; i++)
		x->workers_reusable &= !x->w[i].aborted;
	return rc;
}
