/*
 * What explore finds and keeps (explore.h): the findings' names, which of them are
 * violations, and the freeing of a schedule's outcome and of a strategy's result.
 */
#include <stdlib.h>

#include "explore/explore.h"

const char *const finding_names[FINDING_COUNT] = {
	[FINDING_DUPLICATE] = "duplicate",
	[FINDING_LOST] = "lost",
	[FINDING_STUCK] = "stuck",
	[FINDING_ZOMBIE] = "zombie",
	[FINDING_DEADLOCK] = "deadlock",
	[FINDING_LOCK_ERROR] = "lock-error",
	[FINDING_EMPTY] = "empty-claimable",
	[FINDING_FIFO] = "fifo-inversion",
	[FINDING_ERROR] = "error",
};

bool finding_is_violation(enum finding f)
{
	return f == FINDING_DUPLICATE || f == FINDING_LOST || f == FINDING_STUCK || f == FINDING_ZOMBIE;
}

void schedule_outcome_free(struct schedule_outcome *o)
{
	free(o->events);
	o->events = NULL;
	o->n_events = 0;
}

void explore_result_free(struct explore_result *r)
{
	schedule_outcome_free(&r->shown);
}
