/* The PostgreSQL driver, through libpq: prepared statements with text parameters, COPY for loading. */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <libpq-fe.h>

#include "db/backend.h"
#include "db/conninfo.h"
#include "db/ownership.h"
#include "db/postgresql/pg_confine.h"
#include "db/postgresql/parts.h"
#include "model/config.h"

/* COPY is fed in chunks of about this many bytes. */
#define COPY_CHUNK 65536

struct db_conn {
	PGconn *pg;				/* the libpq connection */
	PGcancel *canceller;			/* what cancels its running statement from another thread */
	int lock_timeout_ms;			/* the configured lock_timeout, 0: none */
	char stmt_name[DB_MAX_STATEMENTS][8];	/* name of the statement prepared in each slot */
	bool unnamed;				/* db_options.unnamed_statements: no named statement stays on the
						 * server; each execution sends its slot's text */
	char *stmt_sql[DB_MAX_STATEMENTS];	/* under unnamed, each slot's text (owned); NULL: a named statement */
	enum error_kind last_kind;		/* kind of the last error */
	char last_error[512];			/* first line of the last error message */
};

/*
 * Maps a SQLSTATE (or its absence) and the primary message to an error kind. Every error
 * the server sends has a SQLSTATE; one without is libpq's own, a failure to talk to the
 * server: after a server restart libpq may say "server closed the connection unexpectedly"
 * and still report the connection as good. 57014 is both a cancel and the statement
 * timeout; only the message tells them apart (in English: a server whose lc_messages is
 * another language has its timeouts counted as other).
 */
static enum error_kind classify(const PGconn *pg, const char *sqlstate, const char *message)
{
	if (PQstatus(pg) == CONNECTION_BAD || !sqlstate)
		return ERR_CONNECTION_LOST;
	if (strcmp(sqlstate, "55P03") == 0)
		return ERR_LOCK_NOT_AVAILABLE;
	if (strcmp(sqlstate, "40P01") == 0)
		return ERR_DEADLOCK;
	if (strcmp(sqlstate, "40001") == 0)
		return ERR_SERIALIZATION;
	if (strncmp(sqlstate, "08", 2) == 0 || strcmp(sqlstate, "57P01") == 0)
		return ERR_CONNECTION_LOST;
	if (strcmp(sqlstate, "57014") == 0 && message && strstr(message, "statement timeout"))
		return ERR_STATEMENT_TIMEOUT;
	return ERR_OTHER;
}

/* Keeps the first line of message as conn's last error. */
static void set_error(struct db_conn *conn, enum error_kind kind, const char *message)
{
	db_first_line(conn->last_error, sizeof(conn->last_error), message);
	conn->last_kind = kind;
}

/* Records res's error on conn when res did not succeed. true when it succeeded. */
static bool result_ok(struct db_conn *conn, const PGresult *res)
{
	ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || st == PGRES_COPY_IN)
		return true;
	if (!res) {
		set_error(conn, classify(conn->pg, NULL, NULL), PQerrorMessage(conn->pg));
		return false;
	}
	set_error(conn, classify(conn->pg, PQresultErrorField(res, PG_DIAG_SQLSTATE),
			       PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY)),
		  PQresultErrorMessage(res));
	return false;
}

