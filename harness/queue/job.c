/*
 * The life of one job in a worker's hand: the work (a sleep that wakes to beat the lease's
 * heartbeat, to meet the faults planned for it, and to see the run stop), then the
 * completion, and the execution as the ledger keeps it. A crash drops the connection
 * and starts the worker's replacement; a lost connection is made anew and the
 * completion tried again.
 */

#include "base/clock.h"
#include "engine/run_plan.h"
#include "engine/workload.h"
#include "queue/fault.h"
#include "queue/job.h"

/* How the work of a job ended. */
enum work_end {
	WORK_DONE,	/* it was done: the completion is due */
	WORK_STOPPED,	/* the run stopped: the job goes back */
	WORK_CRASHED,	/* the worker crashed: the job is abandoned */
	WORK_ABANDONED,	/* a lost connection could not be made anew: the worker stops, the job left as it is */
};

/* A job in hand. */
struct job_in_hand {
	int64_t id;		/* the job */
	int64_t work_ns;	/* its work time, a stall's included */
	unsigned planned;	/* the faults planned for this execution, FAULT_BIT()s, struck halfway through */
	bool stalled;		/* the worker stalled during it */
};

/* Notes that a fault of kind struck w now, holding job. Sets w->ledger_full when the ledger cannot grow. */
static void note_fault(struct worker *w, enum fault_kind kind, int64_t job)
{
	struct fault_record f = {
		.at_ns = clock_now_ns() - w->shared->gate.start_ns,
		.job_id = job,
		.kind = kind,
		.worker = w->index,
	};

	if (ledger_add_fault(&w->ledger, &f) < 0)
		w->ledger_full = true;
}

/* Extends the lease of the job in hand; a lost connection is made anew. false when w must stop. */
static bool beat(struct worker *w, int64_t job)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job), w->identity_text };

	if (worker_exec(w, SLOT_HEARTBEAT, 2, params, NULL, 0) >= 0 || !worker_lost_connection(w))
		return true;
	return worker_reconnect(w) == 0;
}

/*
 * Lets fault kind strike w, which holds j: a stall holds its work up for the stall time
 * (the heartbeat, a thread of its own in the queues that have one, goes on beating), a
 * kill-backend asks the monitor to terminate its server process. false for a crash: the
 * work ends there.
 */
static bool strike(struct worker *w, struct job_in_hand *j, enum fault_kind kind)
{
	note_fault(w, kind, j->id);
	if (kind == FAULT_CRASH)
		return false;
	if (kind == FAULT_STALL) {
		j->stalled = true;
		j->work_ns += MS_TO_NS(w->shared->cfg->faults.stall_ms);
	} else if (kind == FAULT_KILL_BACKEND) {
		atomic_store(&w->kill_requested, true);
	}
	return true;
}

/* Lets the planned faults of j strike, crash last. false when it crashed. */
static bool strike_planned(struct worker *w, struct job_in_hand *j)
{
	bool alive = true;

	for (int kind = 0; kind < FAULT_KIND_COUNT; kind++)
		if (kind != FAULT_CRASH && (j->planned & FAULT_BIT(kind)))
			strike(w, j, (enum fault_kind)kind);
	if (j->planned & FAULT_BIT(FAULT_CRASH))
		alive = strike(w, j, FAULT_CRASH);
	j->planned = 0;
	return alive;
}

/* The interval of w's heartbeats: in flip mode with a lease and a heartbeat, else 0 (none). */
static int64_t beat_interval(const struct worker *w)
{
	const struct run_shared *s = w->shared;
	const struct recovery_plan *rec = &s->cfg->recovery;

	return s->mode == MODE_FLIP && rec->lease_ms && rec->heartbeat_ms ? MS_TO_NS(rec->heartbeat_ms) : 0;
}

/* When w's first heartbeat after a claim that ended at in_hand is due; INT64_MAX for none. */
static int64_t first_beat(const struct worker *w, int64_t in_hand)
{
	int64_t beat_ns = beat_interval(w);

	return beat_ns ? in_hand + beat_ns : INT64_MAX;
}

/*
 * Works on j: its work time, heartbeats in flip mode with a lease, and the faults that
 * strike it. A kill-backend it asked for lands before the work ends. *next_beat is when
 * the next heartbeat is due (first_beat's, then as it left it: the jobs of a batch share
 * one rhythm, since their leases began with one claim).
 */
