/*
 * The diagnosis of a run: a few sentences, generated from its server figures, on why the
 * queue ran as it did, for a design review to read beside the numbers: where the worker
 * backends spent the sampled time, how the blocks per claim moved, what dead tuples and the
 * oldest transaction did, and what a held snapshot cost.
 */
#ifndef CLAIMBENCH_DIAGNOSIS_H
#define CLAIMBENCH_DIAGNOSIS_H

#include <stddef.h>

#include "model/result.h"

/* A share of the sampled states at or above which a wait class is named as where the time went, %. */
#define DIAGNOSIS_DOMINANT_PCT 40.0

/* A change of blocks per claim from start to end beyond which it is called growth (a ratio). */
#define DIAGNOSIS_GROWTH 1.5

/* An age of the oldest transaction, in transactions, from which it is said to hold the xmin horizon back. */
#define DIAGNOSIS_OLD_XMIN 1000

/*
 * Writes run's diagnosis into buf (size bytes, truncated to fit): sentences ending in a
 * full stop, separated by spaces. Returns false, buf empty, when the run has no samples.
 */
bool diagnosis_write(const struct run_result *run, char *buf, size_t size);

#endif
