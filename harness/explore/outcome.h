/*
 * What one schedule of an explore session found. The looks a worker takes at the queue
 * around its claims, on its probe connection of the real driver: what was claimable,
 * whether an empty claim came back while a job was claimable, whether a claim took a job
 * out of FIFO order; the server's answers the session asks for (a value, whether a session
 * is blocked); and the schedule's figures from the engine's own ledger and final state, as
 * a run measures them.
 */
#ifndef CLAIMBENCH_EXPLORE_OUTCOME_H
#define CLAIMBENCH_EXPLORE_OUTCOME_H

#include <stddef.h>
#include <stdint.h>

#include "explore/explore_session.h"

/* What w could claim at one moment. */
struct claimable {
	int64_t count;		/* jobs in state new whose row no transaction holds locked; -1: not known */
	int64_t first;		/* the lowest id of them, 0 when none */
};

/* Runs sql on conn of the real driver db and returns its first value, or -1 on an error. */
int64_t explore_value_of(const struct backend_ops *db, struct db_conn *conn, const char *sql);

/* Whether the server process pid waits on a lock another of the schedule's sessions holds, asked on conn. */
int explore_blocked_seen_on(struct explore_session *x, struct db_conn *conn, int pid);

/*
 * What w could claim now, looked at on its probe connection once every other worker is
 * settled (none has a statement running in the server that is not blocked: a statement
 * that w's commit let go would otherwise race the look, which skips the rows it re-locks).
 */
struct claimable explore_claimable(struct explore_session *x, const struct worker *w);

/*
 * After w's empty claim, before which before was claimable: when a job was, and one still
 * is, a job was claimable all through the claim: notes it as an event and counts it.
 */
void explore_look_empty(struct explore_session *x, struct worker *w, struct claimable before);

/*
 * After w's claim of job, before which before was claimable: when a lower job was
 * claimable before the claim and still is after it, the claim took a job out of the
 * queue's order (FIFO by id): notes it as an event and counts it.
 */
void explore_look_order(struct explore_session *x, struct worker *w, int64_t job, struct claimable before);

/* Computes the schedule's figures from the workers' ledgers and the final state into out. 0, or -1 with err. */
int explore_check_outcome(struct explore_session *x, struct schedule_outcome *out, char *err, size_t errlen);

#endif
