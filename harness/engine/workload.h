/* Each job's simulated work time, drawn from a seeded RNG so that every strategy, */
/* worker count and repetition of an invocation gets the very same jobs. */
#ifndef CLAIMBENCH_WORKLOAD_H
#define CLAIMBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "model/config.h"

/* An array of n work times in ns (job id-1), drawn for dist with mean mean_ms. NULL when out of memory. */
int64_t *workload_make(long n, double mean_ms, enum work_dist dist, uint64_t seed);

/* Whether job id's first pass fails under fail_rate (0..1): a draw of its own, fixed by (seed, id). */
bool workload_fails(uint64_t seed, long id, double fail_rate);

#endif
