/*
 * The ledger's executions read job by job (job_scan.h): duplicates, overlaps, redeliveries
 * and their causes, each job's summary.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/order.h"
#include "measure/job_scan.h"
#include "model/faults.h"

#define NS_PER_S 1e9

/* qsort order of executions: by job_id, then start_ns, then the other fields (a total order). */
static int cmp_exec(const void *pa, const void *pb)
{
	const struct execution *a = pa, *b = pb;
	int c = cmp_i64(a->job_id, b->job_id);

	if (!c)
		c = cmp_i64(a->start_ns, b->start_ns);
	if (!c)
		c = cmp_i64(a->end_ns, b->end_ns);
	if (!c)
		c = cmp_i64(a->claim_start_ns, b->claim_start_ns);
	if (!c)
		c = cmp_i64(a->worker, b->worker);
	if (!c)
		c = cmp_i64(a->outcome, b->outcome);
	return c;
}

void job_summary_init(struct job_summary *s)
{
	s->first_claim_ns = INT64_MAX;
	s->first_start_ns = INT64_MAX;
	s->first_done_ns = INT64_MAX;
	s->last_commit_ns = INT64_MIN;
	s->expected = -1;
	s->executed = false;
	s->completed = false;
	s->uncommitted = false;
	s->by_final_owner = false;
	s->claimed_after_commit = false;
}

/* Whether e's completion or failure committed. */
static bool exec_committed(const struct execution *e)
{
	return e->outcome == EXEC_DONE || e->outcome == EXEC_FAILED;
}

/*
 * Until when e may have held its job: the instant its hold mode transaction's end was sent
 * (a claim waiting on the job's lock could return any time after), or its end.
 */
static int64_t held_until(const struct execution *e)
{
	return e->released_ns ? e->released_ns : e->end_ns;
}

/* Why an execution is a redelivery: how its job's earlier holder had lost it. */
enum redelivery_cause {
	CAUSE_NONE,		/* not a redelivery: a first claim, a claim after a commit, or a race */
	CAUSE_CRASH,		/* the holder's transaction or session ended without its completion */
	CAUSE_LEASE,		/* the holder's lease had run out (flip mode, no reaper) */
	CAUSE_REAPER,		/* the harness gave the job back to new (the reaper, --rerun-stuck) */
	CAUSE_STALE_TICKET,	/* the ticket strategy deleted the holder's ticket as stale */
	CAUSE_RESTART,		/* a server restart ended the holder's session, and its claim with it */
	CAUSE_KILLED_BACKEND,	/* the holder's server backend was killed: its session ended, and its claim with it */
	CAUSE_FAILOVER,		/* a failover ended the holder's session, or its new primary lacked the claim */
};

/* What the redelivery rules read of one job besides its executions. */
struct job_context {
	const struct metrics_input *in;		/* the run's settings: where a claim lives, lease, reaper */
	const struct job_return *returns;	/* the job's returns to new by the harness */
	size_t n_returns;			/* entries in returns */
};

/*
 * The index of the holder of the job when execution k of the n executions x (sorted by
 * start_ns) took it: the latest execution in hand before it and not cut short by a stop,
 * when that one still held the job when k's claim began (it never committed, or committed
 * after that). n when there is none, or when the latest had committed its completion
 * before k's claim began: the job was finished then, and an earlier holder's loss had been
 * made good by a later claim already.
 */
static size_t holder_of(const struct execution *x, size_t n, size_t k)
{
	size_t latest = n;

	for (size_t i = 0; i < n; i++)
		if (i != k && x[i].outcome != EXEC_INTERRUPTED && x[i].start_ns < x[k].start_ns &&
		    (latest == n || x[i].start_ns >= x[latest].start_ns))
			latest = i;
	if (latest == n || (exec_committed(&x[latest]) && x[latest].end_ns <= x[k].claim_start_ns))
		return n;
	return latest;
}

