/*
 * The SQLite driver, through the sqlite3 library: one connection per worker thread
 * (opened without SQLite's own mutexes), persistent prepared statements whose
 * $1..$n placeholders are bound as text, and a busy handler of its own as the one way
 * a statement waits for the database's single write lock: SQLite's waits, which a cancel
 * cuts short.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "base/clock.h"
#include "db/backend.h"
#include "db/ownership.h"
#include "db/sqlite/sqlite_confine.h"
#include "db/sqlite/sqlite_file.h"
#include "db/sqlite/parts.h"
#include "model/config.h"

/* Parameters a prepared statement may have. */
#define SQLITE_MAX_PARAMS 8

struct db_conn {
	sqlite3 *db;						/* the connection */
	sqlite3_stmt *stmt[DB_MAX_STATEMENTS];			/* the statement prepared in each slot, or NULL */
	int param_index[DB_MAX_STATEMENTS][SQLITE_MAX_PARAMS];	/* bind index of $1..$n per slot, 0 when unused */
	bool is_rollback[DB_MAX_STATEMENTS];			/* the slot holds ROLLBACK (see sqlite_exec) */
	int busy_timeout_ms;					/* the configured wait for a lock */
	int lock_wait_ms;					/* the wait for a lock now (set_lock_wait) */
	int waited_ms;						/* of it, waited so far by the statement waiting */
	atomic_bool cancelled;					/* cancel was called: stop waiting */
	struct db_waits waits;					/* what its statements waited and checkpointed */
	enum error_kind last_kind;				/* kind of the last error */
	char last_error[512];					/* the last error message */
};

/* Maps an extended result code to an error kind. */
static enum error_kind classify(int code)
{
	if (code == SQLITE_BUSY_SNAPSHOT)
		return ERR_SQLITE_BUSY_SNAPSHOT;
	if ((code & 0xff) == SQLITE_BUSY)
		return ERR_SQLITE_BUSY;
	return ERR_OTHER;
}

/* Records kind and the first line of message as conn's last error. */
static void set_error(struct db_conn *conn, enum error_kind kind, const char *message)
{
	db_first_line(conn->last_error, sizeof(conn->last_error), message);
	conn->last_kind = kind;
}

/* Records the error the connection just returned. */
static void set_db_error(struct db_conn *conn)
{
	set_error(conn, classify(sqlite3_extended_errcode(conn->db)), sqlite3_errmsg(conn->db));
}

/* Waits between tries for the write lock, in ms: short at first, then 100 ms each, as SQLite's own. */
static const int lock_retry_ms[] = { 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 };

/* The longest a waiting statement sleeps before it looks whether it was cancelled. */
#define LOCK_WAIT_SLICE_MS 10

/*
 * SQLite's busy handler: the number of tries so far in, 1 to try again after a wait,
 * 0 to give up (SQLITE_BUSY) once lock_wait_ms is spent or the connection is cancelled.
 */
static int wait_for_lock(void *arg, int tries)
{
	const int last = (int)(sizeof(lock_retry_ms) / sizeof(lock_retry_ms[0])) - 1;
	struct db_conn *conn = arg;
	int step = lock_retry_ms[tries < last ? tries : last];

	if (tries == 0)
		conn->waited_ms = 0;
	if (step > conn->lock_wait_ms - conn->waited_ms)
		step = conn->lock_wait_ms - conn->waited_ms;
	if (step <= 0)
		return 0;
	for (int slept = 0; slept < step; slept += LOCK_WAIT_SLICE_MS) {
		int64_t slice = (int64_t)(step - slept < LOCK_WAIT_SLICE_MS ? step - slept : LOCK_WAIT_SLICE_MS) * 1000000;

		if (atomic_load_explicit(&conn->cancelled, memory_order_relaxed))
			return 0;
		clock_sleep_ns(slice);
		conn->waits.lock_wait_ns += slice;
	}
	conn->waited_ms += step;
	return 1;
}

