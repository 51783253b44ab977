#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/leftovers.h"
#include "db/throwaway.h"

int throwaway_prepare(struct throwaway *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	return watchdog_start(&t->wd, err, errlen);
}

/* Creates the SQLite file's directory under $TMPDIR (or /tmp), with this process's owner note. 0, or -1 with err. */
static int open_sqlite(struct throwaway *t, char *err, size_t errlen)
{
	const char *base = getenv("TMPDIR");

	if (!base || !*base)
		base = "/tmp";
	if (snprintf(t->sqlite_dir, sizeof(t->sqlite_dir), "%s/claimbench-sqlite-XXXXXX", base) >=
	    (int)sizeof(t->sqlite_dir)) {
		snprintf(err, errlen, "TMPDIR is too long");
		return -1;
	}
	if (!mkdtemp(t->sqlite_dir)) {
		snprintf(err, errlen, "cannot create a temporary directory in %s: %s", base, strerror(errno));
		return -1;
	}
	t->own_file = true;
	t->as = (struct run_as){ .uid = geteuid(), .gid = getegid() };
	if (watchdog_guard(&t->wd, t->sqlite_dir, false, &t->as) < 0) {
		snprintf(err, errlen, "could not give %s to the watchdog", t->sqlite_dir);
		return -1;
	}
	if (leftovers_mark(t->sqlite_dir, err, errlen) < 0)
		return -1;
	snprintf(t->sqlite_path, sizeof(t->sqlite_path), "%s/queue.db", t->sqlite_dir);
	return 0;
}

int throwaway_open(struct throwaway *t, const struct backend_ops *db, int connections, const char **target, char *err,
		   size_t errlen)
{
	if (db->dialect == DIALECT_SQLITE) {
		if (open_sqlite(t, err, errlen) < 0)
			return -1;
		*target = t->sqlite_path;
		return 0;
	}
	if (db->dialect == DIALECT_MARIADB) {
		if (tmp_mariadb_start(&t->maria, &t->wd, connections, err, errlen) < 0)
			return -1;
		t->own_mariadb = true;
		*target = t->maria.target;
		return 0;
	}
	if (tmp_postgres_start(&t->pg, &t->wd, connections, err, errlen) < 0)
		return -1;
	t->own_server = true;
	*target = t->pg.conninfo;
	return 0;
}

int throwaway_restart(void *throwaway, bool (*stopping)(const void *run), const void *run, char *err,
		      size_t errlen)
{
	struct throwaway *t = throwaway;

	(void)stopping;
	(void)run;
	if (t->own_mariadb)
		return tmp_mariadb_restart(&t->maria, err, errlen);
	if (!t->own_server) {
		snprintf(err, errlen, "there is no throwaway server to restart");
		return -1;
	}
	return tmp_postgres_restart(&t->pg, err, errlen);
}

int throwaway_add_standby(struct throwaway *t, const char **target, char *err, size_t errlen)
{
	if (!t->own_server) {
		snprintf(err, errlen, "there is no throwaway server to give a standby");
		return -1;
	}
	if (standby_open(&t->sb, &t->pg, err, errlen) < 0)
		return -1;
	t->own_standby = true;
	*target = t->sb.conninfo;
	return 0;
}

int throwaway_standby_ready(void *throwaway, int mode, char *err, size_t errlen)
{
	struct throwaway *t = throwaway;

	return t->own_standby ? standby_ready(&t->sb, mode, err, errlen) : 0;
}

int throwaway_standby_cut(void *throwaway, char *err, size_t errlen)
{
	struct throwaway *t = throwaway;

	if (!t->own_standby) {
		snprintf(err, errlen, "the throwaway server has no standby to cut off");
		return -1;
	}
	return standby_cut(&t->sb, err, errlen);
}

int throwaway_failover(void *throwaway, bool (*stopping)(const void *run), const void *run, char *err,
		       size_t errlen)
{
	struct throwaway *t = throwaway;

	(void)stopping;
	(void)run;
	if (!t->own_standby) {
		snprintf(err, errlen, "the throwaway server has no standby to fail over to");
		return -1;
	}
	return standby_failover(&t->sb, err, errlen);
}

bool throwaway_server_gone(void *throwaway)
{
	const struct throwaway *t = throwaway;
	const char *dir = t->own_mariadb ? t->maria.dir : t->pg.dir;
	char data[PATH_MAX + 8];

	if (t->own_standby)
		return standby_primary_gone(&t->sb);
	if ((!t->own_server && !t->own_mariadb) || snprintf(data, sizeof(data), "%s/data", dir) >= (int)sizeof(data))
		return false;
	return leftovers_server_runs(data) == 0;
}

void throwaway_close(struct throwaway *t)
{
	pooler_close(&t->pooler);
	if (t->own_standby)
		standby_close(&t->sb);
	t->own_standby = false;
	if (t->own_server)
		tmp_postgres_stop(&t->pg);
	t->own_server = false;
	if (t->own_mariadb)
		tmp_mariadb_stop(&t->maria);
	t->own_mariadb = false;
	if (t->own_file)
		leftovers_remove(t->sqlite_dir, &t->as);
	t->own_file = false;
	run_as_free(&t->as);
	watchdog_release(&t->wd);
}
