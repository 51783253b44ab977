/*
 * --verify's replay (verify_replay.h): the server's record of a run replayed job by job,
 * and the ledger's executions counted as the server could see them.
 *
 * A change is a claim when a worker's session made it and it hands the job to that worker:
 * it makes the row active, or marks a new row (advisory, whose claim is its session's lock),
 * under another owner or attempt than before, moves it into delete-returning's archive
 * (consumed), or takes it from new straight to done or error under another owner (hold
 * mode, where the claim commits with its completion). It is a completion when a
 * worker's session writes done or error. The harness's session giving an active row back
 * to new is the reaper's (when the row's lease had run out) or --rerun-stuck's. A claim is
 * a redelivery when the earlier claim's holder had lost the job before it: the line ticket
 * it held when it claimed was deleted as stale (stale_ticket: by another worker, or by its
 * requester before it claimed, whose own poll deletes every stale ticket); or it had not
 * completed it and the harness gave the job back (reaper), the claim took its row with the
 * lease run out (lease), or took it still new (crash: the holder's session, whose lock was
 * the claim, ended). A claim that takes a live holder's active row is a race, not a
 * redelivery. A completion is a zombie when its writer's claim was still open when a
 * redelivery claim took the job.
 *
 * A claim whose COMMIT reached the server while its answer was lost with the connection
 * (a restart, a killed backend) is in the record and in no ledger: of the claims of a job
 * by one identity, the first ones beyond the ledger's executions of that job by that
 * identity (the same worker may claim it again later). A completion whose answer a lost
 * connection swallowed is judged by the worker from the table after reconnecting, and an
 * unfenced completion (naive's) may have written another's claim done: of a job's
 * completions by one identity, those the record and the ledger's committed executions
 * differ by, at most one per execution of it by that identity whose connection was made anew
 * during it, are in doubt too (its own completion committed unseen, or another's taken for
 * it). One lost connection puts one statement in doubt: a claim statement's jobs (up to
 * the claim size, a batch's) or a completion. When the run lost at least as many
 * connections as there are such statements, they are in doubt: the claims left out of the
 * claims, the unfinished claims and (as the earlier holder) the redeliveries, the
 * completions out of the committed ones and their claims out of the unfinished, and
 * counted apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/verify_replay.h"

/* Orders job_identity entries by job, then identity (qsort, bsearch). */
static int pair_order(const void *a, const void *b)
{
	const struct job_identity *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return (x->identity > y->identity) - (x->identity < y->identity);
}

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
	rp->doubt_by_identity[e->writer] += doubt;
	r->holder = e->writer;
	r->holder_seq = e->seq;
	r->holder_ticket = rp->latest_ticket[e->writer];
	if (r->holder_ticket >= 0)
		rp->tickets[r->holder_ticket].held = true;
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

/* Whether e, made by a worker, writes its job done or error. */
static bool is_completion(const struct audit_event *e)
{
	return e->writer >= 0 && e->op != AUDIT_DELETE && (e->new_status == JOB_DONE || e->new_status == JOB_ERROR);
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
	if (is_completion(e))
		complete(rp, r, e);
	else if (e->op == AUDIT_UPDATE && e->old_status == JOB_ACTIVE && e->new_status == JOB_NEW)
		give_back(rp, r, e);
}

/*
 * Replays e, a change to the line: a ticket taken, or deleted as stale: by another than
 * its requester, or by its requester before a claim held it (its own poll; its return
 * comes after its claim, and an unheld ticket is no claim's).
 */
static void replay_line_change(struct replay *rp, const struct audit_event *e)
{
	if (e->op == AUDIT_INSERT && e->new_owner >= 0) {
		rp->latest_ticket[e->new_owner] = (int32_t)rp->n_tickets;
		rp->tickets[rp->n_tickets++] = (struct line_ticket){ .number = e->id };
		return;
	}
	if (e->op != AUDIT_DELETE || e->writer < 0)
		return;
	for (size_t i = rp->n_tickets; i-- > 0;)
		if (rp->tickets[i].number == e->id) {
			if (e->writer != e->old_owner || !rp->tickets[i].held)
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
		rp->pairs[rp->n_pairs++] = (struct job_identity){ .job = x->job_id, .identity = x->identity, .executions = 1,
								  .committed = committed,
								  .reconnected = x->conn_ns > x->start_ns };
		l = &rp->ledger[x->job_id - 1];
		l->committed += committed;
		l->failed += x->outcome == EXEC_FAILED;
		l->done |= x->outcome == EXEC_DONE;
		l->unfinished += x->outcome == EXEC_CRASHED || x->outcome == EXEC_UNCOMMITTED || x->outcome == EXEC_FENCED;
		l->visible += in->hold ? committed : x->outcome != EXEC_INTERRUPTED;
	}
}

/*
 * Adds the record's claims and completions to the ledger's executions in pairs, then sorts
 * and merges them into one entry per job and identity, with the claims beyond the
 * executions in doubt.
 */