/* Reads a column as an integer; NULL reads as -1. */
static int64_t column_int(const PGresult *res, int row, int col)
{
	if (PQgetisnull(res, row, col))
		return -1;
	return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

/* Drops server notices (such as DROP TABLE IF EXISTS's): they are not the harness's output. */
static void ignore_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static void pg_disconnect(struct db_conn *conn)
{
	if (!conn)
		return;
	PQfreeCancel(conn->canceller);
	PQfinish(conn->pg);
	for (int i = 0; i < DB_MAX_STATEMENTS; i++)
		free(conn->stmt_sql[i]);
	free(conn);
}

/* Keywords every connection is opened with, before the user's conninfo, which may override them. */
static const char *const connect_keys[] = {
	"connect_timeout", "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval",
	"keepalives_count", "dbname", NULL,
};

/* Runs "SET name = ms" on conn. 0, or -1 with the error on conn. */
static int set_ms(struct db_conn *conn, const char *name, int ms)
{
	char sql[64];
	PGresult *res;
	bool ok;

	snprintf(sql, sizeof(sql), "SET %s = %d", name, ms);
	res = PQexec(conn->pg, sql);
	ok = result_ok(conn, res);
	PQclear(res);
	return ok ? 0 : -1;
}

/*
 * target is a libpq conninfo or URI. It is parsed first so that a malformed one is
 * refused without libpq's message, which may quote it, password and all; TCP keepalives
 * notice a server that stopped answering.
 */
static int pg_connect(const char *target, const struct db_options *opts, struct db_conn **out, char *err,
		      size_t errlen)
{
	const char *values[] = { "10", "claimbench", "1", "10", "5", "3", target, NULL };
	PQconninfoOption *parsed;
	struct db_conn *conn;
	char *message = NULL;

	parsed = PQconninfoParse(target, &message);
	PQfreemem(message);
	if (!parsed) {
		snprintf(err, errlen, "the conninfo is malformed: libpq cannot parse it (its message is not shown, "
			 "since it may repeat a password)");
		return -1;
	}
	PQconninfoFree(parsed);
	conn = calloc(1, sizeof(*conn));
	if (!conn) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	conn->pg = PQconnectdbParams(connect_keys, values, 1);
	if (!conn->pg || PQstatus(conn->pg) != CONNECTION_OK) {
		set_error(conn, ERR_CONNECTION_LOST, conn->pg ? PQerrorMessage(conn->pg) : "out of memory");
		goto fail;
	}
	PQsetNoticeProcessor(conn->pg, ignore_notice, NULL);
	conn->lock_timeout_ms = opts->lock_timeout_ms;
	conn->unnamed = opts->unnamed_statements;
	conn->canceller = PQgetCancel(conn->pg);
	if (!conn->canceller) {
		set_error(conn, ERR_OTHER, "out of memory");
		goto fail;
	}
	if ((opts->lock_timeout_ms > 0 && set_ms(conn, "lock_timeout", opts->lock_timeout_ms) < 0) ||
	    (opts->statement_timeout_ms > 0 && set_ms(conn, "statement_timeout", opts->statement_timeout_ms) < 0))
		goto fail;
	*out = conn;
	return 0;
fail:
	snprintf(err, errlen, "%s", conn->last_error);
	conninfo_scrub(err, target);
	pg_disconnect(conn);
	return -1;
}

/*
 * Prepares sql in slot as the statement named "cb<slot>", or, with unnamed, as the unnamed
 * statement, which checks it and is gone at the next one. 0, or -1 with the error on conn.
 */
static int prepare_as(struct db_conn *conn, int slot, const char *sql, int nparams, bool unnamed)
{
	PGresult *res;
	bool ok;

	if (slot < 0 || slot >= DB_MAX_STATEMENTS) {
		set_error(conn, ERR_OTHER, "statement slot out of range");
		return -1;
	}
	free(conn->stmt_sql[slot]);
	conn->stmt_sql[slot] = NULL;
	snprintf(conn->stmt_name[slot], sizeof(conn->stmt_name[slot]), "cb%d", slot);
	res = PQprepare(conn->pg, unnamed ? "" : conn->stmt_name[slot], sql, nparams, NULL);
	ok = result_ok(conn, res);
	PQclear(res);
	if (ok && unnamed && !(conn->stmt_sql[slot] = strdup(sql))) {
		set_error(conn, ERR_OTHER, "out of memory");
		ok = false;
	}
	return ok ? 0 : -1;
}

static int pg_prepare(struct db_conn *conn, int slot, const char *sql, int nparams)
{
	return prepare_as(conn, slot, sql, nparams, conn->unnamed);
}

/* Whether a result column of type oid holds integers: smallint, integer, bigint (pg_type.h's INT2OID, INT4OID, INT8OID). */
static bool integer_type(Oid type)
{
	return type == 21 || type == 23 || type == 20;
}

/* Writes "name (type)" of a result column into buf, the type as the server names it (its oid if it cannot). */
static void name_column(struct db_conn *conn, const char *name, Oid type, char *buf, size_t len)
{
	char oid[16];
	const char *params[1] = { oid };
	PGresult *res;

	snprintf(oid, sizeof(oid), "%u", type);
	res = PQexecParams(conn->pg, "SELECT format_type($1::oid, NULL)", 1, NULL, params, NULL, NULL, 0);
	snprintf(buf, len, "%.40s (%.20s)", name, PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 ?
		 PQgetvalue(res, 0, 0) : oid);
	PQclear(res);
}

/* Describes the result of the statement prepared as name into shape. 0, or -1 with the error on conn. */
static int describe_result(struct db_conn *conn, const char *name, struct db_result_shape *shape)
{
	PGresult *res = PQdescribePrepared(conn->pg, name);

	if (!result_ok(conn, res)) {
		PQclear(res);
		return -1;
	}
	*shape = (struct db_result_shape){ .columns = PQnfields(res) };
	while (shape->integers < shape->columns && integer_type(PQftype(res, shape->integers)))
		shape->integers++;
	if (shape->integers < shape->columns)
		name_column(conn, PQfname(res, shape->integers), PQftype(res, shape->integers), shape->first_other,
			    sizeof(shape->first_other));
	PQclear(res);
	return 0;
}

/* Prepares sql in slot, describes its result and, with own_table, checks its confinement (pg_confine.h). */
static int pg_prepare_checked(struct db_conn *conn, int slot, const char *sql, int nparams, const char *own_table,
			      struct db_result_shape *shape, char *why, size_t whylen)
{
	char err[sizeof(conn->last_error)];
	int rc;

	if (prepare_as(conn, slot, sql, nparams, false) < 0 || describe_result(conn, conn->stmt_name[slot], shape) < 0)
		return -1;
	if (!own_table)
		return 0;
	rc = pg_confine_check(conn->pg, conn->stmt_name[slot], own_table, why, whylen, err, sizeof(err));
	if (rc < 0)
		set_error(conn, PQstatus(conn->pg) == CONNECTION_BAD ? ERR_CONNECTION_LOST : ERR_OTHER, err);
	return rc;
}

/* Whether a statement is prepared in slot on conn; false with the error on conn. */
static bool slot_prepared(struct db_conn *conn, int slot)
{
	if (slot >= 0 && slot < DB_MAX_STATEMENTS && conn->stmt_name[slot][0])
		return true;
	set_error(conn, ERR_OTHER, "no statement prepared in that slot");
	return false;
}

/*
 * Copies the first ncols columns of up to maxrows rows of res into out, row-major, as
 * integers. The rows res has.
 */
static int copy_rows(const PGresult *res, int64_t *out, int ncols, int maxrows)
{
	int rows = PQntuples(res), ncopy = PQnfields(res) < ncols ? PQnfields(res) : ncols;

	for (int r = 0; r < rows && r < maxrows; r++)
		for (int i = 0; i < ncopy; i++)
			out[(size_t)r * (size_t)ncols + (size_t)i] = column_int(res, r, i);
	return rows;
}

static int pg_exec_rows(struct db_conn *conn, int slot, int nparams, const char *const *params, int64_t *out,
			int ncols, int maxrows)
{
	PGresult *res;
	int rows = -1;

	if (!slot_prepared(conn, slot))
		return -1;
	if (conn->stmt_sql[slot])
		res = PQexecParams(conn->pg, conn->stmt_sql[slot], nparams, NULL, params, NULL, NULL, 0);
	else
		res = PQexecPrepared(conn->pg, conn->stmt_name[slot], nparams, params, NULL, NULL, 0);
	if (!result_ok(conn, res))
		goto out;
	rows = copy_rows(res, out, ncols, maxrows);
out:
	PQclear(res);
	return rows;
}

/*
 * Reads the results of n pipelined statements and of their sync, keeping the first error
 * on conn and statement result's rows in out as copy_rows does. Each statement's result
 * is followed by a NULL; after a failed one the server skips the rest
 * (PGRES_PIPELINE_ABORTED) up to the sync. The rows of statement result, or -1.
 */
static int read_pipeline(struct db_conn *conn, int n, int result, int64_t *out, int ncols, int maxrows)
{
	int rows = -1, step = 0;
	bool failed = false, after_null = false;

	for (;;) {
		PGresult *res = PQgetResult(conn->pg);
		ExecStatusType st;

		if (!res) {
			if (after_null || PQstatus(conn->pg) == CONNECTION_BAD) {
				if (!failed)
					set_error(conn, ERR_CONNECTION_LOST, PQerrorMessage(conn->pg));
				return -1;
			}
			after_null = true;
			step++;
			continue;
		}
		after_null = false;
		st = PQresultStatus(res);
		if (st == PGRES_PIPELINE_SYNC) {
			PQclear(res);
			break;
		}
		if (st != PGRES_PIPELINE_ABORTED && !failed && !result_ok(conn, res))
			failed = true;
		else if (st != PGRES_PIPELINE_ABORTED && step == result)
			rows = copy_rows(res, out, ncols, maxrows);
		PQclear(res);
	}
	if (!failed && step != n) {
		set_error(conn, ERR_CONNECTION_LOST, "the pipeline's results were out of step with its statements");
		return -1;
	}
	return failed ? -1 : rows;
}

static int pg_exec_pipeline(struct db_conn *conn, const struct db_step *steps, int n, int result, int64_t *out,
			    int ncols, int maxrows)
{
	int rows;

	for (int i = 0; i < n; i++)
		if (!slot_prepared(conn, steps[i].slot))
			return -1;
	if (!PQenterPipelineMode(conn->pg))
		goto send_failed;
	for (int i = 0; i < n; i++) {
		const char *sql = conn->stmt_sql[steps[i].slot];

		if (sql ? !PQsendQueryParams(conn->pg, sql, steps[i].nparams, NULL, steps[i].params, NULL, NULL, 0) :
			  !PQsendQueryPrepared(conn->pg, conn->stmt_name[steps[i].slot], steps[i].nparams,
					       steps[i].params, NULL, NULL, 0))
			goto send_failed;
	}
	if (!PQpipelineSync(conn->pg))
		goto send_failed;
	rows = read_pipeline(conn, n, result, out, ncols, maxrows);
	/* a connection left in pipeline mode is called lost (no SQLSTATE): the worker connects anew */
	if (!PQexitPipelineMode(conn->pg) && rows >= 0) {
		set_error(conn, classify(conn->pg, NULL, NULL), PQerrorMessage(conn->pg));
		return -1;
	}
	return rows;
send_failed:
	set_error(conn, classify(conn->pg, NULL, NULL), PQerrorMessage(conn->pg));
	PQexitPipelineMode(conn->pg);
	return -1;
}

static int pg_exec(struct db_conn *conn, const char *sql)
{
	PGresult *res = PQexec(conn->pg, sql);
	bool ok = result_ok(conn, res);

	PQclear(res);
	return ok ? 0 : -1;
}

static int pg_query_text(struct db_conn *conn, const char *sql, int nparams, const char *const *params,
			 db_text_row_fn row, void *ctx)
{
	const char *cols[16];
	PGresult *res;
	int rows = -1, ncols;

	res = PQexecParams(conn->pg, sql, nparams, NULL, params, NULL, NULL, 0);
	if (!result_ok(conn, res))
		goto out;
	rows = PQntuples(res);
	ncols = PQnfields(res) < 16 ? PQnfields(res) : 16;
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < ncols; c++)
			cols[c] = PQgetisnull(res, r, c) ? NULL : PQgetvalue(res, r, c);
		if (row(ctx, cols, ncols) != 0)
			break;
	}
