/*
 * --verify's comparison: each integrity figure the server can see, derived from the replay
 * of its record (verify_replay.c) alone, compared job by job with the ledger's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/order.h"
#include "base/text.h"
#include "measure/verify.h"
#include "measure/verify_replay.h"

/* The final status of job r as the record leaves it: in the strategy's table when it went there. */
static int32_t final_status(const struct job_replay *r)
{
	return r->moved != JOB_MISSING ? r->moved : r->in_jobs;
}

/* Whether a job of final status st is lost by the rules the server can judge (consumed ones are not). */
static bool lost_status(int32_t st, bool drain)
{
	return st == JOB_ACTIVE || (drain && (st == JOB_NEW || st == JOB_MISSING));
}

/* A figure compared job by job: what each side counts of job j. */
struct per_job {
	const char *figure;	/* its name */
	int64_t ledger_total;	/* the ledger's figure */
	/*
	 * what the server counts of job j, with the ledger's per-job count in *ledger (-1: none
	 * kept); NULL for a count of redeliveries of one cause
	 */
	int64_t (*server_of)(const struct replay *rp, size_t j, int64_t *ledger);
	int cause;		/* without server_of: the cause whose redeliveries are counted */
};

/* Job j's redeliveries of cause, those from a claim in doubt left out when they may be. */
static int64_t redeliveries_by(const struct replay *rp, size_t j, int cause)
{
	return rp->jobs[j].redeliveries[cause] - (rp->doubt_allowed ? rp->jobs[j].doubt_redeliveries[cause] : 0);
}

/*
 * Compares f over every job: the server's total against f's ledger total, listing the jobs
 * whose counts differ (where the ledger keeps one) or, when none does, those the server
 * counts. Adds a difference to out when the totals differ or a job's counts do.
 */
static void compare(const struct replay *rp, const struct per_job *f, struct verify_outcome *out)
{
	struct verify_difference d = { .ledger = f->ledger_total };
	bool jobs_differ = false;
	char counted[sizeof(d.jobs)] = "";

	snprintf(d.figure, sizeof(d.figure), "%s", f->figure);
	for (size_t j = 0; j < rp->in->n_jobs; j++) {
		int64_t ledger = -1, server = f->server_of ? f->server_of(rp, j, &ledger) : redeliveries_by(rp, j, f->cause);

		d.server += server;
		if (ledger >= 0 && ledger != server) {
			jobs_differ = true;
			text_list_append_id(d.jobs, sizeof(d.jobs), j + 1);
		} else if (server) {
			text_list_append_id(counted, sizeof(counted), j + 1);
		}
	}
	if (d.server == d.ledger && !jobs_differ)
		return;
	if (!jobs_differ)
		snprintf(d.jobs, sizeof(d.jobs), "%s", counted);
	if (out->n_diffs < VERIFY_MAX_DIFFS)
		out->diffs[out->n_diffs++] = d;
}

/* Whether job j's row went to delete-returning's archive: its completion writes nothing the server sees. */
static bool consumed(const struct replay *rp, size_t j)
{
	return final_status(&rp->jobs[j]) == JOB_CONSUMED;
}

/*
 * Committed completions of job j (none counted for a consumed job: its completion writes
 * nothing), those in doubt left out of either side when they may be.
 */
static int64_t executions_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	if (consumed(rp, j))
		return 0;
	*ledger = rp->ledger[j].committed - (rp->doubt_allowed ? rp->ledger[j].doubt_committed : 0);
	return rp->jobs[j].completions - (rp->doubt_allowed ? rp->jobs[j].doubt_completions : 0);
}

/* Whether job j was completed done (not counted for a consumed job). */
static int64_t completed_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	if (consumed(rp, j))
		return 0;
	*ledger = rp->ledger[j].done;
	return rp->jobs[j].done;
}

/* Completions of job j that wrote error (not counted for a consumed job). */
static int64_t failed_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	if (consumed(rp, j))
		return 0;
	*ledger = rp->ledger[j].failed;
	return rp->jobs[j].failed;
}