static enum work_end work(struct worker *w, struct job_in_hand *j, int64_t *next_beat)
{
	const struct run_shared *s = w->shared;
	int64_t beat_ns = beat_interval(w), worked = 0, next = *next_beat;
	enum work_end end = WORK_DONE;

	atomic_store(&w->job_in_hand, j->id);
	for (;;) {
		int pending = atomic_exchange(&w->pending_fault, 0);
		int64_t before, slice;

		if (run_stopping(&s->gate)) {
			end = WORK_STOPPED;
			break;
		}
		if ((pending && !strike(w, j, (enum fault_kind)(pending - 1))) ||
		    (j->planned && worked >= j->work_ns / 2 && !strike_planned(w, j))) {
			end = WORK_CRASHED;
			break;
		}
		if (worked >= j->work_ns && !atomic_load(&w->kill_requested))
			break;
		before = clock_now_ns();
		if (before >= next) {
			if (!beat(w, j->id)) {
				end = run_stopping(&s->gate) ? WORK_STOPPED : WORK_ABANDONED;
				break;
			}
			next = clock_now_ns() + beat_ns;
		}
		slice = j->work_ns - worked;
		if (j->planned && j->work_ns / 2 - worked > 0 && j->work_ns / 2 - worked < slice)
			slice = j->work_ns / 2 - worked;
		if (slice > RUN_WAKE_NS)
			slice = RUN_WAKE_NS;
		if (next - before < slice)
			slice = next - before;
		clock_sleep_ns(slice);
		worked += clock_now_ns() - before;
	}
	atomic_store(&w->job_in_hand, 0);
	*next_beat = next;
	return end;
}

/*
 * Bounds how long w's statements after the stop wait for another session's lock: once w
 * has seen the stop the signal thread no longer cancels them, and a give-back waiting on a
 * lock held for a minute would hold the stop up that long. A give-back that waits longer
 * fails and leaves its job active, as the end of the run reports.
 */
static void bound_stop_wait(struct worker *w)
{
	atomic_store(&w->saw_stop, true);
	if (w->conn && w->shared->mode != MODE_HOLD)
		w->shared->db->set_lock_wait(w->conn, RUN_STOPPING_LOCK_WAIT_MS);
}

/* Gives the job in hand back, its work cut short by a stop: rolled back in hold mode, freed in flip mode. */
static void give_back(struct worker *w, int64_t job_id)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->identity_text };

	bound_stop_wait(w);
	if (!w->conn)
		return;
	if (w->shared->mode == MODE_HOLD)
		worker_rollback(w);
	else
		worker_exec(w, SLOT_FREE, 2, params, NULL, 0);
}

/*
 * After w's completion (of one job or a batch) begun at w->completion_sent_ns failed:
 * whether to try it again, having paused the run's empty wait. Yes in flip mode when it
 * met lock contention (a deadlock, a lock wait timeout, BUSY ...), as a worker retries
 * contention: the claim is committed and outlives the failed statement, which did nothing;
 * for WORKER_STALL_NS at most, while the run goes on. In hold mode the failure ended the
 * claim's transaction and gave the job back.
 */
static bool retry_contended(struct worker *w)
{
	const struct run_shared *s = w->shared;

	if (s->mode == MODE_HOLD || !w->conn || !error_kind_is_contention(s->db->error_kind(w->conn)))
		return false;
	if (clock_now_ns() - w->completion_sent_ns >= WORKER_STALL_NS || run_stopping(&s->gate))
		return false;
	return worker_pause_ns(w, MS_TO_NS(s->cfg->empty_wait_ms));
}

/*
 * Completes job (slot: done or failed) through the strategy's finish. After a lost
 * connection it connects anew and asks the table whether the completion committed before
 * the connection went (its answer lost on the way), unless the monitor had seen w's server
 * process gone before it was sent (it committed nothing: the table's row may show another
 * worker's completion over w's claim, naive's); if not, in flip mode, where the claim
 * outlives the connection, it tries once more; a flip completion that meets contention
 * is tried again (retry_contended). 0 committed, 1 refused (fenced), -1 not
 * done. *lost_at: when the connection was found lost, else 0; in hold mode the work's
 * transaction died then, and so the execution ended.
 */
