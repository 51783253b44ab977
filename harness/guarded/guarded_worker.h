/*
 * One worker of a guarded-resource run: its role (the lock it takes, how it waits for it),
 * its connection with the guard's and the harness's statements prepared, and the
 * acquisitions it records (measure/acquisitions.h). Its thread (guarded_run.c's)
 * takes the guard, does what its workload does while holding it and releases it, until
 * the run's time is up or it is stopped.
 */
#ifndef CLAIMBENCH_GUARDED_WORKER_H
#define CLAIMBENCH_GUARDED_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/backend.h"
#include "engine/run_gate.h"
#include "guarded/guarded_tables.h"
#include "measure/acquisitions.h"
#include "plugin/guard.h"

/* What the workers of one guarded run share; read-only during the run but for gate's stop. */
struct guarded_shared {
	const struct run_config *cfg;		/* the invocation's settings */
	const struct backend_ops *db;		/* the backend driver */
	const char *target;			/* where the workers connect */
	struct run_gate gate;			/* the start gate, the run's instants and its stop */
	const struct guard_ops *guard;		/* the guard under test */
	const struct guarded_tables *tables;	/* the run's tables */
};

/* One worker of a guarded run; its own thread's alone once started, read by the run once joined. */
struct guarded_worker {
	struct guarded_shared *g;		/* what the run's workers share */
	int seat;				/* its index, 0..workers-1; exclusive-use's seat 0 is the refresher */
	pthread_t thread;			/* its thread, once started */
	struct db_conn *conn;			/* its connection */
	struct acquisition *acqs;		/* its acquisitions in the order they ended */
	size_t n_acqs;				/* entries used in acqs */
	size_t cap_acqs;			/* entries allocated in acqs */
	uint64_t refreshes;			/* refreshes it made: the low half of its next cache version */
	uint64_t draws;				/* resource requests drawn: the index of its next draw */
	uint64_t errors[ERR_KIND_COUNT];	/* database errors met, by kind (timeouts and refusals included) */
	int64_t finished_ns;			/* when it stopped, ns after the start barrier */
	bool aborted;				/* it stopped on an error or for want of memory */
	char abort_reason[512];			/* why, when aborted */
};

/*
 * Connects w for seat of g's run, sets its lock wait for the guard's lock it will take,
 * prepares the statements and sizes its acquisitions for expected entries. 0, or -1 with
 * err (nothing left open).
 */
int guarded_worker_open(struct guarded_worker *w, struct guarded_shared *g, int seat, size_t expected,
			char *err, size_t errlen);

/* The settings of w's run. */
const struct guarded_plan *guarded_plan_of(const struct guarded_worker *w);

/* Whether w is exclusive-use's refresher. */
bool guarded_is_refresher(const struct guarded_worker *w);

/* The guard's lock that w takes: the writer's for exclusive-use's refresher, else the user's. */
const struct guard_lock *guarded_lock_of(const struct guarded_worker *w);

/* How long w's statements wait for a held lock while taking l, in set_lock_wait's terms. */
int guarded_lock_wait_ms(const struct guarded_worker *w, const struct guard_lock *l);

/* Closes w's connection and frees its acquisitions. */
void guarded_worker_close(struct guarded_worker *w);

/*
 * The cycles of the guarded workloads that a worker's thread (guarded_run.c) runs until
 * the run's time is up or it is stopped, one file each:
 * workload_refresh.c, the refresh workload (seed 003, step 1): each worker takes the guard,
 * refreshes the cache when it is of an earlier stale period than now, releases it and uses
 * the cache; workload_exclusive_use.c, the exclusive-use workload: users read the cache
 * under the guard, while one refresher (seat 0) empties and refills it under the writer's
 * lock at the start of each stale period; workload_resource.c, the resource workload (seed
 * 004): each request draws a resource and whether it writes, waits for its turn in the
 * ticket line (or goes at once, the naive guard), holds the resource for --work-ms and
 * releases it; a holder may walk away without releasing.
 */

/*
 * One cycle of the refresh workload: take the guard, read the status, refresh the cache
 * in two halves when it is of an earlier period, release, then use it for --work-ms; a
 * check that timed out uses the cache unchecked. 0, or -1 when that is w's end (w aborted).
 */
int refresh_cycle(struct guarded_worker *w);

/*
 * One use of the cache by a user: take the guard, read the cache (stale when of an
 * earlier period than the one current at the grant), use it for --work-ms, release.
 * 0, or -1 when that is w's end (w aborted).
 */
int use_cycle(struct guarded_worker *w);

/*
 * One stale period of the refresher: empty and refill the cache under the writer's lock
 * (trying again after --retry-ms while it is refused), then sleep to the next period's
 * start or the run's end. 0, or -1 when that is w's end (w aborted).
 */
int refresher_cycle(struct guarded_worker *w);

/*
 * One request of the resource workload: draw the resource and read or write, wait for the
 * turn, hold it for --work-ms, release. 0, or -1 when that is w's end (w aborted).
 */
int request_cycle(struct guarded_worker *w);

#endif
