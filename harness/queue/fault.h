/*
 * Where the faults of a run's plan (model/faults.h) strike. A worker asks, for each job
 * it executes, which faults are planned for that execution (by its number in the run, or
 * by a draw from the seed per job and execution, so that every strategy meets the same);
 * the monitor asks which instants are due and which worker a due fault strikes.
 */
#ifndef CLAIMBENCH_FAULT_H
#define CLAIMBENCH_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/faults.h"

/* The bit of a fault kind in a set of kinds. */
#define FAULT_BIT(kind) (1u << (kind))

/*
 * The worker faults (crash, stall, kill-backend) planned for execution exec_no of the run
 * (from 1), the k-th execution (from 0) of job job_id, under seed: FAULT_BIT()s.
 */
unsigned fault_planned(const struct fault_plan *plan, uint64_t seed, long exec_no, int64_t job_id, unsigned k);

/* Whether plan has worker faults planned per execution (by number or by rate): only then are executions counted. */
bool fault_plans_executions(const struct fault_plan *plan);

/* A kind's instants in order, and how many of them have struck. */
struct fault_clock {
	double at_s[MAX_FAULT_POINTS];	/* the instants, sorted */
	size_t n;			/* entries in at_s */
	size_t next;			/* instants that have struck */
};

/* Sorts the instants of trigger into clock, none struck. */
void fault_clock_init(struct fault_clock *clock, const struct fault_trigger *trigger);

/* Whether clock's next instant has come at elapsed_s after the start. */
bool fault_clock_due(const struct fault_clock *clock, double elapsed_s);

/*
 * Of the n candidates (a true in eligible), the one the i-th fault of kind strikes, drawn
 * from seed: an index into eligible, or -1 when none is eligible.
 */
int fault_pick(uint64_t seed, enum fault_kind kind, size_t i, const bool *eligible, size_t n);

#endif
