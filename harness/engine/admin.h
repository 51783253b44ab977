/*
 * The harness's own connection to the run's database: it creates the tables, reaps
 * expired leases and terminates server processes during the run, reads the final state
 * back and drops the tables. A lost connection (a server restart) is made anew.
 */
#ifndef CLAIMBENCH_ADMIN_H
#define CLAIMBENCH_ADMIN_H

#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"
#include "engine/worker.h"
#include "model/config.h"

/* The admin connection and where it connects. */
struct admin {
	const struct backend_ops *db;		/* the backend driver */
	const char *target;			/* where it connects */
	const struct db_options *opts;		/* the connections' settings */
	struct db_conn *conn;			/* the connection, NULL when closed */
};

/* Connects a and has a signal cancel its statements. 0, or -1 with err. */
int admin_open(struct admin *a, char *err, size_t errlen);

/* Closes a's connection, if open. */
void admin_close(struct admin *a);

/*
 * After a step of a failed: when its connection was lost (a server restart, a network
 * cut), or is closed, connects anew so that the step can be tried again. true when it did;
 * says on stderr why not when the connection could not be made.
 */
bool admin_reconnected(struct admin *a);

/*
 * Reads the final state of the total jobs of s into final, connecting anew once after a
 * lost connection. 0, or -1 with err.
 */
int admin_read_final_state(struct admin *a, const struct run_shared *s, struct job_state *final, long total,
			   char *err, size_t errlen);

/*
 * Drops the tables s created, connecting anew once after a lost connection; once a signal
 * has stopped the run it waits RUN_STOPPING_LOCK_WAIT_MS at most for another session's
 * lock on them. Says on stderr when it cannot.
 */
void admin_drop_tables(struct admin *a, struct run_shared *s);

#endif