static int complete(struct worker *w, int64_t job, int slot, int64_t *lost_at)
{
	const struct strategy_ops *st = w->shared->strategy;
	bool killed = worker_session_killed(w);
	int rc;

	w->completion_sent_ns = clock_now_ns();
	do
		rc = st->finish ? st->finish(w, job, slot) : worker_finish(w, job, slot);
	while (rc < 0 && retry_contended(w));

	*lost_at = 0;
	if (rc >= 0 || !worker_lost_connection(w) || run_stopping(&w->shared->gate))
		return rc;
	*lost_at = clock_now_ns();
	if (worker_reconnect(w) < 0)
		return -1;
	switch (killed ? 0 : worker_finished_by_claim(w, slot, job)) {
	case 1:
		return 0;
	case 0:
		break;
	default:
		return -1;
	}
	if (w->shared->mode == MODE_HOLD)
		return -1;
	return st->finish ? st->finish(w, job, slot) : worker_finish(w, job, slot);
}

/* Whether the run's --fail-rate marks job_id error rather than done (in the first pass only). */
static bool job_fails(const struct run_shared *s, int64_t job_id)
{
	return s->pass == 1 && workload_fails(s->cfg->seed, job_id, s->cfg->fail_rate);
}

/* The execution of job_id by w whose claim began at claim_start and ended at in_hand, its outcome and end to come. */
static struct execution execution_of(const struct worker *w, int64_t job_id, int64_t claim_start, int64_t in_hand)
{
	return (struct execution){
		.job_id = job_id,
		.claim_start_ns = claim_start - w->shared->gate.start_ns,
		.start_ns = in_hand - w->shared->gate.start_ns,
		.worker = w->index,
		.identity = w->identity,
	};
}

/*
 * Sets up the execution e of job_id by w (its claim began at claim_start, it was in hand at
 * in_hand) and the job in hand j, whose work begins now: its work time and the faults
 * planned for it.
 */
static void begin_execution(struct worker *w, int64_t job_id, int64_t claim_start, int64_t in_hand,
			    struct execution *e, struct job_in_hand *j)
{
	struct run_shared *s = w->shared;
	bool in_range = job_id >= 1 && job_id <= s->backlog + s->arrivals;

	*e = execution_of(w, job_id, claim_start, in_hand);
	*j = (struct job_in_hand){ .id = job_id, .work_ns = in_range ? s->work_ns[job_id - 1] : 0 };
	/* the run's shared execution counters only where faults are planned by them */
	if (in_range && fault_plans_executions(&s->cfg->faults))
		j->planned = fault_planned(&s->cfg->faults, s->cfg->seed, atomic_fetch_add(&s->executions_started, 1) + 1,
					   job_id, atomic_fetch_add(&s->job_executions[job_id - 1], 1));
}

/* The outcome of a completion that returned rc (as complete's) for a job that fails or not. */
static enum exec_outcome completion_outcome(int rc, bool fails)
{
	if (rc == 0)
		return fails ? EXEC_FAILED : EXEC_DONE;
	return rc == 1 ? EXEC_FENCED : EXEC_UNCOMMITTED;
}

/*
 * Hold mode: when the not committed transaction of w's job in hand since in_hand may have let
 * its job go: once it began its completion (a statement of it failing, as InnoDB's deadlock
 * victim, ends the transaction on the server at once), else when its ROLLBACK was sent (a
 * stop's give-back); fallback when neither came in this execution.
 */
static int64_t uncommitted_release(const struct worker *w, int64_t in_hand, int64_t fallback)
{
	if (w->completion_sent_ns >= in_hand)
		return w->completion_sent_ns;
	return w->settle_sent_ns >= in_hand ? w->settle_sent_ns : fallback;
}

/*
 * When the execution of w whose job was in hand at in_hand ended, its completion over
 * (committed or not); lost_at: complete's. In hold mode: when its connection was found
 * lost; or, not committed, uncommitted_release's instant: the job's lock went no earlier,
 * and a later claim of the job, made once it went, may read its clock before w reads its
 * own again (the two would seem to overlap). Otherwise now.
 */
