/* The columns of the tables whose rows are one struct each, and the SQL, binding and reading they give (store_columns.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/metric_table.h"
#include "model/server_sample.h"
#include "model/timeline.h"
#include "store/store_columns.h"

/* FIELD_KNOWN's NULL stands for both. */
_Static_assert(SAMPLE_UNKNOWN == -1 && TIMELINE_UNKNOWN == -1, "FIELD_KNOWN keeps -1 as NULL");

/* A column name holding member of struct type, kept as field_type. */
#define COLUMN(column, field_type, type, member) \
	{ column, field_type, offsetof(type, member), sizeof(((type *)0)->member) }

/* A column holding wait class k's count of a server sample. */
#define WAIT_COLUMN(column, k) \
	{ column, FIELD_U32, offsetof(struct server_sample, waits) + (k) * sizeof(uint32_t), sizeof(uint32_t) }

/* The number of entries of an array. */
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* run_workers: after run_id and worker, a worker's counters. */
static const struct store_column worker_columns[] = {
	COLUMN("completed", FIELD_U64, struct worker_stats, completed),
	COLUMN("claims", FIELD_U64, struct worker_stats, claims),
	COLUMN("empty", FIELD_U64, struct worker_stats, empty),
	COLUMN("retries", FIELD_U64, struct worker_stats, retries),
	COLUMN("give_ups", FIELD_U64, struct worker_stats, give_ups),
	COLUMN("busy_ns", FIELD_I64, struct worker_stats, busy_ns),
	COLUMN("reconnects", FIELD_U64, struct worker_stats, reconnects),
};

/* run_series: after run_id, a bucket of the time series. */
static const struct store_column series_columns[] = {
	COLUMN("bucket_ms", FIELD_I64, struct series_point, t_ms),
	COLUMN("completed", FIELD_U64, struct series_point, completed),
	COLUMN("empty_claims", FIELD_U64, struct series_point, empty_claims),
	COLUMN("errors", FIELD_U64, struct series_point, errors),
	COLUMN("enqueued", FIELD_U64, struct series_point, enqueued),
	COLUMN("backlog", FIELD_U64, struct series_point, backlog),
	COLUMN("first_completed", FIELD_COUNT, struct series_point, first_completed),
};

/* run_holders: after run_id, one resource in one bucket of the holders series. */
static const struct store_column holder_columns[] = {
	COLUMN("bucket_ms", FIELD_I64, struct holder_point, t_ms),
	COLUMN("resource", FIELD_I32, struct holder_point, resource),
	COLUMN("holders", FIELD_U32, struct holder_point, holders),
	COLUMN("waiting", FIELD_U32, struct holder_point, waiting),
};

/* run_samples: after run_id, one sample of the server. */
static const struct store_column sample_columns[] = {
	COLUMN("t_ms", FIELD_I64, struct server_sample, t_ms),
	WAIT_COLUMN("wait_cpu", WAIT_CPU),
	WAIT_COLUMN("wait_lock", WAIT_LOCK),
	WAIT_COLUMN("wait_lwlock", WAIT_LWLOCK),
	WAIT_COLUMN("wait_io", WAIT_IO),
	WAIT_COLUMN("wait_client", WAIT_CLIENT),
	WAIT_COLUMN("wait_other", WAIT_OTHER),
	COLUMN("live_tuples", FIELD_KNOWN, struct server_sample, live_tuples),
	COLUMN("dead_tuples", FIELD_KNOWN, struct server_sample, dead_tuples),
	COLUMN("heap_blocks", FIELD_KNOWN, struct server_sample, heap_blocks),
	COLUMN("index_blocks", FIELD_KNOWN, struct server_sample, index_blocks),
	COLUMN("vacuums", FIELD_KNOWN, struct server_sample, vacuums),
	COLUMN("autovacuums", FIELD_KNOWN, struct server_sample, autovacuums),
	COLUMN("xmin_age", FIELD_KNOWN, struct server_sample, xmin_age),
	COLUMN("wal_bytes", FIELD_KNOWN, struct server_sample, wal_bytes),
	COLUMN("claims", FIELD_U64, struct server_sample, claims),
};