out:
	PQclear(res);
	return rows;
}

static int pg_query(struct db_conn *conn, const char *sql, db_row_fn row, void *ctx)
{
	struct db_int_rows to = { .row = row, .ctx = ctx };

	return pg_query_text(conn, sql, 0, NULL, db_rows_as_ints, &to);
}

/* Appends s to buf in COPY text format, escaping backslash, tab and line ends. */
static size_t copy_escape(char *buf, const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		if (*s == '\\' || *s == '\t' || *s == '\n' || *s == '\r') {
			buf[n++] = '\\';
			buf[n++] = *s == '\t' ? 't' : *s == '\n' ? 'n' : *s == '\r' ? 'r' : '\\';
		} else {
			buf[n++] = *s;
		}
	}
	return n;
}

static int pg_load_jobs(struct db_conn *conn, const char *table, const struct run_config *cfg, long n)
{
	char sql[512], queue_text[MAX_QUEUES][2 * QUEUE_NAME_MAX], *chunk = NULL;
	size_t used = 0;
	PGresult *res;
	int rc = -1;

	for (int q = 0; q < cfg->n_queues; q++)
		queue_text[q][copy_escape(queue_text[q], cfg->queues[q])] = '\0';
	chunk = malloc(COPY_CHUNK + sizeof(queue_text[0]) + 64);
	if (!chunk) {
		set_error(conn, ERR_OTHER, "out of memory");
		return -1;
	}
	snprintf(sql, sizeof(sql), "COPY %s (id, queue, payload) FROM STDIN", table);
	res = PQexec(conn->pg, sql);
	if (!result_ok(conn, res))
		goto out;
	for (long id = 1; id <= n; id++) {
		used += (size_t)sprintf(chunk + used, "%ld\t%s\tjob %ld\n", id, queue_text[(id - 1) % cfg->n_queues],
					id);
		if (used >= COPY_CHUNK || id == n) {
			if (PQputCopyData(conn->pg, chunk, (int)used) != 1)
				goto copy_failed;
			used = 0;
		}
	}
	if (PQputCopyEnd(conn->pg, NULL) != 1)
		goto copy_failed;
	PQclear(res);
	res = PQgetResult(conn->pg);
	rc = result_ok(conn, res) ? 0 : -1;
	goto drain;
copy_failed:
	set_error(conn, classify(conn->pg, NULL, NULL), PQerrorMessage(conn->pg));
drain:
	PQclear(res);
	while ((res = PQgetResult(conn->pg)))
		PQclear(res);
	res = NULL;
out:
	PQclear(res);
	free(chunk);
	return rc;
}

