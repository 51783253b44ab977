/*
 * --verify's derivation: the server's record of a run replayed job by job, each integrity
 * figure the server can see derived from it alone, and compared with the ledger's.
 *
 * A change is a claim when a worker's session made it and it hands the job to that worker:
 * it makes the row active, or marks a new row (advisory, whose claim is its session's lock),
 * under another owner or attempt than before, moves it into delete-returning's archive
 * (consumed), or takes it from new straight to done or error under another owner (hold
 * mode, where the claim commits with its completion). It is a completion when a
 * worker's session writes done or error. The harness's session giving an active row back
 * to new is the reaper's (when the row's lease had run out) or --rerun-stuck's. A claim is
 * a redelivery when the earlier claim's holder had lost the job before it: the line ticket
 * it held when it claimed was deleted as stale by another worker (stale_ticket); or it had not
 * completed it and the harness gave the job back (reaper), the claim took its row with the
 * lease run out (lease), or took it still new (crash: the holder's session, whose lock was
 * the claim, ended). A claim that takes a live holder's active row is a race, not a
 * redelivery. A completion is a zombie when its writer's claim was still open when a
 * redelivery claim took the job.
 *
 * A claim whose COMMIT reached the server while its answer was lost with the connection
 * (a restart, a killed backend) is in the record and in no ledger: of the claims of a job
 * by one identity, the first ones beyond the ledger's executions of that job by that
 * identity (the same worker may claim it again later). When the run lost at least as many
 * connections as there are such claims, they are in doubt: left out of the claims, the
 * unfinished claims and (as the earlier holder) the redeliveries, and counted apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/verify.h"

/* One claim not yet completed by its holder, in a job's list. */
struct open_claim {
	int32_t holder;		/* the identity that claimed */
	bool taken_again;	/* a redelivery claim took the job while this claim was open */
	bool in_doubt;		/* the ledger has no execution of the job by its holder */
	int32_t next;		/* the job's next open claim in the pool, -1 for none */
};

/* One job as the record replays it, and the server's figures of it. */
struct job_replay {
	int32_t in_jobs;		/* its status in the queue table, JOB_MISSING for no row */
	int32_t moved;			/* its status in the strategy's table of job rows, JOB_MISSING for none */
	int32_t holder;			/* the identity of its latest claim, -1 for none */
	int64_t holder_seq;		/* that claim's place in the record */
	int32_t holder_ticket;		/* the line ticket that holder held when it claimed, -1 for none */
	bool holder_in_doubt;		/* that claim is in no ledger */
	bool holder_done;		/* that claim's holder completed the job since */
	bool returned;			/* the harness gave it back to new since that claim */
	int32_t open;			/* its first open claim in the pool, -1 for none */
	uint32_t claims;		/* committed claims, a worker's own give-back taken off */
	uint32_t completions;		/* committed completions, done or error */
	uint32_t failed;		/* of them, error */
	bool done;			/* a completion wrote done */
	uint32_t redeliveries[VERIFY_CAUSES]; /* claims that were redeliveries, by cause */
	uint32_t doubt_claims;		/* of the claims, those in no ledger */
	uint32_t doubt_redeliveries[VERIFY_CAUSES]; /* of the redeliveries, those from a holder whose claim is in no ledger */
	uint32_t zombies;		/* zombie completions */
	uint32_t reaps;			/* the reaper's give-backs: the harness's, of a row whose lease had run out */
};

/* One job as the ledger has it, counted as the server could see it. */
struct job_ledger {
	uint32_t visible;	/* executions whose claim committed: flip every one but interrupted, hold the committed */
	uint32_t committed;	/* executions done or failed */
	uint32_t failed;	/* executions failed */
	uint32_t unfinished;	/* executions crashed, uncommitted or fenced */
	bool done;		/* an execution was done */
};

