/* A run's timeline phases (--phase) in the store's run_timeline table: written with the run, read back with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/metric_table.h"
#include "store/store_sql.h"

/* run_timeline's columns after run_id and position, in the order written and read. */
#define TIMELINE_COLUMNS                                                                                       \
	"name, kind, arg, start_ns, end_ns, throughput_median, throughput_p10, latency_p50_ms, latency_p99_ms, " \
	"latency_max_ms, depth_start, depth_end, depth_max, dead_start, dead_end, xmin_age_max, errors, arrivals, " \
	"completed, recovery_s, readers_seen, readers_repeatable, reader_scans, xid"

/* What a row's binder reads: the run and its row id. */
struct timeline_rows {
	long long id;			/* the run's row in runs */
	const struct run_result *run;	/* the run */
};

/* Binds a phase's count: NULL when not known. */
static void bind_known(struct binder *b, int64_t v)
{
	bind_count(b, v == TIMELINE_UNKNOWN ? METRIC_UNKNOWN : (uint64_t)v);
}

/* Binds run_timeline row i: the run's phase i. */
static bool bind_timeline_phase(struct binder *b, const void *ctx, size_t i)
{
	const struct timeline_rows *rows = ctx;
	const struct timeline_phase *p = &rows->run->timeline[i];

	bind_i64(b, rows->id);
	bind_i64(b, (long long)i);
	bind_text(b, p->name);
	bind_text(b, timeline_kind_names[p->kind]);
	bind_dbl(b, p->arg);
	bind_i64(b, p->start_ns);
	bind_i64(b, p->end_ns);
	bind_dbl(b, p->throughput_median);
	bind_dbl(b, p->throughput_p10);
	bind_dbl(b, p->latency_p50_ms);
	bind_dbl(b, p->latency_p99_ms);
	bind_dbl(b, p->latency_max_ms);
	bind_i64(b, p->depth_start);
	bind_i64(b, p->depth_end);
	bind_i64(b, p->depth_max);
	bind_known(b, p->dead_start);
	bind_known(b, p->dead_end);
	bind_known(b, p->xmin_age_max);
	bind_i64(b, p->errors);
	bind_i64(b, p->arrivals);
	bind_i64(b, p->completed);
	bind_dbl(b, p->recovery_s);
	bind_known(b, p->readers_seen);
	bind_known(b, p->readers_repeatable);
	bind_known(b, p->reader_scans);
	bind_known(b, p->xid);
	return true;
}

int store_timeline_append(sqlite3 *db, long long run_id, const struct run_result *run, char *err, size_t errlen)
{
	static const char sql[] = "INSERT INTO run_timeline (run_id, position, " TIMELINE_COLUMNS ") VALUES "
				  "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	struct timeline_rows rows = { .id = run_id, .run = run };

	return sql_insert_each(db, sql, run->timeline ? run->n_timeline : 0, bind_timeline_phase, &rows,
			       "storing the timeline's phases", err, errlen);
}

/* The next column as a phase's count: NULL as TIMELINE_UNKNOWN. */
static int64_t col_known(struct reader *c)
{
	uint64_t v = col_count(c);

	return v == METRIC_UNKNOWN ? TIMELINE_UNKNOWN : (int64_t)v;
}

/* Adds a run_timeline row to the struct run_result at ctx; a kind this binary does not know is left out. 0, or -1 with err. */
static int timeline_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	struct timeline_phase p = { .kind = TIMELINE_CLEAN }, *grown;
	char kind[40];
	int k;

	col_clean(c, p.name, sizeof(p.name));
	col_copy(c, kind, sizeof(kind));
	for (k = 0; k < TIMELINE_KIND_COUNT && strcmp(kind, timeline_kind_names[k]) != 0; k++)
		;
	if (k == TIMELINE_KIND_COUNT)
		return 0;
	p.kind = (enum timeline_kind)k;
	p.arg = col_dbl(c);
	p.start_ns = col_i64(c);
	p.end_ns = col_i64(c);
	p.throughput_median = col_dbl(c);
	p.throughput_p10 = col_dbl(c);
	p.latency_p50_ms = col_dbl(c);
	p.latency_p99_ms = col_dbl(c);
	p.latency_max_ms = col_dbl(c);
	p.depth_start = col_i64(c);
	p.depth_end = col_i64(c);
	p.depth_max = col_i64(c);
	p.dead_start = col_known(c);
	p.dead_end = col_known(c);
	p.xmin_age_max = col_known(c);
	p.errors = col_i64(c);
	p.arrivals = col_i64(c);
	p.completed = col_i64(c);
	p.recovery_s = col_dbl(c);
	p.readers_seen = col_known(c);
	p.readers_repeatable = col_known(c);
	p.reader_scans = col_known(c);
	p.xid = col_known(c);
	if (run->n_timeline == TIMELINE_MAX_PHASES)
		return 0;
	grown = realloc(run->timeline, (run->n_timeline + 1) * sizeof(*run->timeline));
	if (!grown) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	run->timeline = grown;
	run->timeline[run->n_timeline++] = p;
	return 0;
}

int store_timeline_load(sqlite3 *db, struct run_result *run, char *err, size_t errlen)
{
	static const char sql[] = "SELECT " TIMELINE_COLUMNS " FROM run_timeline WHERE run_id = ? ORDER BY position";

	return sql_each_row(db, sql, run->run_id, timeline_row, run, "reading the timeline's phases", err, errlen);
}