static int pg_set_lock_wait(struct db_conn *conn, int ms)
{
	return set_ms(conn, "lock_timeout", ms < 0 ? conn->lock_timeout_ms : ms);
}

static int pg_name_session(struct db_conn *conn, int identity)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "SET claimbench.identity = '%d'", identity);
	return pg_exec(conn, sql);
}

static void pg_abandon(struct db_conn *conn)
{
	if (conn && PQsocket(conn->pg) >= 0)
		shutdown(PQsocket(conn->pg), SHUT_RDWR);
	pg_disconnect(conn);
}

static int pg_server_pid(const struct db_conn *conn)
{
	return PQbackendPID(conn->pg);
}

static void pg_cancel(struct db_conn *conn)
{
	char why[256];

	PQcancel(conn->canceller, why, sizeof(why));
}

/* Takes every notification libpq has read on conn. true when there was one. */
static bool take_notifications(struct db_conn *conn)
{
	PGnotify *note;
	bool any = false;

	while ((note = PQnotifies(conn->pg)) != NULL) {
		PQfreemem(note);
		any = true;
	}
	return any;
}

/* Reads what the server has sent conn without blocking. 0, or -1 with the lost connection noted on conn. */
static int consume_input(struct db_conn *conn)
{
	if (PQstatus(conn->pg) != CONNECTION_BAD && PQconsumeInput(conn->pg))
		return 0;
	set_error(conn, ERR_CONNECTION_LOST, PQerrorMessage(conn->pg));
	return -1;
}

