/* The looks of an explore session's workers at the queue; see looks.h. */
#include <pthread.h>
#include <stdio.h>

#include "explore/looks.h"

/* A db_row_fn that keeps the first column of the first row in *(int64_t *)ctx. */
static int first_value(void *ctx, const int64_t *cols, int ncols)
{
	if (ncols > 0)
		*(int64_t *)ctx = cols[0];
	return 1;
}

/* Runs sql on conn of the real driver db and returns its first value, or -1 on an error. */
int64_t explore_value_of(const struct backend_ops *db, struct db_conn *conn, const char *sql)
{
	int64_t v = -1;

	if (db->query(conn, sql, first_value, &v) < 0)
		return -1;
	return v;
}

/* A db_row_fn that keeps a row's two columns in a struct claimable. */
static int claimable_row(void *ctx, const int64_t *cols, int ncols)
{
	struct claimable *c = ctx;

	if (ncols >= 2) {
		c->count = cols[0];
		c->first = cols[1];
	}
	return 1;
}

/* Whether the server process pid waits on a lock another of the schedule's sessions holds, asked on conn. */
int explore_blocked_seen_on(struct explore_session *x, struct db_conn *conn, int pid)
{
	char sql[256], pids[128] = "";
	size_t used = 0;

	for (int i = 0; i < x->plan->workers; i++)
		used += (size_t)snprintf(pids + used, sizeof(pids) - used, "%s%d", i ? "," : "",
					 x->sched.seats[i].pid);
	snprintf(sql, sizeof(sql), "SELECT pg_isolation_test_session_is_blocked(%d, '{%s}')::int", pid, pids);
	return (int)explore_value_of(x->plan->db, conn, sql);
}

/* What a worker's probe asks blocked_by_probe. */
struct probe_arg {
	struct explore_session *x;	/* its session */
	struct db_conn *conn;		/* the worker's probe connection, which asks */
};

/* The scheduler's blocked, asked on a worker's probe connection (ctx a struct probe_arg). */
static int blocked_by_probe(void *ctx, int pid)
{
	struct probe_arg *a = ctx;

	return explore_blocked_seen_on(a->x, a->conn, pid);
}

/*
 * What w could claim now, looked at on its probe connection once every other worker is
 * settled (none has a statement running in the server that is not blocked: a statement
 * that w's commit let go would otherwise race the look, which skips the rows it re-locks).
 */
struct claimable explore_claimable(struct explore_session *x, const struct worker *w)
{
	struct claimable c = { -1, 0 };
	struct probe_arg a = { x, x->probe[w->index] };
	char sql[512];

	if (!a.conn || scheduler_settle_others(&x->sched, w->index, blocked_by_probe, &a, SETTLE_TIMEOUT_NS) < 0)
		return c;
	snprintf(sql, sizeof(sql), "SELECT count(*), coalesce(min(id), 0) FROM (SELECT id FROM %s WHERE status = 'new' "
		 "FOR UPDATE SKIP LOCKED) AS claimable", x->s.jobs_table);
	/* one look at a time: each locks the rows it counts for a moment, which another would skip */
	pthread_mutex_lock(&x->probe_lock);
	if (x->plan->db->query(a.conn, sql, claimable_row, &c) < 0)
		c.count = -1;
	pthread_mutex_unlock(&x->probe_lock);
	scheduler_probe_done(&x->sched, w->index);
	return c;
}

/*
 * After w's empty claim, before which before was claimable: when a job was, and one still
 * is, a job was claimable all through the claim: notes it as an event and counts it.
 */
void explore_look_empty(struct explore_session *x, struct worker *w, struct claimable before)
{
	char result[EXPLORE_TEXT];
	struct claimable after;

	if (before.count <= 0 || (after = explore_claimable(x, w)).count <= 0)
		return;
	x->found[w->index][FINDING_EMPTY]++;
	snprintf(result, sizeof(result), "%lld job%s claimable before it and after it", (long long)after.count,
		 after.count == 1 ? " was" : "s were");
	scheduler_note(&x->sched, EVENT_CHECK, w->index, "the claim came back empty", result);
}

/*
 * After w's claim of job, before which before was claimable: when a lower job was
 * claimable before the claim and still is after it, the claim took a job out of the
 * queue's order (FIFO by id): notes it as an event and counts it.
 */
void explore_look_order(struct explore_session *x, struct worker *w, int64_t job, struct claimable before)
{
	char statement[EXPLORE_TEXT], result[EXPLORE_TEXT];
	struct claimable after;

	if (before.count <= 0 || before.first >= job || (after = explore_claimable(x, w)).first != before.first)
		return;
	x->found[w->index][FINDING_FIFO]++;
	snprintf(statement, sizeof(statement), "the claim took job %lld", (long long)job);
	snprintf(result, sizeof(result), "job %lld was claimable before it and after it", (long long)before.first);
	scheduler_note(&x->sched, EVENT_CHECK, w->index, statement, result);
}
