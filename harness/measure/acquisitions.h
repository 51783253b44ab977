/*
 * The acquisitions ledger of a guarded-resource run (refresh, exclusive-use, resource;
 * docs/guarded.md): every acquisition of the guarded resource with its start, grant,
 * release and outcome, one array per worker thread, written only by that thread and
 * merged after the run. The figures of struct guard_figures and the holders-over-time
 * series are computed from it alone, exactly (no sampling): docs/metrics.md ("Guarded
 * resources") defines each.
 */
#ifndef CLAIMBENCH_ACQUISITIONS_H
#define CLAIMBENCH_ACQUISITIONS_H

#include <stddef.h>
#include <stdint.h>

#include "model/result.h"

/* How an acquisition may share its resource with other holders. */
enum acq_mode {
	ACQ_EXCLUSIVE,	/* alone: conflicts with every other holder (a write, an exclusive use, a check) */
	ACQ_SHARED,	/* alongside other shared holders, never alongside an exclusive one (a read) */
	ACQ_LIMITED,	/* alongside other limited holders, at most the run's limit X of them at once (top-X) */
};

/* Who asked: a reader of the resource or a writer of it. */
enum acq_role {
	ROLE_USER,	/* uses the resource (a check of the cache, a use, a read) */
	ROLE_WRITER,	/* changes it (exclusive-use's refresher, resource's writes): writer wait and starvation */
};

/* How an acquisition ended. */
enum acq_outcome {
	ACQ_GRANTED,	/* granted, held and released */
	ACQ_TIMEOUT,	/* gave up at the wait limit (lock_timeout, busy timeout): counted, not fatal */
	ACQ_REFUSED,	/* refused at once (NOWAIT, TRUNCATE meeting a held lock) and not retried */
	ACQ_WAITING,	/* still waiting when the run ended: a starved request */
	ACQ_ABANDONED,	/* granted, then left without release (a crashed participant's ticket) */
	ACQ_EXPIRED,	/* its ticket was removed as stale by another participant before its release */
	ACQ_ERROR,	/* a database error other than a timeout or a refusal */
};

/* What a use of the cache read (refresh and exclusive-use workloads). */
enum use_seen {
	USE_NONE,	/* no use was made, or the workload has no cache */
	USE_FRESH,	/* one refresh's rows, of the period of its check or later */
	USE_STALE,	/* one refresh's rows, older than the period its check saw (or made) current */
	USE_TORN,	/* rows of different refreshes, or too few: a half-written cache */
};

/* One acquisition by one worker; times are ns since the start barrier. */
struct acquisition {
	int64_t start_ns;	/* when the worker asked (its ticket's insert, its lock statement began) */
	int64_t grant_ns;	/* when the grant returned to the worker; -1 when never granted */
	int64_t release_ns;	/* when the worker sent its release (COMMIT, its ticket's DELETE); -1 when none */
	int64_t ticket;		/* its place in the line of its resource (resource workload); 0 when none */
	int32_t worker;		/* the seat of the worker */
	int32_t resource;	/* which resource, 0..resources-1 */
	int32_t period;		/* the stale period current at its grant (refresh, exclusive-use); 0 otherwise */
	uint32_t polls;		/* tries before the grant or the give-up: polls of the line, NOWAIT retries; 1 at least */
	uint8_t mode;		/* an enum acq_mode */
	uint8_t role;		/* an enum acq_role */
	uint8_t outcome;	/* an enum acq_outcome */
	uint8_t refreshed;	/* 1 when, holding it, the worker refreshed the cache (for period) */
	uint8_t seen;		/* an enum use_seen: what the use it guarded read */
	uint8_t waited;		/* 1 when the grant came after waiting behind another holder (seed 003's second session) */
};

/* What the figures need to know of the run besides its acquisitions. */
struct acquisitions_input {
	const struct acquisition *acqs;	/* every acquisition of the run, any order */
	size_t n;			/* entries in acqs */
	int resources;			/* resources 0..resources-1 */
	int limit;			/* X: limited holders allowed at once on one resource (>= 1) */
	int64_t stale_ns;		/* the stale interval; 0 when the workload has no cache */
	int64_t duration_ns;		/* the run's length, gate to stop: the rate's denominator and the end of waits */
};

/*
 * Fills out (model/result.h) from in: every figure exactly, NaN for a duration figure with
 * no acquisition to measure and for refresh figures in a workload without a cache.
 * Allocates scratch space; 0, or -1 when out of memory (out then unknown).
 */
int acquisitions_figures(const struct acquisitions_input *in, struct guard_figures *out);

/*
 * The holders-over-time series: for every resource and every SERIES_BUCKET_NS bucket from
 * 0 to in->duration_ns, the most acquisitions held at once in it and the most waiting at
 * once in it. A new array of resources x buckets points, resource after resource, in *out
 * and its length in *n; 0, or -1 when out of memory.
 */
int acquisitions_holder_series(const struct acquisitions_input *in, struct holder_point **out, size_t *n);

#endif