/*
 * Notifications arrive on the socket between statements; libpq queues those that come
 * with a statement's answer. A terminated backend's farewell is read as a notice and the
 * end of the stream that follows fails PQconsumeInput: the connection is lost.
 */
static int pg_wait_notification(struct db_conn *conn, int64_t timeout_ns)
{
	struct pollfd pfd = { .fd = PQsocket(conn->pg), .events = POLLIN };
	int ready;

	if (consume_input(conn) < 0)
		return -1;
	if (take_notifications(conn))
		return 1;
	ready = poll(&pfd, 1, (int)((timeout_ns + 999999) / 1000000));
	if (ready < 0 && errno != EINTR) {
		set_error(conn, ERR_OTHER, strerror(errno));
		return -1;
	}
	if (ready <= 0)
		return 0;
	if (consume_input(conn) < 0)
		return -1;
	return take_notifications(conn) ? 1 : 0;
}

static enum error_kind pg_error_kind(const struct db_conn *conn)
{
	return conn->last_kind;
}

static const char *pg_error_message(const struct db_conn *conn)
{
	return conn->last_error;
}

static int pg_server_version(struct db_conn *conn, char *buf, size_t len)
{
	const char *v = PQparameterStatus(conn->pg, "server_version");

	if (!v)
		return -1;
	snprintf(buf, len, "%s", v);
	return 0;
}

static int pg_table_exists(struct db_conn *conn, const char *name)
{
	const char *params[] = { name };
	PGresult *res = PQexecParams(conn->pg, "SELECT to_regclass(quote_ident($1)) IS NOT NULL", 1, NULL, params, NULL,
				     NULL, 0);
	int exists = -1;

	if (result_ok(conn, res) && PQntuples(res) == 1)
		exists = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	return exists;
}

