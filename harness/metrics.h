/*
 * Every metric of a run, computed once, after the run, from the merged ledger,
 * the workers' own counters and the table's final state. DESIGN.md and
 * docs/metrics.md give the exact definitions this file implements.
 */
#ifndef CLAIMBENCH_METRICS_H
#define CLAIMBENCH_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error_kind.h"
#include "histogram.h"
#include "ledger.h"

/* A job's status in the queue table. */
enum job_status {
	JOB_NEW,	/* waiting to be claimed */
	JOB_ACTIVE,	/* claimed (flip mode) and not finished */
	JOB_DONE,	/* completed */
	JOB_ERROR,	/* deliberately marked failed */
	JOB_MISSING,	/* not in the table at the end */
};

/* One job's row in the table when the run ended. */
struct job_state {
	int32_t status;		/* an enum job_status */
	int32_t claimed_by;	/* worker index in claimed_by, -1 when NULL */
};

/* One worker's counters, written only by its own thread during the run. */
struct worker_stats {
	uint64_t completed;			/* executions whose completion committed */
	uint64_t claims;			/* claim attempts, whatever they returned */
	uint64_t empty;				/* claim attempts that returned no job */
	uint64_t retries;			/* retries inside claim attempts (back-offs, polls) */
	uint64_t give_ups;			/* claim attempts abandoned after the last try */
	uint64_t errors[ERR_KIND_COUNT];	/* database errors met, by kind */
	int64_t busy_ns;			/* time spent executing jobs' work */
	struct histogram claim_latency;		/* claim start to job in hand, successful claims only */
};

/* One producer's counters, written only by its own thread during the run. */
struct producer_stats {
	uint64_t inserted;			/* arrivals whose INSERT committed */
	uint64_t late;				/* inserts issued over PRODUCER_LATE_NS late */
	int64_t late_max_ns;			/* the most an insert was issued late; 0: never */
	uint64_t errors[ERR_KIND_COUNT];	/* database errors met, by kind */
};

/* Width of one bucket of a run's time series. */
#define SERIES_BUCKET_NS 100000000

/* One 100 ms bucket of a run's time series: [t_ms, t_ms + 100) after the start barrier. */
struct series_point {
	int64_t t_ms;		/* the bucket's start, ms after the start barrier */
	uint64_t completed;	/* executions whose completion committed (outcome done), by end time */
	uint64_t empty_claims;	/* empty claims, by the instant they returned */
	uint64_t errors;	/* database errors of every kind, workers' and producers', by instant */
	uint64_t enqueued;	/* arrivals whose insert committed in the bucket (the backlog not included) */
	uint64_t backlog;	/* jobs enqueued by the bucket's end minus jobs first in hand by then */
};

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
};

/* Fairness of the per-worker completed counts. */
struct fairness {
	double jain;		/* Jain's index (sum x)^2 / (n * sum x^2); 1 when every x is 0 */
	uint64_t min;		/* fewest completed by one worker */
	uint64_t max;		/* most completed by one worker */
	double cv;		/* coefficient of variation: population stddev / mean; 0 when mean is 0 */
};

/* Percentiles of a duration (claim latency, queue wait) in milliseconds. */
struct latency_summary {
	double p50, p90, p99, p999;	/* nearest-rank percentiles */
	double max;			/* exact largest value */
};

/* Every figure of one run. */
struct run_metrics {
	double makespan_s;			/* start barrier to the last committed completion */
	double ideal_s;				/* total work time / workers (drain: all jobs; timed: jobs completed) */
	double throughput_jps;			/* completed / makespan (drain) or / duration (timed) */
	uint64_t completed;			/* distinct jobs with a committed completion */
	uint64_t executions;			/* entries in the ledger */
	uint64_t failed;			/* executions that marked their job error, and committed */
	uint64_t duplicates;			/* sum over jobs of max(0, executions - 1) */
	uint64_t dup_jobs;			/* jobs executed more than once */
	uint64_t overlaps;			/* pairs of executions of one job whose intervals intersect */
	uint64_t lost;				/* jobs that should have finished and did not (see docs/metrics.md) */
	uint64_t empty_claims;			/* claim attempts that returned no job */
	uint64_t spurious_empties;		/* empty claims made while an enqueued job was unclaimed */
	uint64_t retries;			/* retries summed over workers */
	uint64_t give_ups;			/* give-ups summed over workers */
	uint64_t errors[ERR_KIND_COUNT];	/* errors by kind summed over workers */
	struct fairness fairness;		/* over per-worker completed counts */
	struct latency_summary claim_latency_ms; /* from the merged per-worker histograms */
	struct latency_summary queue_wait_ms;	/* per job: its enqueue to its first execution's start */
	uint64_t arrivals;			/* arrivals the producers inserted, summed */
	uint64_t arrivals_late;			/* of those, inserts issued late, summed */
	double arrival_late_max_ms;		/* the most an insert was issued after its instant */
	uint64_t ledger_mismatches;		/* jobs whose final table status disagrees with the ledger */
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
