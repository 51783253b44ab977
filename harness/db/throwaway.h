/*
 * The throwaway database a run uses when it is given none: a PostgreSQL cluster of its
 * own (db/tmp_postgres.h) or, without PostgreSQL's server programs, an SQLite file in a
 * temporary directory of its own; with --db mariadb:, a MariaDB server of its own
 * (db/tmp_mariadb.h). A watchdog, started first, removes either should the
 * process die before it could.
 */
#ifndef CLAIMBENCH_THROWAWAY_H
#define CLAIMBENCH_THROWAWAY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"
#include "db/pooler.h"
#include "db/standby.h"
#include "db/tmp_mariadb.h"
#include "db/tmp_postgres.h"
#include "db/watchdog.h"

/* A throwaway database and what guards it. */
struct throwaway {
	struct watchdog wd;		/* removes what is left should this process die */
	struct tmp_postgres pg;		/* the PostgreSQL cluster, when own_server */
	bool own_server;		/* pg runs and is ours to remove */
	struct tmp_mariadb maria;	/* the MariaDB server, when own_mariadb */
	bool own_mariadb;		/* maria runs and is ours to remove */
	struct standby sb;		/* pg's streaming standby, when own_standby (--standby) */
	bool own_standby;		/* sb was made and is ours to remove */
	struct run_as as;		/* who removes the SQLite directory: ourselves */
	char sqlite_dir[PATH_MAX];	/* the SQLite file's directory, when own_file */
	char sqlite_path[PATH_MAX + 16];/* the SQLite file */
	bool own_file;			/* sqlite_dir exists and is ours to remove */
	struct pooler pooler;		/* --pooler's pgbouncer and its directory, when pooler.have_dir */
};

/* Starts t's watchdog. Call it while the process has one thread. 0, or -1 with err. */
int throwaway_prepare(struct throwaway *t, char *err, size_t errlen);

/*
 * Creates the throwaway database for driver db (PostgreSQL: a cluster; SQLite: a file; MariaDB: a server) and
 * points *target at where to connect; a server takes connections sessions at once (its floor when fewer).
 * 0, or -1 with err.
 */
int throwaway_open(struct throwaway *t, const struct backend_ops *db, int connections, const char **target, char *err,
		   size_t errlen);

/*
 * Restarts the throwaway server (throwaway: a struct throwaway) in immediate mode, for a
 * restart fault, as a struct server_restart's fn: pg_ctl's own wait bounds it (MariaDB's:
 * killed and started again, its start waited for up to 60 s), so stopping and run are not
 * looked at. 0, or -1 with err (also when t holds no server).
 */
int throwaway_restart(void *throwaway, bool (*stopping)(const void *run), const void *run, char *err,
		      size_t errlen);

/*
 * Gives the throwaway server a streaming standby (db/standby.h) and points *target at the
 * conninfo that reaches whichever of the two is the primary. 0, or -1 with err (also when
 * t holds no server).
 */
int throwaway_add_standby(struct throwaway *t, const char **target, char *err, size_t errlen);

/*
 * Makes the throwaway pair (throwaway: a struct throwaway) ready for a run with standby
 * mode mode (standby_ready). 0 at once without a standby; or -1 with err.
 */
int throwaway_standby_ready(void *throwaway, int mode, char *err, size_t errlen);

/* Cuts the throwaway standby (throwaway: a struct throwaway) off its primary's WAL (standby_cut). 0, or -1 with err. */
int throwaway_standby_cut(void *throwaway, char *err, size_t errlen);

/*
 * Fails the throwaway server (throwaway: a struct throwaway) over to its standby, as a
 * struct server_restart's fn: pg_ctl's own waits bound it, so stopping and run are not
 * looked at. 0, or -1 with err (also when t has no standby).
 */
int throwaway_failover(void *throwaway, bool (*stopping)(const void *run), const void *run, char *err,
		       size_t errlen);

/*
 * Whether the throwaway server (throwaway: a struct throwaway) was started and is gone
 * (with a standby: the one that takes writes):
 * its postmaster no longer runs (killed, or dead of itself). false for a SQLite file, and
 * when nobody can tell.
 */
bool throwaway_server_gone(void *throwaway);

/* Removes the pooler and the throwaway database, those that were made, and releases the watchdog. */
void throwaway_close(struct throwaway *t);

#endif