static int pg_marked_tables(struct db_conn *conn, db_marked_fn found, void *ctx)
{
	PGresult *res = PQexec(conn->pg, "SELECT c.relname, c.oid, obj_description(c.oid, 'pg_class') FROM pg_class c"
					 " WHERE c.relkind = 'r' AND pg_table_is_visible(c.oid)"
					 " AND obj_description(c.oid, 'pg_class') LIKE '" OWNER_NOTE_PREFIX "%'");
	int n = -1;

	if (result_ok(conn, res)) {
		n = PQntuples(res);
		for (int i = 0; i < n; i++)
			found(ctx, PQgetvalue(res, i, 0), strtoull(PQgetvalue(res, i, 1), NULL, 10),
			      PQgetvalue(res, i, 2));
	}
	PQclear(res);
	return n;
}

static int pg_quote_identifier(struct db_conn *conn, const char *name, char *buf, size_t len)
{
	char *quoted = PQescapeIdentifier(conn->pg, name, strlen(name));
	int rc = -1;

	if (!quoted) {
		set_error(conn, ERR_OTHER, PQerrorMessage(conn->pg));
		return -1;
	}
	if (strlen(quoted) < len) {
		memcpy(buf, quoted, strlen(quoted) + 1);
		rc = 0;
	}
	PQfreemem(quoted);
	return rc;
}

static int pg_settings(struct db_conn *conn, struct db_setting *out, int max)
{
	static const char *const names[] = {
		"synchronous_commit", "max_connections", "shared_buffers", "default_transaction_isolation",
	};
	const int n = (int)(sizeof(names) / sizeof(names[0]));
	PGresult *res = PQexec(conn->pg, "SELECT current_setting('synchronous_commit'),"
				" current_setting('max_connections'), current_setting('shared_buffers'),"
				" current_setting('default_transaction_isolation')");
	int filled = -1;

	if (!result_ok(conn, res) || PQntuples(res) != 1 || PQnfields(res) != n)
		goto out;
	for (filled = 0; filled < n && filled < max; filled++) {
		snprintf(out[filled].name, sizeof(out[filled].name), "%s", names[filled]);
		snprintf(out[filled].value, sizeof(out[filled].value), "%s", PQgetvalue(res, 0, filled));
	}
out:
	PQclear(res);
	return filled;
}

const struct backend_ops backend_postgresql = {
	.name = "postgresql",
	.title = "PostgreSQL",
	.order = 10,
	.target_form = "a libpq conninfo or URI",
	.target_libpq_form = strdup,
	.target_malformed = "the conninfo is malformed: libpq cannot parse it (its text is not shown, since it may hold "
			    "a password); expected key=value pairs or a postgresql:// URI",
	.throwaway = &throwaway_postgresql,
	.run_function_probe = "SELECT 1 WHERE obj_description(to_regprocedure('%s()'), 'pg_proc') LIKE '"
			      OWNER_NOTE_PREFIX "%%'",
	.run_function_drop = "DROP FUNCTION %s()",
	.dialect = DIALECT_POSTGRESQL,
	.sql = &postgresql_harness_sql,
	.caps = CAP_ROW_LOCKS | CAP_NOWAIT | CAP_SKIP_LOCKED | CAP_ADVISORY_LOCKS | CAP_LISTEN_NOTIFY | CAP_SERVER |
		CAP_FAILOVER | CAP_VACUUM | CAP_TIMEOUTS | CAP_POOLER,
	.locking = "PostgreSQL locks rows",
	.session_name = "server backends",
	.old_transaction_sentence = "The oldest transaction on the server grew %llu transactions old and held the xmin "
				    "horizon back: no dead tuple younger than it could be removed.",
	.connect = pg_connect,
	.disconnect = pg_disconnect,
	.prepare = pg_prepare,
	.prepare_checked = pg_prepare_checked,
	.exec_pipeline = pg_exec_pipeline,
	.exec_rows = pg_exec_rows,
	.exec = pg_exec,
	.query = pg_query,
	.query_text = pg_query_text,
	.load_jobs = pg_load_jobs,
	.error_kind = pg_error_kind,
	.error_message = pg_error_message,
	.server_version = pg_server_version,
	.table_exists = pg_table_exists,
	.marked_tables = pg_marked_tables,
	.quote_identifier = pg_quote_identifier,
	.settings = pg_settings,
	.set_lock_wait = pg_set_lock_wait,
	.name_session = pg_name_session,
	.abandon = pg_abandon,
	.server_pid = pg_server_pid,
	.cancel = pg_cancel,
	.wait_notification = pg_wait_notification,
};
