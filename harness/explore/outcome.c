/* What one schedule found; see outcome.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/outcome.h"
#include "measure/metrics.h"
#include "queue/queue_table.h"

/* Sums what the workers of x met of the error kinds in kinds. */
static uint64_t errors_of(const struct explore_session *x, const enum error_kind *kinds, int n)
{
	uint64_t sum = 0;

	for (int i = 0; i < x->plan->workers; i++)
		for (int k = 0; k < n; k++)
			sum += x->w[i].stats.errors[kinds[k]];
	return sum;
}

/*
 * A crashed worker's executions that its crash cut short: noted crashed and ended at the
 * crash, as a run's crash notes them (its thread noted them only when the schedule was
 * over and it was let go).
 */
static void note_crashed(struct explore_session *x)
{
	int64_t crash = x->crash_ns - x->s.gate.start_ns;

	for (int i = 0; i < x->plan->workers; i++) {
		if (x->sched.seats[i].state != SEAT_CRASHED)
			continue;
		for (size_t e = 0; e < x->w[i].ledger.n_execs; e++) {
			struct execution *ex = &x->w[i].ledger.execs[e];

			if (ex->outcome != EXEC_UNCOMMITTED && ex->outcome != EXEC_INTERRUPTED)
				continue;
			ex->outcome = EXEC_CRASHED;
			if (ex->end_ns > crash)
				ex->end_ns = crash > ex->start_ns ? crash : ex->start_ns;
		}
	}
}

/* Computes the schedule's figures from the workers' ledgers and the final state into out. 0, or -1 with err. */
int explore_check_outcome(struct explore_session *x, struct schedule_outcome *out, char *err, size_t errlen)
{
	const struct run_config *cfg = x->plan->cfg;
	struct ledger parts[EXPLORE_MAX_WORKERS + 1], merged;
	struct worker_stats stats[EXPLORE_MAX_WORKERS];
	struct run_metrics m;
	static const enum error_kind lock_kinds[] = { ERR_LOCK_NOT_AVAILABLE, ERR_SQLITE_BUSY, ERR_SQLITE_BUSY_SNAPSHOT };
	static const enum error_kind other_kinds[] = { ERR_SERIALIZATION, ERR_OTHER, ERR_STATEMENT_TIMEOUT,
						       ERR_CONNECTION_LOST };
	static const enum error_kind deadlock_kinds[] = { ERR_DEADLOCK };
	int n = x->plan->workers, rc;

	note_crashed(x);
	if (queue_table_read_final(&x->admin, &x->s, x->final, cfg->jobs, err, errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		parts[i] = x->w[i].ledger;
		stats[i] = x->w[i].stats;
	}
	parts[n] = x->returns;
	memset(&merged, 0, sizeof(merged));
	if (ledger_init(&merged, 0, 0, 0) < 0 || ledger_merge(&merged, parts, (size_t)n + 1) < 0) {
		ledger_free(&merged);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	struct metrics_input in = {
		.ledger = &merged, .workers = stats, .n_workers = (size_t)n, .n_jobs = (size_t)cfg->jobs,
		.n_backlog = (size_t)cfg->jobs, .work_ns = x->work_ns, .final = x->final, .n_queues = 1,
		.reaped = x->reaped,
		.claim_in_session = x->s.mode == MODE_HOLD || x->s.strategy->claim_in_session,
		/* time is the schedule's: a lease ran out at the expire step, whatever the clock says */
		.lease_ns = x->s.mode != MODE_FLIP || !cfg->recovery.lease_ms ? 0 : x->expired ? 1
					: MS_TO_NS(cfg->recovery.lease_ms),
		.reaper = x->s.mode == MODE_FLIP && cfg->recovery.reaper_ms > 0,
	};
	memset(&m, 0, sizeof(m));
	rc = metrics_compute(&in, &m);
	ledger_free(&merged);
	if (rc < 0) {
		snprintf(err, errlen, "out of memory computing the figures");
		return -1;
	}
	/* a job handed out again because its holder lost it is at-least-once's, not a race */
	out->count[FINDING_DUPLICATE] = m.race_duplicates;
	out->count[FINDING_LOST] = m.lost;
	out->count[FINDING_STUCK] = m.stuck;
	out->count[FINDING_ZOMBIE] = m.zombie_completions;
	out->count[FINDING_DEADLOCK] = errors_of(x, deadlock_kinds, 1);
	out->count[FINDING_LOCK_ERROR] = errors_of(x, lock_kinds, 3);
	out->count[FINDING_ERROR] = errors_of(x, other_kinds, 4);
	for (int i = 0; i < n; i++) {
		out->count[FINDING_EMPTY] += x->found[i][FINDING_EMPTY];
		out->count[FINDING_FIFO] += x->found[i][FINDING_FIFO];
		out->count[FINDING_ERROR] += x->w[i].aborted;
	}
	out->redeliveries = m.redeliveries;
	out->fenced = m.fenced;
	return 0;
}
