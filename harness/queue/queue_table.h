/* The run's queue table: created, filled, read back at the end and dropped, one per run. */
#ifndef CLAIMBENCH_QUEUE_TABLE_H
#define CLAIMBENCH_QUEUE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/admin.h"
#include "measure/metrics.h"
#include "queue/worker.h"

/*
 * Creates the queue table (and the strategy's ticket table, a long-writer phase's table)
 * named in s, each marked with its own note in the transaction that creates it, loads
 * jobs 1..n of the configured queue in one bulk load, and analyses it; notes in s each
 * table it created, once its CREATE succeeded (never before: a table another session made meanwhile is not the
 * run's to drop). Refuses, creating nothing more, when a table of one of those names
 * exists already. 0, or -1 with err.
 */
int queue_table_create(struct db_conn *conn, struct run_shared *s, long n, char *err, size_t errlen);

/*
 * Reads every job's final status and owner into states (n entries, indexed id-1), through
 * the strategy's final_state_sql when it has one. 0, or -1 with err.
 */
int queue_table_final_state(struct db_conn *conn, const struct run_shared *s, struct job_state *states, long n,
			    char *err, size_t errlen);

/*
 * Counts into *count what the strategy's leftover_sql counts (what the workers must not
 * still hold once stopped); 0 when it has none. 0, or -1 with err.
 */
int queue_table_leftovers(struct db_conn *conn, const struct run_shared *s, int64_t *count, char *err, size_t errlen);

/* Gives every job in state error back to state new (seed 000's clear_all_errors). 0, or -1 with err. */
int queue_table_clear_errors(struct db_conn *conn, const struct run_shared *s, char *err, size_t errlen);

/*
 * Gives every job left active back to state new (seed 000's free, --rerun-stuck), noting
 * each in l's returns. 0, or -1 with err (out of memory for the returns too).
 */
int queue_table_free_stuck(struct db_conn *conn, const struct run_shared *s, struct ledger *l, char *err,
			   size_t errlen);

/*
 * The reaper's pass: gives every active job whose lease ran out back to state new, noting
 * each in l's returns and adding how many to *reaped. On PostgreSQL in a transaction of its
 * own whose statement waits 100 ms at most for a row lock and whose commit is local (waits
 * for no synchronous standby): a pass that cannot have a row gives none back. 0; -1 with err
 * (nothing given back or noted); -2 with err when out of memory for the returns (the jobs
 * were given back).
 */
int queue_table_reap(struct db_conn *conn, const struct run_shared *s, struct ledger *l, uint64_t *reaped, char *err,
		     size_t errlen);

/* Drops the tables s notes the run created (--verify's audit table and function too), and only those. 0, or -1 with err. */
int queue_table_drop(struct db_conn *conn, struct run_shared *s, char *err, size_t errlen);

/*
 * Reads the final state of the total jobs of s into final on a's connection, connecting
 * anew once after a lost connection. 0, or -1 with err (why no connection could be made,
 * when none was).
 */
int queue_table_read_final(struct admin *a, const struct run_shared *s, struct job_state *final, long total,
			   char *err, size_t errlen);

#endif