static void pair_claims(struct replay *rp)
{
	const struct verify_input *in = rp->in;
	size_t n = 0;

	for (size_t i = 0; i < in->n_events; i++) {
		const struct audit_event *e = &in->events[i];

		if (e->table == AUDIT_LINE || e->id < 1 || (uint64_t)e->id > in->n_jobs)
			continue;
		if (is_claim(e))
			rp->pairs[rp->n_pairs++] = (struct job_identity){ .job = e->id, .identity = e->writer,
									  .claims = 1 };
		if (is_completion(e))
			rp->pairs[rp->n_pairs++] = (struct job_identity){ .job = e->id, .identity = e->writer,
									  .completions = 1 };
	}
	qsort(rp->pairs, rp->n_pairs, sizeof(*rp->pairs), pair_order);
	for (size_t i = 0; i < rp->n_pairs; i++) {
		if (n && pair_order(&rp->pairs[n - 1], &rp->pairs[i]) == 0) {
			rp->pairs[n - 1].executions += rp->pairs[i].executions;
			rp->pairs[n - 1].claims += rp->pairs[i].claims;
			rp->pairs[n - 1].committed += rp->pairs[i].committed;
			rp->pairs[n - 1].reconnected += rp->pairs[i].reconnected;
			rp->pairs[n - 1].completions += rp->pairs[i].completions;
		} else {
			rp->pairs[n++] = rp->pairs[i];
		}
	}
	rp->n_pairs = n;
	for (size_t i = 0; i < n; i++)
		rp->pairs[i].doubt_left = rp->pairs[i].claims - rp->pairs[i].executions;
}

/* The smaller of a and b. */
static int32_t smaller(int32_t a, int32_t b)
{
	return a < b ? a : b;
}

/*
 * Counts the completions in doubt of each job and identity (see the file's comment) into
 * the job's figures, and marks as many of the identity's open claims of the job whose
 * completion the ledger has and the record lacks.
 */
static void doubt_completions(struct replay *rp)
{
	for (size_t i = 0; i < rp->n_pairs; i++) {
		struct job_identity *p = &rp->pairs[i];
		int32_t missing = smaller(p->committed - p->completions, p->reconnected);
		int32_t extra = smaller(p->completions - p->committed, p->reconnected);

		missing = missing > 0 ? missing : 0;
		extra = extra > 0 ? extra : 0;
		rp->ledger[p->job - 1].doubt_committed += (uint32_t)missing;
		rp->jobs[p->job - 1].doubt_completions += (uint32_t)extra;
		rp->n_doubt_completions += (size_t)(missing + extra);
		p->open_doubt_left = missing;
	}
	for (size_t j = 0; j < rp->in->n_jobs; j++)
		for (int32_t i = rp->jobs[j].open; i >= 0; i = rp->pool[i].next) {
			struct open_claim *c = &rp->pool[i];
			struct job_identity key = { .job = (int64_t)j + 1, .identity = c->holder };
			struct job_identity *p = bsearch(&key, rp->pairs, rp->n_pairs, sizeof(key), pair_order);

			if (p && p->open_doubt_left > 0) {
				c->completion_in_doubt = true;
				p->open_doubt_left--;
			}
		}
}

/* The statements in doubt: each identity's claims in doubt, claim_size to a statement at most, and the completions. */
static size_t doubt_statements(const struct replay *rp)
{
	uint32_t size = rp->in->claim_size > 1 ? (uint32_t)rp->in->claim_size : 1;
	size_t n = rp->n_doubt_completions;

	for (int32_t i = 0; i < rp->n_identities; i++)
		n += (rp->doubt_by_identity[i] + size - 1) / size;
	return n;
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

int replay_open(struct replay *rp, const struct verify_input *in)
{
	*rp = (struct replay){
		.in = in,
		.jobs = calloc(in->n_jobs + 1, sizeof(*rp->jobs)),
		.ledger = calloc(in->n_jobs + 1, sizeof(*rp->ledger)),
		.pool = calloc(in->n_events + 1, sizeof(*rp->pool)),
		.tickets = calloc(in->n_events + 1, sizeof(*rp->tickets)),
		.pairs = calloc(in->ledger->n_execs + 2 * in->n_events + 1, sizeof(*rp->pairs)),
		.n_identities = identities(in),
	};
	rp->latest_ticket = malloc((size_t)rp->n_identities * sizeof(*rp->latest_ticket));
	rp->doubt_by_identity = calloc((size_t)rp->n_identities + 1, sizeof(*rp->doubt_by_identity));
	if (!rp->jobs || !rp->ledger || !rp->pool || !rp->tickets || !rp->latest_ticket || !rp->pairs ||
	    !rp->doubt_by_identity) {
		replay_close(rp);
		return -1;
	}
	for (int32_t i = 0; i < rp->n_identities; i++)
		rp->latest_ticket[i] = -1;
	count_ledger(rp);
	pair_claims(rp);
	replay_record(rp);
	doubt_completions(rp);
	rp->doubt_statements = doubt_statements(rp);
	rp->doubt_allowed = rp->doubt_statements <= in->metrics->reconnects;
	return 0;
}

void replay_close(struct replay *rp)
{
	free(rp->pairs);
	free(rp->doubt_by_identity);
	free(rp->latest_ticket);
	free(rp->tickets);
	free(rp->pool);
	free(rp->ledger);
	free(rp->jobs);
	*rp = (struct replay){ .in = rp->in };
}