/* Job j's claims beyond its first, against the ledger's executions the server could see beyond the first. */
static int64_t duplicates_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	uint32_t claims = rp->jobs[j].claims - (rp->doubt_allowed ? rp->jobs[j].doubt_claims : 0);

	*ledger = rp->ledger[j].visible > 1 ? rp->ledger[j].visible - 1 : 0;
	return claims > 1 ? claims - 1 : 0;
}

/*
 * Job j's claims beyond its first that were no redelivery: races, against the ledger's
 * race duplicates (kept in all, not job by job). Flip mode's, where every claim commits.
 */
static int64_t race_duplicates_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	int64_t dups = duplicates_of(rp, j, ledger), redelivered = 0;

	*ledger = -1;
	for (int c = 0; c < VERIFY_CAUSES; c++)
		redelivered += redeliveries_by(rp, j, c);
	return dups > redelivered ? dups - redelivered : 0;
}

/*
 * Whether job j is lost by its final status: the record's, against the one the harness read
 * (a consumed one's is the ledger's knowledge alone: not counted).
 */
static int64_t lost_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	const struct job_state *read = &rp->in->final[j];

	if (read->status != JOB_CONSUMED)
		*ledger = lost_status(read->status, rp->in->drain);
	return lost_status(final_status(&rp->jobs[j]), rp->in->drain);
}

/* Whether job j was left active, by the record and by the final state the harness read. */
static int64_t stuck_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	*ledger = rp->in->final[j].status == JOB_ACTIVE;
	return final_status(&rp->jobs[j]) == JOB_ACTIVE;
}

/* Whether the record leaves job j in another status than the harness read at the end. */
static int64_t final_state_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	(void)ledger;
	return final_status(&rp->jobs[j]) != rp->in->final[j].status;
}

/* Job j's claims that were redeliveries, whatever their cause. */
static int64_t redeliveries_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	int64_t n = 0;

	(void)ledger;
	for (int c = 0; c < VERIFY_CAUSES; c++)
		n += redeliveries_by(rp, j, c);
	return n;
}

/* Job j's zombie completions. */
static int64_t zombies_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	(void)ledger;
	return rp->jobs[j].zombies;
}

/*
 * Job j's claims their holder never completed, against its crashed, uncommitted and fenced
 * executions (not counted for a consumed job, whose completion writes nothing).
 */
static int64_t unfinished_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	int64_t open = 0;

	if (consumed(rp, j))
		return 0;
	for (int32_t i = rp->jobs[j].open; i >= 0; i = rp->pool[i].next)
		open += !(rp->doubt_allowed && (rp->pool[i].in_doubt || rp->pool[i].completion_in_doubt));
	*ledger = rp->ledger[j].unfinished;
	return open;
}

/* The reaper's give-backs of job j. */
static int64_t reaped_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	(void)ledger;
	return rp->jobs[j].reaps;
}

/* Sums f over the jobs the ledger's figure of that name leaves to the ledger alone (the consumed ones). */
static int64_t consumed_ledger(const struct replay *rp, int64_t (*f)(const struct job_ledger *l))
{
	int64_t n = 0;

	for (size_t j = 0; j < rp->in->n_jobs; j++)
		if (consumed(rp, j))
			n += f(&rp->ledger[j]);
	return n;
}

/* Whether the ledger has job l done. */
static int64_t ledger_done(const struct job_ledger *l)
{
	return l->done;
}

/* The ledger's failed executions of job l. */
static int64_t ledger_failed(const struct job_ledger *l)
{
	return l->failed;
}

/* Jobs the harness read as consumed that no execution completed: lost by the ledger's knowledge alone. */
static int64_t consumed_lost(const struct replay *rp)
{
	int64_t n = 0;

	for (size_t j = 0; j < rp->in->n_jobs; j++)
		n += rp->in->final[j].status == JOB_CONSUMED && !rp->ledger[j].committed;
	return n;
}

/* The record's redeliveries of cause over every job. */
static int64_t server_redeliveries(const struct replay *rp, int cause)
{
	int64_t n = 0;

	for (size_t j = 0; j < rp->in->n_jobs; j++)
		n += redeliveries_by(rp, j, cause);
	return n;
}

