/*
 * The thread of a guarded worker: it waits at the run's gate, then runs its workload's
 * cycles (guarded/workload_*.c) until the run's time is up or it is stopped.
 */
#ifndef CLAIMBENCH_GUARDED_LOOP_H
#define CLAIMBENCH_GUARDED_LOOP_H

#include "guarded/guarded_worker.h"

/*
 * Starts the thread of w, opened (guarded_worker_open): it waits for the gate, then works
 * until the run's end. 0, or -1.
 */
int guarded_worker_start(struct guarded_worker *w);

#endif
