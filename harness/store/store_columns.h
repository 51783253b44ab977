/*
 * Inside the result store only: the tables whose rows are one struct each (a worker's
 * counters, a bucket of the time series or of the holders, a server sample, a timeline
 * phase, a --verify difference), each table's columns listed once with the field each
 * holds, so that its INSERT and its SELECT are built, bound and read from the one list.
 */
#ifndef CLAIMBENCH_STORE_COLUMNS_H
#define CLAIMBENCH_STORE_COLUMNS_H

#include <stddef.h>

#include "store/store_sql.h"

/* How a field is kept in its column. */
enum field_type {
	FIELD_I64,	/* int64_t */
	FIELD_I32,	/* int32_t */
	FIELD_U64,	/* uint64_t, as the int64 with the same bits (bind_u64) */
	FIELD_U32,	/* uint32_t */
	FIELD_COUNT,	/* uint64_t, METRIC_UNKNOWN as NULL (bind_count) */
	FIELD_KNOWN,	/* int64_t, -1 (SAMPLE_UNKNOWN, TIMELINE_UNKNOWN) as NULL */
	FIELD_DOUBLE,	/* double, NaN as NULL */
	FIELD_CHARS,	/* char[size], not NUL-terminated within it perhaps; read back cut to fit */
};

/* One column and the field of the row's struct it holds. */
struct store_column {
	const char *name;	/* the column's name */
	enum field_type type;	/* how the field is kept */
	size_t offset;		/* where the field is in the row's struct */
	size_t size;		/* the field's size in bytes (FIELD_CHARS: the array's) */
};

/* A table whose rows hold one struct each: the columns bound by hand first (its keys), then the listed ones. */
struct store_table {
	const char *name;			/* the table */
	const char *keys;			/* its columns before the listed ones, bound by the caller ("run_id, position") */
	int n_keys;				/* how many keys names */
	const struct store_column *columns;	/* the columns after them, in the order bound and read */
	size_t n_columns;			/* entries in columns */
};

/* The tables: run_workers, run_series, run_holders, run_samples, run_timeline (after name and kind), run_verify_differences. */
extern const struct store_table store_workers_table, store_series_table, store_holders_table, store_samples_table,
	store_timeline_table, store_differences_table;

/* Room for the SQL store_table_insert_sql and store_table_columns_sql write, NUL included. */
#define STORE_TABLE_SQL 1024

/* Writes t's INSERT of a row into buf: its keys, then its columns, each a parameter. 0, or -1 when buf is too small. */
int store_table_insert_sql(const struct store_table *t, char *buf, size_t size);

/* Writes t's listed columns into buf, comma-separated, each after prefix ("w." or ""). 0, or -1 when buf is too small. */
int store_table_columns_sql(const struct store_table *t, const char *prefix, char *buf, size_t size);

/* Binds the fields of row (t's struct), in t's columns' order, after the keys the caller bound. */
void store_table_bind(struct binder *b, const struct store_table *t, const void *row);

/* Reads t's columns, in their order from c's next column, into the fields of row (t's struct). */
void store_table_read(struct reader *c, const struct store_table *t, void *row);

#endif
