/*
 * A throwaway pgbouncer (--pooler) between the run's workers and producers and a
 * PostgreSQL server, the throwaway one or the user's: its own temporary directory holds
 * its ini, its auth file, its pid file, its log and its Unix socket (no TCP listener, no
 * system config, no default port). It runs as the throwaway server's user when claimbench
 * runs as root (pgbouncer refuses root). The watchdog stops it and removes the directory
 * should claimbench die, and `claimbench cleanup` does the same for a dead one's; both
 * call pooler_stop_leftover. Not thread-safe: call it from one thread.
 */
#ifndef CLAIMBENCH_POOLER_H
#define CLAIMBENCH_POOLER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "db/run_as.h"
#include "db/watchdog.h"

#define POOLER_PORT 16432		/* names the socket file; there is no TCP listener */
#define POOLER_CONNINFO_MAX 512		/* room for the clients' conninfo */
#define POOLER_DIR_PREFIX "claimbench-pgbouncer-"	/* the start of its directory's name under $TMPDIR */

/* $CLAIMBENCH_PGBOUNCER's value that says: pgbouncer is not installed, even when it is. */
#define POOLER_NONE_INSTALLED "none"

/* What to install when pgbouncer cannot be found. */
#define POOLER_INSTALL_LINE "apt-get install pgbouncer (or set CLAIMBENCH_PGBOUNCER to the program)"

/* A throwaway pgbouncer and its directory. */
struct pooler {
	char dir[PATH_MAX];			/* the temporary directory: ini, auth file, pid file, log, socket */
	char program[PATH_MAX];			/* the pgbouncer program */
	char conninfo[POOLER_CONNINFO_MAX];	/* where clients connect: host=<dir> port=POOLER_PORT dbname=... user=... */
	struct run_as as;			/* who pgbouncer runs as, and who removes its directory */
	bool have_dir;				/* dir exists and is ours to remove */
	bool running;				/* a pgbouncer may be running in dir and must be stopped */
};

/*
 * Finds the pgbouncer program into program (PATH_MAX bytes): $CLAIMBENCH_PGBOUNCER, else
 * pgbouncer on $PATH, in /usr/sbin or /usr/local/sbin. 0, or -1 with err (naming
 * POOLER_INSTALL_LINE).
 */
int pooler_find(char *program, char *err, size_t errlen);

/*
 * Finds the program and makes p's directory, with an owner note (db/ownership.h), given
 * to the watchdog wd to remove (and whatever pgbouncer runs there to stop) should this
 * process die. 0, or -1 with err, having removed what it made.
 */
int pooler_open(struct pooler *p, struct watchdog *wd, char *err, size_t errlen);

/*
 * Starts pgbouncer in p's directory, in pool mode "session" or "transaction", with at most
 * server_connections connections to the server server_conninfo names (a libpq conninfo or
 * URI, one host) and room for clients clients, and waits until it accepts connections;
 * p->conninfo then says how to reach it. interrupted (or NULL) is asked meanwhile whether
 * to give up (a Ctrl-C). 0, or -1 with err (the server's conninfo cannot be told pgbouncer,
 * or pgbouncer would not start: its log's last line), no pgbouncer left running.
 */
int pooler_start(struct pooler *p, const char *server_conninfo, const char *mode, int server_connections,
		 int clients, bool (*interrupted)(void), char *err, size_t errlen);

/*
 * Writes into out (outlen bytes) conninfo narrowed to the one server libpq reaches with it,
 * that server's host and port appended (libpq takes a keyword's last value): for the
 * throwaway primary and standby, whichever of the two takes writes now, which pgbouncer,
 * given one host, is then given. Connects once to find it. 0, or -1 with err.
 */
int pooler_narrow_server(const char *conninfo, char *out, size_t outlen, char *err, size_t errlen);

/*
 * Whether pgbouncer can be told the server conninfo names (one host, no line end, no TLS
 * asked for, which pgbouncer would drop): 0, or -1 with err. pooler_start checks it again.
 */
int pooler_check_server(const char *conninfo, char *err, size_t errlen);

/* Stops p's pgbouncer, if one runs, and waits for it to go; its directory stays. */
void pooler_stop(struct pooler *p);

/* Stops p's pgbouncer and removes its directory. Safe on a zeroed p and when called twice. */
void pooler_close(struct pooler *p);

/*
 * Stops the pgbouncer running in the leftover directory dir, if one does, acting as as
 * (for the watchdog and `claimbench cleanup`); one just started, its pid file not yet
 * written, is waited for up to 2 s. 0 when none runs there any more, -1 when one still
 * does or may.
 */
int pooler_stop_leftover(const char *dir, const struct run_as *as);

#endif
