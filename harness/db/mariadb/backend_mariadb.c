/*
 * The MariaDB driver, through MariaDB's C client library: prepared statements
 * (mysql_stmt_*) made from the shared templates by db/mariadb/mariadb_sql.h, text parameters, and
 * results read as text into buffers each slot owns from its prepare on, so that running a
 * statement allocates nothing. Every session has a known sql_mode (SESSION_SQL_MODE: it
 * reads "double-quoted" names as identifiers, as the templates write them), and counts an
 * UPDATE's matched rows as its affected rows (CLIENT_FOUND_ROWS), as PostgreSQL does.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <mysql.h>

#include "db/backend.h"
#include "db/mariadb/mariadb_account.h"
#include "db/mariadb/mariadb_sql.h"
#include "db/mariadb/mariadb_target.h"
#include "db/mariadb/parts.h"
#include "db/ownership.h"
#include "model/config.h"

/*
 * Every session's sql_mode, whatever the server's: "double-quoted" names as identifiers, as
 * the templates write them; MariaDB 10.11's default strictness; and neither
 * SIMULTANEOUS_ASSIGNMENT (an UPDATE's RETURNING stand-in reads the values its SET gave) nor
 * NO_BACKSLASH_ESCAPES (db/mariadb/mariadb_sql.c reads a backslash in quotes as an escape).
 */
#define SESSION_SQL_MODE "ANSI_QUOTES,STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

/* Result columns a statement may have, and the bytes of each column's text that are kept. */
#define MARIADB_MAX_COLUMNS 16
#define COLUMN_TEXT 64

/* The server's error numbers the driver tells apart (MariaDB's mysqld_error.h and errmsg.h). */
enum {
	ER_LOCK_WAIT_TIMEOUT_CODE = 1205,
	ER_LOCK_DEADLOCK_CODE = 1213,
	ER_SERVER_SHUTDOWN_CODE = 1053,
	ER_CONNECTION_KILLED_CODE = 1927,
	ER_STATEMENT_TIMEOUT_CODE = 1969,
	ER_LOCK_NOWAIT_CODE = 3572,
	CR_CONNECTION_ERROR_CODE = 2002,
	CR_CONN_HOST_ERROR_CODE = 2003,
	CR_SERVER_GONE_ERROR_CODE = 2006,
	CR_SERVER_LOST_CODE = 2013,
	CR_SERVER_LOST_EXTENDED_CODE = 2055,
};

/* One statement of a slot, prepared, with the buffers its parameters and results are bound to. */
struct prepared_part {
	MYSQL_STMT *stmt;					/* the prepared statement */
	int ncols;						/* its result columns; 0: it returns no rows */
	MYSQL_BIND params[MARIADB_MAX_BINDS];			/* its parameters, pointed at the caller's text */
	unsigned long param_len[MARIADB_MAX_BINDS];		/* their lengths */
	long long param_int[MARIADB_MAX_BINDS];			/* those bound as integers (after LIMIT), their values */
	MYSQL_BIND results[MARIADB_MAX_COLUMNS];		/* its result columns, bound to text */
	char text[MARIADB_MAX_COLUMNS][COLUMN_TEXT];		/* each column's value as text */
	unsigned long text_len[MARIADB_MAX_COLUMNS];		/* its length */
	my_bool is_null[MARIADB_MAX_COLUMNS];			/* whether it is NULL */
	my_bool truncated[MARIADB_MAX_COLUMNS];			/* whether it was cut to COLUMN_TEXT */
};

/* What one slot holds: a template's statements. */
struct prepared_slot {
	struct mariadb_translation t;			/* the template as statements */
	struct prepared_part parts[MARIADB_MAX_PARTS];	/* per statement of t, prepared */
	int result_part;				/* the last of them that returns rows, whose rows are the
							 * template's; -1 when none does */
};

struct db_conn {
	MYSQL *my;					/* the connection */
	struct mariadb_target target;			/* where it goes: what a cancel connects with */
	unsigned long thread_id;			/* its connection id on the server, what KILL names */
	struct prepared_slot slot[DB_MAX_STATEMENTS];	/* the statements prepared per slot */
	int lock_wait_s;				/* the configured innodb_lock_wait_timeout; -1: the server's */
	bool no_lock_wait;				/* set_lock_wait(0) holds: a lock wait timeout is a lock not available */
	enum error_kind last_kind;			/* kind of the last error */
	unsigned last_code;				/* the server's or client's number of the last error; 0: claimbench's own */
	char last_error[512];				/* the last error message, on one line */
	int table_ids_readable;				/* its account may read InnoDB's table ids: 1, 0, -1 not asked yet */
};

/* Maps a MariaDB error number to an error kind; nowait: the statement was not to wait for a lock. */
static enum error_kind classify(unsigned code, bool nowait)
{
	switch (code) {
	case ER_LOCK_DEADLOCK_CODE:
		return ERR_DEADLOCK;
	case ER_LOCK_WAIT_TIMEOUT_CODE:
		return nowait ? ERR_LOCK_NOT_AVAILABLE : ERR_LOCK_WAIT_TIMEOUT;
	case ER_LOCK_NOWAIT_CODE:
		return ERR_LOCK_NOT_AVAILABLE;
	case ER_STATEMENT_TIMEOUT_CODE:
		return ERR_STATEMENT_TIMEOUT;
	case ER_SERVER_SHUTDOWN_CODE:
	case ER_CONNECTION_KILLED_CODE:
	case CR_CONNECTION_ERROR_CODE:
	case CR_CONN_HOST_ERROR_CODE:
	case CR_SERVER_GONE_ERROR_CODE:
	case CR_SERVER_LOST_CODE:
	case CR_SERVER_LOST_EXTENDED_CODE:
		return ERR_CONNECTION_LOST;
	}
	return ERR_OTHER;
}

/* Records kind and the first line of message as conn's last error. */
static void set_error(struct db_conn *conn, enum error_kind kind, const char *message)
{
	db_first_line(conn->last_error, sizeof(conn->last_error), message);
	conn->last_kind = kind;
	conn->last_code = 0;
}

