/*
 * What the metrics of a queue run are computed from (metrics_compute, metrics_series): the
 * merged ledger, the threads' counters, each job's planned work, enqueue time and final
 * state, and the run's settings that decide how a lost claim is judged.
 */
#ifndef CLAIMBENCH_METRICS_INPUT_H
#define CLAIMBENCH_METRICS_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/ledger.h"
#include "model/result.h"

/* What metrics_compute and metrics_series read. */
struct metrics_input {
	const struct ledger *ledger;		/* every worker's ledger merged into one */
	const struct worker_stats *workers;	/* per-worker counters, n_workers of them */
	size_t n_workers;			/* worker threads in the run */
	const struct producer_stats *producers;	/* per-producer counters, n_producers of them */
	size_t n_producers;			/* producer threads in the run (0: no arrivals) */
	size_t n_jobs;				/* jobs in the run, backlog and arrivals; ids are 1..n_jobs */
	size_t n_backlog;			/* jobs 1..n_backlog were loaded before the start; the rest arrived */
	const int64_t *work_ns;			/* planned work time per job, indexed id-1 */
	const int64_t *enqueued_ns;		/* enqueue time per job (ns since start, indexed id-1), INT64_MAX
						 * for a job never enqueued; NULL: all at the start */
	const struct job_state *final;		/* table state per job at the end, indexed id-1; NULL if unknown */
	size_t n_queues;			/* task classes: job id j in (j-1) % n_queues, worker w serves w % n_queues; 0 means 1 */
	bool drain;				/* drain run (every job should finish) rather than a timed one */
	bool stopped;				/* the run was stopped before its end (a signal): neither a whole
						 * drain nor its whole duration, so throughput is over what it measured */
	int64_t duration_ns;			/* length of a timed run; unused in drain runs */
	int64_t warmup_ns;			/* a timed run's warm-up: completions and enqueues before it are left
						 * out of throughput, queue wait and end-to-end latency (the workers'
						 * counters and histograms leave it out already); 0: none */
	uint64_t reaped;			/* jobs the reaper gave back to new */
	bool claim_in_session;			/* a claim lives in its holder's transaction or session (hold mode, an
						 * advisory lock), which a crash or a lost connection ends */
	int64_t lease_ns;			/* flip mode's lease (an expired one may be claimed again); 0: none */
	bool reaper;				/* a reaper gives expired leases back to new: claims take new jobs only */
};

/* Whether job id has a row (index id - 1) in in's per-job inputs. */
static inline bool metrics_job_in_range(const struct metrics_input *in, int64_t id)
{
	return id >= 1 && (uint64_t)id <= in->n_jobs;
}

/* The enqueue time of the job at index j: INT64_MAX when never enqueued, 0 without enqueue times. */
static inline int64_t metrics_enqueued_at(const struct metrics_input *in, size_t j)
{
	return in->enqueued_ns ? in->enqueued_ns[j] : 0;
}

#endif
