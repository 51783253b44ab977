/*
 * An explore session: the run's tables, the harness's connections and the scheduler that
 * one strategy and mode's schedules share, and one schedule run in it, from fresh table
 * contents to its checked outcome. The search (explore/explore.c) decides the choices.
 */
#ifndef CLAIMBENCH_EXPLORE_SESSION_H
#define CLAIMBENCH_EXPLORE_SESSION_H

#include "engine/admin.h"
#include "queue/worker.h"
#include "explore/explore.h"
#include "explore/scheduler.h"

/* Picks one of the n >= 1 choices offered at depth: its index, or -1 when the schedule cannot go on (a replay that does not apply). */
typedef int (*choose_fn)(void *ctx, int depth, const struct choice *choices, int n);

/* How long one settled point may take to come (a statement that neither returns nor blocks): a hang. */
#define SETTLE_TIMEOUT_NS (10 * 1000000000LL)

/* What one strategy and mode's schedules share. */
struct explore_session {
	const struct explore_plan *plan;		/* what was asked */
	struct scheduler sched;				/* the steps' scheduler */
	const struct backend_ops *db;			/* the stepping driver over plan->db */
	struct run_shared s;				/* what the workers share, as in a run */
	struct worker w[EXPLORE_MAX_WORKERS];		/* the workers of the schedule running */
	struct db_conn *probe[EXPLORE_MAX_WORKERS];	/* per worker, a connection of the real driver that looks
							 * whether a job was claimable after its empty claim */
	pthread_mutex_t probe_lock;			/* held by the worker looking through its probe connection */
	uint64_t found[EXPLORE_MAX_WORKERS][FINDING_COUNT];	/* per worker, what its own looks found: empty claims
								 * while a job was claimable, FIFO inversions */
	struct admin admin;				/* the harness's connection: tables, blocks, leases */
	struct ledger returns;				/* the jobs the reaper gave back in the schedule */
	uint64_t reaped;				/* how many */
	bool expired;					/* the schedule's leases have expired */
	bool crashed;					/* a worker of the schedule has crashed */
	int64_t crash_ns;				/* when (clock_now_ns), if it has */
	bool crash_lingers;				/* the crashed worker's server session outlived
							 * SETTLE_TIMEOUT_NS: its locks may still be held */
	bool workers_open;				/* w are connected */
	bool workers_reusable;				/* w may serve the next schedule as they are */
	int64_t *work_ns;				/* every job's work time: none */
	struct job_state *final;			/* the final state of the schedule's jobs */
};

/* Makes the session's tables and connections for plan. 0, or -1 with err (nothing left made). */
int explore_session_open(struct explore_session *x, const struct explore_plan *plan, char *err, size_t errlen);

/* Drops the session's tables and closes its connections. */
void explore_session_close(struct explore_session *x);

/*
 * Runs one schedule, asking choose at each settled point, and checks its outcome into out
 * (its trace, findings and events). 0; 1 when choose refused (the schedule does not
 * apply); -1 with err on a database or environment error.
 */
int explore_session_run(struct explore_session *x, choose_fn choose, void *ctx, struct schedule_outcome *out, char *err,
		size_t errlen);

#endif