/* Records the connection's last error; nowait: the statement was not to wait for a lock. */
static void set_conn_error(struct db_conn *conn, bool nowait)
{
	set_error(conn, classify(mysql_errno(conn->my), nowait || conn->no_lock_wait), mysql_error(conn->my));
	conn->last_code = mysql_errno(conn->my);
}

/*
 * Records stmt's last error; the connection's when the statement has none (an error the
 * server sent among a result's rows, a lock wait's, is kept on the connection).
 */
static void set_stmt_error(struct db_conn *conn, MYSQL_STMT *stmt, bool nowait)
{
	if (!mysql_stmt_errno(stmt) && mysql_errno(conn->my)) {
		set_conn_error(conn, nowait);
		return;
	}
	set_error(conn, classify(mysql_stmt_errno(stmt), nowait || conn->no_lock_wait), mysql_stmt_error(stmt));
	conn->last_code = mysql_stmt_errno(stmt);
}

/* Runs sql, which may be several statements, reading and dropping every result. 0, or -1 with the error on conn. */
static int run_text(struct db_conn *conn, const char *sql)
{
	int more;

	if (mysql_real_query(conn->my, sql, strlen(sql)) != 0)
		goto fail;
	do {
		MYSQL_RES *res = mysql_store_result(conn->my);

		mysql_free_result(res);
		if (!res && mysql_field_count(conn->my) != 0)
			goto fail;
		more = mysql_next_result(conn->my);
		if (more > 0)
			goto fail;
	} while (more == 0);
	return 0;
fail:
	set_conn_error(conn, false);
	return -1;
}

/* Closes the statements of slot and forgets its template. */
static void free_slot(struct prepared_slot *slot)
{
	for (int p = 0; p < MARIADB_MAX_PARTS; p++)
		if (slot->parts[p].stmt)
			mysql_stmt_close(slot->parts[p].stmt);
	mariadb_translation_free(&slot->t);
	memset(slot->parts, 0, sizeof(slot->parts));
}

static void mariadb_disconnect(struct db_conn *conn)
{
	if (!conn)
		return;
	for (int i = 0; i < DB_MAX_STATEMENTS; i++)
		free_slot(&conn->slot[i]);
	mysql_close(conn->my);
	free(conn);
}

