/*
 * A worker of a guarded-resource run: its role (the lock it takes and how it waits for
 * it), its connection, and its statements prepared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/session.h"
#include "guarded/guarded_worker.h"

const struct guarded_plan *guarded_plan_of(const struct guarded_worker *w)
{
	return &w->g->cfg->guarded;
}

bool guarded_is_refresher(const struct guarded_worker *w)
{
	return guarded_plan_of(w)->workload == WORKLOAD_EXCLUSIVE_USE && w->seat == 0;
}

const struct guard_lock *guarded_lock_of(const struct guarded_worker *w)
{
	return guarded_is_refresher(w) ? &w->g->guard->writer : &w->g->guard->user;
}

int guarded_lock_wait_ms(const struct guarded_worker *w, const struct guard_lock *l)
{
	switch (l->wait) {
	case GUARD_WAIT_LIMIT:
		return guarded_plan_of(w)->wait_limit_ms;
	case GUARD_RETRIES:
	case GUARD_REFUSES:
		return w->g->db->sql->no_wait_by_zero_wait ? 0 : -1;
	default:
		return -1;
	}
}

/* The slots w prepares for its workload, besides the guard's begin and lock. */
static bool slot_used(enum workload workload, enum guarded_slot slot)
{
	switch (slot) {
	case GSLOT_COMMIT:
	case GSLOT_ROLLBACK:
		return true;
	case GSLOT_READ_STATUS:
	case GSLOT_WRITE_HALF_1:
	case GSLOT_WRITE_HALF_2:
		return workload == WORKLOAD_REFRESH;
	case GSLOT_MARK_STATUS:
	case GSLOT_READ_CACHE:
		return workload != WORKLOAD_RESOURCE;
	case GSLOT_EMPTY_CACHE:
	case GSLOT_FILL_CACHE:
		return workload == WORKLOAD_EXCLUSIVE_USE;
	default:
		return workload == WORKLOAD_RESOURCE;
	}
}

/* Prepares tmpl in slot on w's connection (statement_prepare). 0, or -1 with err. */
static int prepare(struct guarded_worker *w, enum guarded_slot slot, const char *tmpl, int nparams, char *err,
		   size_t errlen)
{
	char origin[96];

	snprintf(origin, sizeof(origin), "guard %s: preparing its statement %d", w->g->guard->name, (int)slot);
	return statement_prepare(w->g->db, w->conn, &w->g->tables->names, (int)slot, tmpl, nparams, origin, err, errlen);
}

/* Prepares the guard's statements and the workload's. 0, or -1 with err. */
static int prepare_all(struct guarded_worker *w, char *err, size_t errlen)
{
	const struct guard_ops *guard = w->g->guard;
	enum sql_dialect k = w->g->db->dialect;
	enum workload workload = guarded_plan_of(w)->workload;
	const char *own[GSLOT_COMMIT] = {
		[GSLOT_BEGIN_USER] = guard->user.begin_sql[k], [GSLOT_LOCK_USER] = guard->user.lock_sql[k],
		[GSLOT_BEGIN_WRITER] = guard->writer.begin_sql[k], [GSLOT_LOCK_WRITER] = guard->writer.lock_sql[k],
		[GSLOT_RELEASE_USER] = guard->user.release_sql[k], [GSLOT_RELEASE_WRITER] = guard->writer.release_sql[k],
	};

	for (int slot = 0; slot < GSLOT_COMMIT; slot++)
		if (own[slot] && prepare(w, (enum guarded_slot)slot, own[slot], 0, err, errlen) < 0)
			return -1;
	for (int slot = GSLOT_COMMIT; slot < GSLOT_COUNT; slot++)
		if (slot_used(workload, (enum guarded_slot)slot) &&
		    prepare(w, (enum guarded_slot)slot,
			    guarded_statement((enum guarded_slot)slot, w->g->db->sql, guard->truncates),
			    guarded_statement_params((enum guarded_slot)slot), err, errlen) < 0)
			return -1;
	return 0;
}

int guarded_worker_open(struct guarded_worker *w, struct guarded_shared *g, int seat, size_t expected,
			char *err, size_t errlen)
{
	const struct backend_ops *db = g->db;

	memset(w, 0, sizeof(*w));
	w->g = g;
	w->seat = seat;
	w->cap_acqs = expected;
	w->acqs = malloc(expected * sizeof(*w->acqs));
	if (!w->acqs) {
		snprintf(err, errlen, "out of memory for its acquisitions");
		return -1;
	}
	if (session_open(db, g->target, &g->cfg->db_opts, NULL, &w->conn, err, errlen) < 0)
		goto fail;
	if (db->sql->guard_wait == GUARD_WAIT_SESSION &&
	    db->set_lock_wait(w->conn, guarded_lock_wait_ms(w, guarded_lock_of(w))) < 0) {
		snprintf(err, errlen, "setting its lock wait: %s", db->error_message(w->conn));
		goto fail;
	}
	if (prepare_all(w, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	guarded_worker_close(w);
	return -1;
}

void guarded_worker_close(struct guarded_worker *w)
{
	session_close(w->g->db, &w->conn, false);
	free(w->acqs);
	w->acqs = NULL;
}
