#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/leftovers.h"
#include "db/sqlite/parts.h"
#include "db/watchdog.h"

/* The start of the temporary directory's name under $TMPDIR, which `cleanup` looks for. */
#define SQLITE_DIR_PREFIX "claimbench-sqlite-"

/* A throwaway SQLite file and its directory. */
struct sqlite_throwaway {
	struct run_as as;		/* who removes the directory: ourselves */
	char dir[PATH_MAX];		/* the file's directory, when own */
	char path[PATH_MAX + 16];	/* the file */
	bool own;			/* dir exists and is ours to remove */
};

/* backend_throwaway.start: the file's directory under $TMPDIR (or /tmp), with this process's owner note. */
static int sqlite_start(void *state, struct watchdog *wd, int connections, const char **target, char *err,
			size_t errlen)
{
	struct sqlite_throwaway *t = state;
	const char *base = getenv("TMPDIR");

	(void)connections;
	if (!base || !*base)
		base = "/tmp";
	if (snprintf(t->dir, sizeof(t->dir), "%s/" SQLITE_DIR_PREFIX "XXXXXX", base) >= (int)sizeof(t->dir)) {
		snprintf(err, errlen, "TMPDIR is too long");
		return -1;
	}
	if (!mkdtemp(t->dir)) {
		snprintf(err, errlen, "cannot create a temporary directory in %s: %s", base, strerror(errno));
		return -1;
	}
	t->own = true;
	t->as = (struct run_as){ .uid = geteuid(), .gid = getegid() };
	if (watchdog_guard(wd, t->dir, NULL, &t->as) < 0) {
		snprintf(err, errlen, "could not give %s to the watchdog", t->dir);
		return -1;
	}
	if (leftovers_mark(t->dir, err, errlen) < 0)
		return -1;
	snprintf(t->path, sizeof(t->path), "%s/queue.db", t->dir);
	*target = t->path;
	return 0;
}

/* backend_throwaway.announce: where the file is, and the backend passed over for it. */
static void sqlite_announce(const void *state, const char *passed_over)
{
	const struct sqlite_throwaway *t = state;

	fprintf(stderr, "claimbench: %s%s%susing a temporary SQLite database %s (removed at exit; give --db to "
			"choose)\n", passed_over ? "no " : "", passed_over ? passed_over : "",
		passed_over ? " server programs found; " : "", t->path);
}

/* backend_throwaway.stop: the directory and the file, if they were made. */
static void sqlite_stop(void *state)
{
	struct sqlite_throwaway *t = state;

	if (t->own)
		leftovers_remove(t->dir, &t->as);
	t->own = false;
	run_as_free(&t->as);
}

const struct backend_throwaway throwaway_sqlite = {
	.dir_prefix = SQLITE_DIR_PREFIX,
	.state_size = sizeof(struct sqlite_throwaway),
	.start_failed = "cannot make a temporary SQLite file",
	.default_rank = 2,
	.start = sqlite_start,
	.announce = sqlite_announce,
	.stop = sqlite_stop,
};
