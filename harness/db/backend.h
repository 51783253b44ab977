/*
 * A backend driver: how the harness talks to one kind of database. Strategies and
 * the worker loop see only this interface; capability flags let an impossible
 * strategy/backend pair be refused before anything runs.
 */
#ifndef CLAIMBENCH_BACKEND_H
#define CLAIMBENCH_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "db/backend_sql.h"
#include "model/config.h"
#include "model/error_kind.h"
#include "model/result.h"

/* The dialects of SQL a backend speaks (struct backend_ops.dialect); the index of a plugin's SQL per dialect. */
enum sql_dialect {
	DIALECT_POSTGRESQL,
	DIALECT_SQLITE,
	DIALECT_MARIADB,
	DIALECT_COUNT
};

#define DIALECT_BIT(dialect) (1u << (dialect))

/*
 * A template written the same for every dialect: one strategy_statement.sql entry per
 * dialect. MariaDB reads it with ANSI_QUOTES, and its driver rewrites an UPDATE's
 * RETURNING of columns itself (db/mariadb_sql.h).
 */
#define SQL_ANY(text) { [DIALECT_POSTGRESQL] = (text), [DIALECT_SQLITE] = (text), [DIALECT_MARIADB] = (text) }

/* What a backend's locking can do. */
enum backend_cap {
	CAP_ROW_LOCKS = 1 << 0,		/* SELECT ... FOR UPDATE */
	CAP_NOWAIT = 1 << 1,		/* FOR UPDATE NOWAIT */
	CAP_SKIP_LOCKED = 1 << 2,	/* FOR UPDATE SKIP LOCKED */
	CAP_ADVISORY_LOCKS = 1 << 3,	/* application-defined locks */
	CAP_LISTEN_NOTIFY = 1 << 4,	/* LISTEN/NOTIFY: one connection's commit wakes another waiting */
};

/* Prepared statements per connection, addressed by slot number. */
#define DB_MAX_STATEMENTS 24

/* One open connection; each driver defines its own. */
struct db_conn;

/*
 * Called once per table marked as claimbench's, with its unquoted name, its oid
 * (PostgreSQL's; 0 where tables have none, SQLite) and its owner note.
 */
typedef void (*db_marked_fn)(void *ctx, const char *name, unsigned long long oid, const char *note);

/* Called once per result row of db->query with the row's columns as integers (NULL as -1). 0 to go on. */
typedef int (*db_row_fn)(void *ctx, const int64_t *cols, int ncols);

/* Called once per result row of db->query_text with the row's columns as text (NULL as NULL). 0 to go on. */
typedef int (*db_text_row_fn)(void *ctx, const char *const *cols, int ncols);

/* What a connection's statements met since it connected, as its driver counts them (SQLite's). */
struct db_waits {
	int64_t lock_wait_ns;		/* time slept waiting for a lock (SQLite's busy handler) */
	uint64_t checkpoints;		/* WAL checkpoints run at its commits */
	uint64_t checkpoints_partial;	/* of them, those that could not copy the whole WAL: a reader held it back */
	uint64_t pages_hit;		/* pages its statements found in its page cache; the page counts wrap at
					 * DB_PAGE_COUNT_WRAP (SQLite's are an int): take differences with db_page_delta */
	uint64_t pages_read;		/* pages they read from the file: cache misses */
	uint64_t pages_written;		/* pages they wrote out */
};

/* Where struct db_waits' page counts wrap around: SQLite's counters are an int, masked to 31 bits. */
#define DB_PAGE_COUNT_WRAP 0x80000000u

/* The pages counted from seen to now, across one wrap of the counter. */
static inline uint64_t db_page_delta(uint64_t now, uint64_t seen)
{
	return (now - seen) & (DB_PAGE_COUNT_WRAP - 1);
}

/* What a prepared statement's result holds, as its description tells before it runs. */
struct db_result_shape {
	int columns;		/* its columns; 0 when it returns no rows */
	int integers;		/* of its first columns, how many in a row may hold integers (of a type not known: may) */
	char first_other[64];	/* the first column that may not, "name (type)"; "" when none */
};

