/*
 * What explore finds and keeps (explore.h): the findings' names, which of them are
 * violations, a result's verdicts, and the freeing of a schedule's outcome and of a strategy's result.
 */
#include <stdio.h>
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

int explore_result_note(struct explore_result *r, const char *source, const char *text, long value, bool holds)
{
	struct explore_verdict *grown = realloc(r->verdicts, (r->n_verdicts + 1) * sizeof(*grown));
	struct explore_verdict *v;

	if (!grown)
		return -1;
	r->verdicts = grown;
	v = &grown[r->n_verdicts++];
	snprintf(v->source, sizeof(v->source), "%s", source);
	snprintf(v->text, sizeof(v->text), "%s", text);
	v->value = value;
	v->holds = holds;
	return 0;
}

void explore_result_free(struct explore_result *r)
{
	schedule_outcome_free(&r->shown);
	free(r->verdicts);
	r->verdicts = NULL;
	r->n_verdicts = 0;
}
