/*
 * The SQL the harness itself sends, in one backend's dialect: the queue table and its
 * indexes, the producer's insert, the reaper's transaction, the probes, the monitor's
 * kills, the server sampler, the costs, the pressure, --verify's audit and the guarded
 * workloads' tables and statements. Each backend defines one (db/NAME/harness_sql.c) and
 * points its struct backend_ops.sql at it; a caller asks a field instead of branching on
 * the backend. A NULL statement means this engine has none: the caller skips that step or
 * does without. Templates take sql_expand's placeholders ({jobs}, {now}, {mark:jobs} ...,
 * engine/sql_template.h); formats are printf's, their arguments said per field.
 */
#ifndef CLAIMBENCH_BACKEND_SQL_H
#define CLAIMBENCH_BACKEND_SQL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/timeline.h"

/* How a guarded worker applies its lock's wait (guarded/acquire.c). */
enum guard_wait_scope {
	GUARD_WAIT_UNSET,	/* never set: the guard's own SQL says how long it waits (MariaDB) */
	GUARD_WAIT_SESSION,	/* set once on the worker's connection to its lock's wait (PostgreSQL's lock_timeout) */
	GUARD_WAIT_EACH_TAKE,	/* set for each take of a lock with a wait of its own and put back after, since it
				 * also bounds the workload's other statements (SQLite's busy timeout) */
};

/* The costs' counters (queue/server_costs.c); NULL in struct backend_sql: the engine has none to read. */
struct backend_costs_sql {
	/*
	 * The server's own counters, which move as statements run and need no plan and no flush,
	 * read before and after the run (MariaDB's global status): text columns buffers hit,
	 * buffers read, WAL records, WAL bytes, rows examined, row lock waits, their time in ms,
	 * deadlocks (NULL: not known); $1, the queue table's quoted name, may go unused. NULL:
	 * the counters are planned from plan's row.
	 */
	const char *live;
	/*
	 * What the server says of itself, one row of five text columns: its version number, 1
	 * when the statements' tracking extension is installed, that extension's tracking
	 * setting ("" when not loaded), 1 for a superuser, 1 when the session may flush its
	 * statistics. NULL (with live): nothing to plan.
	 */
	const char *plan;
	long min_version;		/* the oldest version plan's row may show for the counters to be read */
	const char *by_statement;	/* the counters of the tracked statements: the first five columns of live;
					 * $1 the queue table's quoted name */
	const char *database_wide;	/* the same counters, the database's and the cluster's */
	const char *track_statements;	/* what a worker's session runs to have its statements tracked */
	const char *flush;		/* what makes a session's statistics visible at once */
};

/* --verify's audit table and triggers (queue/verify_audit.c). */
struct backend_audit_sql {
	const char *create_table;	/* the audit table, a template of {audit} and {mark:audit}: seq, tab, op, id,
					 * old_status, new_status, old_owner, new_owner, old_attempt, new_attempt,
					 * lease_expired, writer and what the engine adds */
	/*
	 * One trigger function serving every table, a format of %1$s its name (the audit
	 * table's, quoted) and %2$s its owner note; NULL: each table gets row triggers of
	 * its own, written from the row_ fields.
	 */
	const char *create_function;
	const char *create_trigger;	/* the function's trigger on a table: %1$s the table, quoted; %2$s the function;
					 * %3$s which table it is ('jobs' or 'tickets') */
	const char *drop_function;	/* drops the function and its triggers: %s its name; NULL: none to drop */
	const char *row_now;		/* row triggers: the time a lease is compared with */
	const char *row_identity;	/* row triggers: the writing session's identity (db->name_session) */
	const char *row_body_open;	/* row triggers: what follows "CREATE TRIGGER name AFTER op ON table" */
	const char *row_body_close;	/* row triggers: what follows the trigger's INSERT */
	const char *row_shape;		/* row triggers: one integer, 1 when table %s (unquoted) has a consumed_by
					 * column, 2 a ticket column, else 0 */
};

/*
 * The guarded workloads' tables and the statements whose common text (guarded/guarded_tables.c)
 * this engine does not take: NULL in a statement field means the common text serves.
 */
struct backend_guarded_sql {
	const char *create_cache;	/* the cache {cache}: slots 1..16 (slot, version, period), all 0 */
	const char *create_status;	/* the status row {control} (slot 0, period 0, refreshed_ns -1) */
	const char *create_line;	/* the ticket line {control} (ticket, resource, worker, writes, taken_ns),
					 * the ticket's identity giving its order, indexed by resource and ticket */
	const char *truncate_cache;	/* empties the cache for a guard that truncates; NULL: the common
					 * DELETE (MariaDB's TRUNCATE TABLE makes the table anew, with an
					 * InnoDB table id its owner note does not name) */
	const char *rollback;		/* ends a failed transaction (and what the engine must release with it) */
	const char *write_half_1;	/* writes version $1 and period $2 into slots 1..8 */
	const char *write_half_2;	/* and into slots 9..16 */
	const char *mark_status;	/* writes period $1 and refreshed_ns $2 into the status row */
	const char *fill_cache;		/* inserts slots 1..16 of version $1 and period $2 */
	const char *take_ticket;	/* inserts a ticket (resource $1, worker $2, writes $3, taken_ns $4)
					 * RETURNING it */
	const char *poll_line;		/* the tickets and their writes ahead of ticket $2 for resource $1 */
	const char *expire_tickets;	/* deletes the tickets taken before $1 RETURNING them */
	const char *drop_ticket;	/* deletes ticket $1 RETURNING it */
};