static int64_t execution_end(const struct worker *w, bool committed, int64_t lost_at, int64_t in_hand)
{
	if (w->shared->mode == MODE_HOLD) {
		if (lost_at)
			return lost_at;
		if (!committed)
			return uncommitted_release(w, in_hand, clock_now_ns());
	}
	return clock_now_ns();
}

/*
 * When w's hold on a job in hand since in_hand may have gone, in ns since the start barrier:
 * in hold mode, committed, when its COMMIT was sent (a later claim waiting on the job's lock
 * may return before w reads its clock again), not committed, uncommitted_release's instant;
 * otherwise 0, at the execution's end.
 */
static int64_t execution_released(const struct worker *w, bool committed, int64_t in_hand)
{
	int64_t at;

	if (w->shared->mode != MODE_HOLD)
		return 0;
	at = committed ? (w->settle_sent_ns >= in_hand ? w->settle_sent_ns : 0) : uncommitted_release(w, in_hand, 0);
	return at ? at - w->shared->gate.start_ns : 0;
}

/*
 * Notes e, in hand since in_hand and ended at end, in w's counters and ledger. 0, or -1 (w
 * aborted) when the ledger cannot grow.
 */
static int note_execution(struct worker *w, struct execution *e, int64_t in_hand, int64_t end)
{
	const struct run_shared *s = w->shared;

	e->end_ns = end - s->gate.start_ns;
	e->released_ns = execution_released(w, e->outcome == EXEC_DONE || e->outcome == EXEC_FAILED, in_hand);
	e->conn_ns = w->connected_ns - s->gate.start_ns;
	if (e->outcome == EXEC_DONE || e->outcome == EXEC_FAILED)
		run_note_progress(w->shared);
	if (e->outcome == EXEC_DONE) {
		w->stats.completed += end >= s->gate.measured_from_ns;
		live_add(&w->live.completed, 1);
	}
	if (ledger_add_execution(&w->ledger, e) < 0 || w->ledger_full) {
		worker_abort(w, "out of memory for the ledger");
		return -1;
	}
	return 0;
}

int worker_execute(struct worker *w, int64_t job_id, int64_t claim_start, int64_t in_hand)
{
	struct run_shared *s = w->shared;
	struct execution e;
	struct job_in_hand j;
	bool fails = job_fails(s, job_id), crashed = false;
	int64_t end = 0, next_beat = first_beat(w, in_hand);
	int rc = 0;

	begin_execution(w, job_id, claim_start, in_hand, &e, &j);
	switch (work(w, &j, &next_beat)) {
	case WORK_STOPPED:
		give_back(w, job_id);
		e.outcome = EXEC_INTERRUPTED;
		break;
	case WORK_CRASHED:
		e.outcome = EXEC_CRASHED;
		crashed = true;
		break;
	case WORK_ABANDONED:
		e.outcome = EXEC_UNCOMMITTED;
		rc = -1;
		break;
	case WORK_DONE:
		e.outcome = completion_outcome(complete(w, job_id, fails ? SLOT_FAIL : SLOT_COMPLETE, &end), fails);
		if (e.outcome == EXEC_UNCOMMITTED)
			rc = w->aborted ? -1 : 0;
		break;
	}
	end = execution_end(w, e.outcome == EXEC_DONE || e.outcome == EXEC_FAILED, end, in_hand);
	e.flags = (j.stalled ? EXEC_STALLED : 0) | w->held_flags;
	w->stats.busy_ns += end - in_hand;
	if (note_execution(w, &e, in_hand, end) < 0)
		return -1;
	return crashed ? worker_respawn(w) : rc;
}

/*
 * Completes the first n jobs of w's batch through the strategy's finish_batch, as complete
 * does one job: after a lost connection it connects anew and asks the table which of them
 * the statement finished before the connection went (it is one statement: all of its jobs
 * or none), unless the monitor had seen w's server process gone before it was sent; if
 * none, in flip mode, it tries once more; contention is retried as complete's. 0 committed (each job's completed says whether
 * it was fenced), -1 not. *lost_at as complete's.
 */
