#include <stdlib.h>
#include <string.h>

#include "model/metric_path.h"
#include "analysis/summary.h"

const char *const summary_metrics[] = {
	"makespan_s", "throughput_jps", "fairness.jain", "duplicates", "lost", "empty_claims", "retries",
	"claim_latency_ms.p50", "claim_latency_ms.p99",
};
const size_t summary_metrics_len = sizeof(summary_metrics) / sizeof(summary_metrics[0]);

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
	       strcmp(text(a->sweep), text(b->sweep)) == 0;
}

size_t summary_build(const struct report *r, struct summary_row *rows)
{
	double *values = malloc((r->n_results ? r->n_results : 1) * sizeof(*values));
	bool *taken = calloc(r->n_results ? r->n_results : 1, sizeof(*taken));
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
		for (size_t m = 0; m < summary_metrics_len; m++) {
			size_t n = 0;

			for (size_t j = i; j < r->n_results; j++)
				if (!taken[j] && same_point(&r->results[i], &r->results[j]) &&
				    metric_value(&r->results[j], summary_metrics[m], &values[n]) == 0)
					n++;
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