/*
 * Whether holder y, which did not commit, had lost the job before x had it in hand: its
 * transaction or session had ended. A crash's end is taken before its connection closes,
 * and a fenced completion's when its transaction ended, so they must lie at or before x's
 * start; one that ended later was live when x's claim returned the job, a race. A lost
 * connection's end is only when the worker noticed, after the server had let the claim go:
 * it had ended by then, whatever the order of the instants.
 */
static bool ended_before(const struct execution *y, const struct execution *x)
{
	return y->outcome == EXEC_UNCOMMITTED || y->end_ns <= x->start_ns;
}

/* Whether the harness gave the job back to new after y had it in hand and before x's claim returned it. */
static bool returned_between(const struct job_context *c, const struct execution *y, const struct execution *x)
{
	for (size_t i = 0; i < c->n_returns; i++)
		if (y->start_ns < c->returns[i].start_ns && c->returns[i].start_ns < x->start_ns)
			return true;
	return false;
}

/*
 * The fault that ended holder y's session after its claim began and before x had the job
 * in hand (a restart, y's worker's backend killed, a failover), as a cause; CAUSE_NONE when
 * none struck in between. A fault is taken to strike anywhere from its instant to its end
 * (a restart's server still answers for a while after the harness began stopping it, and
 * is down until it accepts connections again): it ended y's session when it began before x
 * had the job and ended after y's claim began. A failover counts whether or not the claim
 * lives in the session: the new primary may lack a flip-mode claim the old one had committed;
 * so does a restart whose lost connection an adapter's worker said ended its hold on the job
 * (EXEC_CONNECTION_LOST: the library gives such a job back by its own rules), and a killed
 * backend of an adapter's (worker -1: which seat's session it was is unknown) that such an
 * execution's worker met.
 */
static enum redelivery_cause session_ended_by(const struct job_context *c, const struct execution *y,
					      const struct execution *x)
{
	const struct ledger *l = c->in->ledger;

	for (size_t i = 0; i < l->n_faults; i++) {
		const struct fault_record *f = &l->faults[i];

		if (f->at_ns + f->duration_ns <= y->claim_start_ns || f->at_ns >= x->start_ns)
			continue;
		if (f->kind == FAULT_FAILOVER)
			return CAUSE_FAILOVER;
		if (!c->in->claim_in_session && !(y->flags & EXEC_CONNECTION_LOST))
			continue;
		if (f->kind == FAULT_RESTART)
			return CAUSE_RESTART;
		if (f->kind == FAULT_KILL_BACKEND &&
		    (f->worker == y->worker || (f->worker < 0 && (y->flags & EXEC_CONNECTION_LOST))))
			return CAUSE_KILLED_BACKEND;
	}
	return CAUSE_NONE;
}

/*
 * Why execution k of the n executions x of one job (sorted by start_ns) is a redelivery
 * (see the definitions in measure/metrics.c).
 */
static enum redelivery_cause redelivery_cause(const struct job_context *c, const struct execution *x, size_t n,
					      size_t k)
{
	const struct execution *y;
	enum redelivery_cause ended;
	size_t h;

	if (x[k].outcome == EXEC_INTERRUPTED)
		return CAUSE_NONE;
	h = holder_of(x, n, k);
	if (h == n)
		return CAUSE_NONE;
	y = &x[h];
	if (returned_between(c, y, &x[k]))
		return CAUSE_REAPER;
	if (y->flags & EXEC_TICKET_EXPIRED)
		return CAUSE_STALE_TICKET;
	ended = y->outcome == EXEC_CRASHED ? CAUSE_NONE : session_ended_by(c, y, &x[k]);
	if (ended != CAUSE_NONE)
		return ended;
	if ((c->in->claim_in_session || (y->flags & EXEC_PROCESS_DIED)) && !exec_committed(y) && ended_before(y, &x[k]))
		return CAUSE_CRASH;
	if (c->in->lease_ns > 0 && !c->in->reaper && x[k].start_ns - y->claim_start_ns >= c->in->lease_ns)
		return CAUSE_LEASE;
	return CAUSE_NONE;
}

