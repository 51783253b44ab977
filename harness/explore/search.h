/*
 * The search over one strategy and mode's schedules (search.c): depth-first over every
 * choice, a seeded random sample, or the replay of one trace.
 */
#ifndef CLAIMBENCH_EXPLORE_SEARCH_H
#define CLAIMBENCH_EXPLORE_SEARCH_H

#include <stddef.h>

#include "explore/explore.h"

/*
 * Explores plan: makes the run's tables on plan's server, runs the schedules and checks
 * each (until a signal asks to stop: the result is then incomplete), drops the tables. 0 with out filled, 1 when plan->schedule does not apply (err
 * says where), -1 with err on a database or environment error.
 */
int explore_one(const struct explore_plan *plan, struct explore_result *out, char *err, size_t errlen);

#endif
