/*
 * The rules, job by job (each job's changes are serialised by its row's lock, so their
 * order in the record is their commit order):
 *
 * - a claim is a change that puts the row in an active state, or takes it from waiting
 *   straight to done or failed (a hold-mode claim, which commits with its completion);
 * - a completion is a change (not an insert) that leaves the row done or failed, a delete
 *   under absent_state = done included;
 * - the ledger's side: an execution's claim is visible to the server in flip mode always,
 *   in hold mode when the execution committed (done or failed); its completion when it
 *   committed.
 *
 * A replica that died, or a connection a fault cut, may have committed with no line to say
 * so the claim its seat was making or the completion of the job it held: the record's claims
 * beyond the ledger's are left out while they number no more than unsaid_claims_max, and a
 * completion beyond the ledger's where the job has an execution that died with its process
 * or was lost with its connection (a lost line).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/adapter_verify.h"
#include "base/text.h"
#include "measure/verify.h"

/* One job as the record replays it. */
struct job_record {
	uint32_t claims;	/* claims */
	uint32_t completions;	/* completions, done or failed */
	uint32_t failed;	/* of them, failed */
	bool done;		/* a completion left it done */
	int32_t final;		/* the state the record leaves it in: an enum job_status */
};

/* One job as the ledger has it, counted as the server could see it. */
struct job_lines {
	uint32_t claims;	/* executions whose claim the server saw */
	uint32_t committed;	/* executions done or failed */
	uint32_t failed;	/* of them, failed */
	uint32_t unsure;	/* executions whose completion may have committed unsaid: died with their replica's
				 * process, or lost with their connection */
	bool done;		/* an execution was done */
};

/* Whether status is a finished one: done or failed. */
static bool finished(int32_t status)
{
	return status == JOB_DONE || status == JOB_ERROR;
}

/* Replays in's record into jobs (n_jobs, zeroed): claims, completions, final states. */
static void replay(const struct adapter_verify_input *in, struct job_record *jobs)
{
	for (size_t j = 0; j < in->n_jobs; j++)
		jobs[j].final = JOB_NEW;
	for (size_t i = 0; i < in->n_events; i++) {
		const struct adapter_event *e = &in->events[i];
		struct job_record *r;

		if (e->job < 1 || (uint64_t)e->job > in->n_jobs)
			continue;
		r = &jobs[e->job - 1];
		if (e->new_status == JOB_ACTIVE || (e->old_status == JOB_NEW && finished(e->new_status)))
			r->claims++;
		if (e->op != AUDIT_INSERT && finished(e->new_status)) {
			r->completions++;
			r->failed += e->new_status == JOB_ERROR;
			r->done |= e->new_status == JOB_DONE;
		}
		r->final = e->new_status;
	}
}

/* Counts the ledger's executions into lines (n_jobs, zeroed) as the server could see them. */
static void count_lines(const struct adapter_verify_input *in, struct job_lines *lines)
{
	for (size_t i = 0; i < in->ledger->n_execs; i++) {
		const struct execution *x = &in->ledger->execs[i];
		bool committed = x->outcome == EXEC_DONE || x->outcome == EXEC_FAILED;
		struct job_lines *l;

		if (x->job_id < 1 || (uint64_t)x->job_id > in->n_jobs)
			continue;
		l = &lines[x->job_id - 1];
		l->claims += !in->hold || committed;
		l->committed += committed;
		l->failed += x->outcome == EXEC_FAILED;
		l->done |= x->outcome == EXEC_DONE;
		l->unsure += (x->flags & (EXEC_PROCESS_DIED | EXEC_CONNECTION_LOST)) != 0;
	}
}

/* The figures compared, in the order they are reported. */
enum figure { F_COMMITTED, F_COMPLETED, F_FAILED, F_DUPLICATES, F_FINAL_STATE, F_COUNT };

