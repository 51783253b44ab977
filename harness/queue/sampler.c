#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "queue/sampler.h"

/* Columns of a PostgreSQL sample's row: a count per wait class, then the table's and the server's figures. */
enum sample_column {
	COL_LIVE = WAIT_CLASS_COUNT,	/* n_live_tup */
	COL_DEAD,			/* n_dead_tup */
	COL_HEAP,			/* heap blocks read and hit */
	COL_INDEX,			/* index blocks read and hit */
	COL_VACUUMS,			/* vacuums and autovacuums */
	COL_XMIN_AGE,			/* the oldest xmin or xid's age */
	SAMPLE_COLUMNS
};

/*
 * A PostgreSQL sample, in one round trip: %s the worker backends' pids ("1,2"), %s the
 * queue table's quoted name. An idle backend, or one waiting to read from the client,
 * is the harness's side of the time. A table figure not yet known is -1.
 */
static const char pg_sample_sql[] =
	"WITH w AS (SELECT "
	"count(*) FILTER (WHERE state = 'active' AND wait_event_type IS NULL) AS cpu, "
	"count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock') AS lock, "
	"count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'LWLock') AS lwlock, "
	"count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'IO') AS io, "
	"count(*) FILTER (WHERE state IS DISTINCT FROM 'active' OR wait_event_type = 'Client') AS client, "
	"count(*) FILTER (WHERE state = 'active' AND wait_event_type NOT IN ('Lock', 'LWLock', 'IO', 'Client')) "
	"AS other FROM pg_stat_activity WHERE pid = ANY ('{%s}'::int[])), "
	"t AS (SELECT s.n_live_tup AS live, s.n_dead_tup AS dead, "
	"coalesce(io.heap_blks_read, 0) + coalesce(io.heap_blks_hit, 0) AS heap, "
	"coalesce(io.idx_blks_read, 0) + coalesce(io.idx_blks_hit, 0) AS idx, "
	"s.vacuum_count + s.autovacuum_count AS vacuums "
	"FROM pg_stat_user_tables s JOIN pg_statio_user_tables io USING (relid) WHERE s.relid = '%s'::regclass), "
	"x AS (SELECT coalesce(max(greatest(age(backend_xmin), age(backend_xid))), -1) AS age FROM pg_stat_activity) "
	"SELECT w.cpu, w.lock, w.lwlock, w.io, w.client, w.other, coalesce(t.live, -1), coalesce(t.dead, -1), "
	"coalesce(t.heap, -1), coalesce(t.idx, -1), coalesce(t.vacuums, -1), x.age "
	"FROM w CROSS JOIN x LEFT JOIN t ON true";

/*
 * A MariaDB sample, its columns as PostgreSQL's: %s the worker connections' ids, %s the
 * queue table's quoted name. A connection waiting for a row lock (InnoDB's LOCK WAIT) or
 * a user lock (GET_LOCK) is in lock, one running another statement (a query, a prepared
 * statement's execution) in cpu, an idle one
 * (Sleep) the harness's side; InnoDB has no LWLock or I/O wait to tell. The table's rows
 * are InnoDB's estimate; it has no dead tuples, block counts or vacuums to read (its
 * versions are in the undo log). The oldest-transaction column holds InnoDB's history
 * list length: the committed transactions whose undo is not purged yet, its MVCC pressure.
 */
static const char mariadb_sample_sql[] =
	"WITH w AS (SELECT p.COMMAND AS command, coalesce(p.STATE, '') AS state, "
	"(SELECT t.trx_state FROM information_schema.INNODB_TRX t WHERE t.trx_mysql_thread_id = p.ID LIMIT 1) AS trx "
	"FROM information_schema.PROCESSLIST p WHERE p.ID IN (%s)) "
	"SELECT coalesce(sum(command IN ('Query', 'Execute') AND coalesce(trx, '') <> 'LOCK WAIT' "
	"AND state <> 'User lock'), 0), coalesce(sum(trx = 'LOCK WAIT' OR state = 'User lock'), 0), 0, 0, "
	"coalesce(sum(command = 'Sleep'), 0), coalesce(sum(command NOT IN ('Sleep', 'Query', 'Execute')), 0), "
	"coalesce((SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
	"AND TABLE_NAME = TRIM(BOTH '\"' FROM '%s')), -1), -1, -1, -1, -1, "
	"coalesce((SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
	"WHERE VARIABLE_NAME = 'INNODB_HISTORY_LIST_LENGTH'), -1) FROM w";

void sampler_init(struct sampler *sm, const struct run_shared *s, struct admin *admin)
{
	memset(sm, 0, sizeof(*sm));
	sm->s = s;
	sm->admin = admin;
	sm->every_ns = (int64_t)s->cfg->pressure.sample_ms * 1000000;
}

/* Stops sm's sampling for the reason why, said once on stderr at the end of the run. */
static void stop_sampling(struct sampler *sm, const char *why)
{
	sm->failed = true;
	snprintf(sm->failure, sizeof(sm->failure), "%s", why);
}