/* A job and an identity: the ledger's executions of the job by it, the record's claims of it by it. */
struct job_identity {
	int64_t job;		/* the job */
	int32_t identity;	/* the identity */
	int32_t executions;	/* the ledger's executions of the job by the identity */
	int32_t claims;		/* the record's claims of the job by the identity */
	int32_t doubt_left;	/* of those claims, how many of the next are beyond the ledger's: in doubt */
};

/* Orders job_identity entries by job, then identity (qsort, bsearch). */
static int pair_order(const void *a, const void *b)
{
	const struct job_identity *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return (x->identity > y->identity) - (x->identity < y->identity);
}

/* A ticket of the ticket strategy's line. */
struct line_ticket {
	int64_t number;		/* its number in the line */
	int64_t expired_seq;	/* where another worker than its requester deleted it (a stale expiry); 0: never */
};

/* The replay's working state. */
struct replay {
	const struct verify_input *in;	/* what is verified */
	struct job_replay *jobs;	/* per job, indexed id-1 */
	struct job_ledger *ledger;	/* per job, indexed id-1 */
	struct open_claim *pool;	/* the open claims' entries */
	size_t n_pool;			/* entries used in pool */
	struct line_ticket *tickets;	/* the line's tickets, in the order they were taken */
	size_t n_tickets;		/* entries used in tickets */
	int32_t *latest_ticket;		/* per identity, its latest ticket in tickets, -1 for none */
	int32_t n_identities;		/* entries in latest_ticket: every identity in the record is below it */
	struct job_identity *pairs;	/* every job and identity of the ledger's executions and the record's claims, sorted */
	size_t n_pairs;			/* entries in pairs */
	size_t n_doubt;			/* claims in no ledger */
	bool doubt_allowed;		/* the run lost as many connections: they are left out as in doubt */
};

/* Whether r's holder's line ticket was deleted as stale before the record's place seq. */
static bool ticket_expired(const struct replay *rp, const struct job_replay *r, int64_t seq)
{
	int64_t expired;

	if (r->holder_ticket < 0)
		return false;
	expired = rp->tickets[r->holder_ticket].expired_seq;
	return expired && expired < seq;
}

/* The cause of the claim e of job r as a redelivery, or -1 when it is none. */
static int redelivery_cause(const struct replay *rp, const struct job_replay *r, const struct audit_event *e)
{
	if (r->holder < 0)
		return -1;
	if (ticket_expired(rp, r, e->seq))
		return VERIFY_STALE_TICKET;
	if (r->holder_done)
		return -1;
	if (r->returned)
		return VERIFY_REAPER;
	if (e->old_status == JOB_ACTIVE && e->lease_expired)
		return VERIFY_LEASE;
	if (e->old_status == JOB_NEW)
		return VERIFY_CRASH;
	return -1;
}

/* Whether the next claim of job by identity is beyond the ledger's executions of it (in doubt); takes it. */
static bool beyond_ledger(const struct replay *rp, int64_t job, int32_t identity)
{
	struct job_identity key = { .job = job, .identity = identity };
	struct job_identity *p = bsearch(&key, rp->pairs, rp->n_pairs, sizeof(key), pair_order);

	if (!p || p->doubt_left <= 0)
		return false;
	p->doubt_left--;
	return true;
}

/* Notes the claim e of job r. */
static void claim(struct replay *rp, struct job_replay *r, const struct audit_event *e)
{
	int cause = redelivery_cause(rp, r, e);
	struct open_claim *c = &rp->pool[rp->n_pool];
	bool doubt = beyond_ledger(rp, e->id, e->writer);

	if (cause >= 0) {
		r->redeliveries[cause]++;
		r->doubt_redeliveries[cause] += r->holder_in_doubt;
		for (int32_t i = r->open; i >= 0; i = rp->pool[i].next)
			rp->pool[i].taken_again = true;
	}
	*c = (struct open_claim){ .holder = e->writer, .in_doubt = doubt, .next = r->open };
	r->open = (int32_t)rp->n_pool++;
	r->claims++;
	r->doubt_claims += doubt;
	r->holder_in_doubt = doubt;
	rp->n_doubt += doubt;
	r->holder = e->writer;
	r->holder_seq = e->seq;
	r->holder_ticket = rp->latest_ticket[e->writer];
	r->holder_done = false;
	r->returned = false;
}

