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
	int64_t done_end_ns;	/* the first completion of it that returned while the old primary took writes; INT64_MAX: none */
	int64_t last_claim_ns;	/* when the last claim that returned it began; INT64_MIN: none */
};

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

	out->lost_completions = out->rerun = out->left_active = METRIC_UNKNOWN;
	out->first_completion_ms = NAN;
	jobs[0] = '\0';
	if (!f || !(marks = malloc((in->n_jobs ? in->n_jobs : 1) * sizeof(*marks))))
		return;
	/* Until the standby's promotion returned, no client could write to it: what committed before was the old primary's. */
	promoted_ns = f->at_ns + f->duration_ns;
	for (size_t j = 0; j < in->n_jobs; j++)
		marks[j] = (struct job_marks){ .done_end_ns = INT64_MAX, .last_claim_ns = INT64_MIN };
	for (size_t i = 0; i < l->n_execs; i++) {
		const struct execution *e = &l->execs[i];
		struct job_marks *mk;

		if (e->outcome == EXEC_DONE && e->end_ns >= promoted_ns && e->end_ns < first)
			first = e->end_ns;
		if (!metrics_job_in_range(in, e->job_id))
			continue;
		mk = &marks[e->job_id - 1];
		if (e->outcome == EXEC_DONE && e->end_ns < promoted_ns && e->end_ns < mk->done_end_ns)
			mk->done_end_ns = e->end_ns;
		if (e->claim_start_ns > mk->last_claim_ns)
			mk->last_claim_ns = e->claim_start_ns;
	}
	if (first != INT64_MAX)
		out->first_completion_ms = (double)(first - f->at_ns) / 1e6;
	out->lost_completions = out->rerun = 0;
	out->left_active = in->final ? 0 : METRIC_UNKNOWN;
	for (size_t j = 0; j < in->n_jobs; j++) {
		const struct job_state *st = in->final ? &in->final[j] : NULL;
		bool rerun = marks[j].last_claim_ns > marks[j].done_end_ns;
		bool undone = st && st->status != JOB_DONE && st->status != JOB_CONSUMED;

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
