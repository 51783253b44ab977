/*
 * A throwaway PostgreSQL cluster for one process: created with initdb (or copied from
 * initdb's output kept as a template, db/postgresql/template_cluster.h) in a fresh temporary directory, reachable only through a Unix socket in that directory,
 * stopped and deleted again by tmp_postgres_stop. It never touches another cluster
 * and never uses port 5432. When we run as root, initdb and the server run as the
 * `postgres` system user, since PostgreSQL refuses to run as root. Not thread-safe:
 * call start and stop from one thread, outside signal handlers.
 */
#ifndef CLAIMBENCH_TMP_POSTGRES_H
#define CLAIMBENCH_TMP_POSTGRES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "db/run_as.h"
#include "db/watchdog.h"

#define TMP_POSTGRES_PORT 15432		/* names the socket file; there is no TCP listener */
#define TMP_POSTGRES_PORT_TEXT "15432"	/* the same, as text */
#define TMP_POSTGRES_CONNINFO_MAX 512	/* room for the conninfo: the socket path limit keeps dir short */

#define TMP_POSTGRES_DIR_PREFIX "claimbench-pg-" /* the start of its directory's name under $TMPDIR */
#define STANDBY_DIR "standby"		/* a standby's directory under the primary's (db/postgresql/standby.h) */

/* $CLAIMBENCH_PG_BINDIR's value that says: do not use PostgreSQL's server programs, even when installed. */
#define TMP_POSTGRES_NONE "none"

/* The fewest connections a throwaway server takes (max_connections); a run that needs more sizes it up. */
#define TMP_POSTGRES_MIN_CONNECTIONS 200

struct tmp_postgres {
	char dir[PATH_MAX];		/* the temporary directory holding data/, the logs and the socket */
	char conninfo[TMP_POSTGRES_CONNINFO_MAX]; /* libpq conninfo: host=<dir> port=<port> dbname=postgres user=claimbench */
	char bindir[PATH_MAX];		/* the directory holding initdb, pg_ctl and postgres */
	int port;			/* the server's port, which only names its socket file */
	struct run_as as;		/* who the programs run as, and who removes their directory */
	bool have_dir;			/* dir exists and is ours to delete */
	bool started;			/* the server may be running and must be stopped */
	bool statements;		/* it loads pg_stat_statements, untracked but where a session turns it on
					 * (queue/server_costs.h), and its database has the extension */
	int max_connections;		/* its max_connections: TMP_POSTGRES_MIN_CONNECTIONS or what the run needs */
	char template_said[PATH_MAX + 256]; /* why its start could not keep a template cluster
					 * (db/postgresql/template_cluster.h), a line for the user; empty when nothing to say */
};

/*
 * Finds the server programs, creates the cluster and starts it, filling in pg
 * (which must not hold a running cluster); its directory holds an owner note
 * (db/ownership.h) and is given to the watchdog wd to remove should this process die.
 * The server takes connections sessions at once (at least TMP_POSTGRES_MIN_CONNECTIONS).
 * 0, or -1 with a one-line reason in err, having cleaned up whatever it made.
 */
int tmp_postgres_start(struct tmp_postgres *pg, struct watchdog *wd, int connections, char *err, size_t errlen);

/*
 * Restarts pg's server in immediate mode (no shutdown checkpoint: the server starts with
 * crash recovery, as after a crash), or starts it when it is not running, and waits until
 * it accepts connections again, at the same socket. 0, or -1 with a reason in err.
 */
int tmp_postgres_restart(struct tmp_postgres *pg, char *err, size_t errlen);

/*
 * Stops the server (immediate shutdown: nothing in it is kept) and removes the
 * directory as the programs' user. Safe on a zeroed or never-started pg, after a failed
 * start, and when called twice; pg->dir keeps naming the directory that was removed.
 */
void tmp_postgres_stop(struct tmp_postgres *pg);

/* The most arguments tmp_postgres_run passes a program. */
#define TMP_POSTGRES_MAX_ARGS 24

/*
 * Makes node a second server beside pg's (a standby): pg's programs and user, its own
 * port, the directory <pg->dir>/<name> (its socket there, its data directory data/ once
 * the caller fills it, e.g. with pg_basebackup through tmp_postgres_run) and the conninfo
 * to it. tmp_postgres_restart starts it, tmp_postgres_stop stops it and removes its
 * directory; pg's own stop removes it with pg's directory. 0, or -1 with err, node then
 * holding nothing.
 */
int tmp_postgres_node(struct tmp_postgres *node, const struct tmp_postgres *pg, const char *name, int port, char *err,
		      size_t errlen);

/*
 * Runs the server program called program in pg's bindir (pg_basebackup, pg_ctl...) with the
 * arguments args (NULL-terminated, at most TMP_POSTGRES_MAX_ARGS) as the cluster's user in
 * pg->dir, its output appended to <pg->dir>/programs.log, and waits for it. 0, or -1 with
 * a reason in err: the explaining line of the server's log or that one, else why it failed.
 */
int tmp_postgres_run(const struct tmp_postgres *pg, const char *program, const char *const args[], char *err,
		     size_t errlen);

/*
 * Whether PostgreSQL server programs (initdb, pg_ctl) can be found on this machine: 1
 * yes, 0 no (or $CLAIMBENCH_PG_BINDIR is TMP_POSTGRES_NONE), -1 when $CLAIMBENCH_PG_BINDIR
 * names a directory without them (reason in err).
 */
int tmp_postgres_available(char *err, size_t errlen);

/*
 * Stops, acting as as, the servers a dead claimbench may have left in its throwaway
 * directory dir: the standby (dir/STANDBY_DIR/data), then the primary (dir/data), those
 * that run there; a watchdog_stop_fn, which the watchdog and `cleanup` call before they
 * remove dir. 0 when the primary no longer runs, -1 when it still does or may (the
 * standby's stop is tried, its outcome not looked at, as the primary's decides).
 */
int tmp_postgres_stop_leftover(const char *dir, const struct run_as *as);

#endif
