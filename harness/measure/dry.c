#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "measure/dry.h"

#define NS_PER_S 1e9

/* The latest instant a job was put in a worker's hand, or -1 when some job of the n_jobs never was. */
static int64_t last_take(const struct ledger *l, size_t n_jobs, bool *taken)
{
	int64_t last = -1;
	size_t distinct = 0;

	for (size_t i = 0; i < l->n_execs; i++) {
		const struct execution *e = &l->execs[i];

		if (e->job_id < 1 || (size_t)e->job_id > n_jobs)
			continue;
		if (!taken[e->job_id - 1]) {
			taken[e->job_id - 1] = true;
			distinct++;
		}
		if (e->start_ns > last)
			last = e->start_ns;
	}
	return distinct == n_jobs ? last : -1;
}

int dry_compute(const struct metrics_input *in, struct dry_figures *out)
{
	const struct ledger *l = in->ledger;
	bool *taken;
	int64_t last;

	*out = (struct dry_figures){ .ran_dry = 0, .at_s = NAN, .empty_after = 0 };
	if (in->drain || in->stopped || in->n_producers || !in->n_jobs)
		return 0;
	taken = calloc(in->n_jobs, sizeof(*taken));
	if (!taken)
		return -1;
	last = last_take(l, in->n_jobs, taken);
	free(taken);
	if (last < 0)
		return 0;
	for (size_t i = 0; i < l->n_empties; i++)
		out->empty_after += l->empties[i].start_ns >= last ? l->empties[i].count : 0;
	if (!out->empty_after)
		return 0;
	out->ran_dry = 1;
	out->at_s = (double)last / NS_PER_S;
	return 0;
}
