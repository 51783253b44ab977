#include <stdio.h>

#include "engine/admin.h"
#include "queue/queue_table.h"
#include "queue/run.h"
#include "engine/signals.h"

int admin_open(struct admin *a, char *err, size_t errlen)
{
	char why[512];

	if (a->db->connect(a->target, a->opts, &a->conn, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot connect: %s", why);
		return -1;
	}
	if (signals_watch(a->db, a->conn, NULL) < 0) {
		snprintf(err, errlen, "out of memory");
		a->db->disconnect(a->conn);
		a->conn = NULL;
		return -1;
	}
	return 0;
}

void admin_close(struct admin *a)
{
	if (!a->conn)
		return;
	signals_unwatch(a->conn);
	a->db->disconnect(a->conn);
	a->conn = NULL;
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

int admin_read_final_state(struct admin *a, const struct run_shared *s, struct job_state *final, long total,
			   char *err, size_t errlen)
{
	if (a->conn && queue_table_final_state(a->conn, s, final, total, err, errlen) == 0)
		return 0;
	if (admin_reconnected(a))
		return queue_table_final_state(a->conn, s, final, total, err, errlen);
	if (!a->conn)
		snprintf(err, errlen, "reading the final state: %s", a->failure);
	return -1;
}

/*
 * Drops the tables s created on a's connection; once a signal has stopped the run, waiting
 * RUN_STOPPING_LOCK_WAIT_MS at most for another session's lock on them. 0, or -1 with err.
 */
static int drop_tables(struct admin *a, struct run_shared *s, char *err, size_t errlen)
{
	if (signals_interrupted() && a->db->set_lock_wait(a->conn, RUN_STOPPING_LOCK_WAIT_MS) < 0) {
		snprintf(err, errlen, "limiting the wait for a lock: %s", a->db->error_message(a->conn));
		return -1;
	}
	return queue_table_drop(a->conn, s, err, errlen);
}

void admin_drop_tables(struct admin *a, struct run_shared *s)
{
	char err[512];

	if (!a->conn && admin_open(a, err, sizeof(err)) < 0)
		goto left;
	if (drop_tables(a, s, err, sizeof(err)) == 0)
		return;
	if (admin_reconnected(a) && drop_tables(a, s, err, sizeof(err)) == 0)
		return;
left:
	if (admin_server_gone(a))
		return;
	fprintf(stderr, "claimbench: %s; its tables are left behind (claimbench cleanup removes them)\n", err);
}