/* run_timeline: after run_id, position, name and kind (which the caller binds and reads), a phase's figures. */
static const struct store_column timeline_columns[] = {
	COLUMN("arg", FIELD_DOUBLE, struct timeline_phase, arg),
	COLUMN("start_ns", FIELD_I64, struct timeline_phase, start_ns),
	COLUMN("end_ns", FIELD_I64, struct timeline_phase, end_ns),
	COLUMN("throughput_median", FIELD_DOUBLE, struct timeline_phase, throughput_median),
	COLUMN("throughput_p10", FIELD_DOUBLE, struct timeline_phase, throughput_p10),
	COLUMN("latency_p50_ms", FIELD_DOUBLE, struct timeline_phase, latency_p50_ms),
	COLUMN("latency_p99_ms", FIELD_DOUBLE, struct timeline_phase, latency_p99_ms),
	COLUMN("latency_max_ms", FIELD_DOUBLE, struct timeline_phase, latency_max_ms),
	COLUMN("depth_start", FIELD_I64, struct timeline_phase, depth_start),
	COLUMN("depth_end", FIELD_I64, struct timeline_phase, depth_end),
	COLUMN("depth_max", FIELD_I64, struct timeline_phase, depth_max),
	COLUMN("dead_start", FIELD_KNOWN, struct timeline_phase, dead_start),
	COLUMN("dead_end", FIELD_KNOWN, struct timeline_phase, dead_end),
	COLUMN("xmin_age_max", FIELD_KNOWN, struct timeline_phase, xmin_age_max),
	COLUMN("vacuums", FIELD_KNOWN, struct timeline_phase, vacuums),
	COLUMN("autovacuums", FIELD_KNOWN, struct timeline_phase, autovacuums),
	COLUMN("errors", FIELD_I64, struct timeline_phase, errors),
	COLUMN("arrivals", FIELD_I64, struct timeline_phase, arrivals),
	COLUMN("completed", FIELD_I64, struct timeline_phase, completed),
	COLUMN("recovery_s", FIELD_DOUBLE, struct timeline_phase, recovery_s),
	COLUMN("readers_seen", FIELD_KNOWN, struct timeline_phase, readers_seen),
	COLUMN("readers_repeatable", FIELD_KNOWN, struct timeline_phase, readers_repeatable),
	COLUMN("reader_scans", FIELD_KNOWN, struct timeline_phase, reader_scans),
	COLUMN("xid", FIELD_KNOWN, struct timeline_phase, xid),
	COLUMN("writer_rows", FIELD_KNOWN, struct timeline_phase, writer_rows),
	COLUMN("faults", FIELD_I64, struct timeline_phase, faults),
	COLUMN("pool_held", FIELD_KNOWN, struct timeline_phase, pool_held),
	COLUMN("pool_refused", FIELD_KNOWN, struct timeline_phase, pool_refused),
	COLUMN("pool_seen", FIELD_KNOWN, struct timeline_phase, pool_seen),
};

/* run_verify_differences: after run_id and position, one of --verify's differences. */
static const struct store_column difference_columns[] = {
	COLUMN("figure", FIELD_CHARS, struct verify_difference, figure),
	COLUMN("ledger", FIELD_I64, struct verify_difference, ledger),
	COLUMN("server", FIELD_I64, struct verify_difference, server),
	COLUMN("jobs", FIELD_CHARS, struct verify_difference, jobs),
};

const struct store_table store_workers_table = { "run_workers", "run_id, worker", 2, worker_columns,
						 COUNT_OF(worker_columns) };
const struct store_table store_series_table = { "run_series", "run_id", 1, series_columns, COUNT_OF(series_columns) };
const struct store_table store_holders_table = { "run_holders", "run_id", 1, holder_columns, COUNT_OF(holder_columns) };
const struct store_table store_samples_table = { "run_samples", "run_id", 1, sample_columns, COUNT_OF(sample_columns) };
const struct store_table store_timeline_table = { "run_timeline", "run_id, position, name, kind", 4, timeline_columns,
						  COUNT_OF(timeline_columns) };
const struct store_table store_differences_table = { "run_verify_differences", "run_id, position", 2,
						     difference_columns, COUNT_OF(difference_columns) };