/* Their names, as docs/metrics.md's --verify table has them. */
static const char *const figure_names[F_COUNT] = { "executions_committed", "completed", "failed", "duplicates",
						  "final_state" };

/* One figure's totals and the jobs whose counts differ. */
struct tally {
	int64_t ledger;		/* the ledger's total */
	int64_t server;		/* the record's */
	char jobs[200];		/* the jobs whose counts differ */
	bool differs;		/* some job's counts differ */
};

/* Adds one job's counts of a figure (ledger, server) to t. */
static void add(struct tally *t, size_t j, int64_t ledger, int64_t server)
{
	t->ledger += ledger;
	t->server += server;
	if (ledger != server) {
		t->differs = true;
		text_list_append_id(t->jobs, sizeof(t->jobs), j + 1);
	}
}

/* The record's claims beyond the ledger's, over every job. */
static size_t claims_beyond(const struct adapter_verify_input *in, const struct job_record *jobs,
			    const struct job_lines *lines)
{
	size_t beyond = 0;

	for (size_t j = 0; j < in->n_jobs; j++)
		if (jobs[j].claims > lines[j].claims)
			beyond += jobs[j].claims - lines[j].claims;
	return beyond;
}

/* Compares job j's figures into tallies, what may have been left unsaid taken as said (counted in *doubt). */
static void compare_job(const struct adapter_verify_input *in, size_t j, const struct job_record *r,
			struct job_lines l, bool claims_excused, size_t *doubt, struct tally *tallies)
{
	uint32_t unsaid = r->completions > l.committed ? r->completions - l.committed : 0;

	if (claims_excused && r->claims > l.claims) {
		*doubt += r->claims - l.claims;
		l.claims = r->claims;
	}
	if (unsaid && unsaid <= l.unsure) {
		*doubt += unsaid;
		l.committed += unsaid;
		l.failed = r->failed;
		l.done = r->done;
	}
	add(&tallies[F_COMMITTED], j, l.committed, r->completions);
	add(&tallies[F_COMPLETED], j, l.done, r->done);
	add(&tallies[F_FAILED], j, l.failed, r->failed);
	add(&tallies[F_DUPLICATES], j, l.claims > 1 ? l.claims - 1 : 0, r->claims > 1 ? r->claims - 1 : 0);
	if (in->final)
		add(&tallies[F_FINAL_STATE], j, 0, r->final != in->final[j].status);
}

int adapter_verify_run(const struct adapter_verify_input *in, struct verify_outcome *out)
{
	struct job_record *jobs = calloc(in->n_jobs + 1, sizeof(*jobs));
	struct job_lines *lines = calloc(in->n_jobs + 1, sizeof(*lines));
	struct tally tallies[F_COUNT];
	size_t doubt = 0;
	bool claims_excused;

	if (!jobs || !lines) {
		free(jobs);
		free(lines);
		return -1;
	}
	memset(tallies, 0, sizeof(tallies));
	replay(in, jobs);
	count_lines(in, lines);
	claims_excused = in->unsaid_claims_max > 0 && claims_beyond(in, jobs, lines) <= in->unsaid_claims_max;
	for (size_t j = 0; j < in->n_jobs; j++)
		compare_job(in, j, &jobs[j], lines[j], claims_excused, &doubt, tallies);
	out->verified = true;
	out->in_doubt = doubt;
	for (int f = 0; f < F_COUNT; f++) {
		struct verify_difference *d;

		if (!tallies[f].differs && tallies[f].ledger == tallies[f].server)
			continue;
		if (out->n_diffs == VERIFY_MAX_DIFFS)
			break;
		d = &out->diffs[out->n_diffs++];
		snprintf(d->figure, sizeof(d->figure), "%s", figure_names[f]);
		d->ledger = tallies[f].ledger;
		d->server = tallies[f].server;
		snprintf(d->jobs, sizeof(d->jobs), "%s", tallies[f].jobs);
	}
	free(jobs);
	free(lines);
	return 0;
}
