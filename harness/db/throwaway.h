/*
 * The throwaway database a run uses when it is given none: the backend's own
 * (struct backend_throwaway, db/backend.h: a PostgreSQL cluster, an SQLite file in a
 * temporary directory, a MariaDB server), and --pooler's pgbouncer. A watchdog, started
 * first, removes them should the process die before it could.
 */
#ifndef CLAIMBENCH_THROWAWAY_H
#define CLAIMBENCH_THROWAWAY_H

#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"
#include "db/pooler.h"
#include "db/watchdog.h"

/* A throwaway database and what guards it. */
struct throwaway {
	struct watchdog wd;		/* removes what is left should this process die */
	const struct backend_ops *db;	/* whose throwaway state is, once throwaway_open made it; NULL before */
	void *state;			/* that backend's own state (db->throwaway->state_size bytes), or NULL */
	struct pooler pooler;		/* --pooler's pgbouncer and its directory, when pooler.have_dir */
};

/* Starts t's watchdog. Call it while the process has one thread. 0, or -1 with err. */
int throwaway_prepare(struct throwaway *t, char *err, size_t errlen);

/*
 * Creates the throwaway database of driver db (its struct backend_throwaway's start) and
 * points *target at where to connect; a server takes connections sessions at once (its
 * floor when fewer). 0, or -1 with err (also when db has no throwaway).
 */
int throwaway_open(struct throwaway *t, const struct backend_ops *db, int connections, const char **target, char *err,
		   size_t errlen);

/*
 * Says on stderr where t's database is (and what its start had to say); defaulted: no --db
 * chose its backend, so that one another's missing programs passed over (backend_preferred)
 * is named.
 */
void throwaway_announce(const struct throwaway *t, bool defaulted);

/*
 * Restarts the throwaway server (throwaway: a struct throwaway) in immediate mode, for a
 * restart fault, as a struct server_restart's fn: the backend's own waits bound it, so
 * stopping and run are not looked at. 0, or -1 with err (also when t holds no server).
 */
int throwaway_restart(void *throwaway, bool (*stopping)(const void *run), const void *run, char *err,
		      size_t errlen);

/*
 * Gives the throwaway server a streaming standby and points *target at what reaches
 * whichever of the two is the primary. 0, or -1 with err (also when t's backend makes none).
 */
int throwaway_add_standby(struct throwaway *t, const char **target, char *err, size_t errlen);

/*
 * Makes the throwaway pair (throwaway: a struct throwaway) ready for a run with standby
 * mode mode. 0 at once without a standby; or -1 with err.
 */
int throwaway_standby_ready(void *throwaway, int mode, char *err, size_t errlen);

/*
 * Sets the throwaway server's (throwaway: a struct throwaway) autovacuum to mode (an enum
 * autovacuum_mode), as struct run_plan's set_autovacuum. 0 (at once for the default where it
 * has none), or -1 with err.
 */
int throwaway_set_autovacuum(void *throwaway, int mode, char *err, size_t errlen);

/* Cuts the throwaway standby (throwaway: a struct throwaway) off its primary's WAL. 0, or -1 with err. */
int throwaway_standby_cut(void *throwaway, char *err, size_t errlen);

/*
 * Fails the throwaway server (throwaway: a struct throwaway) over to its standby, as a
 * struct server_restart's fn: the backend's own waits bound it, so stopping and run are
 * not looked at. 0, or -1 with err (also when t has no standby).
 */
int throwaway_failover(void *throwaway, bool (*stopping)(const void *run), const void *run, char *err,
		       size_t errlen);

/*
 * Whether the throwaway server (throwaway: a struct throwaway) was started and is gone
 * (with a standby: the one that takes writes). false for a file, and when nobody can tell.
 */
bool throwaway_server_gone(void *throwaway);

/* Removes the pooler and the throwaway database, those that were made, and releases the watchdog. */
void throwaway_close(struct throwaway *t);

#endif