/* Takes holder's open claim out of job r's list. The claim, or NULL when holder has none open. */
static struct open_claim *close_claim(struct replay *rp, struct job_replay *r, int32_t holder)
{
	for (int32_t *link = &r->open; *link >= 0; link = &rp->pool[*link].next) {
		struct open_claim *c = &rp->pool[*link];

		if (c->holder == holder) {
			*link = c->next;
			return c;
		}
	}
	return NULL;
}

/* Notes the completion e (done or error) of job r. */
static void complete(struct replay *rp, struct job_replay *r, const struct audit_event *e)
{
	struct open_claim *c = close_claim(rp, r, e->writer);

	r->completions++;
	r->failed += e->new_status == JOB_ERROR;
	r->done |= e->new_status == JOB_DONE;
	r->zombies += c && c->taken_again;
	if (e->writer == r->holder)
		r->holder_done = true;
}

/* Notes e, an active row of job r given back to new. */
static void give_back(struct replay *rp, struct job_replay *r, const struct audit_event *e)
{
	if (e->writer >= 0) {
		/* a worker's own give-back at a stop: the ledger keeps no execution of it */
		if (close_claim(rp, r, e->writer) && r->claims)
			r->claims--;
		if (e->writer == r->holder)
			r->holder = -1;
	} else {
		r->returned = true;
		r->reaps += e->lease_expired;
	}
}

/* Whether e, made by a worker, hands its job to that worker (see the file's comment). */
static bool is_claim(const struct audit_event *e)
{
	if (e->writer < 0 || e->op == AUDIT_DELETE)
		return false;
	if (e->new_status == JOB_ACTIVE)
		return e->old_status != JOB_ACTIVE || e->old_owner != e->new_owner || e->old_attempt != e->new_attempt;
	if (e->new_status == JOB_NEW)
		return e->old_status == JOB_NEW && (e->old_owner != e->new_owner || e->old_attempt != e->new_attempt);
	if (e->new_status == JOB_DONE || e->new_status == JOB_ERROR)
		return e->old_status == JOB_NEW && e->old_owner != e->writer;
	return e->new_status == JOB_CONSUMED;
}

/* Replays e, a change to a job's row. */
static void replay_job_change(struct replay *rp, const struct audit_event *e)
{
	struct job_replay *r = &rp->jobs[e->id - 1];

	if (e->table == AUDIT_JOBS)
		r->in_jobs = e->new_status;
	else
		r->moved = e->new_status;
	if (is_claim(e))
		claim(rp, r, e);
	if (e->writer >= 0 && e->op != AUDIT_DELETE && (e->new_status == JOB_DONE || e->new_status == JOB_ERROR))
		complete(rp, r, e);
	else if (e->op == AUDIT_UPDATE && e->old_status == JOB_ACTIVE && e->new_status == JOB_NEW)
		give_back(rp, r, e);
}

/* Replays e, a change to the line: a ticket taken, or deleted (by another than its requester: a stale expiry). */
static void replay_line_change(struct replay *rp, const struct audit_event *e)
{
	if (e->op == AUDIT_INSERT && e->new_owner >= 0) {
		rp->latest_ticket[e->new_owner] = (int32_t)rp->n_tickets;
		rp->tickets[rp->n_tickets++] = (struct line_ticket){ .number = e->id };
		return;
	}
	if (e->op != AUDIT_DELETE || e->writer < 0 || e->writer == e->old_owner)
		return;
	for (size_t i = rp->n_tickets; i-- > 0;)
		if (rp->tickets[i].number == e->id) {
			rp->tickets[i].expired_seq = e->seq;
			return;
		}
}

