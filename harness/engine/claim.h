/* The claim shape the row-locking strategies share. */
#ifndef CLAIMBENCH_CLAIM_H
#define CLAIMBENCH_CLAIM_H

#include <stdint.h>

#include "engine/strategy.h"

/*
 * In a new transaction (begun as worker_begin says), runs the select in select_slot
 * ($1 queue) to pick and lock a job, flips it to active, and commits in flip mode (the
 * transaction stays open in hold mode). On an error, a failed COMMIT included, the
 * transaction is rolled back; on an empty select it is committed.
 */
enum claim_result claim_in_transaction(struct worker *w, int select_slot, int64_t *job_id);

#endif
