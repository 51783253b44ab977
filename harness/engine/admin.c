#include <stdio.h>

#include "engine/admin.h"
#include "engine/run_plan.h"
#include "engine/session.h"
#include "engine/signals.h"

int admin_open(struct admin *a, char *err, size_t errlen)
{
	char why[512];

	if (session_open(a->db, a->target, a->opts, NULL, &a->conn, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot connect: %.480s", why);
		return -1;
	}
	return 0;
}

void admin_close(struct admin *a)
{
	session_close(a->db, &a->conn, false);
}

bool admin_server_gone(const struct admin *a)
{
	return a->server_gone && a->server_gone(a->server_ctx);
}

bool admin_reconnected(struct admin *a)
{
	if (a->conn && a->db->error_kind(a->conn) != ERR_CONNECTION_LOST)
		return false;
	admin_close(a);
	if (admin_open(a, a->failure, sizeof(a->failure)) == 0)
		return true;
	if (!admin_server_gone(a)) {
		fprintf(stderr, "claimbench: the harness's own connection was lost and could not be made anew: %s\n",
			a->failure);
		return false;
	}
	snprintf(a->failure, sizeof(a->failure), "%s", ADMIN_SERVER_GONE);
	if (!a->said_gone)
		fprintf(stderr, "claimbench: %s\n", ADMIN_SERVER_GONE);
	a->said_gone = true;
	return false;
}

/*
 * Drops the run's tables with drop on a's connection; once a signal has stopped the run,
 * waiting RUN_STOPPING_LOCK_WAIT_MS at most for another session's lock on them. 0, or -1
 * with err.
 */
static int drop_tables(struct admin *a, int (*drop)(void *tables, struct db_conn *conn, char *err, size_t errlen),
		       void *tables, char *err, size_t errlen)
{
	if (signals_interrupted() && a->db->set_lock_wait(a->conn, RUN_STOPPING_LOCK_WAIT_MS) < 0) {
		snprintf(err, errlen, "limiting the wait for a lock: %s", a->db->error_message(a->conn));
		return -1;
	}
	return drop(tables, a->conn, err, errlen);
}

void admin_drop_tables(struct admin *a, int (*drop)(void *tables, struct db_conn *conn, char *err, size_t errlen),
		       void *tables, const char *label)
{
	char err[512];

	if (!a->conn && admin_open(a, err, sizeof(err)) < 0)
		goto left;
	if (drop_tables(a, drop, tables, err, sizeof(err)) == 0)
		return;
	if (admin_reconnected(a) && drop_tables(a, drop, tables, err, sizeof(err)) == 0)
		return;
left:
	if (admin_server_gone(a))
		return;
	fprintf(stderr, "claimbench: %s: %s; its tables are left behind (claimbench cleanup removes them)\n", label,
		err);
}
