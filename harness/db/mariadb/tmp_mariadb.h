/*
 * A throwaway MariaDB server for one process, as db/postgresql/tmp_postgres.h's PostgreSQL: a data
 * directory made by mariadb-install-db in a fresh temporary directory, mariadbd listening
 * on a Unix socket there and on no TCP port (never the system's datadir, socket or port
 * 3306), its root account with no password reachable through that socket alone, stopped
 * and deleted again by tmp_mariadb_stop. When we run as root the programs run as the
 * `mysql` system user (else `nobody`). Its pid file is data/postmaster.pid, where the
 * watchdog and `claimbench cleanup` look for a throwaway server's process (db/leftovers.h).
 * Not thread-safe: call start, restart and stop from one thread.
 */
#ifndef CLAIMBENCH_TMP_MARIADB_H
#define CLAIMBENCH_TMP_MARIADB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "db/run_as.h"
#include "db/watchdog.h"

/* $CLAIMBENCH_MARIADB_BINDIR's value that says: do not use MariaDB's server programs, even when installed. */
#define TMP_MARIADB_NONE "none"

/* The fewest connections a throwaway server takes (max_connections); a run that needs more sizes it up. */
#define TMP_MARIADB_MIN_CONNECTIONS 200

/* The line that installs the server programs, for the message when they are missing. */
#define TMP_MARIADB_INSTALL "sudo apt-get install -y mariadb-server-core mariadb-client-core"

/* The start of its directory's name under $TMPDIR, which `cleanup` looks for. */
#define TMP_MARIADB_DIR_PREFIX "claimbench-mariadb-"

struct tmp_mariadb {
	char dir[PATH_MAX];		/* the temporary directory holding data/, the logs and the socket */
	char target[PATH_MAX + 64];	/* what follows mariadb: to connect: host=<dir>/mysqld.sock user=root dbname=claimbench */
	char mariadbd[PATH_MAX];	/* the server program */
	char install_db[PATH_MAX];	/* mariadb-install-db */
	struct run_as as;		/* who the programs run as, and who removes their directory */
	pid_t pid;			/* the running server, our child; 0 when none */
	off_t log_start;		/* server.log's size when the server was last started: where that start's
					 * lines begin (the log is appended to by every start) */
	bool have_dir;			/* dir exists and is ours to delete */
	int max_connections;		/* its max_connections: TMP_MARIADB_MIN_CONNECTIONS or what the run needs */
};

/*
 * Finds the server programs, makes the data directory and starts the server, filling in
 * m (which must not hold a running server); its directory holds an owner note and is
 * given to the watchdog wd to remove should this process die. The server takes
 * connections sessions at once (at least TMP_MARIADB_MIN_CONNECTIONS). 0, or -1 with a
 * one-line reason in err, having cleaned up whatever it made.
 */
int tmp_mariadb_start(struct tmp_mariadb *m, struct watchdog *wd, int connections, char *err, size_t errlen);

/*
 * Kills m's server (SIGKILL: it starts again with crash recovery, as after a crash) and
 * starts it again at the same socket, waiting until it accepts connections. 0, or -1 with
 * a reason in err.
 */
int tmp_mariadb_restart(struct tmp_mariadb *m, char *err, size_t errlen);

/* Kills the server (nothing in it is kept) and removes the directory. Safe on a zeroed m and when called twice. */
void tmp_mariadb_stop(struct tmp_mariadb *m);

#endif
