#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/admin.h"
#include "queue/run_shared.h"
#include "queue/server_costs.h"

/* The five text columns of the backend's costs plan, as read. */
struct plan_row {
	long version;		/* the server's version number (server_version_num) */
	long extension;		/* 1 when the statements' tracking extension (pg_stat_statements) is installed */
	char track[16];		/* its tracking setting in a's session, "" when not loaded */
	long superuser;		/* 1 when a's role is a superuser */
	long may_flush;		/* 1 when a's role may flush its statistics (pg_stat_force_next_flush()) */
	bool read;		/* the row came */
};

/* A db_text_row_fn: keeps the plan's row in ctx, a struct plan_row. */
static int keep_plan(void *ctx, const char *const *cols, int ncols)
{
	struct plan_row *p = ctx;

	if (ncols < 5)
		return 0;
	p->version = cols[0] ? strtol(cols[0], NULL, 10) : 0;
	p->extension = cols[1] ? strtol(cols[1], NULL, 10) : 0;
	snprintf(p->track, sizeof(p->track), "%s", cols[2] ? cols[2] : "");
	p->superuser = cols[3] ? strtol(cols[3], NULL, 10) : 0;
	p->may_flush = cols[4] ? strtol(cols[4], NULL, 10) : 0;
	p->read = true;
	return 0;
}

void server_costs_plan(struct admin *a, struct run_shared *s)
{
	const struct backend_costs_sql *sql = s->db->sql->costs;
	struct plan_row p = { 0 };

	s->costs = (struct server_costs){ 0 };
	if (sql && sql->live) {
		s->costs.readable = a->conn != NULL;
		s->costs.live = true;
		return;
	}
	/*
	 * Under transaction pooling a worker's SET of pg_stat_statements.track stays on the
	 * server connection that ran it, which the worker's later transactions mostly do not
	 * get: its statements would go uncounted. Nothing is read there (docs/pooler.md).
	 */
	if (s->cfg->pooler == POOLER_TRANSACTION || !sql || !sql->plan || !a->conn ||
	    s->db->query_text(a->conn, sql->plan, 0, NULL, keep_plan, &p) < 0 || !p.read || p.version < sql->min_version)
		return;
	s->costs.by_statement = p.extension == 1 && strcmp(p.track, "none") == 0 && p.superuser == 1;
	/*
	 * pg_stat_statements counts a statement as it ends; the database's and the WAL's
	 * counters reach the views only when a session flushes them, so without
	 * pg_stat_force_next_flush() (PostgreSQL 14, a role without the right) a reading
	 * would miss the workers' last statements: then they are not read at all. Nor through
	 * a pooler: the server connections outlive the workers, their counters unflushed.
	 */
	s->costs.readable = s->costs.by_statement || (p.may_flush == 1 && s->cfg->pooler == POOLER_NONE);
	if (s->costs.by_statement)
		s->costs.worker_sql = sql->track_statements;
	if (p.may_flush == 1)
		s->costs.flush_sql = sql->flush;
}

/*
 * A db_text_row_fn: keeps the counters' row in ctx, a struct server_counts; NULL as -1, and
 * the columns past the row's end (PostgreSQL's five have no InnoDB counters) left as they were.
 */
static int keep_counts(void *ctx, const char *const *cols, int ncols)
{
	struct server_counts *c = ctx;
	int64_t *fields[] = { &c->buffers_hit, &c->buffers_read, &c->wal_records, &c->wal_bytes, &c->rows_examined,
			      &c->row_lock_waits, &c->row_lock_time_ms, &c->deadlocks };
	int n = (int)(sizeof(fields) / sizeof(fields[0]));

	for (int i = 0; i < n && i < ncols; i++)
		*fields[i] = cols[i] ? strtoll(cols[i], NULL, 10) : -1;
	return 0;
}

bool server_costs_read(struct admin *a, const struct run_shared *s, struct server_counts *out)
{
	const struct backend_costs_sql *sql = s->db->sql->costs;
	const char *params[] = { s->jobs_table };

	*out = SERVER_COUNTS_UNREAD;
	if (!s->costs.readable || !a->conn)
		return false;
	if (s->costs.flush_sql && s->db->exec(a->conn, s->costs.flush_sql) < 0)
		return false;
	if (s->db->query_text(a->conn, sql->live ? sql->live : s->costs.by_statement ? sql->by_statement :
			      sql->database_wide, 1, params, keep_counts, out) < 0) {
		*out = SERVER_COUNTS_UNREAD;
		return false;
	}
	if (!s->costs.flush_sql && !s->costs.live)
		out->rows_examined = -1;
	return true;
}

void server_costs_flush(const struct run_shared *s, struct db_conn *conn)
{
	if (s->costs.flush_sql && conn)
		s->db->exec(conn, s->costs.flush_sql);
}
