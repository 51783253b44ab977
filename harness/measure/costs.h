/*
 * What a run's jobs cost, counted rather than timed (struct cost_figures): the workers'
 * statements, round trips and CPU time from their own counters, the server's buffers, WAL
 * and rows from two readings of its cumulative counters around the run.
 */
#ifndef CLAIMBENCH_COSTS_H
#define CLAIMBENCH_COSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/ledger.h"
#include "model/result.h"

/* The server's cumulative counters at one instant; -1 where not read. */
struct server_counts {
	int64_t buffers_hit;	/* shared buffers found in memory */
	int64_t buffers_read;	/* shared buffers read in */
	int64_t wal_records;	/* WAL records generated */
	int64_t wal_bytes;	/* WAL bytes generated */
	int64_t rows_examined;	/* queue-table rows read by scans and fetched through indexes */
	int64_t row_lock_waits;	/* MariaDB: InnoDB's row lock waits (Innodb_row_lock_waits) */
	int64_t row_lock_time_ms; /* MariaDB: their total time, ms (Innodb_row_lock_time) */
	int64_t deadlocks;	/* MariaDB: deadlocks InnoDB detected (Innodb_deadlocks) */
};

/* A struct server_counts with nothing read. */
#define SERVER_COUNTS_UNREAD ((struct server_counts){ -1, -1, -1, -1, -1, -1, -1, -1 })

/* What costs_compute reads. */
struct costs_input {
	const struct ledger *ledger;		/* every worker's ledger merged into one */
	const struct worker_stats *workers;	/* per-worker counters, n_workers of them */
	size_t n_workers;			/* worker threads in the run */
	bool server_read;			/* before and after were read (PostgreSQL) */
	bool database_wide;			/* their buffers and WAL are the whole database's, not the workers' alone */
	struct server_counts before;		/* the server's counters just before the start gate opened */
	struct server_counts after;		/* and once the workers had stopped */
};

/*
 * Jobs taken to an end in ledger: executions whose completion or failure committed, the
 * warm-up's included; what every cost is divided by.
 */
uint64_t costs_jobs_ended(const struct ledger *ledger);

/* Fills every field of out from in; a figure with no job, or not read, is NaN. */
void costs_compute(const struct costs_input *in, struct cost_figures *out);

#endif
