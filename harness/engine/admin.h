/*
 * The harness's own connection to the run's database, in a run of either workload: it
 * creates the tables, (in a queue run) reaps expired leases, terminates server processes
 * and reads the final state back, and it drops the tables. A lost connection (a server
 * restart) is made anew.
 */
#ifndef CLAIMBENCH_ADMIN_H
#define CLAIMBENCH_ADMIN_H

#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"
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
 * Drops the run's tables with drop(tables, conn, err, errlen) (0, or -1 with err), which
 * drops those the run created and only those, on a's connection, connecting anew once
 * after a lost connection; once a signal has stopped the run it waits
 * RUN_STOPPING_LOCK_WAIT_MS at most for another session's lock on them. Says on stderr,
 * under label, when it cannot, unless the throwaway server is gone, and its tables with it.
 */
void admin_drop_tables(struct admin *a, int (*drop)(void *tables, struct db_conn *conn, char *err, size_t errlen),
		       void *tables, const char *label);

#endif
