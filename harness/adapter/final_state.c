#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/final_state.h"

/* Whether state is one of the comma-separated list. */
static bool state_in(const char *state, const char *list)
{
	size_t n = strlen(state);

	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		while (len && *p == ' ')
			p++, len--;
		while (len && p[len - 1] == ' ')
			len--;
		if (len == n && strncmp(p, state, n) == 0)
			return true;
		if (!comma)
			break;
		p = comma + 1;
	}
	return false;
}

int adapter_state_status(const struct adapter_manifest *m, const char *state)
{
	if (state_in(state, m->done_states))
		return JOB_DONE;
	if (state_in(state, m->failed_states))
		return JOB_ERROR;
	if (state_in(state, m->active_states))
		return JOB_ACTIVE;
	return JOB_NEW;
}

struct db_conn *adapter_connect(const struct backend_ops *db, const char *target, const struct db_options *opts,
			       char *err, size_t errlen)
{
	struct db_options own = *opts;
	struct db_conn *conn = NULL;
	char why[512];

	own.lock_timeout_ms = own.statement_timeout_ms = 0;
	if (db->connect(target, &own, &conn, why, sizeof(why)) == 0)
		return conn;
	snprintf(err, errlen, "cannot connect to the adapter's database: %s", why);
	return NULL;
}

/* Where read_state_row puts what it reads: the run's jobs' states, by m's lists. */
struct state_rows {
	const struct adapter_manifest *m;	/* whose state lists say what a state is */
	struct job_state *final;		/* the jobs' states, n_jobs of them */
	long n_jobs;				/* how many jobs the run had */
};

/* Notes one row (a job's id, its state as text; NULL as "") of the adapter's table in ctx's states. 0. */
static int read_state_row(void *ctx, const char *const *cols, int ncols)
{
	struct state_rows *rows = ctx;
	long long id = ncols >= 2 && cols[0] ? strtoll(cols[0], NULL, 10) : 0;

	if (id >= 1 && id <= rows->n_jobs)
		rows->final[id - 1].status = adapter_state_status(rows->m, cols[1] ? cols[1] : "");
	return 0;
}

int adapter_final_state(const struct backend_ops *db, const char *target, const struct db_options *opts,
			const struct adapter_manifest *m, const char *queue, struct job_state *final, long n_jobs,
			char *err, size_t errlen)
{
	struct state_rows rows = { .m = m, .final = final, .n_jobs = n_jobs };
	char table[512], sql[1024];
	struct db_conn *conn;
	int rc = 0;

	for (long i = 0; i < n_jobs; i++)
		final[i] = (struct job_state){ .status = m->absent_done ? JOB_DONE : JOB_MISSING, .claimed_by = -1 };
	if (adapter_expand(m->state_table, queue, table, sizeof(table)) < 0) {
		snprintf(err, errlen, "the state table's name is too long");
		return -1;
	}
	snprintf(sql, sizeof(sql), "SELECT (%s)::bigint, (%s)::text FROM %s", m->job_column, m->state_column, table);
	if (!(conn = adapter_connect(db, target, opts, err, errlen)))
		return -1;
	if (db->query_text(conn, sql, 0, NULL, read_state_row, &rows) < 0) {
		snprintf(err, errlen, "cannot read the adapter's table (%s): %s", sql, db->error_message(conn));
		rc = -1;
	}
	db->disconnect(conn);
	return rc;
}

/*
 * Runs "DROP what IF EXISTS NAME tail" on conn (db's) for each NAME of the comma-separated list,
 * {queue} replaced by queue. 0, or -1 with err at the first that fails.
 */
static int drop_each(const struct backend_ops *db, struct db_conn *conn, const char *what, const char *tail,
		     const char *list, const char *queue, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char name[512], sql[640];

		while (*item == ' ')
			item++;
		if (adapter_expand(item, queue, name, sizeof(name)) < 0) {
			snprintf(err, errlen, "cannot drop the adapter's %s %s: its name is too long", what, item);
			return -1;
		}
		snprintf(sql, sizeof(sql), "DROP %s IF EXISTS %s%s", what, name, tail);
		if (db->exec(conn, sql) < 0) {
			snprintf(err, errlen, "cannot drop the adapter's %s %s: %s", what, name, db->error_message(conn));
			return -1;
		}
	}
	return 0;
}

/* Runs m's cleanup SQL on conn (db's), {queue} replaced by queue (nothing when it has none). 0, or -1 with err. */
static int run_cleanup(const struct backend_ops *db, struct db_conn *conn, const struct adapter_manifest *m,
		       const char *queue, char *err, size_t errlen)
{
	char sql[2048];

	if (!m->cleanup[0])
		return 0;
	if (adapter_expand(m->cleanup, queue, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "cannot run the adapter's cleanup: it is too long with the queue's name");
		return -1;
	}
	if (db->exec(conn, sql) < 0) {
		snprintf(err, errlen, "the adapter's cleanup failed: %s", db->error_message(conn));
		return -1;
	}
	return 0;
}

int adapter_drop_on(const struct backend_ops *db, struct db_conn *conn, const struct adapter_manifest *m,
		    const char *queue, char *err, size_t errlen)
{
	return drop_each(db, conn, "TABLE", "", m->tables, queue, err, errlen) == 0 &&
		       drop_each(db, conn, "SCHEMA", " CASCADE", m->schemas, queue, err, errlen) == 0 &&
		       run_cleanup(db, conn, m, queue, err, errlen) == 0
		   ? 0
		   : -1;
}

int adapter_drop_tables(const struct backend_ops *db, const char *target, const struct db_options *opts,
			const struct adapter_manifest *m, const char *queue, char *err, size_t errlen)
{
	struct db_conn *conn = adapter_connect(db, target, opts, err, errlen);
	int rc;

	if (!conn)
		return -1;
	rc = adapter_drop_on(db, conn, m, queue, err, errlen);
	db->disconnect(conn);
	return rc;
}
