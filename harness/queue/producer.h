/*
 * Producer threads: the open-loop arrivals of a run. Each owns one connection and
 * inserts its share of the arrival ids (every producers-th one) at the fixed
 * schedule start + k / rate, whether or not earlier inserts were slow; it notes
 * each job's enqueue time in the run's shared array (producers write disjoint ids)
 * and counts its own lateness and errors. Nothing on that path locks, allocates
 * (but for a rare ledger growth) or prints.
 */
#ifndef CLAIMBENCH_PRODUCER_H
#define CLAIMBENCH_PRODUCER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "measure/ledger.h"
#include "measure/metrics.h"
#include "queue/worker.h"

/* An insert issued more than this long after its scheduled instant counts as late. */
#define PRODUCER_LATE_NS 1000000

struct producer {
	int index;				/* 0-based number: it inserts arrivals index, index + n ... */
	struct db_conn *conn;			/* its own connection */
	struct run_shared *shared;		/* the run it belongs to */
	struct producer_stats stats;		/* its counters */
	struct live_counters live;		/* its running totals (inserted, errors), read by the interval lines */
	struct ledger ledger;			/* its error instants (no executions or empty claims) */
	atomic_bool finished;			/* set when its loop has ended */
	bool aborted;				/* stopped by an error rather than by the end of its schedule */
	char abort_reason[256];			/* why, when aborted */
	pthread_t thread;			/* its thread */
};

/* Connects p to shared->target and prepares its INSERT. 0, or -1 with err (nothing left open). */
int producer_open(struct producer *p, struct run_shared *shared, int index, char *err, size_t errlen);

/* Closes p's connection and frees its ledger. */
void producer_close(struct producer *p);

/* Starts p's thread, which waits at the start gate. 0 or -1. */
int producer_start(struct producer *p);

/* The instant arrival k (from 0) is due at, in ns after the start barrier, at rate jobs per second. */
int64_t producer_due_ns(long k, double rate);

#endif
