/*
 * The exclusive-use workload: users read the cache under the guard, while one refresher
 * (seat 0) empties and refills it under the writer's lock at the start of each stale period.
 */
#ifndef CLAIMBENCH_GUARDED_WORKLOAD_EXCLUSIVE_USE_H
#define CLAIMBENCH_GUARDED_WORKLOAD_EXCLUSIVE_USE_H

#include "guarded/guarded_worker.h"

/*
 * One use of the cache by a user: take the guard, read the cache (stale when of an
 * earlier period than the one current at the grant), use it for --work-ms, release.
 * 0, or -1 when that is w's end (w aborted).
 */
int use_cycle(struct guarded_worker *w);

/*
 * One stale period of the refresher: empty and refill the cache under the writer's lock
 * (trying again after --retry-ms while it is refused), then sleep to the next period's
 * start or the run's end. 0, or -1 when that is w's end (w aborted).
 */
int refresher_cycle(struct guarded_worker *w);

#endif
