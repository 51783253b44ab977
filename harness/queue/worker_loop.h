/* The worker thread: the claim loop from the start gate to the end of the run. */
#ifndef CLAIMBENCH_WORKER_LOOP_H
#define CLAIMBENCH_WORKER_LOOP_H

#include "queue/worker.h"

/* Starts w's thread, which waits at the start gate, then claims until the run ends. 0 or -1. */
int worker_start(struct worker *w);

#endif
