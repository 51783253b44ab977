#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "analysis/summary.h"

/* "" for NULL. */
static const char *text(const char *s)
{
	return s ? s : "";
}

/* Whether a and b are repetitions of the same point. */
static bool same_point(const struct run_result *a, const struct run_result *b)
{
	return strcmp(a->strategy, b->strategy) == 0 && strcmp(a->claim_mode, b->claim_mode) == 0 &&
	       a->workers == b->workers && strcmp(text(a->group), text(b->group)) == 0 &&
	       strcmp(text(a->sweep), text(b->sweep)) == 0 && strcmp(a->engine, b->engine) == 0;
}

size_t summary_build(const struct invocation_result *r, struct summary_row *rows)
{
	double *values = malloc((r->n_results ? r->n_results : 1) * sizeof(*values));
	bool *taken = alloc_zeroed(r->n_results, sizeof(*taken));
	size_t n_rows = 0;

	if (!values || !taken)
		goto out;
	for (size_t i = 0; i < r->n_results; i++) {
		size_t members = 0;

		if (taken[i])
			continue;
		for (size_t j = i; j < r->n_results; j++)
			if (!taken[j] && same_point(&r->results[i], &r->results[j]))
				members++;
		if (members < 2)
			continue;
		rows[n_rows].first = &r->results[i];
		rows[n_rows].runs = members;
		for (size_t m = 0; m < metric_table_len; m++) {
			size_t n = 0;

			if (!metric_table[m].summarised)
				continue;
			for (size_t j = i; j < r->n_results; j++)
				if (!taken[j] && same_point(&r->results[i], &r->results[j]))
					values[n++] = metric_get(&metric_table[m], &r->results[j].metrics);
			rows[n_rows].stats[m] = stats_summarize(values, n);
		}
		for (size_t j = i; j < r->n_results; j++)
			if (same_point(&r->results[i], &r->results[j]))
				taken[j] = true;
		n_rows++;
	}
out:
	free(values);
	free(taken);
	return n_rows;
}
