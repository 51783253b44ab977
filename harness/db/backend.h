/*
 * A backend driver: how the harness talks to one kind of database. Strategies and
 * the worker loop see only this interface; capability flags let an impossible
 * strategy/backend pair be refused before anything runs.
 */
#ifndef CLAIMBENCH_BACKEND_H
#define CLAIMBENCH_BACKEND_H

#include <stdbool.h>
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
 * RETURNING of columns itself (db/mariadb/mariadb_sql.h).
 */
#define SQL_ANY(text) { [DIALECT_POSTGRESQL] = (text), [DIALECT_SQLITE] = (text), [DIALECT_MARIADB] = (text) }

/* Each dialect's name, as `list backends` prints it: the name of the backend it was first written for. */
extern const char *const sql_dialect_names[DIALECT_COUNT];

/* What a backend's locking can do, and what of a run's faults and settings it takes: the checks ask these, never its name. */
enum backend_cap {
	CAP_ROW_LOCKS = 1 << 0,		/* SELECT ... FOR UPDATE */
	CAP_NOWAIT = 1 << 1,		/* FOR UPDATE NOWAIT */
	CAP_SKIP_LOCKED = 1 << 2,	/* FOR UPDATE SKIP LOCKED */
	CAP_ADVISORY_LOCKS = 1 << 3,	/* application-defined locks */
	CAP_LISTEN_NOTIFY = 1 << 4,	/* LISTEN/NOTIFY: one connection's commit wakes another waiting */
	CAP_SERVER = 1 << 5,		/* a server: a process per connection to terminate (--kill-backend-*), and
					 * one to restart (--restart-at, --restart-command) */
	CAP_FAILOVER = 1 << 6,		/* a primary of its fails over to a standby (--failover-at, --failover-command) */
	CAP_VACUUM = 1 << 7,		/* vacuums one table beside running claims (--vacuum-at, --phase vacuum) */
	CAP_TIMEOUTS = 1 << 8,		/* a lock and a statement timeout (--lock-timeout-ms, --statement-timeout-ms) */
	CAP_ISOLATION = 1 << 9,		/* the workers' isolation level is chosen (--isolation) */
	CAP_POOLER = 1 << 10,		/* its server's connections go through pgbouncer (--pooler) */
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

struct run_as;		/* db/run_as.h */
struct watchdog;	/* db/watchdog.h */

/*
 * A backend's throwaway database: what a run makes when given no --db target (a server of
 * its own, a file), and what removes it. Its state is private to the backend's folder:
 * struct throwaway (db/throwaway.h) holds state_size zeroed bytes of it and hands them to
 * each operation. An operation a backend has none of is NULL.
 */
struct backend_throwaway {
	const char *dir_prefix;		/* the start of its directories' names under $TMPDIR, which `cleanup` looks for */
	/* Stops what a dead claimbench left running in one, a watchdog_stop_fn (db/watchdog.h); NULL: nothing runs there. */
	int (*stop_leftover)(const char *dir, const struct run_as *as);
	size_t state_size;		/* bytes of its state */
	const char *start_failed;	/* what a failed start says, before ": " and the reason */
	const char *start_hint;		/* a line after it (how to install the server), or NULL */
	int default_rank;		/* with no --db, the backends of rank 1, 2 ... are tried in turn; 0: never */
	/* Whether it can start here: 1, 0 (its programs are missing), -1 with err. NULL: always 1. */
	int (*available)(char *err, size_t errlen);
	/*
	 * Makes it, guarded by wd, for connections sessions at once (its floor when fewer), and
	 * points *target at where to connect, as the backend's connect takes it. 0, or -1 with err.
	 */
	int (*start)(void *state, struct watchdog *wd, int connections, const char **target, char *err, size_t errlen);
	/*
	 * Says on stderr where it is (and what its start had to say); passed_over is the title of
	 * the backend preferred to it whose programs were missing (NULL: none).
	 */
	void (*announce)(const void *state, const char *passed_over);
	/* Stops and removes what start made; safe after a failed start and twice. */
	void (*stop)(void *state);
	/* Restarts its server in immediate mode for a restart fault, within bounds of its own. 0, or -1 with err. */
	int (*restart)(void *state, char *err, size_t errlen);
	/* Whether its server (with a standby: the one taking writes) was started and is gone; false when nobody can tell. */
	bool (*gone)(const void *state);
	/* Gives its server a streaming standby, *target what reaches whichever is primary. 0, or -1 with err. */
	int (*add_standby)(void *state, const char **target, char *err, size_t errlen);
	/* Makes the pair ready for a run with standby mode mode (enum standby_mode). 0, or -1 with err. */
	int (*standby_ready)(void *state, int mode, char *err, size_t errlen);
	/* Cuts the standby off its primary's WAL (--failover-lag-ms). 0, or -1 with err. */
	int (*standby_cut)(void *state, char *err, size_t errlen);
	/* Fails the primary over to the standby. 0, or -1 with err. */
	int (*failover)(void *state, char *err, size_t errlen);
	/*
	 * Sets its server's autovacuum to mode (an enum autovacuum_mode) and returns once a new
	 * session runs with it; nothing when it has that mode. 0, or -1 with err. NULL: it has none.
	 */
	int (*set_autovacuum)(void *state, int mode, char *err, size_t errlen);
};

struct backend_ops {
	const char *name;		/* its name as in output and in --db's prefix: "postgresql", "sqlite", "mariadb" */
	const char *title;		/* the engine's name in a sentence: "PostgreSQL", "SQLite", "MariaDB" */
	int order;			/* where it stands in the registry, and so in `list`: by order, then name */
	/*
	 * The start of a --db text that selects it ("sqlite:"), cut off before connect sees the
	 * rest; NULL for the one backend a text no prefix claims selects (PostgreSQL's conninfo).
	 */
	const char *target_prefix;
	bool prefix_alone_throwaway;	/* its prefix alone (nothing after it) asks for its throwaway */
	bool scenario_may_target;	/* a scenario file may name a target of it without --trust-scenario (a
					 * file path); else only its throwaway (the prefix alone, when that is one) */
	const char *target_form;	/* its targets' form for a message: "a libpq conninfo or URI", "sqlite:PATH" */
	/*
	 * target (what follows the prefix) as libpq's conninfo parser reads it, which finds and
	 * masks its passwords (db/conninfo.h): malloc'd, NULL when out of memory. NULL where a
	 * target is no conninfo (a file path).
	 */
	char *(*target_libpq_form)(const char *target);
	const char *target_malformed;	/* the refusal of a target libpq cannot parse, after "--db: " (never the
					 * text itself: it may hold a password) */
	/*
	 * Optional: notes what a run changes in the user's own target that it must put back
	 * (SQLite's journal mode, statistics tables) into *note, malloc'd. 0, or -1 with err.
	 */
	int (*target_note)(const char *target, void **note, char *err, size_t errlen);
	/* Puts back what target_note noted into note, and frees note. 0, or -1 with err. */
	int (*target_restore)(const char *target, void *note, char *err, size_t errlen);
	const struct backend_throwaway *throwaway; /* its throwaway database; NULL: it needs --db */
	/* Why explore cannot drive it, a sentence after "TITLE cannot be explored: "; NULL: it can (docs/explore.md). */
	const char *no_explore;
	/*
	 * Why no pressure phase of a timeline (--phase idle-in-tx, ...) can run on it, where its
	 * SQL has no timeline (backend_sql.timeline NULL); NULL: they run, but for the kinds that
	 * timeline's refusals name.
	 */
	const char *no_pressure_phases;
	/*
	 * A query (a printf format of the quoted name, once) that returns a row when the function
	 * a run makes named as its table (--verify's audit trigger function) exists with an owner
	 * note, and the statement that drops it (the same format): what `cleanup` drops once the
	 * run's tables are gone. NULL where a run makes no function.
	 */
	const char *run_function_probe;
	const char *run_function_drop;		/* the DROP of it, as run_function_probe */
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
	/*
	 * A diagnosis's sentence on the share of the workers' time spent waiting for a lock in
	 * the driver itself (server.lock_wait_pct, which db->waits measures): a printf format of
	 * one double, the percentage. NULL where the driver measures no such wait.
	 */
	const char *lock_wait_sentence;
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

/* Every backend driver, one per folder harness/db/NAME/ (BACKEND_FILES, scripts/gen-plugins), by name. */
extern const struct backend_ops *const backend_registry[];

/* How many backend_registry holds. */
extern const size_t backend_registry_len;

/* Every backend's name, in the registry's order, ", " between: for messages ("postgresql, sqlite, mariadb"). */
const char *backend_names(void);

/* The driver called name (a run's backend, as stored), or NULL for none (or NULL name). */
const struct backend_ops *backend_named(const char *name);

/*
 * The driver a database name (--db) selects: the one whose target_prefix it starts with,
 * else the one with none; *target what follows the prefix ("" for a throwaway).
 */
const struct backend_ops *backend_of_target(const char *text, const char **target);

/*
 * The backend a run given no --db uses: the throwaway of lowest default_rank that can
 * start here. NULL with err when none can, or when whether one can cannot be told.
 */
const struct backend_ops *backend_for_throwaway(char *err, size_t errlen);

/* The backend whose throwaway a run given no --db prefers (default_rank 1), or NULL. */
const struct backend_ops *backend_preferred(void);

/*
 * Whether a plugin (a strategy or a guard) can run on db, from what it declares: it has a
 * form in db's dialect (dialects, DIALECT_BIT()s) and db has every capability that form
 * relies on (needs_caps, per dialect, CAP_* bits). One test for both kinds, so that a pair
 * is refused the same way.
 */
bool plugin_runs_on(unsigned dialects, const unsigned needs_caps[DIALECT_COUNT], const struct backend_ops *db);

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
