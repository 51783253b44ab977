/*
 * The ledger's executions read job by job: the figures of the ledger itself (executions,
 * failed, fenced, completed, duplicates, dup_jobs, overlaps, redeliveries by cause, zombie
 * completions, makespan; measure/metrics.c defines them) and a summary of each job that
 * the figures of the final state are judged from.
 */
#ifndef CLAIMBENCH_JOB_SCAN_H
#define CLAIMBENCH_JOB_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/metrics_input.h"
#include "model/result.h"

/* What the ledger says about one job. */
struct job_summary {
	int64_t first_claim_ns;	/* smallest claim_start_ns of its executions; INT64_MAX when none */
	int64_t first_start_ns;	/* smallest start_ns of its executions (first in hand); INT64_MAX when none */
	int64_t first_done_ns;	/* smallest end_ns of its EXEC_DONE executions; INT64_MAX when none */
	int64_t last_commit_ns;	/* end_ns of the committed execution that ended last; INT64_MIN when none */
	int32_t expected;	/* outcome of the committed execution that ended last; -1 when none */
	bool executed;		/* it has at least one execution */
	bool completed;		/* it has at least one EXEC_DONE execution */
	bool uncommitted;	/* it has an EXEC_UNCOMMITTED execution, or one crashed with its process (EXEC_PROCESS_DIED):
				 * an outcome a lost connection left unknown */
	bool by_final_owner;	/* an execution's identity is the final state's claimed_by (false without it) */
	bool claimed_after_commit; /* a delivery that did not commit was still in hand after last_commit_ns */
};

/* Makes s describe a job never executed. */
void job_summary_init(struct job_summary *s);

/*
 * Sorts a copy of the ledger's executions by job (and its returns), fills the ledger
 * figures of out and the summary of every job in 1..n_jobs in jobs (n_jobs of them,
 * initialised by job_summary_init). 0, or -1 when out of memory.
 */
int job_scan_ledger(const struct metrics_input *in, struct run_metrics *out, struct job_summary *jobs);

#endif