/* ledger - server when it is no more than band either way, else 0. */
static int64_t within(int64_t ledger, int64_t server, int64_t band)
{
	int64_t shift = ledger - server;

	return shift <= band && -shift <= band ? shift : 0;
}

/* The record's zombie completions over every job. */
static int64_t server_zombies(const struct replay *rp)
{
	int64_t n = 0;

	for (size_t j = 0; j < rp->in->n_jobs; j++)
		n += rp->jobs[j].zombies;
	return n;
}

/*
 * Compares every figure the server can see, in docs/metrics.md's order, into out; band:
 * the judgements of a lease the ledger's instants leave open (verify_lease_band, below), each
 * of which may turn a lease redelivery into a race or back, and its holder's completion
 * into a zombie or back: by no more than band the lease redeliveries (and the races the
 * other way) and the zombies may part.
 */
static void compare_all(const struct replay *rp, int64_t band, struct verify_outcome *out)
{
	const struct verify_input *in = rp->in;
	const struct run_metrics *m = in->metrics;
	int64_t committed = 0, visible_dups = 0, unfinished = 0;
	int64_t shift = within((int64_t)m->redeliveries_lease, server_redeliveries(rp, VERIFY_LEASE), band);
	int64_t zombie_shift = within((int64_t)m->zombie_completions, server_zombies(rp), band);

	for (size_t j = 0; j < in->n_jobs; j++) {
		const struct job_ledger *l = &rp->ledger[j];

		if (!consumed(rp, j)) {
			committed += l->committed - (rp->doubt_allowed ? l->doubt_committed : 0);
			unfinished += l->unfinished;
		}
		visible_dups += l->visible > 1 ? l->visible - 1 : 0;
	}
	const struct per_job figures[] = {
		{ "executions_committed", committed, executions_of, 0 },
		{ "completed", (int64_t)m->completed - consumed_ledger(rp, ledger_done), completed_of, 0 },
		{ "failed", (int64_t)m->failed - consumed_ledger(rp, ledger_failed), failed_of, 0 },
		{ "duplicates", in->hold ? visible_dups : (int64_t)m->duplicates, duplicates_of, 0 },
	};
	const struct per_job with_final[] = {
		{ "lost", in->final ? (int64_t)m->lost - consumed_lost(rp) : 0, lost_of, 0 },
		{ "stuck", (int64_t)m->stuck, stuck_of, 0 },
		{ "final_state", 0, final_state_of, 0 },
	};
	const struct per_job flip_only[] = {
		{ "redeliveries", (int64_t)m->redeliveries - shift, redeliveries_of, 0 },
		{ "race_duplicates", (int64_t)m->race_duplicates + shift, race_duplicates_of, 0 },
		{ "redeliveries_session_ended", (int64_t)(m->redeliveries_crash + m->redeliveries_restart +
			m->redeliveries_killed_backend + m->redeliveries_failover), NULL, VERIFY_CRASH },
		{ "fenced+crashed+uncommitted", unfinished, unfinished_of, 0 },
	};
	const struct per_job both[] = {
		{ "redeliveries_lease", (int64_t)m->redeliveries_lease - shift, NULL, VERIFY_LEASE },
		{ "redeliveries_reaper", (int64_t)m->redeliveries_reaper, NULL, VERIFY_REAPER },
		{ "redeliveries_stale_ticket", (int64_t)m->redeliveries_stale_ticket, NULL, VERIFY_STALE_TICKET },
		{ "zombie_completions", (int64_t)m->zombie_completions - zombie_shift, zombies_of, 0 },
		{ "reaped", (int64_t)m->reaped, reaped_of, 0 },
	};

	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		compare(rp, &figures[i], out);
	for (size_t i = 0; in->final && i < sizeof(with_final) / sizeof(with_final[0]); i++)
		compare(rp, &with_final[i], out);
	for (size_t i = 0; !in->hold && i < sizeof(flip_only) / sizeof(flip_only[0]); i++)
		compare(rp, &flip_only[i], out);
	for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++)
		compare(rp, &both[i], out);
}

