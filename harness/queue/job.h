/* The life of one job in a worker's hand: its work, the faults that strike it, its completion. */
#ifndef CLAIMBENCH_JOB_H
#define CLAIMBENCH_JOB_H

#include <stdint.h>

#include "queue/worker.h"

/*
 * Executes the job job_id that w claimed (the attempt began at claim_start, the job was in
 * hand at in_hand): works on it (its heartbeats, and the faults that strike it), completes
 * it, and notes the execution in w's ledger; or gives it back when the run stops. 0, or -1
 * when w must stop (the ledger cannot grow, or a lost connection could not be made anew).
 */
int worker_execute(struct worker *w, int64_t job_id, int64_t claim_start, int64_t in_hand);

/*
 * Executes the first n jobs of w's batch, claimed together (the claim began at
 * claim_start and ended at in_hand): works on each in turn, as worker_execute does one
 * job, then completes them all in one statement, and only then notes their executions
 * in w's ledger. Every job's execution has the batch's claim_start and starts at in_hand
 * (each job of the batch is in hand from the batch's claim, whenever its own work begins),
 * and ends when the completion committed. A stop gives back the job it cut short and those
 * not begun (each noted interrupted), and completes those worked; a crash abandons the whole
 * batch (every job of it noted crashed, those never begun too). 0, or -1 when w must stop,
 * as worker_execute.
 */
int worker_execute_batch(struct worker *w, int n, int64_t claim_start, int64_t in_hand);

#endif
