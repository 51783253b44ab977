/* The life of one job in a worker's hand: its work, the faults that strike it, its completion. */
#ifndef CLAIMBENCH_JOB_H
#define CLAIMBENCH_JOB_H

#include <stdint.h>

#include "engine/worker.h"

/*
 * Executes the job job_id that w claimed (the attempt began at claim_start, the job was in
 * hand at in_hand): works on it (its heartbeats, and the faults that strike it), completes
 * it, and notes the execution in w's ledger; or gives it back when the run stops. 0, or -1
 * when w must stop (the ledger cannot grow, or a lost connection could not be made anew).
 */
int worker_execute(struct worker *w, int64_t job_id, int64_t claim_start, int64_t in_hand);

#endif
