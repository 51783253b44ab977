/*
 * A throwaway PostgreSQL cluster for one process: created with initdb in a fresh
 * temporary directory, reachable only through a Unix socket in that directory,
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
#include <sys/types.h>

#define TMP_POSTGRES_PORT 15432		/* names the socket file; there is no TCP listener */
#define TMP_POSTGRES_CONNINFO_MAX 512	/* room for the conninfo: the socket path limit keeps dir short */

/* The throwaway server's max_connections: room for many workers, producers and the harness's own. */
#define TMP_POSTGRES_MAX_CONNECTIONS 200

struct tmp_postgres {
	char dir[PATH_MAX];		/* the temporary directory holding data/, the logs and the socket */
	char conninfo[TMP_POSTGRES_CONNINFO_MAX]; /* libpq conninfo: host=<dir> port=<port> dbname=postgres user=claimbench */
	char bindir[PATH_MAX];		/* the directory holding initdb, pg_ctl and postgres */
	int port;			/* the server's port, which only names its socket file */
	bool drop_privileges;		/* we are root: the programs run as run_uid/run_gid instead */
	uid_t run_uid;			/* the user initdb, pg_ctl and the server run as */
	gid_t run_gid;			/* that user's primary group */
	bool have_dir;			/* dir exists and is ours to delete */
	bool started;			/* the server may be running and must be stopped */
};

/*
 * Finds the server programs, creates the cluster and starts it, filling in pg
 * (which must not hold a running cluster). 0, or -1 with a one-line reason in
 * err, having cleaned up whatever it made.
 */
int tmp_postgres_start(struct tmp_postgres *pg, char *err, size_t errlen);

/*
 * Stops the server (fast shutdown, then immediate if that fails) and removes the
 * directory. Safe on a zeroed or never-started pg, after a failed start, and when
 * called twice; pg->dir keeps naming the directory that was removed.
 */
void tmp_postgres_stop(struct tmp_postgres *pg);

/* True when PostgreSQL server programs (initdb, pg_ctl) can be found on this machine. */
bool tmp_postgres_available(void);

#endif