/* Replays the whole record. */
static void replay_record(struct replay *rp)
{
	const struct verify_input *in = rp->in;

	for (size_t j = 0; j < in->n_jobs; j++)
		rp->jobs[j] = (struct job_replay){
			.in_jobs = j < in->n_backlog ? JOB_NEW : JOB_MISSING,
			.moved = JOB_MISSING,
			.holder = -1,
			.holder_ticket = -1,
			.open = -1,
		};
	for (size_t i = 0; i < in->n_events; i++) {
		const struct audit_event *e = &in->events[i];

		if (e->table == AUDIT_LINE)
			replay_line_change(rp, e);
		else if (e->id >= 1 && (uint64_t)e->id <= in->n_jobs)
			replay_job_change(rp, e);
	}
}

/* Counts the ledger's executions job by job, as the server could see them, and lists who executed what. */
static void count_ledger(struct replay *rp)
{
	const struct verify_input *in = rp->in;

	for (size_t i = 0; i < in->ledger->n_execs; i++) {
		const struct execution *x = &in->ledger->execs[i];
		struct job_ledger *l;
		bool committed = x->outcome == EXEC_DONE || x->outcome == EXEC_FAILED;

		if (x->job_id < 1 || (uint64_t)x->job_id > in->n_jobs)
			continue;
		rp->pairs[rp->n_pairs++] = (struct job_identity){ .job = x->job_id, .identity = x->identity, .executions = 1 };
		l = &rp->ledger[x->job_id - 1];
		l->committed += committed;
		l->failed += x->outcome == EXEC_FAILED;
		l->done |= x->outcome == EXEC_DONE;
		l->unfinished += x->outcome == EXEC_CRASHED || x->outcome == EXEC_UNCOMMITTED || x->outcome == EXEC_FENCED;
		l->visible += in->hold ? committed : x->outcome != EXEC_INTERRUPTED;
	}
}

/*
 * Adds the record's claims to the ledger's executions in pairs, then sorts and merges them
 * into one entry per job and identity, with the claims beyond the executions in doubt.
 */
static void pair_claims(struct replay *rp)
{
	const struct verify_input *in = rp->in;
	size_t n = 0;

	for (size_t i = 0; i < in->n_events; i++) {
		const struct audit_event *e = &in->events[i];

		if (e->table != AUDIT_LINE && e->id >= 1 && (uint64_t)e->id <= in->n_jobs && is_claim(e))
			rp->pairs[rp->n_pairs++] = (struct job_identity){ .job = e->id, .identity = e->writer,
									  .claims = 1 };
	}
	qsort(rp->pairs, rp->n_pairs, sizeof(*rp->pairs), pair_order);
	for (size_t i = 0; i < rp->n_pairs; i++) {
		if (n && pair_order(&rp->pairs[n - 1], &rp->pairs[i]) == 0) {
			rp->pairs[n - 1].executions += rp->pairs[i].executions;
			rp->pairs[n - 1].claims += rp->pairs[i].claims;
		} else {
			rp->pairs[n++] = rp->pairs[i];
		}
	}
	rp->n_pairs = n;
	for (size_t i = 0; i < n; i++)
		rp->pairs[i].doubt_left = rp->pairs[i].claims - rp->pairs[i].executions;
}

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

