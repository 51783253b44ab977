/*
 * The life of one job in a worker's hand: the work (a sleep that wakes to beat the lease's
 * heartbeat, to meet the faults planned for it, and to see the run stop), then the
 * completion, and the execution as the ledger keeps it. A crash drops the connection
 * and starts the worker's replacement; a lost connection is made anew and the
 * completion tried again.
 */

#include "base/clock.h"
#include "engine/fault.h"
#include "engine/job.h"
#include "engine/workload.h"

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
		.at_ns = clock_now_ns() - w->shared->start_ns,
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

/*
 * Works on j: its work time, heartbeats in flip mode with a lease, and the faults that
 * strike it. A kill-backend it asked for lands before the work ends.
 */
static enum work_end work(struct worker *w, struct job_in_hand *j)
{
	const struct run_shared *s = w->shared;
	const struct recovery_plan *rec = &s->cfg->recovery;
	int64_t beat_ns = s->mode == MODE_FLIP && rec->lease_ms && rec->heartbeat_ms ? MS_TO_NS(rec->heartbeat_ms) : 0;
	int64_t worked = 0, next_beat = beat_ns ? clock_now_ns() + beat_ns : INT64_MAX;
	enum work_end end = WORK_DONE;

	atomic_store(&w->job_in_hand, j->id);
	for (;;) {
		int pending = atomic_exchange(&w->pending_fault, 0);
		int64_t before, slice;

		if (run_stopping(s)) {
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
		if (before >= next_beat) {
			if (!beat(w, j->id)) {
				end = run_stopping(s) ? WORK_STOPPED : WORK_ABANDONED;
				break;
			}
			next_beat = clock_now_ns() + beat_ns;
		}
		slice = j->work_ns - worked;
		if (j->planned && j->work_ns / 2 - worked > 0 && j->work_ns / 2 - worked < slice)
			slice = j->work_ns / 2 - worked;
		if (slice > RUN_WAKE_NS)
			slice = RUN_WAKE_NS;
		if (next_beat - before < slice)
			slice = next_beat - before;
		clock_sleep_ns(slice);
		worked += clock_now_ns() - before;
	}
	atomic_store(&w->job_in_hand, 0);
	return end;
}

/* Gives the job in hand back, its work cut short by a stop: rolled back in hold mode, freed in flip mode. */
static void give_back(struct worker *w, int64_t job_id)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->identity_text };

	atomic_store(&w->saw_stop, true);
	if (!w->conn)
		return;
	if (w->shared->mode == MODE_HOLD)
		worker_rollback(w);
	else
		worker_exec(w, SLOT_FREE, 2, params, NULL, 0);
}

/*
 * Completes job (slot: done or failed) through the strategy's finish. After a lost
 * connection it connects anew and asks the table whether the completion committed before
 * the connection went (its answer lost on the way); if not, in flip mode, where the claim
 * outlives the connection, it tries once more. 0 committed, 1 refused (fenced), -1 not
 * done. *lost_at: when the connection was found lost, else 0; in hold mode the work's
 * transaction died then, and so the execution ended.
 */
static int complete(struct worker *w, int64_t job, int slot, int64_t *lost_at)
{
	const struct strategy_ops *st = w->shared->strategy;
	int rc = st->finish ? st->finish(w, job, slot) : worker_finish(w, job, slot);

	*lost_at = 0;
	if (rc >= 0 || !worker_lost_connection(w) || run_stopping(w->shared))
		return rc;
	*lost_at = clock_now_ns();
	if (worker_reconnect(w) < 0)
		return -1;
	switch (worker_finished_by_claim(w, slot, job)) {
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

int worker_execute(struct worker *w, int64_t job_id, int64_t claim_start, int64_t in_hand)
{
	struct run_shared *s = w->shared;
	struct execution e = {
		.job_id = job_id,
		.claim_start_ns = claim_start - s->start_ns,
		.start_ns = in_hand - s->start_ns,
		.worker = w->index,
		.identity = w->identity,
	};
	bool in_range = job_id >= 1 && job_id <= s->backlog + s->arrivals;
	bool fails = s->pass == 1 && workload_fails(s->cfg->seed, job_id, s->cfg->fail_rate);
	struct job_in_hand j = { .id = job_id, .work_ns = in_range ? s->work_ns[job_id - 1] : 0 };
	bool crashed = false;
	int64_t end = 0;
	int rc = 0;

	/* the run's shared execution counters only where faults are planned by them */
	if (in_range && fault_plans_executions(&s->cfg->faults))
		j.planned = fault_planned(&s->cfg->faults, s->cfg->seed, atomic_fetch_add(&s->executions_started, 1) + 1,
					  job_id, atomic_fetch_add(&s->job_executions[job_id - 1], 1));
	switch (work(w, &j)) {
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
		switch (complete(w, job_id, fails ? SLOT_FAIL : SLOT_COMPLETE, &end)) {
		case 0:
			e.outcome = fails ? EXEC_FAILED : EXEC_DONE;
			break;
		case 1:
			e.outcome = EXEC_FENCED;
			break;
		default:
			e.outcome = EXEC_UNCOMMITTED;
			rc = w->aborted ? -1 : 0;
		}
		break;
	}
	if (!end || s->mode != MODE_HOLD)
		end = clock_now_ns();
	e.end_ns = end - s->start_ns;
	e.flags = j.stalled ? EXEC_STALLED : 0;
	w->stats.busy_ns += end - in_hand;
	if (e.outcome == EXEC_DONE) {
		w->stats.completed += end >= s->measured_from_ns;
		live_add(&w->live.completed, 1);
	}
	if (ledger_add_execution(&w->ledger, &e) < 0 || w->ledger_full) {
		worker_abort(w, "out of memory for the ledger");
		return -1;
	}
	return crashed ? worker_respawn(w) : rc;
}
