/*
 * A hand-made run for the unit tests of measure/metrics.c's integrity and fault figures:
 * a ledger, each job's planned work and final state, and what metrics_compute reads and
 * writes. Needs check.h's check_need.
 */
#ifndef CLAIMBENCH_TEST_LEDGER_CASE_H
#define CLAIMBENCH_TEST_LEDGER_CASE_H

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "measure/ledger.h"
#include "measure/metrics.h"

#define LEDGER_CASE_JOBS 8
#define MS(x) ((int64_t)(x) * 1000000)

/* One hand-made drain run of up to LEDGER_CASE_JOBS jobs. */
struct ledger_case {
	struct ledger ledger;				/* executions, faults and the harness's returns */
	int64_t work_ns[LEDGER_CASE_JOBS];		/* planned work per job */
	struct job_state final[LEDGER_CASE_JOBS];	/* final state, every job done unless set otherwise */
	struct metrics_input in;			/* what metrics_compute reads */
	struct run_metrics out;				/* what it computed */
};

/* Prepares c: a drain run of n_jobs jobs of 10 ms, all done at the end, no execution yet, flip mode without a lease. */
static inline void ledger_case_init(struct ledger_case *c, size_t n_jobs)
{
	memset(c, 0, sizeof(*c));
	check_need(ledger_init(&c->ledger, 4, 1, 1) == 0, "ledger_init");
	for (size_t i = 0; i < LEDGER_CASE_JOBS; i++) {
		c->work_ns[i] = MS(10);
		c->final[i] = (struct job_state){ .status = JOB_DONE, .claimed_by = 0 };
	}
	c->in = (struct metrics_input){
		.ledger = &c->ledger, .n_jobs = n_jobs, .n_backlog = n_jobs, .work_ns = c->work_ns, .final = c->final,
		.drain = true,
	};
}

#endif