/* Appends id to the list text of len bytes; "..." once it is full. */
static void list_job(char *text, size_t len, size_t id)
{
	size_t used = strlen(text);
	char item[24];

	if (used >= 3 && strcmp(text + used - 3, "...") == 0)
		return;
	snprintf(item, sizeof(item), "%s%zu", used ? " " : "", id);
	if (used + strlen(item) + 5 > len)
		snprintf(text + used, len - used, "%s...", used ? " " : "");
	else
		snprintf(text + used, len - used, "%s", item);
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
			list_job(d.jobs, sizeof(d.jobs), j + 1);
		} else if (server) {
			list_job(counted, sizeof(counted), j + 1);
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

/* Committed completions of job j (none counted for a consumed job: its completion writes nothing). */
static int64_t executions_of(const struct replay *rp, size_t j, int64_t *ledger)
{
	if (consumed(rp, j))
		return 0;
	*ledger = rp->ledger[j].committed;
	return rp->jobs[j].completions;
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
		open += !(rp->doubt_allowed && rp->pool[i].in_doubt);
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

/* Compares every figure the server can see, in docs/metrics.md's order, into out. */
static void compare_all(const struct replay *rp, struct verify_outcome *out)
{
	const struct verify_input *in = rp->in;
	const struct run_metrics *m = in->metrics;
	int64_t committed = 0, visible_dups = 0, unfinished = 0;

	for (size_t j = 0; j < in->n_jobs; j++) {
		const struct job_ledger *l = &rp->ledger[j];

		if (!consumed(rp, j)) {
			committed += l->committed;
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
		{ "redeliveries", (int64_t)m->redeliveries, redeliveries_of, 0 },
		{ "redeliveries_crash", (int64_t)m->redeliveries_crash, NULL, VERIFY_CRASH },
		{ "fenced+crashed+uncommitted", unfinished, unfinished_of, 0 },
	};
	const struct per_job both[] = {
		{ "redeliveries_lease", (int64_t)m->redeliveries_lease, NULL, VERIFY_LEASE },
		{ "redeliveries_reaper", (int64_t)m->redeliveries_reaper, NULL, VERIFY_REAPER },
		{ "redeliveries_stale_ticket", (int64_t)m->redeliveries_stale_ticket, NULL, VERIFY_STALE_TICKET },
		{ "zombie_completions", (int64_t)m->zombie_completions, zombies_of, 0 },
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

/* One more than the largest identity in in's record: a writer's or an owner's. */
static int32_t identities(const struct verify_input *in)
{
	int32_t top = 0;

	for (size_t i = 0; i < in->n_events; i++) {
		const struct audit_event *e = &in->events[i];
		int32_t most = e->writer > e->old_owner ? e->writer : e->old_owner;

		most = most > e->new_owner ? most : e->new_owner;
		top = most >= top ? most + 1 : top;
	}
	return top;
}

int verify_run(const struct verify_input *in, struct verify_outcome *out)
{
	struct replay rp = {
		.in = in,
		.jobs = calloc(in->n_jobs + 1, sizeof(*rp.jobs)),
		.ledger = calloc(in->n_jobs + 1, sizeof(*rp.ledger)),
		.pool = calloc(in->n_events + 1, sizeof(*rp.pool)),
		.tickets = calloc(in->n_events + 1, sizeof(*rp.tickets)),
		.pairs = calloc(in->ledger->n_execs + in->n_events + 1, sizeof(*rp.pairs)),
		.n_identities = identities(in),
	};
	int rc = -1;

	*out = (struct verify_outcome){ 0 };
	rp.latest_ticket = malloc((size_t)rp.n_identities * sizeof(*rp.latest_ticket));
	if (!rp.jobs || !rp.ledger || !rp.pool || !rp.tickets || !rp.latest_ticket || !rp.pairs)
		goto out_free;
	for (int32_t i = 0; i < rp.n_identities; i++)
		rp.latest_ticket[i] = -1;
	count_ledger(&rp);
	pair_claims(&rp);
	replay_record(&rp);
	rp.doubt_allowed = rp.n_doubt <= in->metrics->reconnects;
	out->verified = true;
	out->in_doubt = rp.doubt_allowed ? rp.n_doubt : 0;
	compare_all(&rp, out);
	rc = 0;
out_free:
	free(rp.pairs);
	free(rp.latest_ticket);
	free(rp.tickets);
	free(rp.pool);
	free(rp.ledger);
	free(rp.jobs);
	return rc;
}
