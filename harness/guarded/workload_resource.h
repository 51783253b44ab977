/*
 * The resource workload (seed 004): each request draws a resource and whether it writes,
 * waits for its turn in the ticket line (or goes at once, the naive guard), holds the
 * resource for --work-ms and releases it; a holder may walk away without releasing.
 */
#ifndef CLAIMBENCH_GUARDED_WORKLOAD_RESOURCE_H
#define CLAIMBENCH_GUARDED_WORKLOAD_RESOURCE_H

#include "guarded/guarded_worker.h"

/*
 * One request of the resource workload: draw the resource and read or write, wait for the
 * turn, hold it for --work-ms, release. 0, or -1 when that is w's end (w aborted).
 */
int request_cycle(struct guarded_worker *w);

#endif