/*
 * --verify's lease band: the ledger's lease judgements the server could have made either
 * way. The ledger counts a lease redelivery when the holder's lease *may* have run out by
 * its own instants, the record when it *had* by the server's clock as the claim wrote the
 * row; the two part on a claim that does not check the row's status (naive) where the
 * ledger's instants cannot tell: the claim came within its own latency and the server
 * clock's resolution of the lease's end, or it began before the holder's completion had
 * returned (its read may have come before that completion, its write after).
 *
 * How: each execution x of a job against the one begun latest before it, y (the holder
 * the ledger's lease rule judges by), neither cut short by a stop. y's lease was set
 * between y.claim_start and y.start and read by x's claim between x.claim_start and
 * x.start, each on a server clock ticking every tick: it may have run out when x.start -
 * y.claim_start >= lease - tick, and surely had when x.claim_start - y.start >= lease +
 * tick. x's judgement is open when it may and not surely, or when it may and y's
 * completion committed but returned after x's claim began.
 */

/* qsort order of executions: by job, then start. */
static int by_job_start(const void *pa, const void *pb)
{
	const struct execution *a = pa, *b = pb;
	int c = cmp_i64(a->job_id, b->job_id);

	return c ? c : cmp_i64(a->start_ns, b->start_ns);
}

/* Whether x's lease judgement against y, begun before it, is open (see the lease band's comment). */
static bool open_judgement(const struct verify_input *in, const struct execution *y, const struct execution *x)
{
	bool committed = y->outcome == EXEC_DONE || y->outcome == EXEC_FAILED;
	bool may = x->start_ns - y->claim_start_ns >= in->lease_ns - in->clock_tick_ns;
	bool surely = x->claim_start_ns - y->start_ns >= in->lease_ns + in->clock_tick_ns;

	if (committed && y->end_ns <= x->claim_start_ns)
		return false;
	return may && (!surely || committed);
}

/*
 * The second claims of in's ledger whose lease judgement the ledger's instants leave
 * open (see above), in flip mode with a lease and no reaper; 0 otherwise. -1 when out of
 * memory.
 */
static int64_t verify_lease_band(const struct verify_input *in)
{
	const struct ledger *l = in->ledger;
	struct execution *x;
	int64_t open = 0;
	size_t y = 0;

	if (in->hold || in->lease_ns <= 0 || !l->n_execs)
		return 0;
	x = malloc(l->n_execs * sizeof(*x));
	if (!x)
		return -1;
	memcpy(x, l->execs, l->n_execs * sizeof(*x));
	qsort(x, l->n_execs, sizeof(*x), by_job_start);
	for (size_t i = 0; i < l->n_execs; i++) {
		if (x[i].outcome == EXEC_INTERRUPTED)
			continue;
		if (i > y && x[y].job_id == x[i].job_id && x[y].outcome != EXEC_INTERRUPTED)
			open += open_judgement(in, &x[y], &x[i]);
		y = i;
	}
	free(x);
	return open;
}

int verify_run(const struct verify_input *in, struct verify_outcome *out)
{
	struct replay rp;
	int64_t band = verify_lease_band(in);

	*out = (struct verify_outcome){ 0 };
	if (band < 0 || replay_open(&rp, in) < 0)
		return -1;
	out->verified = true;
	out->in_doubt = rp.doubt_allowed ? rp.n_doubt + rp.n_doubt_completions : 0;
	compare_all(&rp, band, out);
	replay_close(&rp);
	return 0;
}

void verify_report(const struct verify_outcome *v, const char *label, const char *doubt_cause)
{
	if (v->in_doubt)
		fprintf(stderr, "claimbench: %s: verify: %zu claims or completions in doubt (%s, whether they committed "
			"unknown to the ledger): left out of the comparison\n", label, v->in_doubt, doubt_cause);
	for (size_t i = 0; i < v->n_diffs; i++)
		if (strcmp(v->diffs[i].figure, INTEGRITY_DIFFERENCE) != 0)
			fprintf(stderr, "claimbench: %s: verify: %s: ledger %lld, server %lld; jobs %s\n", label,
				v->diffs[i].figure, (long long)v->diffs[i].ledger, (long long)v->diffs[i].server,
				*v->diffs[i].jobs ? v->diffs[i].jobs : "-");
}