/* One prepared statement of a pipeline: its slot and its text parameters. */
struct db_step {
	int slot;			/* the slot it was prepared in */
	int nparams;			/* parameters in params */
	const char *const *params;	/* $1..$nparams as text */
};

struct backend_ops {
	const char *name;		/* "postgresql", "sqlite" or "mariadb", as in output */
	enum sql_dialect dialect;	/* which dialect of SQL it speaks: the index of a plugin's SQL for it */
	unsigned caps;			/* enum backend_cap flags */
	const char *locking;		/* its locking model in one clause, for refusals */
	/*
	 * A diagnosis's sentence (output/diagnosis.h) on the server's oldest-transaction figure
	 * (server.xmin_age_max) when it is large, in the engine's own words: PostgreSQL's xmin
	 * horizon, InnoDB's history list and purge. A printf format of one unsigned long long,
	 * the figure; NULL where the driver samples no such figure (SQLite).
	 */
	const char *old_transaction_sentence;
	const struct backend_sql *sql;	/* the statements the harness itself sends, in its dialect (db/backend_sql.h) */
	const char *session_name;	/* what the server calls the workers' sessions, plural, for a diagnosis:
					 * "server backends" (PostgreSQL), "connections" (MariaDB) */

	/*
	 * Opens a connection to target (a libpq conninfo, a file path) set up as opts says.
	 * 0, or -1 with a reason in err.
	 */
	int (*connect)(const char *target, const struct db_options *opts, struct db_conn **conn, char *err,
		       size_t errlen);
	/* Closes conn and frees it; NULL is fine. */
	void (*disconnect)(struct db_conn *conn);
	/* Prepares sql (parameters $1..$nparams) in slot. 0 or -1. */
	int (*prepare)(struct db_conn *conn, int slot, const char *sql, int nparams);
	/*
	 * Prepares sql in slot as prepare does, for a statement a scenario file wrote, and
	 * describes its result in *shape (no columns: it returns no rows). With own_table (an
	 * unquoted table name, NULL: no confinement), the server's own account of the
	 * statement must show one SELECT, INSERT, UPDATE or DELETE (WITH allowed) that reads and
	 * writes own_table alone and calls no function outside the server's own
	 * (docs/scenarios.md, "What a scenario file may do"). On a backend with account_create
	 * the server's privileges are the check: conn is the run's account's connection, and a
	 * statement the server refuses to prepare for want of a privilege is the refusal. 0; 1
	 * when confinement refused it, with what it does in why ("deletes from table
	 * public.audit_log"); -1 with the error on conn (the server refused to prepare it).
	 */
	int (*prepare_checked)(struct db_conn *conn, int slot, const char *sql, int nparams, const char *own_table,
			       struct db_result_shape *shape, char *why, size_t whylen);
	/*
	 * Optional (NULL: prepare_checked confines a statement by reading the server's account
	 * of it): makes, on conn (the harness's own session), an account of the server's for one
	 * run, named own_table (the run's queue table, unquoted), with a random password and the
	 * privileges to read and write that table and nothing else, and writes into target where
	 * conn goes, as that account, as connect takes it (it holds the password: never print it).
	 * 0; 1 when the server does not let conn's user make such an account, with the server's
	 * reason in why and nothing left behind; -1 with the error on conn.
	 */
	int (*account_create)(struct db_conn *conn, const char *own_table, char *target, size_t targetlen, char *why,
			      size_t whylen);
	/* Drops the account account_create made for own_table, if it is there. 0, or -1 with the error on conn. */
	int (*account_drop)(struct db_conn *conn, const char *own_table);
	/*
	 * For cleanup, whether an account called own_table is one account_create made for that
	 * table: 1; 0 none, or one holding other privileges (never to be dropped); -1 with the
	 * error on conn when that cannot be read.
	 */
	int (*account_made_for)(struct db_conn *conn, const char *own_table);
	/*
	 * Sends the n prepared steps at once and then reads their results (libpq's pipeline
	 * mode): one round trip instead of n. Copies up to maxrows rows of steps[result] into
	 * out as exec_rows does. The rows of steps[result], or -1 when a step failed (its error
	 * kept as conn's last; the steps after it were not run). NULL: the driver has no round
	 * trips to save (SQLite).
	 */
	int (*exec_pipeline)(struct db_conn *conn, const struct db_step *steps, int n, int result, int64_t *out,
			     int ncols, int maxrows);
	/*
	 * Runs the statement in slot with text parameters; copies the first ncols columns of
	 * up to maxrows rows into out, row-major (row r's column c at out[r * ncols + c]), as
	 * integers, NULL as -1. Allocates nothing. The number of rows (maybe more than
	 * maxrows), or -1 on error.
	 */
	int (*exec_rows)(struct db_conn *conn, int slot, int nparams, const char *const *params, int64_t *out,
			 int ncols, int maxrows);
	/* Runs sql (no parameters), discarding any rows. 0 or -1. */
	int (*exec)(struct db_conn *conn, const char *sql);
	/* Runs sql and calls row for each row. The number of rows, or -1 on error. */
	int (*query)(struct db_conn *conn, const char *sql, db_row_fn row, void *ctx);
	/*
	 * Runs one statement sql with text parameters $1..$nparams and calls row for each row,
	 * its columns as text (at most 16). The number of rows, or -1 on error.
	 */
	int (*query_text)(struct db_conn *conn, const char *sql, int nparams, const char *const *params,
			  db_text_row_fn row, void *ctx);
	/* Fills table (columns id, queue, payload) with jobs 1..n, each in cfg's task class for it, in one bulk load. 0 or -1. */
	int (*load_jobs)(struct db_conn *conn, const char *table, const struct run_config *cfg, long n);
	/* The kind of the last error on conn. */
	enum error_kind (*error_kind)(const struct db_conn *conn);
	/* The last error's message on one line (no connection secrets). */
	const char *(*error_message)(const struct db_conn *conn);
	/* Writes the server's version into buf. 0 or -1. */
	int (*server_version)(struct db_conn *conn, char *buf, size_t len);
	/* Whether a table called name (unquoted) exists where conn would create one: 1, 0, or -1 with the error on conn. */
	int (*table_exists)(struct db_conn *conn, const char *name);
	/*
	 * Calls found(ctx, name, note) for each table conn sees whose owner note (db/ownership.h)
	 * marks it as made by claimbench: its name, unquoted, its oid and the note. The number found,
	 * or -1 with the error on conn.
	 */
	int (*marked_tables)(struct db_conn *conn, db_marked_fn found, void *ctx);
	/*
	 * Optional (NULL: a note is whole as the template wrote it, PostgreSQL's with the oid):
	 * adds to the owner note of table name (unquoted), which conn just made, what tells that
	 * very table from a copy of it (CREATE TABLE ... LIKE copies the note): MariaDB's InnoDB
	 * table id, which marked_tables then hands on as its oid. 0, or -1 with the error on conn.
	 */
	int (*seal_mark)(struct db_conn *conn, const char *name);
	/* Quotes name as an SQL identifier into buf. 0, or -1 when it does not fit. */
	int (*quote_identifier)(struct db_conn *conn, const char *name, char *buf, size_t len);
	/* Fills out with up to max of the settings that shape contention. The number filled, or -1. */
	int (*settings)(struct db_conn *conn, struct db_setting *out, int max);
	/*
	 * Sets how long each statement on conn waits for a lock another connection holds before
	 * failing (PostgreSQL: lock_timeout, 55P03; SQLite: the busy timeout, SQLITE_BUSY): ms,
	 * 0 for no wait at all on SQLite and no limit on PostgreSQL, or the connection's
	 * configured wait when ms < 0. 0, or -1 with the error on conn.
	 */
	int (*set_lock_wait)(struct db_conn *conn, int ms);
	/*
	 * Names conn's session as identity's (-1: the harness's) in what --verify's audit
	 * triggers record: on PostgreSQL a setting the triggers read, claimbench.identity; on
	 * SQLite a function they call, claimbench_identity(), which a connection that writes
	 * to the audited tables must have. 0, or -1 with the error on conn.
	 */
	int (*name_session)(struct db_conn *conn, int identity);
	/*
	 * Drops conn as a killed process would: no COMMIT, no ROLLBACK, no goodbye to the
	 * server, which rolls back whatever was open; frees it. NULL is fine.
	 */
	void (*abandon)(struct db_conn *conn);
	/* The server process serving conn (PostgreSQL's backend pid), or -1 when there is none (SQLite). */
	int (*server_pid)(const struct db_conn *conn);
	/*
	 * Stops the statement conn is running, if any, which then fails. Safe from any thread
	 * while conn is open; a statement begun after the call may not be stopped.
	 */
	void (*cancel)(struct db_conn *conn);
	/*
	 * Copies into out what conn's statements have waited and checkpointed since it
	 * connected; only conn's own thread may call it. NULL: the driver cannot tell
	 * (PostgreSQL, whose waits the server's samples show).
	 */
	void (*waits)(const struct db_conn *conn, struct db_waits *out);
	/*
	 * Waits up to timeout_ns for a notification to a channel conn LISTENs on, taking every
	 * one already received (they are all one wake-up): 1 notified, 0 timed out (or only
	 * other traffic arrived), -1 with the error on conn (a lost connection). Only outside
	 * a statement, on conn's own thread. NULL where the backend has no CAP_LISTEN_NOTIFY.
	 */
	int (*wait_notification)(struct db_conn *conn, int64_t timeout_ns);
};

