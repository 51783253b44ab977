/* A run's timeline phases (--phase) in the store's run_timeline table: written with the run, read back with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_columns.h"
#include "store/store_sql.h"

/* What a row's binder reads: the run and its row id. */
struct timeline_rows {
	long long id;			/* the run's row in runs */
	const struct run_result *run;	/* the run */
};

/* Binds run_timeline row i: the run's phase i. */
static bool bind_timeline_phase(struct binder *b, const void *ctx, size_t i)
{
	const struct timeline_rows *rows = ctx;
	const struct timeline_phase *p = &rows->run->timeline[i];

	bind_i64(b, rows->id);
	bind_i64(b, (long long)i);
	bind_text(b, p->name);
	bind_text(b, timeline_kind_names[p->kind]);
	store_table_bind(b, &store_timeline_table, p);
	return true;
}

int store_timeline_append(sqlite3 *db, long long run_id, const struct run_result *run, char *err, size_t errlen)
{
	struct timeline_rows rows = { .id = run_id, .run = run };
	char sql[STORE_TABLE_SQL];

	if (store_table_insert_sql(&store_timeline_table, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "storing the timeline's phases: too many columns");
		return -1;
	}
	return sql_insert_each(db, sql, run->timeline ? run->n_timeline : 0, bind_timeline_phase, &rows,
			       "storing the timeline's phases", err, errlen);
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
	store_table_read(c, &store_timeline_table, &p);
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
	char columns[STORE_TABLE_SQL], sql[2 * STORE_TABLE_SQL];

	if (store_table_columns_sql(&store_timeline_table, "", columns, sizeof(columns)) < 0) {
		snprintf(err, errlen, "reading the timeline's phases: too many columns");
		return -1;
	}
	snprintf(sql, sizeof(sql), "SELECT name, kind, %s FROM run_timeline WHERE run_id = ? ORDER BY position", columns);
	return sql_each_row(db, sql, run->run_id, timeline_row, run, "reading the timeline's phases", err, errlen);
}