/* The WAL's size in pages at a commit from which that commit checkpoints it: SQLite's own default. */
#define WAL_CHECKPOINT_PAGES 1000

/*
 * SQLite's WAL hook, called after each commit in WAL mode with the WAL's pages: from
 * WAL_CHECKPOINT_PAGES on, a passive checkpoint, as SQLite's automatic one does (this hook
 * stands in for it), counted, and counted partial when it could not copy every frame
 * because a reader still needs them.
 */
static int checkpoint_at_commit(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct db_conn *conn = arg;
	int frames = 0, copied = 0;

	if (pages < WAL_CHECKPOINT_PAGES)
		return SQLITE_OK;
	if (sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied) != SQLITE_OK)
		return SQLITE_OK;
	conn->waits.checkpoints++;
	conn->waits.checkpoints_partial += copied < frames;
	return SQLITE_OK;
}

/* The page-cache counter op of conn's database since it was opened (sqlite3_db_status), 0 when it cannot tell. */
static uint64_t page_count(const struct db_conn *conn, int op)
{
	int now = 0, highest = 0;

	if (sqlite3_db_status(conn->db, op, &now, &highest, 0) != SQLITE_OK || now < 0)
		return 0;
	return (uint64_t)now;
}

static void sqlite_waits(const struct db_conn *conn, struct db_waits *out)
{
	*out = conn->waits;
	out->pages_hit = page_count(conn, SQLITE_DBSTATUS_CACHE_HIT);
	out->pages_read = page_count(conn, SQLITE_DBSTATUS_CACHE_MISS);
	out->pages_written = page_count(conn, SQLITE_DBSTATUS_CACHE_WRITE);
}

/* Readies conn for a new statement: a cancel that came before it is forgotten. */
static void begin_statement(struct db_conn *conn)
{
	atomic_store_explicit(&conn->cancelled, false, memory_order_relaxed);
}

/* Runs a one-row, one-column statement (a PRAGMA) and copies its value as text into buf. 0 or -1. */
static int single_text(struct db_conn *conn, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *stmt;
	int rc = -1;

	if (sqlite3_prepare_v2(conn->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		set_db_error(conn);
		return -1;
	}
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(stmt, 0);

		snprintf(buf, len, "%s", v ? (const char *)v : "");
		rc = 0;
	} else {
		set_db_error(conn);
	}
	sqlite3_finalize(stmt);
	return rc;
}

static void sqlite_disconnect(struct db_conn *conn)
{
	if (!conn)
		return;
	for (int i = 0; i < DB_MAX_STATEMENTS; i++)
		sqlite3_finalize(conn->stmt[i]);
	sqlite3_close(conn->db);
	free(conn);
}

/*
 * Sets conn's journal mode and synchronous level as opts say, checking the journal mode
 * took; leaves the file as it is when opts say so. 0 or -1.
 */
