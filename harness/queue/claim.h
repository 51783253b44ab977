/* The claim shape the row-locking strategies share. */
#ifndef CLAIMBENCH_CLAIM_H
#define CLAIMBENCH_CLAIM_H

#include <stdint.h>

#include "plugin/strategy.h"

/*
 * In a new transaction (begun as worker_begin says), runs the select in select_slot
 * ($1 queue) to pick and lock a job, flips it to active, and commits in flip mode (the
 * transaction stays open in hold mode). On an error, a failed COMMIT included, the
 * transaction is rolled back; on an empty select it is committed.
 */
enum claim_result claim_in_transaction(struct worker *w, int select_slot, int64_t *job_id);

/*
 * The end of a claim whose transaction w has begun and whose pick, inside it, locked
 * *job_id and returned rows (-1 an error, 0 nothing to claim, 1 a job): as
 * claim_in_transaction goes on after its select.
 */
enum claim_result claim_picked(struct worker *w, int rows, int64_t *job_id);

#endif
