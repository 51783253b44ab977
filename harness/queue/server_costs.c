#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/admin.h"
#include "queue/run_shared.h"
#include "queue/server_costs.h"

/* The oldest server with pg_stat_wal, which database-wide WAL figures need. */
#define SERVER_COSTS_MIN_VERSION 140000

/* What the server says of itself: version, pg_stat_statements installed, its default tracking, a superuser, flush allowed. */
static const char plan_sql[] =
	"SELECT current_setting('server_version_num'), "
	"(SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'), "
	"coalesce(current_setting('pg_stat_statements.track', true), ''), "
	"(SELECT rolsuper FROM pg_roles WHERE rolname = current_user)::int, "
	"CASE WHEN current_setting('server_version_num')::int >= 150000 "
	"THEN has_function_privilege('pg_stat_force_next_flush()', 'execute')::int ELSE 0 END";

/* The queue table's rows read by scans and fetched through indexes; $1 its quoted name. */
#define ROWS_EXAMINED "(SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_all_tables " \
		      "WHERE relid = $1::regclass)"

/* The counters by statement: the sums over pg_stat_statements' entries of this database. */
static const char by_statement_sql[] =
	"SELECT coalesce(sum(shared_blks_hit), 0), coalesce(sum(shared_blks_read), 0), "
	"coalesce(sum(wal_records), 0), coalesce(sum(wal_bytes), 0)::bigint, " ROWS_EXAMINED " "
	"FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())";

/* The counters database-wide: the database's buffers, the cluster's WAL. */
static const char database_wide_sql[] =
	"SELECT d.blks_hit, d.blks_read, w.wal_records, w.wal_bytes::bigint, " ROWS_EXAMINED " "
	"FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()";

/* A MariaDB global status counter's value, by its name in upper case. */
#define MARIADB_STATUS(name) "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '" name "')"

/*
 * MariaDB's counters, the server's own (the throwaway's are the run's alone): the buffer
 * pool's logical reads less those that went to disk, and those; no WAL records (NULL: not
 * known); the redo log's bytes written; the rows every statement read (Rows_read); InnoDB's
 * row lock waits, their time (ms) and its deadlocks. $1 is not used.
 */
static const char mariadb_sql[] =
	"SELECT " MARIADB_STATUS("INNODB_BUFFER_POOL_READ_REQUESTS") " - " MARIADB_STATUS("INNODB_BUFFER_POOL_READS") ", "
	MARIADB_STATUS("INNODB_BUFFER_POOL_READS") ", NULL, " MARIADB_STATUS("INNODB_OS_LOG_WRITTEN") ", "
	MARIADB_STATUS("ROWS_READ") ", " MARIADB_STATUS("INNODB_ROW_LOCK_WAITS") ", "
	MARIADB_STATUS("INNODB_ROW_LOCK_TIME") ", " MARIADB_STATUS("INNODB_DEADLOCKS");

/* The five text columns of plan_sql, as read. */
struct plan_row {
	long version;		/* server_version_num */
	long extension;		/* 1 when pg_stat_statements is installed in the database */
	char track[16];		/* pg_stat_statements.track's value in a's session, "" when not loaded */
	long superuser;		/* 1 when a's role is a superuser */
	long may_flush;		/* 1 when a's role may call pg_stat_force_next_flush() */
	bool read;		/* the row came */
};

/* A db_text_row_fn: keeps plan_sql's row in ctx, a struct plan_row. */
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
	struct plan_row p = { 0 };

	s->costs = (struct server_costs){ 0 };
	if (s->db->dialect == DIALECT_MARIADB) {
		s->costs.readable = a->conn != NULL;
		s->costs.live = true;
		return;
	}
	/*
	 * Under transaction pooling a worker's SET of pg_stat_statements.track stays on the
	 * server connection that ran it, which the worker's later transactions mostly do not
	 * get: its statements would go uncounted. Nothing is read there (docs/pooler.md).
	 */
	if (s->cfg->pooler == POOLER_TRANSACTION || s->db->dialect != DIALECT_POSTGRESQL || !a->conn ||
	    s->db->query_text(a->conn, plan_sql, 0, NULL, keep_plan, &p) < 0 || !p.read ||
	    p.version < SERVER_COSTS_MIN_VERSION)
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
		s->costs.worker_sql = "SET pg_stat_statements.track = 'top'";
	if (p.may_flush == 1)
		s->costs.flush_sql = "SELECT pg_stat_force_next_flush()";
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
	const char *params[] = { s->jobs_table };

	*out = SERVER_COUNTS_UNREAD;
	if (!s->costs.readable || !a->conn)
		return false;
	if (s->costs.flush_sql && s->db->exec(a->conn, s->costs.flush_sql) < 0)
		return false;
	if (s->db->query_text(a->conn, s->db->dialect == DIALECT_MARIADB ? mariadb_sql : s->costs.by_statement ?
			      by_statement_sql : database_wide_sql, 1, params, keep_counts, out) < 0) {
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
