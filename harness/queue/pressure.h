/*
 * The MVCC pressure phases of a run, on a thread and connections of their own: a
 * snapshot held open from --snapshot-at for --snapshot-s (PostgreSQL: a REPEATABLE READ
 * transaction that has read the queue table, so that no dead tuple younger than it can be
 * removed; SQLite: a read transaction, which holds checkpoints back), and a VACUUM of the
 * queue table at each --vacuum-at instant (on a second connection, so that it can run
 * while the snapshot is held, as a real VACUUM would beside a forgotten transaction). Each
 * phase is recorded as it happened.
 */
#ifndef CLAIMBENCH_PRESSURE_H
#define CLAIMBENCH_PRESSURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/server_sample.h"
#include "queue/run_shared.h"

/* Phases one run can have: the snapshot and the vacuums. */
#define PRESSURE_MAX_PHASES (1 + MAX_FAULT_POINTS)

/* The pressure phases of one run. */
struct pressure {
	struct run_shared *s;				/* the run */
	struct db_conn *holder;				/* the connection that holds the snapshot, or NULL */
	struct db_conn *vacuumer;			/* the connection that vacuums, or NULL */
	double vacuum_at_s[MAX_FAULT_POINTS];		/* the vacuums' instants, sorted */
	size_t n_vacuums;				/* entries used in vacuum_at_s */
	struct phase_record phases[PRESSURE_MAX_PHASES]; /* the phases, in the order they began */
	size_t n_phases;				/* entries used in phases */
	atomic_bool quit;				/* set when the run's threads have finished: end now */
	atomic_bool saw_stop;				/* it has ended (for the signal thread's re-cancels) */
	bool started;					/* its thread runs: pressure_join is due */
	bool failed;					/* a phase could not be put on the server */
	char failure[512];				/* why, when failed */
	pthread_t thread;				/* its thread */
};

/*
 * Prepares p for the run s and, when it plans phases, opens their connections (each
 * cancelled by a signal). 0, or -1 with err.
 */
int pressure_open(struct pressure *p, struct run_shared *s, char *err, size_t errlen);

/* Starts p's thread, which waits for the start gate, when p has phases. 0, or -1 when it cannot start. */
int pressure_start(struct pressure *p);

/* Tells p's thread to end (releasing a held snapshot) and waits for it. */
void pressure_join(struct pressure *p);

/* Closes p's connections. */
void pressure_close(struct pressure *p);

#endif
