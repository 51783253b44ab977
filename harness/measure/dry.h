/*
 * Whether a timed run ran out of jobs before its end (struct dry_figures): its throughput
 * is then the rate while jobs were there, and compare will not gate on it.
 */
#ifndef CLAIMBENCH_DRY_H
#define CLAIMBENCH_DRY_H

#include "measure/metrics.h"

/*
 * Fills out from in: a timed run, not stopped, without arrivals, ran dry when every job of
 * its backlog was put in a worker's hand and at least one claim begun at or after the last
 * such instant came back empty. at_s is that instant; empty_after those claims. A drain
 * run, a stopped one and one with arrivals never ran dry (ran_dry 0, at_s NaN, empty_after
 * 0). 0, or -1 when out of memory.
 */
int dry_compute(const struct metrics_input *in, struct dry_figures *out);

#endif
