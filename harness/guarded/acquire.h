/*
 * What every guarded workload's cycle is built from: the run's clock and periods, the
 * harness's and the guard's prepared statements on the worker's connection, taking the
 * guard's lock the way the guard says (guarded_take) and releasing it, reading the cache,
 * and keeping each acquisition (guarded_record). The workloads (guarded/workload_*.c)
 * are loops of these; nothing here allocates but the rare growth of the acquisitions.
 */
#ifndef CLAIMBENCH_GUARDED_ACQUIRE_H
#define CLAIMBENCH_GUARDED_ACQUIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "guarded/guarded_worker.h"
#include "measure/acquisitions.h"
#include "model/error_kind.h"

/* Now, in ns after the start barrier. */
int64_t guarded_now(const struct guarded_worker *w);

/* Whether w should begin nothing new: the run is stopping or its time is up. */
bool guarded_time_up(const struct guarded_worker *w);

/* The stale period current at rel_ns: 1 from the start, one more every stale interval. */
int32_t guarded_period_at(const struct guarded_worker *w, int64_t rel_ns);

/* Marks w aborted, for reason. */
void guarded_abort(struct guarded_worker *w, const char *what);

/*
 * Runs the prepared statement of slot with the n params (text); copies up to ncols columns
 * of its first row into out. Its rows, or -1.
 */
int guarded_exec(struct guarded_worker *w, enum guarded_slot slot, const char *const *params, int n,
		    int64_t *out, int ncols);

/* run_slot for the statements with two integer parameters. Rows, or -1. */
int guarded_exec2(struct guarded_worker *w, enum guarded_slot slot, int64_t a, int64_t b);

/* Counts the error on w's connection; returns its kind. */
enum error_kind guarded_count_error(struct guarded_worker *w);

/* Keeps a as w's; grows the array when full (rarely). 0, or -1 when out of memory (w aborted). */
int guarded_record(struct guarded_worker *w, const struct acquisition *a);

/* A new acquisition of resource by w, asked now. */
struct acquisition guarded_asked(const struct guarded_worker *w, int resource, enum acq_mode mode,
				  enum acq_role role);

/* The next cache version w writes: unique to the refresh, of the worker and its count. */
int64_t guarded_next_version(struct guarded_worker *w);

/*
 * Takes lock l for a (its begin, then its lock statement), meeting a held lock as l
 * says: ACQ_GRANTED with a->grant_ns set, inside the lock's transaction when it has one;
 * ACQ_TIMEOUT, ACQ_REFUSED, ACQ_WAITING (the run ended while retrying) or ACQ_ERROR with
 * the transaction rolled back. On SQLite the busy wait l asks for holds while taking it
 * only (PostgreSQL's lock_timeout is the connection's, set once: its NOWAIT is in the SQL;
 * MariaDB's NOWAIT and WAIT n are in the SQL).
 */
enum acq_outcome guarded_take(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a);

/* The slot that ends l's transaction and releases l: its release_sql's when it has one, else COMMIT. */
enum guarded_slot guarded_release_slot(const struct guarded_worker *w, const struct guard_lock *l);

/*
 * Ends a's hold: notes the release instant and commits l's transaction, releasing l
 * (guarded_release_slot). 0, or -1 when that failed (rolled back, a recorded as an error,
 * w aborted).
 */
int guarded_release(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a);

/* Fails a's cycle on a statement's error: rolls back, records it as an error and aborts w. -1. */
int guarded_fail(struct guarded_worker *w, struct acquisition *a, const char *what);

/*
 * Ends a's cycle on the error of the use that followed its release: a keeps its outcome
 * (its hold was done), the error is counted and w aborted. -1.
 */
int guarded_use_failed(struct guarded_worker *w, struct acquisition *a);

/* Reads the cache and judges what a use of it saw against the period its check saw. 0, or -1. */
int guarded_read_cache(struct guarded_worker *w, int64_t seen_period, uint8_t *seen);

/* Records a, ended as outcome, when the lock was not granted. 0, or -1 when that is the worker's end. */
int guarded_not_granted(struct guarded_worker *w, struct acquisition *a, enum acq_outcome outcome);

/*
 * Ends a refresh of the cache begun under the guard for a (its first half written, or the
 * cache emptied): waits --refresh-ms, the refresh's own length, during which a reader
 * would find it half done; writes slot with (version, a's period); marks the status row
 * as of that period, and notes a as a refresh. 0, or -1 (failed as what: see guarded_fail).
 */
int guarded_end_refresh(struct guarded_worker *w, struct acquisition *a, enum guarded_slot slot, int64_t version,
			const char *what);

#endif
