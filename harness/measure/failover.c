#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/failover.h"
#include "model/faults.h"
#include "model/metric_table.h"

/* The first failover in in's ledger, or NULL. */
static const struct fault_record *first_failover(const struct metrics_input *in)
{
	const struct fault_record *first = NULL;

	for (size_t i = 0; i < in->ledger->n_faults; i++) {
		const struct fault_record *f = &in->ledger->faults[i];

		if (f->kind == FAULT_FAILOVER && (!first || f->at_ns < first->at_ns))
			first = f;
	}
	return first;
}

/* What the ledger says of one job around the failover. */
struct job_marks {
	int64_t done_end_ns;	/* the first completion of it the old primary acknowledged; INT64_MAX: none */
	int64_t last_claim_ns;	/* when the last claim that returned it began; INT64_MIN: none */
	int64_t held_ns;	/* when the claim of the execution in hand as the failover struck returned; INT64_MAX: none */
	int64_t fenced_ns;	/* when that execution's completion was refused by the fence; INT64_MAX: it was not */
	int64_t taken_ns;	/* when the first claim begun after the promotion returned it; INT64_MAX: none */
};

/*
 * Whether the new primary lacked the claim of job mk's execution in hand when the failover
 * struck (a claim that outlives its connection only: flip mode): the fence refused that
 * execution's completion, or another claim took the job, before the claim's lease (if any)
 * could have run out.
 */
static bool claim_lost(const struct metrics_input *in, const struct job_marks *mk)
{
	int64_t expiry;

	if (in->claim_in_session || mk->held_ns == INT64_MAX)
		return false;
	expiry = in->lease_ns ? mk->held_ns + in->lease_ns : INT64_MAX;
	return mk->fenced_ns < expiry || mk->taken_ns < expiry;
}

/* Appends job id to the list jobs (size bytes), or "..." once it is full. */
static void note_job(char *jobs, size_t size, int64_t id)
{
	size_t used = strlen(jobs);

	if (used + 24 >= size) {
		if (!strstr(jobs, "..."))
			snprintf(jobs + used, size - used, "%s...", used ? " " : "");
		return;
	}
	snprintf(jobs + used, size - used, "%s%lld", used ? " " : "", (long long)id);
}

void failover_account(const struct metrics_input *in, struct failover_figures *out, char *jobs, size_t jobs_size)
{
	const struct fault_record *f = first_failover(in);
	const struct ledger *l = in->ledger;
	int64_t first = INT64_MAX, promoted_ns;
	struct job_marks *marks;

	out->lost_completions = out->rerun = out->left_active = out->claims_lost = METRIC_UNKNOWN;
	out->first_completion_ms = NAN;
	jobs[0] = '\0';
	if (!f || !(marks = malloc((in->n_jobs ? in->n_jobs : 1) * sizeof(*marks))))
		return;
	/*
	 * Which server acknowledged a completion is told by its connection, not by when it returned
	 * (the standby takes writes before pg_ctl promote -w returns, and a completion's return may
	 * be read late): one made before the failover struck was to the old primary, the standby
	 * being read-only then. The claims taken again are told by the promotion's return.
	 */
	promoted_ns = f->at_ns + f->duration_ns;
	for (size_t j = 0; j < in->n_jobs; j++)
		marks[j] = (struct job_marks){ .done_end_ns = INT64_MAX, .last_claim_ns = INT64_MIN, .held_ns = INT64_MAX,
					       .fenced_ns = INT64_MAX, .taken_ns = INT64_MAX };
	for (size_t i = 0; i < l->n_execs; i++) {
		const struct execution *e = &l->execs[i];
		struct job_marks *mk;

		if (e->outcome == EXEC_DONE && e->conn_ns >= f->at_ns && e->end_ns < first)
			first = e->end_ns;
		if (!metrics_job_in_range(in, e->job_id))
			continue;
		mk = &marks[e->job_id - 1];
		if (e->outcome == EXEC_DONE && e->conn_ns < f->at_ns && e->end_ns < mk->done_end_ns)
			mk->done_end_ns = e->end_ns;
		if (e->claim_start_ns > mk->last_claim_ns)
			mk->last_claim_ns = e->claim_start_ns;
		if (e->start_ns < f->at_ns && e->end_ns >= f->at_ns) {
			mk->held_ns = e->start_ns;
			mk->fenced_ns = e->outcome == EXEC_FENCED ? e->end_ns : INT64_MAX;
		}
		if (e->claim_start_ns >= promoted_ns && e->start_ns < mk->taken_ns)
			mk->taken_ns = e->start_ns;
	}
	if (first != INT64_MAX)
		out->first_completion_ms = (double)(first - f->at_ns) / 1e6;
	out->lost_completions = out->rerun = out->claims_lost = 0;
	out->left_active = in->final ? 0 : METRIC_UNKNOWN;
	for (size_t j = 0; j < in->n_jobs; j++) {
		const struct job_state *st = in->final ? &in->final[j] : NULL;
		bool rerun = marks[j].last_claim_ns > marks[j].done_end_ns;
		bool undone = st && st->status != JOB_DONE && st->status != JOB_CONSUMED;

		out->claims_lost += claim_lost(in, &marks[j]);
		if (marks[j].done_end_ns == INT64_MAX || (!rerun && !undone))
			continue;
		out->lost_completions++;
		out->rerun += rerun;
		if (st && st->status == JOB_ACTIVE)
			out->left_active++;
		note_job(jobs, jobs_size, (int64_t)j + 1);
	}
	free(marks);
}
