/*
 * A watchdog: a small process of its own, forked before anything else starts, that
 * outlives claimbench when claimbench is killed (even by SIGKILL, which no handler sees)
 * and then removes what it was told to guard: it stops the throwaway server and deletes
 * the temporary directories. A claimbench that ends normally removes them itself and
 * releases the watchdog, which then does nothing.
 */
#ifndef CLAIMBENCH_WATCHDOG_H
#define CLAIMBENCH_WATCHDOG_H

#include <stddef.h>
#include <sys/types.h>

#include "db/run_as.h"

/* The parent's end of a watchdog. */
struct watchdog {
	pid_t pid;	/* the watchdog process, 0 when none runs */
	int fd;		/* the pipe it reads from; its end of file means claimbench is gone */
};

/*
 * Forks the watchdog. Call it while the process has one thread, before anything it is to
 * guard exists. 0, or -1 with err.
 */
int watchdog_start(struct watchdog *wd, char *err, size_t errlen);

/*
 * Tells the watchdog to remove path (a directory and all below it), acting as as, and,
 * when server is true, first to stop the PostgreSQL server whose data directory is
 * path/data. 0, or -1 when the watchdog cannot be told (it then guards nothing new).
 */
int watchdog_guard(struct watchdog *wd, const char *path, bool server, const struct run_as *as);

/*
 * Tells the watchdog to remove path, a throwaway pgbouncer's directory (db/pooler.h), acting
 * as as, after stopping the pgbouncer running there. 0, or -1 as watchdog_guard.
 */
int watchdog_guard_pooler(struct watchdog *wd, const char *path, const struct run_as *as);

/* Tells the watchdog that everything it guards has been removed, and waits for it to exit. */
void watchdog_release(struct watchdog *wd);

#endif
