/*
 * Inside the result store only: the handle behind struct store, and the helpers its
 * files share to run SQL, bind parameters in order and read columns in order. SQLite
 * integers are signed 64-bit, so a uint64_t counter is kept as the int64_t with the
 * same bits and read back as it was. NaN and unknown counts are NULL.
 */
#ifndef CLAIMBENCH_STORE_SQL_H
#define CLAIMBENCH_STORE_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store/store.h"

/* An open result store. */
struct store {
	sqlite3 *db;	/* the SQLite connection, migrated to store_schema_version */
	int lock_fd;	/* the file, open for the shared lock an immutable read holds on it; -1: none */
};

/* Describes in err what failed and SQLite's reason. Returns -1. */
int sql_fail(sqlite3 *db, const char *what, char *err, size_t errlen);

/* Runs sql, which returns no rows that matter. 0, or -1 with err naming what. */
int sql_exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t errlen);

/* Compiles sql into *st. 0, or -1 with err. */
int sql_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, char *err, size_t errlen);

/* Reads the one integer row of sql into *out. 0, or -1 with err. */
int sql_query_int(sqlite3 *db, const char *sql, long long *out, char *err, size_t errlen);

/* Reads a result row's columns in order. */
struct reader {
	sqlite3_stmt *st;	/* the statement, on a row */
	int next;		/* the next column's index, from 0 */
};

/* What sql_each_row calls on each row (c on it, from column 0): 0, or -1 with err to stop. */
typedef int (*sql_row_fn)(struct reader *c, void *ctx, char *err, size_t errlen);

/*
 * Runs sql with its one parameter bound to id and calls row(c, ctx, ...) on each row.
 * 0, or -1 with err (naming what when SQLite failed).
 */
int sql_each_row(sqlite3 *db, const char *sql, long long id, sql_row_fn row, void *ctx, const char *what, char *err,
		 size_t errlen);

/* Binds a statement's parameters in order, keeping the first failure. */
struct binder {
	sqlite3_stmt *st;	/* the statement */
	int next;		/* the next parameter's index, from 1 */
	int rc;			/* the first failing sqlite3_bind_* result; SQLITE_OK so far */
};

/* Binds a signed integer. */
void bind_i64(struct binder *b, long long v);

/* Binds an unsigned counter as the int64 with the same bits. */
void bind_u64(struct binder *b, uint64_t v);

/* Binds a metric's count as bind_u64 does; METRIC_UNKNOWN as NULL. */
void bind_count(struct binder *b, uint64_t v);

/* Binds a double; NaN as NULL. */
void bind_dbl(struct binder *b, double v);

/* Binds a copy of s; NULL as NULL. */
void bind_text(struct binder *b, const char *s);

/* Binds at most max bytes of s, which need not be NUL-terminated within them. */
void bind_textn(struct binder *b, const char *s, size_t max);

/* Runs the insert b has bound every parameter of, then readies it for the next row. 0, or -1 with err naming what. */
int insert_row(sqlite3 *db, struct binder *b, const char *what, char *err, size_t errlen);

/* What sql_insert_each calls to bind row i's values from ctx, in order; false leaves row i out. */
typedef bool (*sql_bind_fn)(struct binder *b, const void *ctx, size_t i);

/* Runs the insert sql for each row i < n that bind(b, ctx, i) binds. 0, or -1 with err naming what. */
int sql_insert_each(sqlite3 *db, const char *sql, size_t n, sql_bind_fn bind, const void *ctx, const char *what,
		    char *err, size_t errlen);

/* The next column as a signed integer. */
long long col_i64(struct reader *c);

/* The next column as an unsigned counter (the bits bind_u64 stored). */
uint64_t col_u64(struct reader *c);

/* The next column as a metric's count (the bits bind_count stored); NULL as METRIC_UNKNOWN. */
uint64_t col_count(struct reader *c);

/* The next column as a double; NULL as NaN. */
double col_dbl(struct reader *c);

/* Copies the next column into buf, truncated to fit; NULL as "". */
void col_copy(struct reader *c, char *buf, size_t size);

/* Copies the next column into buf as col_copy does, its control characters shown as '?' (text_clean). */
void col_clean(struct reader *c, char *buf, size_t size);

/* Copies the next column into a string s owns, in *out (NULL for NULL). 0, or -1 when out of memory. */
int col_owned(struct reader *c, struct store_run *s, const char **out);

/*
 * Inserts the invocation row (ctx, and r's header: start, scenario, backend, server, seed)
 * and its server settings; its id in *id. 0, or -1 with err.
 */
int store_insert_invocation(sqlite3 *db, const struct store_context *ctx, const struct invocation_result *r,
			    long long *id, char *err, size_t errlen);

/* Inserts run's timeline phases (run_timeline) for its row run_id. 0, or -1 with err. */
int store_timeline_append(sqlite3 *db, long long run_id, const struct run_result *run, char *err, size_t errlen);

/* Reads the timeline phases of run (its run_id) into run->timeline. 0, or -1 with err. */
int store_timeline_load(sqlite3 *db, struct run_result *run, char *err, size_t errlen);

#endif
