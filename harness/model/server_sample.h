/*
 * What the harness's own connection sees of the server during a run (issue "why a queue
 * slows"): where the run's worker backends are waiting, the queue table's live and dead
 * tuples, blocks and vacuums, and the oldest transaction on the server; and the MVCC
 * pressure phases the run put on it (a snapshot held open, a VACUUM).
 */
#ifndef CLAIMBENCH_SERVER_SAMPLE_H
#define CLAIMBENCH_SERVER_SAMPLE_H

#include <stdint.h>

/* Where a worker's server backend is at a sample, from pg_stat_activity. */
enum wait_class {
	WAIT_CPU,	/* active, waiting on nothing: running (or runnable) */
	WAIT_LOCK,	/* wait_event_type Lock: a row, tuple or transaction lock (heavyweight) */
	WAIT_LWLOCK,	/* LWLock: a shared-memory structure (buffer mapping, WAL insert ...) */
	WAIT_IO,	/* IO: reading or writing a data or WAL file */
	WAIT_CLIENT,	/* idle, or waiting for the client: the harness's side (work, round trips) */
	WAIT_OTHER,	/* anything else: IPC, Timeout, BufferPin, Activity, Extension */
	WAIT_CLASS_COUNT
};

/* Each wait class's name, as in JSON, the store and the report: "cpu", "lock" ... */
extern const char *const wait_class_names[WAIT_CLASS_COUNT];

/* A value a sample could not read (SQLite has no dead tuples, PostgreSQL no -wal file). */
#define SAMPLE_UNKNOWN (-1)

/* One sample of the server, taken from the harness's own connection. */
struct server_sample {
	int64_t t_ms;				/* ms after the start barrier */
	uint32_t waits[WAIT_CLASS_COUNT];	/* the run's worker backends in each wait class */
	int64_t live_tuples;			/* the queue table's n_live_tup, or SAMPLE_UNKNOWN */
	int64_t dead_tuples;			/* its n_dead_tup, or SAMPLE_UNKNOWN */
	int64_t heap_blocks;			/* its heap blocks read and hit since the server's stats reset, or SAMPLE_UNKNOWN */
	int64_t index_blocks;			/* its index blocks read and hit, likewise */
	int64_t vacuums;			/* its vacuums and autovacuums, likewise */
	int64_t autovacuums;			/* of which autovacuums, likewise */
	int64_t xmin_age;			/* the age in transactions of the oldest xmin or xid of any backend, or SAMPLE_UNKNOWN */
	int64_t wal_bytes;			/* SQLite: the -wal file's size, or SAMPLE_UNKNOWN */
	uint64_t claims;			/* claims that returned a job by then (the harness's own count) */
};

/* A pressure phase the run put on the server. */
enum phase_kind {
	PHASE_SNAPSHOT,	/* a transaction holding a snapshot open (REPEATABLE READ), from at for duration */
	PHASE_VACUUM,	/* a VACUUM of the queue table, from at for as long as it took */
	PHASE_KIND_COUNT
};

/* Each phase kind's name: "snapshot", "vacuum". */
extern const char *const phase_kind_names[PHASE_KIND_COUNT];

/* One pressure phase as it happened. */
struct phase_record {
	enum phase_kind kind;	/* what it was */
	int64_t at_ns;		/* when it began, ns after the start barrier */
	int64_t duration_ns;	/* how long it lasted */
};

/* When the harness looks at the queue table outside the run: before the start, after the workers stopped. */
enum probe_moment { PROBE_BEFORE, PROBE_AFTER, PROBE_MOMENTS };

/* Each moment's name: "before", "after". */
extern const char *const probe_moment_names[PROBE_MOMENTS];

/* A table_probe with nothing read. */
#define TABLE_PROBE_UNKNOWN                                                                                  \
	{ .plan = NULL, .head_buffers = SAMPLE_UNKNOWN, .table_bytes = SAMPLE_UNKNOWN, .index_bytes = SAMPLE_UNKNOWN, \
	  .locks = SAMPLE_UNKNOWN }

/* What the harness read of the queue table at one moment. */
struct table_probe {
	char *plan;		/* the head lookup's plan, EXPLAIN (ANALYZE, BUFFERS) lines (owned); NULL when not read */
	int64_t head_buffers;	/* the buffers it touched, shared hit and read, or SAMPLE_UNKNOWN */
	int64_t table_bytes;	/* the table's size, heap and TOAST (pg_table_size), or SAMPLE_UNKNOWN */
	int64_t index_bytes;	/* its indexes' size (pg_indexes_size), or SAMPLE_UNKNOWN */
	int64_t locks;		/* locks other sessions hold on it (pg_locks), or SAMPLE_UNKNOWN */
};

#endif