static int complete_batch(struct worker *w, int n, int64_t *lost_at)
{
	const struct strategy_ops *st = w->shared->strategy;
	struct batch_job *b = w->batch;
	bool killed = worker_session_killed(w);
	int rc;
	bool committed = false;

	w->completion_sent_ns = clock_now_ns();
	do
		rc = st->finish_batch(w, b, n);
	while (rc < 0 && retry_contended(w));

	*lost_at = 0;
	if (rc >= 0 || !worker_lost_connection(w) || run_stopping(&w->shared->gate))
		return rc;
	*lost_at = clock_now_ns();
	if (worker_reconnect(w) < 0)
		return -1;
	for (int i = 0; !killed && i < n; i++) {
		int finished;

		worker_note_attempt(w, b[i].attempt);
		finished = worker_finished_by_claim(w, b[i].fails ? SLOT_FAIL : SLOT_COMPLETE, b[i].id);
		if (finished < 0)
			return -1;
		b[i].completed = finished == 1;
		committed |= b[i].completed;
	}
	if (committed)
		return 0;
	if (w->shared->mode == MODE_HOLD)
		return -1;
	return st->finish_batch(w, b, n);
}

/*
 * Gives back jobs [from, n) of w's batch, the one a stop cut short and those never begun:
 * freed; in hold mode inside the claim's transaction, whose COMMIT the completion of the
 * jobs before them makes, or, with none before them, rolled back with it.
 */
static void give_back_rest(struct worker *w, int from, int n)
{
	char id[24];
	const char *params[] = { id, w->identity_text };

	bound_stop_wait(w);
	if (!w->conn)
		return;
	if (from == 0 && w->shared->mode == MODE_HOLD) {
		worker_rollback(w);
		return;
	}
	for (int i = from; i < n; i++) {
		worker_id_text(id, w->batch[i].id);
		worker_exec(w, SLOT_FREE, 2, params, NULL, 0);
	}
}

int worker_execute_batch(struct worker *w, int n, int64_t claim_start, int64_t in_hand)
{
	struct run_shared *s = w->shared;
	struct batch_job *b = w->batch;
	struct execution *x = w->batch_execs;
	enum work_end how = WORK_DONE;
	int64_t end = 0, next_beat = first_beat(w, in_hand);
	int worked, rc = 0;
	bool committed = false;

	for (worked = 0; worked < n; worked++) {
		struct job_in_hand j;

		b[worked].fails = job_fails(s, b[worked].id);
		b[worked].completed = false;
		begin_execution(w, b[worked].id, claim_start, in_hand, &x[worked], &j);
		how = work(w, &j, &next_beat);
		x[worked].flags = j.stalled ? EXEC_STALLED : 0;
		if (how != WORK_DONE)
			break;
	}
	/*
	 * the jobs never begun were in hand from the claim all the same: a stop gives them back
	 * with the one it cut short, a crash or a lost connection leaves them with the rest
	 */
	for (int i = worked + 1; i < n; i++) {
		x[i] = execution_of(w, b[i].id, claim_start, in_hand);
		x[i].flags |= EXEC_UNBEGUN;
	}
	if (how == WORK_STOPPED) {
		give_back_rest(w, worked, n);
		for (int i = worked; i < n; i++)
			x[i].outcome = EXEC_INTERRUPTED;
	}
	/* a stop whose heartbeat lost the connection for good leaves nothing to complete through */
	if ((how == WORK_DONE || (how == WORK_STOPPED && worked > 0)) && w->conn) {
		rc = complete_batch(w, worked, &end);
		committed = rc >= 0;
		for (int i = 0; i < worked; i++)
			x[i].outcome = completion_outcome(rc < 0 ? -1 : b[i].completed ? 0 : 1, b[i].fails);
		rc = rc < 0 && w->aborted ? -1 : 0;
	} else {
		for (int i = 0; i < (how == WORK_STOPPED ? worked : n); i++)
			x[i].outcome = how == WORK_CRASHED ? EXEC_CRASHED : EXEC_UNCOMMITTED;
		rc = how == WORK_ABANDONED ? -1 : 0;
	}
	end = execution_end(w, committed, end, in_hand);
	w->stats.busy_ns += end - in_hand;
	for (int i = 0; i < n; i++) {
		x[i].flags |= w->held_flags;
		if (note_execution(w, &x[i], in_hand, end) < 0)
			return -1;
	}
	return how == WORK_CRASHED ? worker_respawn(w) : rc;
}