/* Copies a PostgreSQL or MariaDB sample's row into the sample at ctx. */
static int read_row(void *ctx, const int64_t *cols, int ncols)
{
	struct server_sample *p = ctx;

	if (ncols != SAMPLE_COLUMNS)
		return -1;
	for (int k = 0; k < WAIT_CLASS_COUNT; k++)
		p->waits[k] = (uint32_t)cols[k];
	p->live_tuples = cols[COL_LIVE];
	p->dead_tuples = cols[COL_DEAD];
	p->heap_blocks = cols[COL_HEAP];
	p->index_blocks = cols[COL_INDEX];
	p->vacuums = cols[COL_VACUUMS];
	p->xmin_age = cols[COL_XMIN_AGE];
	return 0;
}

/*
 * Reads a PostgreSQL or MariaDB sample of t's workers into p, connecting anew once after a
 * lost connection (a restart). 0, or -1 with sm stopped.
 */
static int sample_server(struct sampler *sm, const struct run_threads *t, struct server_sample *p)
{
	const struct backend_ops *db = sm->s->db;
	const char *tmpl = db->dialect == DIALECT_MARIADB ? mariadb_sample_sql : pg_sample_sql;
	char pids[MAX_WORKERS * 12 + 1] = "", sql[sizeof(mariadb_sample_sql) + sizeof(pg_sample_sql) + sizeof(pids) + 160];
	char why[256];
	size_t used = 0;

	for (int i = 0; i < t->n_workers; i++) {
		int pid = atomic_load(&t->w[i].server_pid);

		if (pid > 0)
			used += (size_t)snprintf(pids + used, sizeof(pids) - used, "%s%d", used ? "," : "", pid);
	}
	if (!used && db->dialect == DIALECT_MARIADB)
		snprintf(pids, sizeof(pids), "-1");
	snprintf(sql, sizeof(sql), tmpl, pids, sm->s->jobs_table);
	if (sm->admin->conn && db->query(sm->admin->conn, sql, read_row, p) == 1)
		return 0;
	if (admin_reconnected(sm->admin) && db->query(sm->admin->conn, sql, read_row, p) == 1)
		return 0;
	snprintf(why, sizeof(why), "sampling the server: %s",
		 sm->admin->conn ? db->error_message(sm->admin->conn) : "no connection");
	stop_sampling(sm, why);
	return -1;
}

/* Reads an SQLite sample into p: the -wal file's size (0 when there is none). */
static void sample_sqlite(const struct sampler *sm, struct server_sample *p)
{
	char wal[1024];
	struct stat st;

	snprintf(wal, sizeof(wal), "%s-wal", sm->s->target);
	p->wal_bytes = stat(wal, &st) == 0 ? (int64_t)st.st_size : 0;
}

/* Makes room for one more sample in sm. 0, or -1 with sm stopped. */
static int room_for_one(struct sampler *sm)
{
	struct server_sample *grown;
	size_t cap = sm->cap ? sm->cap * 2 : 256;

	if (sm->n < sm->cap)
		return 0;
	grown = realloc(sm->samples, cap * sizeof(*grown));
	if (!grown) {
		stop_sampling(sm, "out of memory for the server's samples");
		return -1;
	}
	sm->samples = grown;
	sm->cap = cap;
	return 0;
}

void sampler_take_if_due(struct sampler *sm, const struct run_threads *t, int64_t now_ns)
{
	struct server_sample p = {
		.live_tuples = SAMPLE_UNKNOWN, .dead_tuples = SAMPLE_UNKNOWN, .heap_blocks = SAMPLE_UNKNOWN,
		.index_blocks = SAMPLE_UNKNOWN, .vacuums = SAMPLE_UNKNOWN, .xmin_age = SAMPLE_UNKNOWN,
		.wal_bytes = SAMPLE_UNKNOWN,
	};

	if (!sm->every_ns || sm->failed || now_ns < sm->next_ns)
		return;
	sm->next_ns = (sm->next_ns ? sm->next_ns : now_ns) + sm->every_ns;
	if (room_for_one(sm) < 0)
		return;
	p.t_ms = (now_ns - sm->s->gate.start_ns) / 1000000;
	for (int i = 0; i < t->n_workers; i++)
		p.claims += atomic_load_explicit(&t->w[i].live.claimed, memory_order_relaxed);
	if (sm->s->db->dialect != DIALECT_SQLITE) {
		if (sample_server(sm, t, &p) < 0)
			return;
	} else {
		sample_sqlite(sm, &p);
	}
	sm->samples[sm->n++] = p;
}

void sampler_take_samples(struct sampler *sm, struct server_sample **out, size_t *n)
{
	*out = sm->samples;
	*n = sm->n;
	sm->samples = NULL;
	sm->n = sm->cap = 0;
}

void sampler_free(struct sampler *sm)
{
	free(sm->samples);
	sm->samples = NULL;
	sm->n = sm->cap = 0;
}
