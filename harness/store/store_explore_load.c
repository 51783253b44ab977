/* Reading an invocation's explores back from the result store, their texts cleaned (col_clean). */
#include <stdlib.h>
#include <string.h>

#include "store/store_explore.h"
#include "store/store_sql.h"

/* Grows *array of n entries of size bytes by one zeroed entry. 0, or -1 with err. */
static int grow_one(void **array, size_t n, size_t size, char *err, size_t errlen)
{
	void *grown = realloc(*array, (n + 1) * size);

	if (!grown) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset((char *)grown + n * size, 0, size);
	*array = grown;
	return 0;
}

/* Notes in the bool at ctx that the invocation's row was read. Always 0. */
static int found_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	(void)c;
	(void)err;
	(void)errlen;
	*(bool *)ctx = true;
	return 0;
}

/* Adds an explores row to the struct store_explore_list at ctx. 0, or -1 with err. */
static int explore_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct store_explore_list *list = ctx;
	struct store_explore *x;

	if (grow_one((void **)&list->items, list->n, sizeof(*list->items), err, errlen) < 0)
		return -1;
	x = &list->items[list->n++];
	x->id = col_i64(c);
	x->invocation_id = col_i64(c);
	col_clean(c, x->recorded_at, sizeof(x->recorded_at));
	col_clean(c, x->strategy, sizeof(x->strategy));
	col_clean(c, x->mode, sizeof(x->mode));
	x->workers = (int)col_i64(c);
	x->claims = (int)col_i64(c);
	x->jobs = (int)col_i64(c);
	x->crashes = col_i64(c) != 0;
	x->lease_expiry = col_i64(c) != 0;
	x->max_steps = (int)col_i64(c);
	col_clean(c, x->search, sizeof(x->search));
	x->schedules = (long)col_i64(c);
	x->space = col_dbl(c);
	x->sampled = sqlite3_column_type(c->st, c->next) != SQLITE_NULL;
	x->seed = col_u64(c);
	x->bounded = (long)col_i64(c);
	x->blocked = (long)col_i64(c);
	x->violating = (long)col_i64(c);
	x->redelivered = (long)col_i64(c);
	x->fenced = (long)col_i64(c);
	x->seconds = col_dbl(c);
	col_clean(c, x->shown_trace, sizeof(x->shown_trace));
	col_clean(c, x->shown_why, sizeof(x->shown_why));
	x->shown_blocked = col_i64(c) != 0;
	x->shown_redeliveries = col_u64(c);
	x->shown_fenced = col_u64(c);
	return 0;
}

/* Adds an explore_findings row to the struct store_explore at ctx; past STORE_EXPLORE_FINDINGS left out. Always 0. */
static int finding_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct store_explore *x = ctx;
	struct store_explore_finding *f;

	(void)err;
	(void)errlen;
	if (x->n_findings == STORE_EXPLORE_FINDINGS)
		return 0;
	f = &x->findings[x->n_findings++];
	col_clean(c, f->name, sizeof(f->name));
	f->violation = col_i64(c) != 0;
	f->schedules = (long)col_i64(c);
	f->in_shown = col_u64(c);
	return 0;
}

/* Adds an explore_events row to the struct store_explore at ctx. 0, or -1 with err. */
static int event_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct store_explore *x = ctx;
	struct store_explore_event *e;

	if (grow_one((void **)&x->events, x->n_events, sizeof(*x->events), err, errlen) < 0)
		return -1;
	e = &x->events[x->n_events++];
	if (sqlite3_column_type(c->st, c->next) == SQLITE_NULL) {
		e->worker = -1;
		c->next++;
	} else {
		e->worker = (int)col_i64(c);
	}
	col_clean(c, e->kind, sizeof(e->kind));
	col_clean(c, e->statement, sizeof(e->statement));
	e->blocked = col_i64(c) != 0;
	e->returned = sqlite3_column_type(c->st, c->next) != SQLITE_NULL;
	col_clean(c, e->result, sizeof(e->result));
	return 0;
}

/* Adds an explore_expects row to the struct store_explore at ctx. 0, or -1 with err. */
static int expect_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct store_explore *x = ctx;
	struct store_explore_expect *v;

	if (grow_one((void **)&x->expects, x->n_expects, sizeof(*x->expects), err, errlen) < 0)
		return -1;
	v = &x->expects[x->n_expects++];
	col_clean(c, v->source, sizeof(v->source));
	col_clean(c, v->text, sizeof(v->text));
	v->value = (long)col_i64(c);
	v->holds = col_i64(c) != 0;
	return 0;
}

int store_explore_load(struct store *s, long long invocation_id, struct store_explore_list *out, char *err,
		       size_t errlen)
{
	static const char invocation_sql[] = "SELECT id FROM invocations WHERE id = ?";
	static const char explores_sql[] =
		"SELECT id, invocation_id, recorded_at, strategy, claim_mode, workers, claims, jobs, crashes, lease_expiry,"
		" max_steps, search, schedules, space, seed, bounded, blocked, violating, redelivered, fenced, seconds,"
		" shown_trace, shown_why, shown_blocked, shown_redeliveries, shown_fenced"
		" FROM explores WHERE invocation_id = ? ORDER BY id";
	static const char findings_sql[] =
		"SELECT finding, violation, schedules, in_shown FROM explore_findings WHERE explore_id = ?";
	static const char events_sql[] =
		"SELECT worker, kind, statement, blocked, result FROM explore_events WHERE explore_id = ? ORDER BY position";
	static const char expects_sql[] =
		"SELECT source, expectation, value, holds FROM explore_expects WHERE explore_id = ? ORDER BY position";
	bool found = false;

	memset(out, 0, sizeof(*out));
	if (sql_each_row(s->db, invocation_sql, invocation_id, found_row, &found, "reading the invocation", err,
			 errlen) < 0)
		return -1;
	if (!found)
		return 1;
	if (sql_each_row(s->db, explores_sql, invocation_id, explore_row, out, "reading the explores", err, errlen) < 0)
		goto fail;
	for (size_t i = 0; i < out->n; i++) {
		struct store_explore *x = &out->items[i];

		if (sql_each_row(s->db, findings_sql, x->id, finding_row, x, "reading the explore's findings", err,
				 errlen) < 0 ||
		    sql_each_row(s->db, events_sql, x->id, event_row, x, "reading the schedule shown", err, errlen) < 0 ||
		    sql_each_row(s->db, expects_sql, x->id, expect_row, x, "reading the expectations' verdicts", err,
				 errlen) < 0)
			goto fail;
	}
	return 0;
fail:
	store_explore_list_free(out);
	return -1;
}

void store_explore_list_free(struct store_explore_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		free(list->items[i].events);
		free(list->items[i].expects);
	}
	free(list->items);
	memset(list, 0, sizeof(*list));
}
