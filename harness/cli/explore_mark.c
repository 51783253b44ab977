/* The violating step of a shown schedule (explore_mark.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/explore_mark.h"
#include "explore/scheduler.h"

/* What one worker holds as the steps go. */
struct holding {
	long job;	/* the job it last claimed, 0 for none */
	size_t since;	/* the step (index in the events) that claimed it */
};

/* The job a step's result names: the first value of "N row(s): name=V, ...", 0 when it names none. */
static long result_job(const struct step_event *e)
{
	const char *eq;

	if (!e->returned || strncmp(e->result, "1 row: ", 7) != 0 || !(eq = strchr(e->result, '=')))
		return 0;
	return strtol(eq + 1, NULL, 10);
}

long explore_mark_duplicate(const struct schedule_outcome *o, char *why, size_t size)
{
	struct holding held[EXPLORE_MAX_WORKERS];

	why[0] = '\0';
	if (!o->count[FINDING_DUPLICATE])
		return -1;
	memset(held, 0, sizeof(held));
	for (size_t i = 0; i < o->n_events; i++) {
		const struct step_event *e = &o->events[i];
		long job;

		if (e->kind == EVENT_CRASH && e->worker >= 0 && e->worker < EXPLORE_MAX_WORKERS)
			held[e->worker].job = 0;
		if (e->kind == EVENT_EXPIRE)
			memset(held, 0, sizeof(held));
		if (e->kind != EVENT_STEP || e->worker < 0 || e->worker >= EXPLORE_MAX_WORKERS ||
		    !(job = result_job(e)) || held[e->worker].job == job)
			continue;
		for (int w = 0; w < EXPLORE_MAX_WORKERS; w++)
			if (w != e->worker && held[w].job == job) {
				snprintf(why, size, "duplicate: job %ld, already held by w%d since step %zu", job, w,
					 held[w].since + 1);
				return (long)i;
			}
		held[e->worker] = (struct holding){ .job = job, .since = i };
	}
	return -1;
}
