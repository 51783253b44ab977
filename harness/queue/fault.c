#include <stdbool.h>
#include <stdlib.h>

#include "engine/workload.h"
#include "queue/fault.h"

/* The streams of draws, one per kind and use, so that no two draws depend on each other. */
#define STREAM_PLANNED 0x706c616e6e656400ULL
#define STREAM_PICK 0x7069636b00000000ULL

/* Whether exec_no is among the n executions of list. */
static bool listed(const long *list, size_t n, long exec_no)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == exec_no)
			return true;
	return false;
}

/* The faults that strike a worker in the middle of an execution. */
static const enum fault_kind worker_kinds[] = { FAULT_CRASH, FAULT_STALL, FAULT_KILL_BACKEND };
#define N_WORKER_KINDS (sizeof(worker_kinds) / sizeof(worker_kinds[0]))

bool fault_plans_executions(const struct fault_plan *plan)
{
	for (size_t i = 0; i < N_WORKER_KINDS; i++)
		if (plan->when[worker_kinds[i]].n_exec > 0 || plan->when[worker_kinds[i]].rate > 0)
			return true;
	return false;
}

unsigned fault_planned(const struct fault_plan *plan, uint64_t seed, long exec_no, int64_t job_id, unsigned k)
{
	unsigned planned = 0;

	for (size_t i = 0; i < N_WORKER_KINDS; i++) {
		const struct fault_trigger *t = &plan->when[worker_kinds[i]];

		if (listed(t->exec, t->n_exec, exec_no) ||
		    (t->rate > 0 && workload_draw(seed, STREAM_PLANNED + worker_kinds[i], (uint64_t)job_id, k) < t->rate))
			planned |= FAULT_BIT(worker_kinds[i]);
	}
	return planned;
}

/* qsort's order of two instants. */
static int cmp_instants(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void fault_clock_init(struct fault_clock *clock, const struct fault_trigger *trigger)
{
	clock->n = trigger->n_at;
	clock->next = 0;
	for (size_t i = 0; i < clock->n; i++)
		clock->at_s[i] = trigger->at_s[i];
	qsort(clock->at_s, clock->n, sizeof(clock->at_s[0]), cmp_instants);
}

bool fault_clock_due(const struct fault_clock *clock, double elapsed_s)
{
	return clock->next < clock->n && clock->at_s[clock->next] <= elapsed_s;
}

int fault_pick(uint64_t seed, enum fault_kind kind, size_t i, const bool *eligible, size_t n)
{
	size_t count = 0, chosen;

	for (size_t j = 0; j < n; j++)
		count += eligible[j];
	if (!count)
		return -1;
	chosen = (size_t)(workload_draw(seed, STREAM_PICK + kind, i, 0) * (double)count);
	for (size_t j = 0; j < n; j++)
		if (eligible[j] && chosen-- == 0)
			return (int)j;
	return -1;
}
