#include <libpq-fe.h>
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

/* The job_status a state of m's table stands for. */
static int status_of(const struct adapter_manifest *m, const char *state)
{
	if (state_in(state, m->done_states))
		return JOB_DONE;
	if (state_in(state, m->failed_states))
		return JOB_ERROR;
	if (state_in(state, m->active_states))
		return JOB_ACTIVE;
	return JOB_NEW;
}

/* A connection to target that keeps the server's notices (a DROP's cascade) to itself, or NULL with err. */
static PGconn *connect_to(const char *target, char *err, size_t errlen)
{
	PGconn *conn = PQconnectdb(target);

	if (PQstatus(conn) == CONNECTION_OK) {
		PQclear(PQexec(conn, "SET client_min_messages = warning"));
		return conn;
	}
	snprintf(err, errlen, "cannot connect to read the adapter's table: %s", PQerrorMessage(conn));
	PQfinish(conn);
	return NULL;
}

int adapter_final_state(const char *target, const struct adapter_manifest *m, const char *queue,
			struct job_state *final, long n_jobs, char *err, size_t errlen)
{
	char table[512], sql[1024];
	PGconn *conn;
	PGresult *res = NULL;
	int rc = -1;

	for (long i = 0; i < n_jobs; i++)
		final[i] = (struct job_state){ .status = m->absent_done ? JOB_DONE : JOB_MISSING, .claimed_by = -1 };
	if (adapter_expand(m->state_table, queue, table, sizeof(table)) < 0) {
		snprintf(err, errlen, "the state table's name is too long");
		return -1;
	}
	snprintf(sql, sizeof(sql), "SELECT (%s)::bigint, (%s)::text FROM %s", m->job_column, m->state_column, table);
	if (!(conn = connect_to(target, err, errlen)))
		return -1;
	res = PQexec(conn, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		snprintf(err, errlen, "cannot read the adapter's table (%s): %s", sql, PQerrorMessage(conn));
		goto out;
	}
	for (int row = 0; row < PQntuples(res); row++) {
		long long id = PQgetisnull(res, row, 0) ? 0 : strtoll(PQgetvalue(res, row, 0), NULL, 10);

		if (id >= 1 && id <= n_jobs)
			final[id - 1].status = status_of(m, PQgetvalue(res, row, 1));
	}
	rc = 0;
out:
	PQclear(res);
	PQfinish(conn);
	return rc;
}

/*
 * Runs "DROP what IF EXISTS NAME tail" on conn for each NAME of the comma-separated list,
 * {queue} replaced by queue. 0, or -1 with err at the first that fails.
 */
static int drop_each(PGconn *conn, const char *what, const char *tail, const char *list, const char *queue, char *err,
		     size_t errlen)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char name[512], sql[640];
		PGresult *res;
		bool ok;

		while (*item == ' ')
			item++;
		if (adapter_expand(item, queue, name, sizeof(name)) < 0) {
			snprintf(err, errlen, "cannot drop the adapter's %s %s: its name is too long", what, item);
			return -1;
		}
		snprintf(sql, sizeof(sql), "DROP %s IF EXISTS %s%s", what, name, tail);
		res = PQexec(conn, sql);
		ok = PQresultStatus(res) == PGRES_COMMAND_OK;
		PQclear(res);
		if (!ok) {
			snprintf(err, errlen, "cannot drop the adapter's %s %s: %s", what, name, PQerrorMessage(conn));
			return -1;
		}
	}
	return 0;
}

/* Runs m's cleanup SQL on conn, {queue} replaced by queue (nothing when it has none). 0, or -1 with err. */
static int run_cleanup(PGconn *conn, const struct adapter_manifest *m, const char *queue, char *err, size_t errlen)
{
	char sql[2048];
	PGresult *res;
	bool ok;

	if (!m->cleanup[0])
		return 0;
	if (adapter_expand(m->cleanup, queue, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "cannot run the adapter's cleanup: it is too long with the queue's name");
		return -1;
	}
	res = PQexec(conn, sql);
	ok = PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK;
	PQclear(res);
	if (!ok) {
		snprintf(err, errlen, "the adapter's cleanup failed: %s", PQerrorMessage(conn));
		return -1;
	}
	return 0;
}

int adapter_drop_tables(const char *target, const struct adapter_manifest *m, const char *queue, char *err,
			size_t errlen)
{
	PGconn *conn = connect_to(target, err, errlen);
	int rc;

	if (!conn)
		return -1;
	rc = drop_each(conn, "TABLE", "", m->tables, queue, err, errlen) == 0 &&
			     drop_each(conn, "SCHEMA", " CASCADE", m->schemas, queue, err, errlen) == 0 &&
			     run_cleanup(conn, m, queue, err, errlen) == 0 ? 0 : -1;
	PQfinish(conn);
	return rc;
}
