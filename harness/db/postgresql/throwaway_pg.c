#include <limits.h>
#include <stdio.h>

#include "db/leftovers.h"
#include "db/postgresql/autovacuum.h"
#include "db/postgresql/standby.h"
#include "db/postgresql/parts.h"
#include "db/postgresql/tmp_postgres.h"
#include "model/config.h"

/* A throwaway PostgreSQL: its cluster and, with --standby, the cluster's standby. */
struct pg_throwaway {
	struct tmp_postgres pg;	/* the cluster, when own_server */
	bool own_server;	/* pg runs and is ours to remove */
	struct standby sb;	/* pg's streaming standby, when own_standby */
	bool own_standby;	/* sb was made and is ours to remove */
	int autovacuum;		/* the enum autovacuum_mode pg was last set to: AUTOVACUUM_DEFAULT from its start */
};

/* backend_throwaway.start: a cluster of its own, *target its conninfo. */
static int pg_start(void *state, struct watchdog *wd, int connections, const char **target, char *err, size_t errlen)
{
	struct pg_throwaway *t = state;

	if (tmp_postgres_start(&t->pg, wd, connections, err, errlen) < 0)
		return -1;
	t->own_server = true;
	*target = t->pg.conninfo;
	return 0;
}

/* backend_throwaway.announce: where the cluster is, and why it kept no template cluster. */
static void pg_announce(const void *state, const char *passed_over)
{
	const struct pg_throwaway *t = state;

	(void)passed_over;
	fprintf(stderr, "claimbench: throwaway PostgreSQL in %s\n", t->pg.dir);
	if (t->pg.template_said[0])
		fprintf(stderr, "claimbench: %s\n", t->pg.template_said);
}

/* backend_throwaway.stop: the standby, then the cluster, those that were made. */
static void pg_stop(void *state)
{
	struct pg_throwaway *t = state;

	if (t->own_standby)
		standby_close(&t->sb);
	t->own_standby = false;
	if (t->own_server)
		tmp_postgres_stop(&t->pg);
	t->own_server = false;
}

/* backend_throwaway.restart: pg_ctl restart in immediate mode. */
static int pg_restart(void *state, char *err, size_t errlen)
{
	struct pg_throwaway *t = state;

	if (!t->own_server) {
		snprintf(err, errlen, "there is no throwaway server to restart");
		return -1;
	}
	return tmp_postgres_restart(&t->pg, err, errlen);
}

/* backend_throwaway.gone: the primary's postmaster no longer runs. */
static bool pg_gone(const void *state)
{
	const struct pg_throwaway *t = state;
	char data[PATH_MAX + 8];

	if (t->own_standby)
		return standby_primary_gone(&t->sb);
	if (!t->own_server || snprintf(data, sizeof(data), "%s/data", t->pg.dir) >= (int)sizeof(data))
		return false;
	return leftovers_server_runs(data) == 0;
}

/* backend_throwaway.add_standby: a streaming standby, *target the multi-host conninfo. */
static int pg_add_standby(void *state, const char **target, char *err, size_t errlen)
{
	struct pg_throwaway *t = state;

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

/* backend_throwaway.standby_ready: standby_ready, 0 at once without a standby. */
static int pg_standby_ready(void *state, int mode, char *err, size_t errlen)
{
	struct pg_throwaway *t = state;

	return t->own_standby ? standby_ready(&t->sb, mode, err, errlen) : 0;
}

/* backend_throwaway.set_autovacuum: autovacuum_set on the cluster when mode is not the one it has, said on stderr. */
static int pg_set_autovacuum(void *state, int mode, char *err, size_t errlen)
{
	struct pg_throwaway *t = state;

	if (mode == t->autovacuum)
		return 0;
	if (!t->own_server || t->own_standby) {
		snprintf(err, errlen, "there is no throwaway server without a standby whose autovacuum to set");
		return -1;
	}
	if (autovacuum_set(&t->pg, mode, err, errlen) < 0)
		return -1;
	t->autovacuum = mode;
	fprintf(stderr, "claimbench: the throwaway PostgreSQL's autovacuum is %s from this run on, in force in new "
		"sessions (docs/phases.md#autovacuum)\n", autovacuum_mode_names[mode]);
	return 0;
}

/* backend_throwaway.standby_cut: standby_cut. */
static int pg_standby_cut(void *state, char *err, size_t errlen)
{
	struct pg_throwaway *t = state;

	if (!t->own_standby) {
		snprintf(err, errlen, "the throwaway server has no standby to cut off");
		return -1;
	}
	return standby_cut(&t->sb, err, errlen);
}

/* backend_throwaway.failover: standby_failover. */
static int pg_failover(void *state, char *err, size_t errlen)
{
	struct pg_throwaway *t = state;

	if (!t->own_standby) {
		snprintf(err, errlen, "the throwaway server has no standby to fail over to");
		return -1;
	}
	return standby_failover(&t->sb, err, errlen);
}

const struct backend_throwaway throwaway_postgresql = {
	.dir_prefix = TMP_POSTGRES_DIR_PREFIX,
	.stop_leftover = tmp_postgres_stop_leftover,
	.state_size = sizeof(struct pg_throwaway),
	.start_failed = "cannot start a throwaway PostgreSQL",
	.start_hint = "(install the server with: apt-get install postgresql, or give --db)",
	.default_rank = 1,
	.available = tmp_postgres_available,
	.start = pg_start,
	.announce = pg_announce,
	.stop = pg_stop,
	.restart = pg_restart,
	.gone = pg_gone,
	.add_standby = pg_add_standby,
	.standby_ready = pg_standby_ready,
	.standby_cut = pg_standby_cut,
	.set_autovacuum = pg_set_autovacuum,
	.failover = pg_failover,
};
