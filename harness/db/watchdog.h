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
 * Stops, acting as as, the processes a dead claimbench may have left running in its
 * directory dir (a throwaway server, a pgbouncer): 0 when none runs any more, -1 when one
 * still does or may. The watchdog and `cleanup` call it before they remove dir.
 */
typedef int (*watchdog_stop_fn)(const char *dir, const struct run_as *as);

/*
 * Tells the watchdog to remove path (a directory and all below it), acting as as, after
 * calling stop (NULL: nothing runs there) on it. 0, or -1 when the watchdog cannot be told
 * (it then guards nothing new).
 */
int watchdog_guard(struct watchdog *wd, const char *path, watchdog_stop_fn stop, const struct run_as *as);

/* Tells the watchdog that everything it guards has been removed, and waits for it to exit. */
void watchdog_release(struct watchdog *wd);

#endif