/*
 * Whether committed execution i of the n executions x of one job is a zombie completion:
 * a redelivery (cause[k] not CAUSE_NONE) took the job while i had it in hand.
 */
static bool is_zombie(const struct execution *x, const enum redelivery_cause *cause, size_t n, size_t i)
{
	if (!exec_committed(&x[i]))
		return false;
	for (size_t k = 0; k < n; k++)
		if (k != i && cause[k] != CAUSE_NONE && x[i].start_ns < x[k].start_ns &&
		    x[k].start_ns < held_until(&x[i]))
			return true;
	return false;
}

/* Counts a redelivery of cause into out, in all and by its cause. */
static void count_redelivery(enum redelivery_cause cause, struct run_metrics *out)
{
	uint64_t *by_cause[] = {
		[CAUSE_CRASH] = &out->redeliveries_crash,
		[CAUSE_LEASE] = &out->redeliveries_lease,
		[CAUSE_REAPER] = &out->redeliveries_reaper,
		[CAUSE_STALE_TICKET] = &out->redeliveries_stale_ticket,
		[CAUSE_RESTART] = &out->redeliveries_restart,
		[CAUSE_KILLED_BACKEND] = &out->redeliveries_killed_backend,
		[CAUSE_FAILOVER] = &out->redeliveries_failover,
	};

	if (cause == CAUSE_NONE)
		return;
	out->redeliveries++;
	++*by_cause[cause];
}

/* Whether some execution of the n executions x of one job (sorted by start_ns) before the k-th had begun its work. */
static bool begun_before(const struct execution *x, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (!(x[i].flags & EXEC_UNBEGUN))
			return true;
	return false;
}

/*
 * Counts the n >= 1 executions x of one job (sorted by start_ns) into out's ledger
 * figures and describes the job in *s; cause has room for n entries.
 */
static void scan_job(const struct job_context *c, const struct execution *x, size_t n,
		     enum redelivery_cause *cause, struct run_metrics *out, struct job_summary *s)
{
	const struct metrics_input *in = c->in;
	int64_t job = x[0].job_id;
	int32_t final_owner = in->final && metrics_job_in_range(in, job) ? in->final[job - 1].claimed_by : -1;
	size_t i, k, counted = 0, redelivered = 0;

	job_summary_init(s);
	s->executed = true;
	for (i = 0; i < n; i++)
		counted += x[i].outcome != EXEC_INTERRUPTED;
	if (counted > 1) {
		out->duplicates += counted - 1;
		out->dup_jobs++;
	}

	for (i = 0; i < n; i++) {
		if (x[i].claim_start_ns < s->first_claim_ns)
			s->first_claim_ns = x[i].claim_start_ns;
		if (x[i].start_ns < s->first_start_ns)
			s->first_start_ns = x[i].start_ns;
		if (x[i].outcome == EXEC_DONE) {
			s->completed = true;
			if (x[i].end_ns < s->first_done_ns)
				s->first_done_ns = x[i].end_ns;
		}
		if (exec_committed(&x[i]) && x[i].end_ns >= s->last_commit_ns) {
			s->last_commit_ns = x[i].end_ns;
			s->expected = x[i].outcome;
		}
		s->uncommitted |= x[i].outcome == EXEC_UNCOMMITTED ||
				  (x[i].outcome == EXEC_CRASHED && (x[i].flags & EXEC_PROCESS_DIED));
		s->by_final_owner |= final_owner >= 0 && x[i].identity == final_owner;
		for (k = i + 1; k < n && x[i].outcome != EXEC_INTERRUPTED; k++)
			if (x[k].outcome != EXEC_INTERRUPTED && x[i].start_ns < held_until(&x[k]) &&
			    x[k].start_ns < held_until(&x[i]))
				out->overlaps++;
	}
	for (i = 0; i < n; i++) {
		cause[i] = redelivery_cause(c, x, n, i);
		count_redelivery(cause[i], out);
		redelivered += cause[i] != CAUSE_NONE;
		out->redelivered_unbegun += cause[i] != CAUSE_NONE && ((x[i].flags & EXEC_UNBEGUN) || !begun_before(x, i));
	}
	if (counted > 1)
		out->race_duplicates += counted - 1 - redelivered;
	for (i = 0; i < n; i++)
		s->claimed_after_commit |= !exec_committed(&x[i]) && x[i].outcome != EXEC_INTERRUPTED &&
					   s->last_commit_ns != INT64_MIN && x[i].end_ns > s->last_commit_ns;
	for (i = 0; i < n; i++)
		out->zombie_completions += is_zombie(x, cause, n, i);
	if (s->completed)
		out->completed++;
}