/* Appends text to buf, which holds *used bytes of size. 0, or -1 when it does not fit. */
static int append(char *buf, size_t size, size_t *used, const char *text)
{
	int n = snprintf(buf + *used, size - *used, "%s", text);

	if (n < 0 || (size_t)n >= size - *used)
		return -1;
	*used += (size_t)n;
	return 0;
}

int store_table_columns_sql(const struct store_table *t, const char *prefix, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n_columns; i++)
		if ((i && append(buf, size, &used, ", ") < 0) || append(buf, size, &used, prefix) < 0 ||
		    append(buf, size, &used, t->columns[i].name) < 0)
			return -1;
	return 0;
}

int store_table_insert_sql(const struct store_table *t, char *buf, size_t size)
{
	char columns[STORE_TABLE_SQL];
	size_t used;
	int n;

	if (store_table_columns_sql(t, "", columns, sizeof(columns)) < 0)
		return -1;
	n = snprintf(buf, size, "INSERT INTO %s (%s, %s) VALUES (", t->name, t->keys, columns);
	if (n < 0 || (size_t)n >= size)
		return -1;
	used = (size_t)n;
	for (size_t i = 0; i < (size_t)t->n_keys + t->n_columns; i++)
		if (append(buf, size, &used, i ? ", ?" : "?") < 0)
			return -1;
	return append(buf, size, &used, ")");
}

void store_table_bind(struct binder *b, const struct store_table *t, const void *row)
{
	for (const struct store_column *col = t->columns; col < t->columns + t->n_columns; col++) {
		const void *field = (const char *)row + col->offset;
		int64_t i64;
		int32_t i32;
		uint64_t u64;
		uint32_t u32;
		double dbl;

		switch (col->type) {
		case FIELD_I64:
			memcpy(&i64, field, sizeof(i64));
			bind_i64(b, i64);
			break;
		case FIELD_I32:
			memcpy(&i32, field, sizeof(i32));
			bind_i64(b, i32);
			break;
		case FIELD_U64:
			memcpy(&u64, field, sizeof(u64));
			bind_u64(b, u64);
			break;
		case FIELD_U32:
			memcpy(&u32, field, sizeof(u32));
			bind_u64(b, u32);
			break;
		case FIELD_COUNT:
			memcpy(&u64, field, sizeof(u64));
			bind_count(b, u64);
			break;
		case FIELD_KNOWN:
			memcpy(&i64, field, sizeof(i64));
			bind_count(b, i64 == -1 ? METRIC_UNKNOWN : (uint64_t)i64);
			break;
		case FIELD_DOUBLE:
			memcpy(&dbl, field, sizeof(dbl));
			bind_dbl(b, dbl);
			break;
		case FIELD_CHARS:
			bind_textn(b, field, col->size);
			break;
		}
	}
}

void store_table_read(struct reader *c, const struct store_table *t, void *row)
{
	for (const struct store_column *col = t->columns; col < t->columns + t->n_columns; col++) {
		void *field = (char *)row + col->offset;
		int64_t i64;
		int32_t i32;
		uint64_t u64;
		uint32_t u32;
		double dbl;

		switch (col->type) {
		case FIELD_I64:
			i64 = col_i64(c);
			memcpy(field, &i64, sizeof(i64));
			break;
		case FIELD_I32:
			i32 = (int32_t)col_i64(c);
			memcpy(field, &i32, sizeof(i32));
			break;
		case FIELD_U64:
			u64 = col_u64(c);
			memcpy(field, &u64, sizeof(u64));
			break;
		case FIELD_U32:
			u32 = (uint32_t)col_u64(c);
			memcpy(field, &u32, sizeof(u32));
			break;
		case FIELD_COUNT:
			u64 = col_count(c);
			memcpy(field, &u64, sizeof(u64));
			break;
		case FIELD_KNOWN:
			u64 = col_count(c);
			i64 = u64 == METRIC_UNKNOWN ? -1 : (int64_t)u64;
			memcpy(field, &i64, sizeof(i64));
			break;
		case FIELD_DOUBLE:
			dbl = col_dbl(c);
			memcpy(field, &dbl, sizeof(dbl));
			break;
		case FIELD_CHARS:
			col_copy(c, field, col->size);
			break;
		}
	}
}
