#include <limits.h>
#include <stdio.h>

#include "db/leftovers.h"
#include "db/mariadb/parts.h"
#include "db/mariadb/tmp_mariadb.h"

/* A throwaway MariaDB: its server. */
struct mariadb_throwaway {
	struct tmp_mariadb maria;	/* the server, when own */
	bool own;			/* maria runs and is ours to remove */
};

/* backend_throwaway.start: a server of its own, *target what follows mariadb: to reach it. */
static int mariadb_start(void *state, struct watchdog *wd, int connections, const char **target, char *err,
			 size_t errlen)
{
	struct mariadb_throwaway *t = state;

	if (tmp_mariadb_start(&t->maria, wd, connections, err, errlen) < 0)
		return -1;
	t->own = true;
	*target = t->maria.target;
	return 0;
}

/* backend_throwaway.announce: where the server is. */
static void mariadb_announce(const void *state, const char *passed_over)
{
	const struct mariadb_throwaway *t = state;

	(void)passed_over;
	fprintf(stderr, "claimbench: throwaway MariaDB in %s\n", t->maria.dir);
}

/* backend_throwaway.stop: the server, if it was made. */
static void mariadb_stop(void *state)
{
	struct mariadb_throwaway *t = state;

	if (t->own)
		tmp_mariadb_stop(&t->maria);
	t->own = false;
}

/* backend_throwaway.restart: killed and started again. */
static int mariadb_restart(void *state, char *err, size_t errlen)
{
	struct mariadb_throwaway *t = state;

	if (!t->own) {
		snprintf(err, errlen, "there is no throwaway server to restart");
		return -1;
	}
	return tmp_mariadb_restart(&t->maria, err, errlen);
}

/* backend_throwaway.gone: its server no longer runs. */
static bool mariadb_gone(const void *state)
{
	const struct mariadb_throwaway *t = state;
	char data[PATH_MAX + 8];

	if (!t->own || snprintf(data, sizeof(data), "%s/data", t->maria.dir) >= (int)sizeof(data))
		return false;
	return leftovers_server_runs(data) == 0;
}

const struct backend_throwaway throwaway_mariadb = {
	.dir_prefix = TMP_MARIADB_DIR_PREFIX,
	.stop_leftover = leftovers_stop_server_in,
	.state_size = sizeof(struct mariadb_throwaway),
	.start_failed = "cannot start a throwaway MariaDB",
	.start = mariadb_start,
	.announce = mariadb_announce,
	.stop = mariadb_stop,
	.restart = mariadb_restart,
	.gone = mariadb_gone,
};
