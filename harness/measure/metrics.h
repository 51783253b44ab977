/*
 * Every metric of a run, computed once, after the run, from the merged ledger,
 * the workers' own counters and the table's final state. docs/metrics.md gives
 * the exact definitions this file implements.
 */
#ifndef CLAIMBENCH_METRICS_H
#define CLAIMBENCH_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "measure/metrics_input.h"
#include "measure/series.h"
#include "model/result.h"

/* Computes every metric of out from in. 0, or -1 when out of memory. */
int metrics_compute(const struct metrics_input *in, struct run_metrics *out);

/* Jain's index, min, max and cv of the n counts x; all four 0 when n is 0, Jain's and cv NaN when every x is 0. */
struct fairness metrics_fairness(const uint64_t *x, size_t n);

#endif
