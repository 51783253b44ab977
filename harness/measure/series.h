/* The 100 ms time series of a queue run (completions, empty claims, errors, arrivals, backlog). */
#ifndef CLAIMBENCH_SERIES_H
#define CLAIMBENCH_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "measure/metrics_input.h"
#include "model/result.h"

/*
 * Computes the run's 100 ms time series from in into a new array *out (free it) of *n
 * buckets, from 0 to the bucket holding the latest instant recorded (and, in a timed
 * run, at least to the end of its duration). 0, or -1 when out of memory.
 */
int metrics_series(const struct metrics_input *in, struct series_point **out, size_t *n);

/* The bucket of the series an instant (ns after the start) falls in; instants before the start in the first. */
size_t series_bucket(int64_t t_ns);

/*
 * The latest instant in, the ledger and the enqueue times record: ends of executions and
 * empty claims, errors, enqueues; in a timed run, no earlier than the end of its duration.
 * The end of the series, and the run's end a job never in hand waits until.
 */
int64_t series_last_ns(const struct metrics_input *in);

#endif