extern const struct backend_ops backend_postgresql;
extern const struct backend_ops backend_sqlite;
extern const struct backend_ops backend_mariadb;

/* Every backend driver, indexed by enum sql_dialect. */
extern const struct backend_ops *const backend_registry[DIALECT_COUNT];

/* The prefix of a database name that selects SQLite: sqlite:PATH. */
#define BACKEND_SQLITE_PREFIX "sqlite:"

/*
 * The prefix of a database name that selects MariaDB: mariadb: alone (a throwaway server),
 * mariadb:KEY=VALUE... or mariadb://user@host:port/db (db/mariadb_target.h).
 */
#define BACKEND_MARIADB_PREFIX "mariadb:"

/* The driver called name ("postgresql", "sqlite", "mariadb": a run's backend), or NULL for none (or NULL name). */
const struct backend_ops *backend_named(const char *name);

/*
 * The driver a database name (--db) selects: SQLite for sqlite:PATH, MariaDB for
 * mariadb:..., else PostgreSQL; *target what follows the prefix ("" for a throwaway).
 */
const struct backend_ops *backend_of_target(const char *text, const char **target);

/*
 * backend_ops.quote_identifier of a dialect that quotes names in double quotes, doubling
 * one inside (SQLite, MariaDB under ANSI_QUOTES); conn is not used. 0, or -1 when it does not fit.
 */
int db_quote_double(struct db_conn *conn, const char *name, char *buf, size_t len);

/* Copies the first line of message (no newline, cut to fit) into dst, len > 0 bytes. */
void db_first_line(char *dst, size_t len, const char *message);

/* Where db_rows_as_ints hands each row on: the integer row callback of a query, and its context. */
struct db_int_rows {
	db_row_fn row;	/* called with the row's columns as integers */
	void *ctx;	/* what row is given */
};

/*
 * A db_text_row_fn (ctx a struct db_int_rows) that converts a row's columns to integers,
 * NULL to -1, and hands them on: how a driver's query rides on its query_text.
 */
int db_rows_as_ints(void *ctx, const char *const *cols, int ncols);

#endif
