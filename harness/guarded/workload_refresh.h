/*
 * The refresh workload (seed 003, step 1): each worker takes the guard, refreshes the
 * cache when it is of an earlier stale period than now, releases it and uses the cache.
 */
#ifndef CLAIMBENCH_GUARDED_WORKLOAD_REFRESH_H
#define CLAIMBENCH_GUARDED_WORKLOAD_REFRESH_H

#include "guarded/guarded_worker.h"

/*
 * One cycle of the refresh workload: take the guard, read the status, refresh the cache
 * in two halves when it is of an earlier period, release, then use it for --work-ms; a
 * check that timed out uses the cache unchecked. 0, or -1 when that is w's end (w aborted).
 */
int refresh_cycle(struct guarded_worker *w);

#endif