/* Opens a connection to t into *my with the session set up as every statement expects. 0, or -1 with err. */
static int open_session(const struct mariadb_target *t, MYSQL **my, char *err, size_t errlen)
{
	unsigned timeout = (unsigned)t->connect_timeout_s;

	*my = mysql_init(NULL);
	if (!*my) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	mysql_options(*my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(*my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	if (!mysql_real_connect(*my, t->socket[0] ? NULL : t->host[0] ? t->host : "localhost", t->user,
				t->has_password ? t->password : NULL, t->database, t->port,
				t->socket[0] ? t->socket : NULL, CLIENT_FOUND_ROWS | CLIENT_MULTI_STATEMENTS) ||
	    mysql_query(*my, "SET SESSION sql_mode = '" SESSION_SQL_MODE "'") != 0) {
		db_first_line(err, errlen, mysql_error(*my));
		mysql_close(*my);
		*my = NULL;
		return -1;
	}
	return 0;
}

/*
 * Sets conn's lock waits to s seconds, -1 the server's: InnoDB's row locks
 * (innodb_lock_wait_timeout) and the metadata locks a DROP TABLE waits on behind an open
 * transaction (lock_wait_timeout, a day by default). 0, or -1 with the error on conn.
 */
static int set_wait_s(struct db_conn *conn, int s)
{
	char sql[128];

	if (s < 0)
		snprintf(sql, sizeof(sql), "SET SESSION innodb_lock_wait_timeout = DEFAULT, lock_wait_timeout = DEFAULT");
	else
		snprintf(sql, sizeof(sql), "SET SESSION innodb_lock_wait_timeout = %d, lock_wait_timeout = %d", s, s);
	return run_text(conn, sql);
}

/* ms as whole seconds, rounded up: MariaDB's lock waits are counted in seconds. */
static int seconds_of(int ms)
{
	return (ms + 999) / 1000;
}

/*
 * target is what follows mariadb: (db/mariadb/mariadb_target.h). Named so, not mariadb_connect,
 * which mysql.h defines as a macro (as it does mariadb_cancel).
 */
static int open_connection(const char *target, const struct db_options *opts, struct db_conn **out, char *err,
			   size_t errlen)
{
	struct db_conn *conn = calloc(1, sizeof(*conn));
	char sql[96];

	if (!conn) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (mariadb_target_parse(target, &conn->target, err, errlen) < 0 ||
	    open_session(&conn->target, &conn->my, err, errlen) < 0)
		goto fail;
	conn->thread_id = mysql_thread_id(conn->my);
	conn->table_ids_readable = -1;
	conn->lock_wait_s = opts->lock_timeout_ms > 0 ? seconds_of(opts->lock_timeout_ms) : -1;
	if (conn->lock_wait_s >= 0 && set_wait_s(conn, conn->lock_wait_s) < 0)
		goto fail_set;
	if (opts->statement_timeout_ms > 0) {
		snprintf(sql, sizeof(sql), "SET SESSION max_statement_time = %.3f", opts->statement_timeout_ms / 1000.0);
		if (run_text(conn, sql) < 0)
			goto fail_set;
	}
	if (opts->isolation != ISOLATION_SERVER) {
		snprintf(sql, sizeof(sql), "SET SESSION TRANSACTION ISOLATION LEVEL %s", isolation_sql[opts->isolation]);
		if (run_text(conn, sql) < 0)
			goto fail_set;
	}
	*out = conn;
	return 0;
fail_set:
	snprintf(err, errlen, "%s", conn->last_error);
fail:
	mariadb_disconnect(conn);
	return -1;
}

/* Binds part's results as text into its own buffers. 0, or -1 with the error on conn. */
static int bind_results(struct db_conn *conn, struct prepared_part *part)
{
	MYSQL_RES *meta = mysql_stmt_result_metadata(part->stmt);

	part->ncols = meta ? (int)mysql_num_fields(meta) : 0;
	mysql_free_result(meta);
	if (part->ncols > MARIADB_MAX_COLUMNS) {
		set_error(conn, ERR_OTHER, "the statement returns more columns than claimbench reads (16)");
		return -1;
	}
	for (int c = 0; c < part->ncols; c++)
		part->results[c] = (MYSQL_BIND){
			.buffer_type = MYSQL_TYPE_STRING, .buffer = part->text[c], .buffer_length = COLUMN_TEXT - 1,
			.length = &part->text_len[c], .is_null = &part->is_null[c], .error = &part->truncated[c],
		};
	if (part->ncols && mysql_stmt_bind_result(part->stmt, part->results)) {
		set_stmt_error(conn, part->stmt, false);
		return -1;
	}
	return 0;
}

static int mariadb_prepare(struct db_conn *conn, int slot, const char *sql, int nparams)
{
	struct prepared_slot *s;
	char err[256];

	if (slot < 0 || slot >= DB_MAX_STATEMENTS) {
		set_error(conn, ERR_OTHER, "statement slot out of range");
		return -1;
	}
	s = &conn->slot[slot];
	free_slot(s);
	s->result_part = -1;
	if (mariadb_translate(sql, nparams, false, &s->t, err, sizeof(err)) < 0) {
		set_error(conn, ERR_OTHER, err);
		return -1;
	}
	for (int p = 0; p < s->t.nparts; p++) {
		struct prepared_part *part = &s->parts[p];

		if (!s->t.parts[p].sql) {
			s->result_part = p;
			continue;
		}
		part->stmt = mysql_stmt_init(conn->my);
		if (!part->stmt) {
			set_conn_error(conn, false);
			goto fail;
		}
		if (mysql_stmt_prepare(part->stmt, s->t.parts[p].sql, strlen(s->t.parts[p].sql)) != 0) {
			set_stmt_error(conn, part->stmt, false);
			goto fail;
		}
		if (bind_results(conn, part) < 0)
			goto fail;
		if (part->ncols)
			s->result_part = p;
	}
	return 0;
fail:
	free_slot(s);
	return -1;
}

/* Whether a result column of MariaDB's type holds integers. */
static bool integer_type(enum enum_field_types type)
{
	return type == MYSQL_TYPE_TINY || type == MYSQL_TYPE_SHORT || type == MYSQL_TYPE_LONG ||
	       type == MYSQL_TYPE_INT24 || type == MYSQL_TYPE_LONGLONG;
}

/*
 * Describes into shape the result of slot's statement whose rows are the template's (none:
 * no columns). The columns of an UPDATE ... RETURNING's stand-in are session variables,
 * whose type MariaDB knows only once they hold a value (it describes them as blobs): each
 * may hold integers, and fetch_rows refuses a value of one that is none; a pinned RETURNING's
 * are its parameters, integers likewise (params_row).
 */
static void describe_result(struct db_conn *conn, int slot, struct db_result_shape *shape)
{
	const struct prepared_slot *s = &conn->slot[slot];
	MYSQL_RES *meta;

	if (s->result_part >= 0 && !s->t.parts[s->result_part].sql) {
		*shape = (struct db_result_shape){ .columns = s->t.parts[s->result_part].nreturn,
						   .integers = s->t.parts[s->result_part].nreturn };
		return;
	}
	meta = s->result_part >= 0 ? mysql_stmt_result_metadata(s->parts[s->result_part].stmt) : NULL;
	*shape = (struct db_result_shape){ .columns = meta ? (int)mysql_num_fields(meta) : 0 };
	if (s->result_part >= 0 && s->t.parts[s->result_part].captured)
		shape->integers = shape->columns;
	for (; shape->integers < shape->columns; shape->integers++) {
		const MYSQL_FIELD *f = mysql_fetch_field_direct(meta, (unsigned)shape->integers);

		if (!integer_type(f->type)) {
			snprintf(shape->first_other, sizeof(shape->first_other), "%.40s (type %d)", f->name, (int)f->type);
			break;
		}
	}
	mysql_free_result(meta);
}

/*
 * Whether the last error on conn is the server's refusal for want of a privilege: of a
 * database, a table, a column, a routine, or a privilege such as FILE or SUPER (mysqld_error.h).
 */
static bool denied(const struct db_conn *conn)
{
	switch (conn->last_code) {
	case 1044: /* ER_DBACCESS_DENIED_ERROR */
	case 1142: /* ER_TABLEACCESS_DENIED_ERROR */
	case 1143: /* ER_COLUMNACCESS_DENIED_ERROR */
	case 1227: /* ER_SPECIFIC_ACCESS_DENIED_ERROR */
	case 1370: /* ER_PROCACCESS_DENIED_ERROR */
		return true;
	}
	return false;
}

/*
 * Prepares sql and describes its result. With own_table, conn is the run's account's
 * (account_create): a statement the server refuses for want of a privilege is confinement's
 * refusal, in the server's words.
 */
static int mariadb_prepare_checked(struct db_conn *conn, int slot, const char *sql, int nparams,
				   const char *own_table, struct db_result_shape *shape, char *why, size_t whylen)
{
	if (mariadb_prepare(conn, slot, sql, nparams) < 0) {
		if (!own_table || !denied(conn))
			return -1;
		snprintf(why, whylen, "is refused by the server, prepared as the run's own account %s: %s", own_table,
			 conn->last_error);
		return 1;
	}
	describe_result(conn, slot, shape);
	return 0;
}

static int mariadb_account_create_for(struct db_conn *conn, const char *own_table, char *target, size_t targetlen,
				      char *why, size_t whylen)
{
	struct mariadb_target account;
	char msg[512];
	int rc = mariadb_account_create(conn->my, &conn->target, own_table, &account, msg, sizeof(msg));

	if (rc > 0)
		snprintf(why, whylen, "%s", msg);
	if (rc != 0)
		goto out;
	if (mariadb_target_format(&account, target, targetlen) < 0) {
		rc = -1;
		if (mariadb_account_drop(conn->my, own_table, msg, sizeof(msg)) == 0)
			snprintf(msg, sizeof(msg), "where the run's account connects does not fit in %zu bytes", targetlen);
	}
out:
	if (rc < 0) {
		set_error(conn, classify(mysql_errno(conn->my), false), msg);
		conn->last_code = mysql_errno(conn->my);
	}
	memset(&account, 0, sizeof(account));
	return rc;
}

static int mariadb_account_drop_for(struct db_conn *conn, const char *own_table)
{
	char err[512];

	if (mariadb_account_drop(conn->my, own_table, err, sizeof(err)) == 0)
		return 0;
	set_error(conn, classify(mysql_errno(conn->my), false), err);
	return -1;
}

static int mariadb_account_made(struct db_conn *conn, const char *own_table)
{
	char err[512];
	int rc = mariadb_account_made_for(conn->my, conn->target.database, own_table, err, sizeof(err));

	if (rc < 0)
		set_error(conn, classify(mysql_errno(conn->my), false), err);
	return rc;
}

/* Points part's parameters at params. 0, or -1 with the error on conn when it wants one beyond nparams. */
static int bind_params(struct db_conn *conn, struct prepared_part *part, const struct mariadb_part *text,
		       int nparams, const char *const *params)
{
	for (int i = 0; i < text->nbinds; i++) {
		int k = text->bind_param[i];

		if (k >= nparams) {
			set_error(conn, ERR_OTHER, "a statement was run with fewer parameters than it has");
			return -1;
		}
		part->param_len[i] = params[k] ? strlen(params[k]) : 0;
		part->params[i] = (MYSQL_BIND){
			.buffer_type = params[k] ? MYSQL_TYPE_STRING : MYSQL_TYPE_NULL, .buffer = (void *)params[k],
			.buffer_length = part->param_len[i], .length = &part->param_len[i],
		};
		if (params[k] && text->bind_integer[i]) {
			part->param_int[i] = strtoll(params[k], NULL, 10);
			part->params[i] = (MYSQL_BIND){ .buffer_type = MYSQL_TYPE_LONGLONG, .buffer = &part->param_int[i] };
		}
	}
	if (text->nbinds && mysql_stmt_bind_param(part->stmt, part->params)) {
		set_stmt_error(conn, part->stmt, false);
		return -1;
	}
	return 0;
}

/*
 * Whether text is an integer as a whole: an optional '-' and digits that fit in an int64_t,
 * into *value.
 */
static bool parse_integer(const char *text, int64_t *value)
{
	char *end;

	errno = 0;
	*value = strtoll(text, &end, 10);
	return *text && !isspace((unsigned char)*text) && !*end && errno == 0;
}

/*
 * Reads part's rows, copying up to maxrows of them into out as exec_rows does (out NULL:
 * none); nowait: it was not to wait for a lock; captured: its columns are session
 * variables of an UPDATE ... RETURNING's stand-in, whose type is known only by their value:
 * one that is no integer fails it. The rows, or -1 with the error on conn.
 */
static int fetch_rows(struct db_conn *conn, struct prepared_part *part, int64_t *out, int ncols, int maxrows,
		      bool nowait, bool captured)
{
	int rows = 0, rc, failed = 0;
	char why[160];

	while ((rc = mysql_stmt_fetch(part->stmt)) == 0 || rc == MYSQL_DATA_TRUNCATED) {
		for (int c = 0; out && !failed && rows < maxrows && c < ncols && c < part->ncols; c++) {
			int64_t *value = &out[(size_t)rows * (size_t)ncols + (size_t)c];

			part->text[c][part->text_len[c] < COLUMN_TEXT ? part->text_len[c] : COLUMN_TEXT - 1] = '\0';
			if (part->is_null[c]) {
				*value = -1;
			} else if (!parse_integer(part->text[c], value) && captured) {
				snprintf(why, sizeof(why), "an UPDATE ... RETURNING's column %d returned '%.40s', which is "
					 "no integer: the harness reads integers there", c + 1, part->text[c]);
				failed = 1;
			}
		}
		rows++;
	}
	if (rc != MYSQL_NO_DATA) {
		set_stmt_error(conn, part->stmt, nowait);
		rows = -1;
	} else if (failed) {
		set_error(conn, ERR_OTHER, why);
		rows = -1;
	}
	mysql_stmt_free_result(part->stmt);
	return rows;
}

/* What becomes of one statement of a template, given the rows the UPDATE before it matched. */
enum part_step {
	PART_RUN,	/* it runs */
	PART_SKIP,	/* it is a captured SELECT after an UPDATE that matched no row: it is skipped, 0 rows */
	PART_FAIL,	/* it is a captured SELECT of one row's values after an UPDATE that matched more */
};

/*
 * The one rule both paths (exec_rows, query_text) follow for part, after an UPDATE that
 * matched matched rows: a captured SELECT is skipped when none matched, and fails (the error
 * set on conn) when more than one did and it holds one row's values; every other part runs.
 */
static enum part_step part_step(struct db_conn *conn, const struct mariadb_part *part, my_ulonglong matched)
{
	if (!part->captured || (matched == 1 && !part->list) || (matched >= 1 && part->list))
		return PART_RUN;
	if (matched == 0)
		return PART_SKIP;
	set_error(conn, ERR_OTHER, "an UPDATE ... RETURNING matched more than one row: MariaDB's stand-in for it "
		  "returns one here");
	return PART_FAIL;
}

/*
 * The one row of part, a pinned RETURNING's (no statement): its parameters, into out as
 * exec_rows copies rows (ncols columns, maxrows rows at most; out NULL: none). 1, or -1
 * with the error on conn when one is no integer.
 */
static int params_row(struct db_conn *conn, const struct mariadb_part *part, int nparams, const char *const *params,
		      int64_t *out, int ncols, int maxrows)
{
	for (int c = 0; out && maxrows > 0 && c < ncols && c < part->nreturn; c++) {
		int k = part->return_param[c];

		if (k >= nparams || !params[k] || !parse_integer(params[k], &out[c])) {
			set_error(conn, ERR_OTHER, "an UPDATE ... RETURNING's pinned column is no integer parameter: the "
				  "harness reads integers there");
			return -1;
		}
	}
	return 1;
}

/*
 * Runs the statements of slot s in order: the rows of its result part, a captured SELECT
 * skipped (the statements after it still run) when the UPDATE before it matched no row. 0
 * or more rows, or -1 with the error on conn (a transaction the template began then rolled
 * back by the caller).
 */
static int run_slot(struct db_conn *conn, struct prepared_slot *s, int nparams, const char *const *params,
		    int64_t *out, int ncols, int maxrows)
{
	my_ulonglong matched = 0;
	int rows = 0;

	for (int p = 0; p < s->t.nparts; p++) {
		struct prepared_part *part = &s->parts[p];
		enum part_step step = part_step(conn, &s->t.parts[p], matched);
		int got;

		if (step == PART_FAIL)
			return -1;
		if (step == PART_SKIP)
			continue;
		if (!s->t.parts[p].sql) {
			got = params_row(conn, &s->t.parts[p], nparams, params, p == s->result_part ? out : NULL, ncols,
					 maxrows);
			if (got < 0)
				return -1;
			if (p == s->result_part)
				rows = got;
			continue;
		}
		if (bind_params(conn, part, &s->t.parts[p], nparams, params) < 0)
			return -1;
		if (mysql_stmt_execute(part->stmt) != 0) {
			set_stmt_error(conn, part->stmt, s->t.nowait);
			return -1;
		}
		/* an INSERT ... RETURNING describes its rows only once it has run: bound then, once */
		if (!part->ncols && mysql_stmt_field_count(part->stmt) > 0) {
			if (bind_results(conn, part) < 0) {
				mysql_stmt_free_result(part->stmt);
				return -1;
			}
			if (p > s->result_part)
				s->result_part = p;
		}
		if (!part->ncols) {
			matched = mysql_stmt_affected_rows(part->stmt);
			continue;
		}
		got = fetch_rows(conn, part, p == s->result_part ? out : NULL, ncols, maxrows, s->t.nowait,
				 s->t.parts[p].captured);
		if (got < 0)
			return -1;
		if (p == s->result_part)
			rows = got;
	}
	return rows;
}

static int mariadb_exec_rows(struct db_conn *conn, int slot, int nparams, const char *const *params, int64_t *out,
			     int ncols, int maxrows)
{
	struct prepared_slot *s;
	int rows;

	if (slot < 0 || slot >= DB_MAX_STATEMENTS || !conn->slot[slot].t.nparts) {
		set_error(conn, ERR_OTHER, "no statement prepared in that slot");
		return -1;
	}
	s = &conn->slot[slot];
	rows = run_slot(conn, s, nparams, params, out, ncols, maxrows);
	if (rows < 0 && s->t.transaction)
		mysql_query(conn->my, "ROLLBACK");
	return rows;
}

static int mariadb_exec(struct db_conn *conn, const char *sql)
{
	return run_text(conn, sql);
}

/* Binds the results of stmt, a statement whose rows are stored, as text of their longest length. 0 or -1. */
static int bind_stored(MYSQL_STMT *stmt, int ncols, MYSQL_BIND *bind, char **text, unsigned long *len,
		       my_bool *is_null)
{
	MYSQL_RES *meta = mysql_stmt_result_metadata(stmt);

	for (int c = 0; c < ncols; c++) {
		const MYSQL_FIELD *f = mysql_fetch_field_direct(meta, (unsigned)c);

		text[c] = malloc(f->max_length + 1);
		if (!text[c]) {
			mysql_free_result(meta);
			return -1;
		}
		bind[c] = (MYSQL_BIND){ .buffer_type = MYSQL_TYPE_STRING, .buffer = text[c],
					.buffer_length = f->max_length + 1, .length = &len[c], .is_null = &is_null[c] };
	}
	mysql_free_result(meta);
	return mysql_stmt_bind_result(stmt, bind) ? -1 : 0;
}

/*
 * Calls row for each row a captured list part's one row holds (text: its ncols columns),
 * which must be expected rows. The rows, or -1 with the error on conn.
 */
static int list_rows(struct db_conn *conn, char **text, const my_bool *is_null, int ncols, my_ulonglong expected,
		     db_text_row_fn row, void *ctx)
{
	char *cursor[16], *value[16], none[16] = { 0 };
	int rows = 0, more;

	for (int c = 0; c < ncols; c++)
		cursor[c] = is_null[c] ? &none[c] : text[c];
	for (;;) {
		more = 0;
		for (int c = 0; c < ncols; c++) {
			int got = mariadb_list_next(&cursor[c], &value[c]);

			if (got < 0 || (c > 0 && got != more))
				goto malformed;
			more = got;
		}
		if (!more)
			break;
		rows++;
		if (row && row(ctx, (const char *const *)value, ncols) != 0)
			return rows;
	}
	if ((my_ulonglong)rows == expected)
		return rows;
malformed:
	set_error(conn, ERR_OTHER, "an UPDATE ... RETURNING's captured rows do not match the rows it updated");
	return -1;
}

/*
 * Runs one prepared part (text: its translation), calling row for each row of it (row NULL:
 * none wanted); *matched: the rows the UPDATE before it matched, set to this one's when it
 * returns no rows. The rows, or -1.
 */
static int query_part(struct db_conn *conn, MYSQL_STMT *stmt, const struct mariadb_part *part, my_ulonglong *matched,
		      db_text_row_fn row, void *ctx)
{
	MYSQL_BIND bind[16] = { 0 };
	unsigned long len[16] = { 0 };
	my_bool is_null[16] = { 0 }, update = 1;
	char *text[16] = { 0 };
	const char *cols[16];
	MYSQL_RES *meta = mysql_stmt_result_metadata(stmt);
	int ncols = meta ? (int)mysql_num_fields(meta) : 0, rows = 0, rc;

	mysql_free_result(meta);
	if (ncols > 16)
		ncols = 16;
	mysql_stmt_attr_set(stmt, STMT_ATTR_UPDATE_MAX_LENGTH, &update);
	if (mysql_stmt_execute(stmt) != 0 || (ncols && mysql_stmt_store_result(stmt) != 0))
		goto fail;
	if (!ncols) {
		*matched = mysql_stmt_affected_rows(stmt);
		return 0;
	}
	if (bind_stored(stmt, ncols, bind, text, len, is_null) < 0)
		goto fail;
	while ((rc = mysql_stmt_fetch(stmt)) == 0 || rc == MYSQL_DATA_TRUNCATED) {
		for (int c = 0; c < ncols; c++) {
			text[c][len[c] < bind[c].buffer_length ? len[c] : bind[c].buffer_length - 1] = '\0';
			cols[c] = is_null[c] ? NULL : text[c];
		}
		if (part->list) {
			rows = list_rows(conn, text, is_null, ncols, *matched, row, ctx);
			break;
		}
		rows++;
		if (row && row(ctx, cols, ncols) != 0)
			break;
	}
	for (int c = 0; c < ncols; c++)
		free(text[c]);
	mysql_stmt_free_result(stmt);
	return rows;
fail:
	for (int c = 0; c < ncols; c++)
		free(text[c]);
	set_stmt_error(conn, stmt, false);
	return -1;
}

/* The part of t whose rows are the template's: its captured SELECT, else its last statement. */
static int query_result_part(const struct mariadb_translation *t)
{
	for (int p = t->nparts - 1; p >= 0; p--)
		if (t->parts[p].captured)
			return p;
	return t->nparts - 1;
}

static int mariadb_query_text(struct db_conn *conn, const char *sql, int nparams, const char *const *params,
			      db_text_row_fn row, void *ctx)
{
	struct mariadb_translation t;
	struct prepared_part *part = calloc(1, sizeof(*part));
	my_ulonglong matched = 0;
	char err[256];
	int rows = -1, result = 0;

	if (!part) {
		set_error(conn, ERR_OTHER, "out of memory");
		return -1;
	}
	if (mariadb_translate(sql, nparams, true, &t, err, sizeof(err)) < 0) {
		set_error(conn, ERR_OTHER, err);
		free(part);
		return -1;
	}
	for (int p = 0; p < t.nparts; p++) {
		enum part_step step = part_step(conn, &t.parts[p], matched);

		if (step == PART_FAIL) {
			result = -1;
			break;
		}
		if (step == PART_SKIP)
			continue;
		part->stmt = mysql_stmt_init(conn->my);
		if (!part->stmt) {
			set_conn_error(conn, false);
			result = -1;
			break;
		}
		if (mysql_stmt_prepare(part->stmt, t.parts[p].sql, strlen(t.parts[p].sql)) != 0) {
			set_stmt_error(conn, part->stmt, false);
			rows = -1;
		} else if (bind_params(conn, part, &t.parts[p], nparams, params) == 0) {
			rows = query_part(conn, part->stmt, &t.parts[p], &matched,
					  p == query_result_part(&t) ? row : NULL, ctx);
		} else {
			rows = -1;
		}
		mysql_stmt_close(part->stmt);
		part->stmt = NULL;
		if (rows < 0) {
			result = -1;
			break;
		}
		if (p == query_result_part(&t))
			result = rows;
	}
	if (result < 0 && t.transaction)
		mysql_query(conn->my, "ROLLBACK");
	mariadb_translation_free(&t);
	free(part);
	return result;
}

static int mariadb_query(struct db_conn *conn, const char *sql, db_row_fn row, void *ctx)
{
	struct db_int_rows to = { .row = row, .ctx = ctx };

	return mariadb_query_text(conn, sql, 0, NULL, db_rows_as_ints, &to);
}

/* Rows one INSERT of load_jobs carries. */
#define LOAD_ROWS 1000

/* Fills table with jobs 1..n in multi-row INSERTs of LOAD_ROWS rows, in one transaction. */
static int mariadb_load_jobs(struct db_conn *conn, const char *table, const struct run_config *cfg, long n)
{
	char queue_text[MAX_QUEUES][2 * QUEUE_NAME_MAX + 1];
	size_t room = 256 + LOAD_ROWS * (sizeof(queue_text[0]) + 64), used = 0;
	char *sql = malloc(room);
	int rc = -1;

	if (!sql) {
		set_error(conn, ERR_OTHER, "out of memory");
		return -1;
	}
	for (int q = 0; q < cfg->n_queues; q++)
		mysql_real_escape_string(conn->my, queue_text[q], cfg->queues[q], strlen(cfg->queues[q]));
	if (run_text(conn, "BEGIN") < 0)
		goto out;
	for (long id = 1; id <= n; id++) {
		bool first = (id - 1) % LOAD_ROWS == 0;

		if (first)
			used = (size_t)snprintf(sql, room, "INSERT INTO %s (id, queue, payload) VALUES ", table);
		used += (size_t)snprintf(sql + used, room - used, "%s(%ld, '%s', 'job %ld')", first ? "" : ", ", id,
					 queue_text[(id - 1) % cfg->n_queues], id);
		if (id % LOAD_ROWS == 0 || id == n) {
			if (run_text(conn, sql) < 0)
				goto rollback;
		}
	}
	rc = run_text(conn, "COMMIT");
	goto out;
rollback:
	mysql_query(conn->my, "ROLLBACK");
out:
	free(sql);
	return rc;
}

static enum error_kind mariadb_error_kind(const struct db_conn *conn)
{
	return conn->last_kind;
}

static const char *mariadb_error_message(const struct db_conn *conn)
{
	return conn->last_error;
}

static int mariadb_server_version(struct db_conn *conn, char *buf, size_t len)
{
	const char *v = mysql_get_server_info(conn->my);

	if (!v)
		return -1;
	snprintf(buf, len, "%s", v);
	return 0;
}

/* Copies the first column of the one row of a query into ctx (a char[128]). */
static int first_text(void *ctx, const char *const *cols, int ncols)
{
	snprintf(ctx, 128, "%s", ncols > 0 && cols[0] ? cols[0] : "");
	return 1;
}

static int mariadb_table_exists(struct db_conn *conn, const char *name)
{
	const char *params[] = { name };
	char count[128] = "";

	if (mariadb_query_text(conn, "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
				     "AND TABLE_NAME = $1", 1, params, first_text, count) < 0)
		return -1;
	return strtol(count, NULL, 10) > 0;
}

/* What marked_tables hands each table on to. */
struct marked_ctx {
	db_marked_fn found;	/* the caller's callback */
	void *ctx;		/* and its context */
};

/*
 * The tables of conn's database with their comment and InnoDB table id (s.TABLE_ID: NULL
 * when the table is no InnoDB one). The id is what seal_mark writes into a table's note as
 * its oid. INNODB_SYS_TABLES wants the PROCESS privilege: an account without it reads the
 * tables with no ids (TABLES_WITHOUT_IDS), and cleanup then goes by the name alone.
 */
#define TABLES_WITH_IDS \
	"FROM information_schema.TABLES AS t LEFT JOIN information_schema.INNODB_SYS_TABLES AS s " \
	"ON s.NAME = CONCAT(t.TABLE_SCHEMA, '/', t.TABLE_NAME) WHERE t.TABLE_SCHEMA = DATABASE() "
#define TABLES_WITHOUT_IDS \
	"FROM information_schema.TABLES AS t JOIN (SELECT NULL AS TABLE_ID) AS s WHERE t.TABLE_SCHEMA = DATABASE() "

/* MariaDB's error number for a statement that wants a privilege the account lacks (PROCESS here). */
#define ER_SPECIFIC_ACCESS_DENIED_CODE 1227

/*
 * Whether conn's account may read InnoDB's table ids: 1, 0 (it lacks PROCESS), or -1 with
 * the error on conn. Asked once per connection, by a query that reads the table (with LIMIT 0
 * the server checks no privilege).
 */
static int table_ids_readable(struct db_conn *conn)
{
	char none[128] = "";

	if (conn->table_ids_readable < 0) {
		if (mariadb_query_text(conn, "SELECT TABLE_ID FROM information_schema.INNODB_SYS_TABLES WHERE NAME = ''", 0, NULL,
				       first_text, none) >= 0)
			conn->table_ids_readable = 1;
		else if (conn->last_code == ER_SPECIFIC_ACCESS_DENIED_CODE)
			conn->table_ids_readable = 0;
		else
			return -1;
	}
	return conn->table_ids_readable;
}

/* Hands one row (name, comment, table id) on as a marked table, the id as its oid (0 when unknown). */
static int marked_row(void *ctx, const char *const *cols, int ncols)
{
	const struct marked_ctx *m = ctx;

	if (ncols == 3 && cols[0] && cols[1])
		m->found(m->ctx, cols[0], cols[2] ? strtoull(cols[2], NULL, 10) : 0, cols[1]);
	return 0;
}

static int mariadb_marked_tables(struct db_conn *conn, db_marked_fn found, void *ctx)
{
	struct marked_ctx m = { .found = found, .ctx = ctx };
	int ids = table_ids_readable(conn);

	if (ids < 0)
		return -1;
	return mariadb_query_text(conn,
				  ids ? "SELECT t.TABLE_NAME, t.TABLE_COMMENT, s.TABLE_ID " TABLES_WITH_IDS
					"AND t.TABLE_TYPE = 'BASE TABLE' AND t.TABLE_COMMENT LIKE '" OWNER_NOTE_PREFIX "%'"
				      : "SELECT t.TABLE_NAME, t.TABLE_COMMENT, s.TABLE_ID " TABLES_WITHOUT_IDS
					"AND t.TABLE_TYPE = 'BASE TABLE' AND t.TABLE_COMMENT LIKE '" OWNER_NOTE_PREFIX "%'",
				  0, NULL, marked_row, &m);
}

/* What seal_mark reads of the table: its note and InnoDB table id. */
struct seal_ctx {
	char note[1024];	/* the table's comment, the note the template wrote */
	char id[32];		/* its table id; empty when it cannot be read */
};

/* Copies one row (comment, table id) into ctx, a struct seal_ctx. */
static int seal_row(void *ctx, const char *const *cols, int ncols)
{
	struct seal_ctx *c = ctx;

	snprintf(c->note, sizeof(c->note), "%s", ncols > 0 && cols[0] ? cols[0] : "");
	snprintf(c->id, sizeof(c->id), "%s", ncols > 1 && cols[1] ? cols[1] : "");
	return 1;
}

/*
 * Appends " oid ID", InnoDB's table id, to the note of table name. A table whose id cannot
 * be read (an account without the PROCESS privilege) keeps its note as it is: cleanup then
 * reads no id either and goes by the name, as before.
 */
static int mariadb_seal_mark(struct db_conn *conn, const char *name)
{
	const char *params[] = { name };
	struct seal_ctx c = { .note = "" };
	char quoted[256], note[1100], escaped[2 * sizeof(note) + 1], sql[sizeof(escaped) + 320];
	int ids = table_ids_readable(conn);

	if (ids < 0)
		return -1;
	if (!ids)
		return 0;
	if (mariadb_query_text(conn, "SELECT t.TABLE_COMMENT, s.TABLE_ID " TABLES_WITH_IDS "AND t.TABLE_NAME = $1", 1,
			       params, seal_row, &c) < 0)
		return -1;
	if (!c.id[0] || strncmp(c.note, OWNER_NOTE_PREFIX, strlen(OWNER_NOTE_PREFIX)) != 0)
		return 0;
	if (db_quote_double(conn, name, quoted, sizeof(quoted)) < 0 ||
	    snprintf(note, sizeof(note), "%s oid %s", c.note, c.id) >= (int)sizeof(note)) {
		set_error(conn, ERR_OTHER, "the table's name or note is too long to seal");
		return -1;
	}
	mysql_real_escape_string(conn->my, escaped, note, strlen(note));
	snprintf(sql, sizeof(sql), "ALTER TABLE %s COMMENT = '%s'", quoted, escaped);
	return run_text(conn, sql);
}

/* What settings fills: one row of the settings that change a run's results. */
struct settings_ctx {
	struct db_setting *out;	/* where they go */
	int max;		/* room in out */
	int filled;		/* entries filled */
};

/* The settings' names, in the order of the query's columns. */
static const char *const setting_names[] = {
	"tx_isolation", "innodb_lock_wait_timeout", "log_bin", "innodb_flush_log_at_trx_commit", "max_connections",
};

/* Copies the one row of the settings query into ctx's out. */
static int settings_row(void *ctx, const char *const *cols, int ncols)
{
	struct settings_ctx *s = ctx;

	for (int c = 0; c < ncols && s->filled < s->max; c++, s->filled++) {
		snprintf(s->out[s->filled].name, sizeof(s->out[s->filled].name), "%s", setting_names[c]);
		snprintf(s->out[s->filled].value, sizeof(s->out[s->filled].value), "%s", cols[c] ? cols[c] : "");
	}
	return 1;
}

static int mariadb_settings(struct db_conn *conn, struct db_setting *out, int max)
{
	struct settings_ctx s = { .out = out, .max = max };

	if (mariadb_query_text(conn, "SELECT @@tx_isolation, @@innodb_lock_wait_timeout, @@log_bin, "
				     "@@innodb_flush_log_at_trx_commit, @@max_connections", 0, NULL, settings_row,
			       &s) != 1)
		return -1;
	return s.filled;
}

/* 0: no wait at all (a lock held is a lock not available); ms > 0 rounds up to whole seconds. */
static int mariadb_set_lock_wait(struct db_conn *conn, int ms)
{
	conn->no_lock_wait = ms == 0;
	return set_wait_s(conn, ms < 0 ? conn->lock_wait_s : seconds_of(ms));
}

static int mariadb_name_session(struct db_conn *conn, int identity)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "SET @claimbench_identity = %d", identity);
	return run_text(conn, sql);
}

