/*
 * What one schedule of an explore session found, from the engine's own ledger and final
 * state, as a run measures it (outcome.c).
 */
#ifndef CLAIMBENCH_EXPLORE_OUTCOME_H
#define CLAIMBENCH_EXPLORE_OUTCOME_H

#include <stddef.h>

#include "explore/explore_session.h"

/* Computes the schedule's figures from the workers' ledgers and the final state into out. 0, or -1 with err. */
int explore_check_outcome(struct explore_session *x, struct schedule_outcome *out, char *err, size_t errlen);

#endif
