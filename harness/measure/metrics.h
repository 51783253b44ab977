/*
 * Every metric of a run, computed once, after the run, from the merged ledger,
 * the workers' own counters and the table's final state. docs/metrics.md gives
 * the exact definitions this file implements.
 */
#ifndef CLAIMBENCH_METRICS_H
#define CLAIMBENCH_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/ledger.h"
#include "model/result.h"

/* What metrics_compute reads. */
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

/* Computes every metric of out from in. 0, or -1 when out of memory. */
int metrics_compute(const struct metrics_input *in, struct run_metrics *out);

/*
 * Computes the run's 100 ms time series from in into a new array *out (free it) of *n
 * buckets, from 0 to the bucket holding the latest instant recorded (and, in a timed
 * run, at least to the end of its duration). 0, or -1 when out of memory.
 */
int metrics_series(const struct metrics_input *in, struct series_point **out, size_t *n);

/* Jain's index, min, max and cv of the n counts x; all four 0 when n is 0. */
struct fairness metrics_fairness(const uint64_t *x, size_t n);

#endif
