/*
 * The thread that walks a run's timeline (--phase): from the start gate, each phase at its
 * planned instant, its pressure put on the server on connections of the harness's own (an
 * idle transaction that took an XID, a held REPEATABLE READ snapshot, reader sessions
 * scanning the queue table, a VACUUM, idle connections held), then released when it ends;
 * each phase's start and end recorded as they happened, for its figures, and the phase in
 * progress published for the monitor, which strikes a fault phase's faults. PostgreSQL's SQL: the other backends'
 * timelines hold no such phase (cli/group_checks.c refuses them).
 */
#ifndef CLAIMBENCH_TIMELINE_RUNNER_H
#define CLAIMBENCH_TIMELINE_RUNNER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/timeline.h"
#include "queue/run_shared.h"

struct timeline_runner;

/* One reader session of an active-readers phase, on a thread of its own while the phase lasts. */
struct timeline_reader {
	struct timeline_runner *r;	/* the runner it belongs to */
	struct db_conn *conn;		/* its session (application_name TIMELINE_READER_NAME and the run's pid) */
	pthread_t thread;		/* its thread, while a phase lasts */
	int64_t scans;			/* scans of the queue table it made in the phase */
	bool repeatable;		/* its transaction said it was REPEATABLE READ */
	bool failed;			/* a statement failed: it stopped */
	char failure[256];		/* why, when failed */
};

/* The application_name of the readers' sessions, which pg_stat_activity shows. */
#define TIMELINE_READER_NAME "claimbench_reader"

/* The application_name of a pool-exhaustion phase's idle connections. */
#define TIMELINE_POOL_NAME "claimbench_pool"

/* The timeline of one run. */
struct timeline_runner {
	struct run_shared *s;					/* the run */
	struct db_conn *holder;					/* the session that holds a transaction or vacuums, or NULL */
	struct timeline_reader readers[TIMELINE_MAX_READERS];	/* the readers' sessions */
	int n_readers;						/* sessions opened: the most one phase has */
	atomic_bool readers_stop;				/* tells the readers to end their transactions */
	atomic_int readers_ready;				/* readers that made their first scan (or failed) */
	struct timeline_phase phases[TIMELINE_MAX_PHASES];	/* the phases, named; start and end as they happened */
	size_t n_phases;					/* phases in the timeline */
	size_t n_begun;						/* of those, begun (and ended) */
	atomic_bool quit;					/* set when the run's threads have finished: end now */
	atomic_bool saw_stop;					/* it has ended (for the signal thread's re-cancels) */
	bool started;						/* its thread runs: timeline_join is due */
	bool failed;						/* a phase could not be put on the server, or its
								 * pressure did not last the phase: the run is incomplete */
	char failure[512];					/* why, when failed */
	pthread_t thread;					/* its thread */
	struct db_conn **pool;					/* a pool-exhaustion phase's idle connections,
								 * pool_cap of them; NULL without such a phase */
	int pool_cap;						/* the most one pool-exhaustion phase holds */
	atomic_int phase_now;					/* the phase in progress, its index + 1, once its
								 * start is recorded; 0 between phases */
	atomic_long phase_faults[TIMELINE_MAX_PHASES];		/* the faults the monitor struck in each phase */
	atomic_int striking;					/* the phase (index + 1) whose faults the monitor
								 * is striking now; 0 when it strikes none: a
								 * phase ends once the monitor is out of it */
};

/*
 * Prepares r for the run s, names its phases and opens the sessions they need (each
 * cancelled by a signal). Nothing to do without a timeline. 0, or -1 with err.
 */
int timeline_open(struct timeline_runner *r, struct run_shared *s, char *err, size_t errlen);

/* Starts r's thread, which waits for the start gate, when there is a timeline. 0, or -1 when it cannot start. */
int timeline_start(struct timeline_runner *r);

/* Tells r's thread to end (releasing what a phase holds) and waits for it. */
void timeline_join(struct timeline_runner *r);

/* Closes r's sessions. */
void timeline_close(struct timeline_runner *r);

#endif
