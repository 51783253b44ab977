/* One guarded-resource run: one guard at one worker count, from made tables to its figures. */
#ifndef CLAIMBENCH_GUARDED_RUN_H
#define CLAIMBENCH_GUARDED_RUN_H

#include <stddef.h>

#include "engine/run_plan.h"
#include "model/result.h"
#include "plugin/guard.h"

/* How long a guarded run lasts when --duration does not say: it has no backlog to drain. */
#define GUARDED_DEFAULT_DURATION_S 2.0

/*
 * Makes the run's cache and control tables, connects and prepares the workers, opens the
 * gate, lets them work for the run's duration (GUARDED_DEFAULT_DURATION_S without one),
 * computes the figures from their acquisitions into out and drops the tables. 0 when the
 * run took place (out->complete says whether it ran to its end), or -1 with err on a
 * database or environment error.
 */
int guarded_run_one(const struct run_plan *plan, const struct guard_ops *guard, int workers, int repeat,
		    struct run_result *out, char *err, size_t errlen);

#endif
