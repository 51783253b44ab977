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
#include "queue/worker.h"
#include "model/config.h"

/* The admin connection and where it connects. */
struct admin {
	const struct backend_ops *db;		/* the backend driver */
	const char *target;			/* where it connects */
	const struct db_options *opts;		/* the connections' settings */
	struct db_conn *conn;			/* the connection, NULL when closed */
	bool (*server_gone)(void *ctx);		/* whether the throwaway server is gone; NULL: cannot be told */
	void *server_ctx;			/* what server_gone is given */
	char failure[512];			/* why the connection could not be made anew, the last time */
	bool said_gone;				/* it has said on stderr that the server is gone */
};

/* The admin connection's message when the throwaway server it connects to is gone. */
#define ADMIN_SERVER_GONE "the throwaway server is gone: its postmaster is no longer running"

/* Whether the throwaway server a connects to is gone (false when that cannot be told). */
bool admin_server_gone(const struct admin *a);

/* Connects a and has a signal cancel its statements. 0, or -1 with err. */
int admin_open(struct admin *a, char *err, size_t errlen);

/* Closes a's connection, if open. */
void admin_close(struct admin *a);

/*
 * After a step of a failed: when its connection was lost (a server restart, a network
 * cut), or is closed, connects anew so that the step can be tried again. true when it did;
 * when the connection could not be made, keeps why in a->failure and says it on stderr
 * (once only when the throwaway server is gone).
 */
bool admin_reconnected(struct admin *a);

/*
 * Reads the final state of the total jobs of s into final, connecting anew once after a
 * lost connection. 0, or -1 with err (why no connection could be made, when none was).
 */
int admin_read_final_state(struct admin *a, const struct run_shared *s, struct job_state *final, long total,
			   char *err, size_t errlen);

/*
 * Drops the tables s created, connecting anew once after a lost connection; once a signal
 * has stopped the run it waits RUN_STOPPING_LOCK_WAIT_MS at most for another session's
 * lock on them. Says on stderr when it cannot, unless the throwaway server is gone, and
 * its tables with it.
 */
void admin_drop_tables(struct admin *a, struct run_shared *s);

#endif