/* Cuts the connection's socket first, so that closing it sends the server nothing. */
static void mariadb_abandon(struct db_conn *conn)
{
	if (!conn)
		return;
	if (conn->my && mysql_get_socket(conn->my) >= 0)
		shutdown(mysql_get_socket(conn->my), SHUT_RDWR);
	mariadb_disconnect(conn);
}

static int mariadb_server_pid(const struct db_conn *conn)
{
	return (int)conn->thread_id;
}

/* KILL QUERY from a connection of its own: the client library cannot cancel from another thread. */
static void cancel_statement(struct db_conn *conn)
{
	char sql[64], err[256];
	MYSQL *my;

	if (open_session(&conn->target, &my, err, sizeof(err)) < 0)
		return;
	snprintf(sql, sizeof(sql), "KILL QUERY %lu", conn->thread_id);
	mysql_query(my, sql);
	mysql_close(my);
}

const struct backend_ops backend_mariadb = {
	.name = "mariadb",
	.title = "MariaDB",
	.order = 30,
	.target_prefix = "mariadb:",
	.prefix_alone_throwaway = true,
	.target_form = "mariadb:...",
	.target_libpq_form = mariadb_target_libpq_form,
	.target_malformed = "what follows mariadb: is malformed (its text is not shown, since it may hold a password); "
			    "expected mariadb: alone (a throwaway server), mariadb:KEY=VALUE ... or "
			    "mariadb://USER@HOST:PORT/DATABASE",
	.throwaway = &throwaway_mariadb,
	.no_explore = "explore finds its settled points by asking PostgreSQL which session waits for which "
		      "(pg_isolation_test_session_is_blocked, pg_stat_activity) and has no MariaDB counterpart of those; "
		      "it explores on PostgreSQL alone (docs/explore.md)",
	.dialect = DIALECT_MARIADB,
	.sql = &mariadb_harness_sql,
	.caps = CAP_ROW_LOCKS | CAP_NOWAIT | CAP_SKIP_LOCKED | CAP_ADVISORY_LOCKS | CAP_SERVER | CAP_TIMEOUTS |
		CAP_ISOLATION,
	.locking = "MariaDB's InnoDB locks rows (and the gaps between them), and has no LISTEN/NOTIFY",
	.session_name = "connections",
	.old_transaction_sentence = "InnoDB's history list grew to %llu committed transactions whose undo was not purged "
				    "yet: the purge lagged behind (an open read view holds it back), and a read that "
				    "needs an older version of a row rebuilds it from the undo log.",
	.connect = open_connection,
	.disconnect = mariadb_disconnect,
	.prepare = mariadb_prepare,
	.prepare_checked = mariadb_prepare_checked,
	.account_create = mariadb_account_create_for,
	.account_drop = mariadb_account_drop_for,
	.account_made_for = mariadb_account_made,
	.exec_rows = mariadb_exec_rows,
	.exec = mariadb_exec,
	.query = mariadb_query,
	.query_text = mariadb_query_text,
	.load_jobs = mariadb_load_jobs,
	.error_kind = mariadb_error_kind,
	.error_message = mariadb_error_message,
	.server_version = mariadb_server_version,
	.table_exists = mariadb_table_exists,
	.marked_tables = mariadb_marked_tables,
	.seal_mark = mariadb_seal_mark,
	.quote_identifier = db_quote_double,
	.settings = mariadb_settings,
	.set_lock_wait = mariadb_set_lock_wait,
	.name_session = mariadb_name_session,
	.abandon = mariadb_abandon,
	.server_pid = mariadb_server_pid,
	.cancel = cancel_statement,
};
