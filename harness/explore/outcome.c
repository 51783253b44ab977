/* What one schedule found: the workers' looks at the queue around their claims, and its checked outcome; see outcome.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/outcome.h"
#include "measure/metrics.h"
#include "queue/queue_table.h"

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
