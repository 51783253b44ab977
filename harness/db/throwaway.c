#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/throwaway.h"
#include "model/config.h"

int throwaway_prepare(struct throwaway *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	return watchdog_start(&t->wd, err, errlen);
}

int throwaway_open(struct throwaway *t, const struct backend_ops *db, int connections, const char **target, char *err,
		   size_t errlen)
{
	if (!db->throwaway) {
		snprintf(err, errlen, "%s has no throwaway database: give --db", db->name);
		return -1;
	}
	t->state = calloc(1, db->throwaway->state_size);
	if (!t->state) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	t->db = db;
	return db->throwaway->start(t->state, &t->wd, connections, target, err, errlen);
}

void throwaway_announce(const struct throwaway *t, bool defaulted)
{
	const struct backend_ops *preferred = defaulted ? backend_preferred() : NULL;

	if (t->db)
		t->db->throwaway->announce(t->state, preferred && preferred != t->db ? preferred->title : NULL);
}

/* The operations of t's throwaway, NULL when it holds none. */
static const struct backend_throwaway *ops_of(const struct throwaway *t)
{
	return t->db ? t->db->throwaway : NULL;
}

int throwaway_restart(void *throwaway, bool (*stopping)(const void *run), const void *run, char *err,
		      size_t errlen)
{
	struct throwaway *t = throwaway;
	const struct backend_throwaway *ops = ops_of(t);

	(void)stopping;
	(void)run;
	if (!ops || !ops->restart) {
		snprintf(err, errlen, "there is no throwaway server to restart");
		return -1;
	}
	return ops->restart(t->state, err, errlen);
}

int throwaway_add_standby(struct throwaway *t, const char **target, char *err, size_t errlen)
{
	const struct backend_throwaway *ops = ops_of(t);

	if (!ops || !ops->add_standby) {
		snprintf(err, errlen, "there is no throwaway server to give a standby");
		return -1;
	}
	return ops->add_standby(t->state, target, err, errlen);
}

int throwaway_standby_ready(void *throwaway, int mode, char *err, size_t errlen)
{
	struct throwaway *t = throwaway;
	const struct backend_throwaway *ops = ops_of(t);

	return ops && ops->standby_ready ? ops->standby_ready(t->state, mode, err, errlen) : 0;
}

int throwaway_set_autovacuum(void *throwaway, int mode, char *err, size_t errlen)
{
	struct throwaway *t = throwaway;
	const struct backend_throwaway *ops = ops_of(t);

	if (ops && ops->set_autovacuum)
		return ops->set_autovacuum(t->state, mode, err, errlen);
	if (mode == AUTOVACUUM_DEFAULT)
		return 0;
	snprintf(err, errlen, "the throwaway database has no autovacuum to set");
	return -1;
}

int throwaway_standby_cut(void *throwaway, char *err, size_t errlen)
{
	struct throwaway *t = throwaway;
	const struct backend_throwaway *ops = ops_of(t);

	if (!ops || !ops->standby_cut) {
		snprintf(err, errlen, "the throwaway server has no standby to cut off");
		return -1;
	}
	return ops->standby_cut(t->state, err, errlen);
}

int throwaway_failover(void *throwaway, bool (*stopping)(const void *run), const void *run, char *err,
		       size_t errlen)
{
	struct throwaway *t = throwaway;
	const struct backend_throwaway *ops = ops_of(t);

	(void)stopping;
	(void)run;
	if (!ops || !ops->failover) {
		snprintf(err, errlen, "the throwaway server has no standby to fail over to");
		return -1;
	}
	return ops->failover(t->state, err, errlen);
}

bool throwaway_server_gone(void *throwaway)
{
	const struct throwaway *t = throwaway;
	const struct backend_throwaway *ops = ops_of(t);

	return ops && ops->gone ? ops->gone(t->state) : false;
}

void throwaway_close(struct throwaway *t)
{
	pooler_close(&t->pooler);
	if (t->db)
		t->db->throwaway->stop(t->state);
	free(t->state);
	t->state = NULL;
	t->db = NULL;
	watchdog_release(&t->wd);
}
