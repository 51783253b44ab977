/*
 * Running totals a worker or producer publishes while it runs, for the progress line and
 * the interval lines: each counter is written by its own thread alone and read by the
 * monitor, so a relaxed load and store add to it without a locked instruction.
 */
#ifndef CLAIMBENCH_LIVE_COUNTERS_H
#define CLAIMBENCH_LIVE_COUNTERS_H

#include <stdatomic.h>
#include <stdint.h>

/* One thread's running totals since the start barrier. */
struct live_counters {
	atomic_uint_fast64_t completed;	/* executions whose completion committed */
	atomic_uint_fast64_t claimed;	/* claims that returned a job */
	atomic_uint_fast64_t claim_ns;	/* those claims' latencies summed, ns */
	atomic_uint_fast64_t empty;	/* claims that returned no job */
	atomic_uint_fast64_t errors;	/* database errors met */
	atomic_uint_fast64_t inserted;	/* arrivals whose insert committed (a producer's) */
};

/* A snapshot of live counters, summed over a run's threads. */
struct live_totals {
	uint64_t completed;	/* executions whose completion committed */
	uint64_t claimed;	/* claims that returned a job */
	uint64_t claim_ns;	/* their latencies summed, ns */
	uint64_t empty;		/* claims that returned no job */
	uint64_t errors;	/* database errors met */
	uint64_t inserted;	/* arrivals inserted */
};

/* Adds n to counter c; only the thread that owns c may call it. */
static inline void live_add(atomic_uint_fast64_t *c, uint64_t n)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n, memory_order_relaxed);
}

/* Sets every counter of c to 0, before its thread starts. */
void live_counters_init(struct live_counters *c);

/* Adds what c holds now to sum. */
void live_totals_add(struct live_totals *sum, const struct live_counters *c);

#endif