/*
 * The pressure timeline's phases (queue/timeline_runner.c), besides struct backend_sql's
 * snapshot_begin and vacuum; NULL in struct backend_sql: the engine builds none. A NULL
 * statement here is one the engine has not: the kinds that need it are refused by
 * refusals, the figures it reads unknown.
 */
struct backend_timeline_sql {
	const char *take_xid;		/* in a transaction just begun: one row, the transaction id it is given */
	const char *xid_now;		/* the transaction's id if it has one, else 0; -1 outside a transaction where
					 * the engine can tell (the held-snapshot's end checks it still holds one) */
	const char *reader_scan;	/* a reader's scan of table %s: its row count and 1 when its transaction keeps
					 * one snapshot */
	const char *reader_name;	/* names a reader's session %s_%d: the readers' name and the run's pid; NULL:
					 * the engine shows no session's name (readers_seen and sessions_named NULL) */
	const char *readers_seen;	/* the sessions named %s_%d that the server shows holding a snapshot; NULL: not
					 * known */
	const char *sessions_named;	/* the sessions named %s_%d that the server shows (pool-exhaustion's) */
	const char *create_writer;	/* the long-writer's table {writer}, with {mark:writer} */
	const char *writer_insert;	/* the long-writer's write: one row into table %s */
	const char *refusals[TIMELINE_KIND_COUNT]; /* why a pressure kind cannot run on the engine, by kind (the
						    * check before a run says it); NULL: it runs */
};

struct backend_sql {
	/* sql_expand's and sql_names_lease's texts (engine/sql_template.c) */
	const char *now;		/* {now}: the engine's clock */
	const char *lease_until;	/* when a claim made now for %d ms runs out */
	/*
	 * What {mark:TABLE} becomes: a format of %1$s the owner note (db/ownership.h) and %2$s
	 * the table's quoted name, as the template's CREATE places it (in the CREATE, or a
	 * statement after it in its transaction).
	 */
	const char *mark;
	int64_t clock_tick_ns;		/* the resolution of {now}, which --verify's lease checks allow for */

	/* the queue table (queue/queue_table.c, queue/producer.c) */
	const char *create_queue;	/* the queue table {jobs} and the indexes a real queue uses: new jobs in claim
					 * order, active ones by the end of their lease; with {mark:jobs} */
	const char *publish_counters;	/* run after the load: publishes its table counters now; NULL: none needed */
	const char *analyze_queue;	/* gathers the queue table's statistics */
	const char *reap_begin;		/* begins the reaper's transaction, its waits bounded so that the monitor is
					 * never held; NULL: the reap runs as one statement on its own */
	const char *insert_job;		/* the producer's insert: id $1, queue $2, payload $3; a duplicate
					 * id ignored */

	/* the queue table's probe (queue/table_probe.c) */
	const char *explain_head;	/* the head lookup explained, a template: $1 the first task class */
	int explain_column;		/* the column of explain_head's rows holding the plan's text */
	const char *table_sizes;	/* the table's bytes, its indexes' bytes and the locks other sessions hold
					 * on it (NULL: not known), %s the table's quoted name three times; NULL: none */

	/* the monitor (queue/monitor.c) */
	const char *terminate_session;	/* terminates the server session %d; NULL: there are none to terminate */
	const char *session_alive;	/* a row while server session %d lives */

	/* the server sampler (queue/sampler.c) */
	/*
	 * One sample in one round trip: %s the workers' sessions ("1,2"), %s the queue table's
	 * quoted name; one row whose integer columns are the sessions per wait class
	 * (model/server_sample.h's order), then the table's live and dead tuples, heap and index
	 * blocks, vacuums and the oldest transaction's age (-1 where not known). NULL: the engine
	 * has no server to sample.
	 */
	const char *sample;
	const char *sample_no_sessions;	/* what stands for the sessions when no worker has one; NULL: none, "" */
	const char *wal_suffix;		/* with no sample: the sample's WAL bytes are the size of the file
					 * named as the database's with this appended; NULL: none */

	/* the pressure (queue/pressure.c) */
	const char *snapshot_begin;	/* begins the transaction of a held snapshot, which a read then takes */
	const char *vacuum;		/* vacuums table %s (quoted); NULL: the engine vacuums no table of its own */

	const struct backend_timeline_sql *timeline;	/* the pressure timeline's; NULL: none */
	const struct backend_costs_sql *costs;		/* the costs' counters; NULL: none */
	const struct backend_audit_sql *audit;		/* --verify's audit */
	const struct backend_guarded_sql *guarded;	/* the guarded workloads' */

	/* the guarded workloads' lock waits (guarded/guarded_worker.c, guarded/acquire.c) */
	enum guard_wait_scope guard_wait;	/* where a worker's lock wait is set */
	/*
	 * A lock that must not wait (a guard that retries or refuses) is given a wait of 0, its
	 * locks having no NOWAIT (SQLite); false: the guard's own SQL does not wait and the
	 * connection keeps its configured wait.
	 */
	bool no_wait_by_zero_wait;
};

#endif
