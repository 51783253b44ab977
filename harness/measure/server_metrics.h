/*
 * The figures of a run's server samples and pressure phases (model/server_sample.h):
 * where the worker backends spent the sampled time, the queue table's blocks per claim at
 * the start and at the end, dead tuples, vacuums, the oldest transaction, SQLite's -wal
 * file, and the throughput before, during and after a held snapshot.
 */
#ifndef CLAIMBENCH_SERVER_METRICS_H
#define CLAIMBENCH_SERVER_METRICS_H

#include "model/result.h"

/* The window, in ms of samples, over which blocks per claim are measured at the start and at the end. */
#define BLOCKS_WINDOW_MS 2000

/*
 * Fills r->metrics.server from r's samples and probes, and r->metrics.phases from its time
 * series and phases; a figure they do not have (none taken, SQLite's tuples, no snapshot)
 * is unknown: NaN or METRIC_UNKNOWN.
 */
void server_metrics_compute(struct run_result *r);

#endif
