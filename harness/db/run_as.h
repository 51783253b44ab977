/*
 * Acting as another user: when claimbench runs as root, the throwaway server's programs
 * run as the postgres system user, and whatever touches that user's files (the server's
 * directory, its processes) is done as that user too, so that nothing planted there can
 * turn root's hand against another file or process.
 */
#ifndef CLAIMBENCH_RUN_AS_H
#define CLAIMBENCH_RUN_AS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Who a forked child becomes. */
struct run_as {
	bool drop;		/* become uid and gid (we are root); false: stay ourselves */
	uid_t uid;		/* the user to become */
	gid_t gid;		/* that user's primary group */
	gid_t *groups;		/* that user's supplementary groups (owned), loaded before forking */
	int n_groups;		/* entries in groups */
};

/*
 * Fills as with ourselves, or, when we are root, with the system user called name
 * (which must not be root). 0, or -1 with err. Release as with run_as_free.
 */
int run_as_choose(struct run_as *as, const char *name, char *err, size_t errlen);

/* Fills as with the owner of path (its uid and primary group) when we are root, else ourselves. 0, or -1 with err. */
int run_as_owner_of(struct run_as *as, const char *path, char *err, size_t errlen);

/* Frees what as holds. */
void run_as_free(struct run_as *as);

/* In a forked child: becomes as (groups, group, user). 0, or -1 with errno. Async-signal-safe. */
int run_as_become(const struct run_as *as);

/*
 * Runs fn(arg) in a forked child that has become as, and waits for it. The child's exit
 * status (fn's return value, 0 to 255), or -1 when it could not be run or was killed.
 */
int run_as_call(const struct run_as *as, int (*fn)(void *arg), void *arg);

#endif