static int apply_options(struct db_conn *conn, const struct db_options *opts)
{
	const char *journal;
	char sql[128], mode[32];

	if (opts->sqlite_journal < 0)
		return 0;
	journal = sqlite_journal_modes[opts->sqlite_journal];
	snprintf(sql, sizeof(sql), "PRAGMA journal_mode = %s", journal);
	if (single_text(conn, sql, mode, sizeof(mode)) < 0)
		return -1;
	if (strcasecmp(mode, journal) != 0) {
		snprintf(sql, sizeof(sql), "journal mode %.16s refused (the file stays in %s)", journal, mode);
		set_error(conn, ERR_OTHER, sql);
		return -1;
	}
	snprintf(sql, sizeof(sql), "PRAGMA synchronous = %s", sqlite_synchronous_levels[opts->sqlite_synchronous]);
	if (sqlite3_exec(conn->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		set_db_error(conn);
		return -1;
	}
	return 0;
}

/* target is the database file's path, created when missing. */
static int sqlite_connect(const char *target, const struct db_options *opts, struct db_conn **out, char *err,
			  size_t errlen)
{
	struct db_conn *conn = calloc(1, sizeof(*conn));
	int rc;

	if (!conn) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = sqlite3_open_v2(target, &conn->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			     NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", target, conn->db ? sqlite3_errmsg(conn->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_extended_result_codes(conn->db, 1);
	conn->busy_timeout_ms = opts->sqlite_busy_timeout_ms;
	conn->lock_wait_ms = conn->busy_timeout_ms;
	atomic_init(&conn->cancelled, false);
	sqlite3_busy_handler(conn->db, wait_for_lock, conn);
	sqlite3_wal_hook(conn->db, checkpoint_at_commit, conn);
	if (apply_options(conn, opts) < 0) {
		snprintf(err, errlen, "%s: %s", target, conn->last_error);
		goto fail;
	}
	*out = conn;
	return 0;
fail:
	sqlite_disconnect(conn);
	return -1;
}

/* Prepares sql in slot and finds where its $1..$nparams are bound; SQLite reads "$1" as a named parameter. */
static int sqlite_prepare(struct db_conn *conn, int slot, const char *sql, int nparams)
{
	const char *tail = NULL;
	int found = 0;

	if (slot < 0 || slot >= DB_MAX_STATEMENTS || nparams < 0 || nparams > SQLITE_MAX_PARAMS) {
		set_error(conn, ERR_OTHER, "statement slot or parameter count out of range");
		return -1;
	}
	sqlite3_finalize(conn->stmt[slot]);
	conn->stmt[slot] = NULL;
	conn->is_rollback[slot] = strcmp(sql, "ROLLBACK") == 0;
	if (sqlite3_prepare_v3(conn->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &conn->stmt[slot], &tail) != SQLITE_OK) {
		set_db_error(conn);
		return -1;
	}
	if (!conn->stmt[slot] || (tail && tail[strspn(tail, " \t\n;")])) {
		set_error(conn, ERR_OTHER, "expected exactly one statement");
		return -1;
	}
	for (int i = 0; i < nparams; i++) {
		char name[8];

		snprintf(name, sizeof(name), "$%d", i + 1);
		conn->param_index[slot][i] = sqlite3_bind_parameter_index(conn->stmt[slot], name);
		found += conn->param_index[slot][i] > 0;
	}
	if (found != sqlite3_bind_parameter_count(conn->stmt[slot])) {
		set_error(conn, ERR_OTHER, "parameters must be written $1..$n");
		return -1;
	}
	return 0;
}

/*
 * Describes stmt's result into shape: a column holds integers when it is an expression (no
 * declared type) or a table column declared with integer affinity (a type naming INT).
 */
static void describe_result(sqlite3_stmt *stmt, struct db_result_shape *shape)
{
	*shape = (struct db_result_shape){ .columns = sqlite3_column_count(stmt) };
	for (; shape->integers < shape->columns; shape->integers++) {
		const char *type = sqlite3_column_decltype(stmt, shape->integers);

		if (type && !strcasestr(type, "int")) {
			snprintf(shape->first_other, sizeof(shape->first_other), "%.40s (%.16s)",
				 sqlite3_column_name(stmt, shape->integers), type);
			break;
		}
	}
}

/*
 * Prepares sql in slot with the confinement's authorizer set while SQLite compiles it, when
 * own_table is given; an EXPLAIN, which the authorizer is not asked about, is refused then too.
 */
static int sqlite_prepare_checked(struct db_conn *conn, int slot, const char *sql, int nparams, const char *own_table,
				  struct db_result_shape *shape, char *why, size_t whylen)
{
	struct sqlite_confinement confinement = { .own_table = own_table };
	int rc;

	if (own_table)
		sqlite3_set_authorizer(conn->db, sqlite_confine_authorize, &confinement);
	rc = sqlite_prepare(conn, slot, sql, nparams);
	sqlite3_set_authorizer(conn->db, NULL, NULL);
	if (rc == 0 && own_table && sqlite3_stmt_isexplain(conn->stmt[slot]))
		snprintf(confinement.refused, sizeof(confinement.refused), "is an EXPLAIN, not a SELECT, INSERT, UPDATE "
			 "or DELETE");
	if (confinement.refused[0]) {
		snprintf(why, whylen, "%s", confinement.refused);
		return 1;
	}
	if (rc < 0)
		return -1;
	describe_result(conn->stmt[slot], shape);
	return 0;
}

static int sqlite_exec_rows(struct db_conn *conn, int slot, int nparams, const char *const *params,
			    int64_t *out, int ncols, int maxrows)
{
	sqlite3_stmt *stmt = conn->stmt[slot];
	int rows = 0, rc;

	begin_statement(conn);
	if (conn->is_rollback[slot] && sqlite3_get_autocommit(conn->db))
		return 0;
	for (int i = 0; i < nparams; i++) {
		if (conn->param_index[slot][i] > 0 &&
		    sqlite3_bind_text(stmt, conn->param_index[slot][i], params[i], -1, SQLITE_STATIC) != SQLITE_OK) {
			set_db_error(conn);
			rows = -1;
			goto out;
		}
	}
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (int i = 0; rows < maxrows && i < ncols && i < sqlite3_column_count(stmt); i++)
			out[(size_t)rows * (size_t)ncols + (size_t)i] =
				sqlite3_column_type(stmt, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(stmt, i);
		rows++;
	}
	if (rc != SQLITE_DONE) {
		set_db_error(conn);
		rows = -1;
	}
out:
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	return rows;
}

/* ROLLBACK with no transaction open succeeds, as on PostgreSQL (where it only warns), prepared or not. */
static int sqlite_exec(struct db_conn *conn, const char *sql)
{
	begin_statement(conn);
	if (sqlite3_get_autocommit(conn->db) && strcmp(sql, "ROLLBACK") == 0)
		return 0;
	if (sqlite3_exec(conn->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		set_db_error(conn);
		return -1;
	}
	return 0;
}

static int sqlite_query_text(struct db_conn *conn, const char *sql, int nparams, const char *const *params,
			     db_text_row_fn row, void *ctx)
{
	const char *cols[16];
	sqlite3_stmt *stmt;
	int rows = 0, rc, ncols;

	begin_statement(conn);
	if (sqlite3_prepare_v2(conn->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		set_db_error(conn);
		return -1;
	}
	for (int i = 0; i < nparams; i++)
		sqlite3_bind_text(stmt, i + 1, params[i], -1, SQLITE_TRANSIENT);
	ncols = sqlite3_column_count(stmt) < 16 ? sqlite3_column_count(stmt) : 16;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (int c = 0; c < ncols; c++)
			cols[c] = (const char *)sqlite3_column_text(stmt, c);
		rows++;
		if (row(ctx, cols, ncols) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_DONE) {
		set_db_error(conn);
		rows = -1;
	}
	sqlite3_finalize(stmt);
	return rows;
}

static int sqlite_query(struct db_conn *conn, const char *sql, db_row_fn row, void *ctx)
{
	struct db_int_rows to = { .row = row, .ctx = ctx };

	return sqlite_query_text(conn, sql, 0, NULL, db_rows_as_ints, &to);
}

/* One transaction, one prepared INSERT stepped n times. */
static int sqlite_load_jobs(struct db_conn *conn, const char *table, const struct run_config *cfg, long n)
{
	char sql[512], payload[32];
	sqlite3_stmt *stmt = NULL;

	snprintf(sql, sizeof(sql), "INSERT INTO %s (id, queue, payload) VALUES (?1, ?2, ?3)", table);
	if (sqlite_exec(conn, "BEGIN IMMEDIATE") < 0)
		return -1;
	if (sqlite3_prepare_v2(conn->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		goto fail;
	for (long id = 1; id <= n; id++) {
		snprintf(payload, sizeof(payload), "job %ld", id);
		if (sqlite3_bind_int64(stmt, 1, id) != SQLITE_OK ||
		    sqlite3_bind_text(stmt, 2, run_config_queue_of_job(cfg, id), -1, SQLITE_STATIC) != SQLITE_OK ||
		    sqlite3_bind_text(stmt, 3, payload, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
		    sqlite3_step(stmt) != SQLITE_DONE)
			goto fail;
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	return sqlite_exec(conn, "COMMIT");
fail:
	set_db_error(conn);
	sqlite3_finalize(stmt);
	sqlite3_exec(conn->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static enum error_kind sqlite_error_kind(const struct db_conn *conn)
{
	return conn->last_kind;
}

static const char *sqlite_error_message(const struct db_conn *conn)
{
	return conn->last_error;
}

/* The library's version: the "server" is this process. */
static int sqlite_server_version(struct db_conn *conn, char *buf, size_t len)
{
	(void)conn;
	snprintf(buf, len, "%s", sqlite3_libversion());
	return 0;
}

/* Wraps name in double quotes, doubling any double quote inside. */
static int sqlite_table_exists(struct db_conn *conn, const char *name)
{
	sqlite3_stmt *stmt;
	int exists = -1;

	begin_statement(conn);
	if (sqlite3_prepare_v2(conn->db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1", -1,
			       &stmt, NULL) != SQLITE_OK) {
		set_db_error(conn);
		return -1;
	}
	if (sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
		exists = sqlite3_column_int(stmt, 0) > 0;
	else
		set_db_error(conn);
	sqlite3_finalize(stmt);
	return exists;
}

/* The owner note in a table's CREATE text: what stands between "/" "* " and " *" "/", copied into note. false when none. */
static bool note_of(const char *sql, char *note, size_t len)
{
	const char *start = strstr(sql, "/* " OWNER_NOTE_PREFIX), *end;

	if (!start)
		return false;
	start += 3;
	end = strstr(start, " */");
	if (!end)
		return false;
	snprintf(note, len, "%.*s", (int)(end - start), start);
	return true;
}

static int sqlite_marked_tables(struct db_conn *conn, db_marked_fn found, void *ctx)
{
	sqlite3_stmt *stmt;
	char note[512];
	int rc, n = 0;

	begin_statement(conn);
	if (sqlite3_prepare_v2(conn->db, "SELECT name, sql FROM sqlite_master WHERE type = 'table'", -1, &stmt,
			       NULL) != SQLITE_OK) {
		set_db_error(conn);
		return -1;
	}
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 0);
		const char *sql = (const char *)sqlite3_column_text(stmt, 1);

		if (name && sql && note_of(sql, note, sizeof(note))) {
			found(ctx, name, 0, note);
			n++;
		}
	}
	if (rc != SQLITE_DONE) {
		set_db_error(conn);
		n = -1;
	}
	sqlite3_finalize(stmt);
	return n;
}

/* journal_mode and synchronous as the connection reports them, and its busy timeout (the wait for a lock). */
static int sqlite_settings(struct db_conn *conn, struct db_setting *out, int max)
{
	static const char *const sync_names[] = { "off", "normal", "full", "extra" };
	static const char *const pragmas[][2] = {
		{ "journal_mode", "PRAGMA journal_mode" },
		{ "synchronous", "PRAGMA synchronous" },
	};
	int n = 0;

	for (; n < (int)(sizeof(pragmas) / sizeof(pragmas[0])) && n < max; n++) {
		char value[32];
		long level;

		if (single_text(conn, pragmas[n][1], value, sizeof(value)) < 0)
			return -1;
		level = strtol(value, NULL, 10);
		if (strcmp(pragmas[n][0], "synchronous") == 0 && level >= 0 && level <= 3)
			snprintf(value, sizeof(value), "%s", sync_names[level]);
		snprintf(out[n].name, sizeof(out[n].name), "%s", pragmas[n][0]);
		snprintf(out[n].value, sizeof(out[n].value), "%s", value);
	}
	if (n < max) {
		snprintf(out[n].name, sizeof(out[n].name), "busy_timeout_ms");
		snprintf(out[n].value, sizeof(out[n].value), "%d", conn->busy_timeout_ms);
		n++;
	}
	return n;
}

static int sqlite_set_lock_wait(struct db_conn *conn, int ms)
{
	conn->lock_wait_ms = ms < 0 ? conn->busy_timeout_ms : ms;
	return 0;
}

/* claimbench_identity(): the identity name_session gave the connection, its user data. */
static void identity_function(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_int(ctx, (int)(intptr_t)sqlite3_user_data(ctx));
}

static int sqlite_name_session(struct db_conn *conn, int identity)
{
	if (sqlite3_create_function(conn->db, "claimbench_identity", 0, SQLITE_UTF8, (void *)(intptr_t)identity,
				    identity_function, NULL, NULL) == SQLITE_OK)
		return 0;
	set_db_error(conn);
	return -1;
}

/* SQLite rolls back an open transaction when its connection closes, as after a process died. */
static void sqlite_abandon(struct db_conn *conn)
{
	sqlite_disconnect(conn);
}

static int sqlite_server_pid(const struct db_conn *conn)
{
	(void)conn;
	return -1;
}

static void sqlite_cancel(struct db_conn *conn)
{
	atomic_store_explicit(&conn->cancelled, true, memory_order_relaxed);
	sqlite3_interrupt(conn->db);
}

/* backend_ops.target_note: sqlite_file_note into a malloc'd struct sqlite_file. */
static int sqlite_target_note(const char *target, void **note, char *err, size_t errlen)
{
	struct sqlite_file *f = malloc(sizeof(*f));

	*note = f;
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return sqlite_file_note(target, f, err, errlen);
}

/* backend_ops.target_restore: sqlite_file_restore, then the note freed. */
static int sqlite_target_restore(const char *target, void *note, char *err, size_t errlen)
{
	int rc = sqlite_file_restore(target, note, err, errlen);

	free(note);
	return rc;
}

const struct backend_ops backend_sqlite = {
	.name = "sqlite",
	.title = "SQLite",
	.order = 20,
	.target_prefix = "sqlite:",
	.prefix_alone_throwaway = true,
	.scenario_may_target = true,
	.target_form = "sqlite:PATH",
	.target_note = sqlite_target_note,
	.target_restore = sqlite_target_restore,
	.throwaway = &throwaway_sqlite,
	.no_explore = "its lock is the whole database, so a step that waits for it waits in SQLite's busy handler, not "
		      "on a lock the server can name (docs/explore.md)",
	.no_pressure_phases = "SQLite's pressure phase (a read transaction holding back the -wal's checkpoints) is not "
			      "built for timelines yet",
	.dialect = DIALECT_SQLITE,
	.sql = &sqlite_harness_sql,
	.caps = 0,
	.locking = "SQLite has no row locks: one writer at a time locks the whole database",
	.lock_wait_sentence = "The workers spent %.0f%% of their time waiting for SQLite's write lock.",
	.session_name = "connections",
	.connect = sqlite_connect,
	.disconnect = sqlite_disconnect,
	.prepare = sqlite_prepare,
	.prepare_checked = sqlite_prepare_checked,
	.exec_rows = sqlite_exec_rows,
	.exec = sqlite_exec,
	.query = sqlite_query,
	.query_text = sqlite_query_text,
	.load_jobs = sqlite_load_jobs,
	.error_kind = sqlite_error_kind,
	.error_message = sqlite_error_message,
	.server_version = sqlite_server_version,
	.table_exists = sqlite_table_exists,
	.marked_tables = sqlite_marked_tables,
	.quote_identifier = db_quote_double,
	.settings = sqlite_settings,
	.set_lock_wait = sqlite_set_lock_wait,
	.name_session = sqlite_name_session,
	.abandon = sqlite_abandon,
	.server_pid = sqlite_server_pid,
	.cancel = sqlite_cancel,
	.waits = sqlite_waits,
};
