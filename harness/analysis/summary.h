/*
 * Repetitions summarised: the mean, standard deviation and 95 % confidence interval
 * of each metric the metric table marks summarised.
 */
#ifndef CLAIMBENCH_SUMMARY_H
#define CLAIMBENCH_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/stats.h"
#include "model/metric_table.h"
#include "model/result.h"

/* The runs of one strategy x mode x workers x group x sweep point x engine, over their repetitions. */
struct summary_row {
	const struct run_result *first;		/* the first run of the set (names its strategy, mode, workers ...) */
	size_t runs;				/* runs in the set */
	struct stats_summary stats[METRIC_MAX];	/* by metric_table row; set for the summarised metrics only */
};

/*
 * Groups r's runs that differ only by repetition and summarises each set of two or more.
 * The number of rows written to rows (room for r->n_results).
 */
size_t summary_build(const struct invocation_result *r, struct summary_row *rows);

#endif