/* qsort order of returns: by job, then instant. */
static int cmp_return(const void *pa, const void *pb)
{
	const struct job_return *a = pa, *b = pb;
	int c = cmp_i64(a->job_id, b->job_id);

	return c ? c : cmp_i64(a->start_ns, b->start_ns);
}

/* Points c at the returns of job among the n sorted by job (*next: the first not yet passed), advancing *next. */
static void returns_of_job(struct job_context *c, const struct job_return *r, size_t n, size_t *next, int64_t job)
{
	while (*next < n && r[*next].job_id < job)
		++*next;
	c->returns = r + *next;
	c->n_returns = 0;
	while (*next + c->n_returns < n && r[*next + c->n_returns].job_id == job)
		c->n_returns++;
}


int job_scan_ledger(const struct metrics_input *in, struct run_metrics *out, struct job_summary *jobs)
{
	const struct ledger *l = in->ledger;
	struct job_context c = { .in = in };
	struct execution *x = NULL;
	struct job_return *r = NULL;
	enum redelivery_cause *cause = NULL;
	struct job_summary s;
	int64_t last_end = 0;
	bool committed = false;	/* some execution committed: there is a makespan */
	size_t i, k, next_return = 0;
	int ret = -1;

	out->deliveries = l->n_execs;
	for (i = 0; i < l->n_execs; i++) {
		out->executions += !(l->execs[i].flags & EXEC_UNBEGUN);
		out->failed += l->execs[i].outcome == EXEC_FAILED;
		out->fenced += l->execs[i].outcome == EXEC_FENCED;
	}
	x = alloc_zeroed(l->n_execs, sizeof(*x));
	r = alloc_zeroed(l->n_returns, sizeof(*r));
	cause = alloc_zeroed(l->n_execs, sizeof(*cause));
	if (!x || !r || !cause)
		goto out_free;
	if (l->n_execs)
		memcpy(x, l->execs, l->n_execs * sizeof(*x));
	if (l->n_returns)
		memcpy(r, l->returns, l->n_returns * sizeof(*r));
	qsort(x, l->n_execs, sizeof(*x), cmp_exec);
	qsort(r, l->n_returns, sizeof(*r), cmp_return);

	for (i = 0; i < l->n_execs; i = k) {
		for (k = i + 1; k < l->n_execs && x[k].job_id == x[i].job_id; k++)
			;
		returns_of_job(&c, r, l->n_returns, &next_return, x[i].job_id);
		scan_job(&c, &x[i], k - i, cause, out, &s);
		if (metrics_job_in_range(in, x[i].job_id))
			jobs[x[i].job_id - 1] = s;
	}
	for (i = 0; i < l->n_execs; i++) {
		if (exec_committed(&x[i]) && x[i].end_ns >= last_end) {
			last_end = x[i].end_ns;
			committed = true;
		}
	}
	out->makespan_s = committed ? (double)last_end / NS_PER_S : NAN;
	ret = 0;
out_free:
	free(cause);
	free(r);
	free(x);
	return ret;
}
