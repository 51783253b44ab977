/* Repetitions summarised: each metric's mean, standard deviation and 95 % confidence interval. */
#ifndef CLAIMBENCH_SUMMARY_H
#define CLAIMBENCH_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/result.h"
#include "base/stats.h"

/* The metrics a summary covers, by metric path. */
extern const char *const summary_metrics[];
extern const size_t summary_metrics_len;

/* The runs of one strategy x mode x workers x group x sweep point, over their repetitions. */
struct summary_row {
	const struct run_result *first;		/* the first run of the set (names its strategy, mode, workers ...) */
	struct stats_summary stats[16];		/* one per summary_metrics entry */
};

/*
 * Groups r's runs that differ only by repetition and summarises each set of two or more.
 * The number of rows written to rows (room for r->n_results).
 */
size_t summary_build(const struct report *r, struct summary_row *rows);

#endif
