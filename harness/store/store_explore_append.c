/* Appending what an explore found to the result store, in one transaction; every value through a bound parameter. */
#include "store/store_explore.h"
#include "store/store_sql.h"

/* Binds explore_findings row i: finding i of the record at ctx. */
static bool bind_finding(struct binder *b, const void *ctx, size_t i)
{
	const struct store_explore *x = ctx;
	const struct store_explore_finding *f = &x->findings[i];

	bind_i64(b, x->id);
	bind_textn(b, f->name, sizeof(f->name));
	bind_i64(b, f->violation);
	bind_i64(b, f->schedules);
	bind_u64(b, f->in_shown);
	return true;
}

/* Binds explore_events row i: event i of the shown schedule; the harness's worker and a result not returned as NULL. */
static bool bind_event(struct binder *b, const void *ctx, size_t i)
{
	const struct store_explore *x = ctx;
	const struct store_explore_event *e = &x->events[i];

	bind_i64(b, x->id);
	bind_i64(b, (long long)i);
	if (e->worker >= 0)
		bind_i64(b, e->worker);
	else
		bind_text(b, NULL);
	bind_textn(b, e->kind, sizeof(e->kind));
	bind_textn(b, e->statement, sizeof(e->statement));
	bind_i64(b, e->blocked);
	if (e->returned)
		bind_textn(b, e->result, sizeof(e->result));
	else
		bind_text(b, NULL);
	return true;
}

/* Binds explore_expects row i: verdict i. */
static bool bind_expect(struct binder *b, const void *ctx, size_t i)
{
	const struct store_explore *x = ctx;
	const struct store_explore_expect *v = &x->expects[i];

	bind_i64(b, x->id);
	bind_i64(b, (long long)i);
	bind_textn(b, v->source, sizeof(v->source));
	bind_textn(b, v->text, sizeof(v->text));
	bind_i64(b, v->value);
	bind_i64(b, v->holds);
	return true;
}

/* Inserts x's row in explores under invocation_id; x->id set. 0, or -1 with err. */
static int insert_explore(sqlite3 *db, long long invocation_id, struct store_explore *x, char *err, size_t errlen)
{
	static const char sql[] =
		"INSERT INTO explores (invocation_id, strategy, claim_mode, workers, claims, jobs, crashes, lease_expiry,"
		" max_steps, search, schedules, space, seed, bounded, blocked, violating, redelivered, fenced, seconds,"
		" shown_trace, shown_why, shown_blocked, shown_redeliveries, shown_fenced)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	struct binder b = { .next = 1 };
	int rc;

	if (sql_prepare(db, sql, &b.st, err, errlen) < 0)
		return -1;
	bind_i64(&b, invocation_id);
	bind_textn(&b, x->strategy, sizeof(x->strategy));
	bind_textn(&b, x->mode, sizeof(x->mode));
	bind_i64(&b, x->workers);
	bind_i64(&b, x->claims);
	bind_i64(&b, x->jobs);
	bind_i64(&b, x->crashes);
	bind_i64(&b, x->lease_expiry);
	bind_i64(&b, x->max_steps);
	bind_textn(&b, x->search, sizeof(x->search));
	bind_i64(&b, x->schedules);
	bind_dbl(&b, x->space);
	if (x->sampled)
		bind_u64(&b, x->seed);
	else
		bind_text(&b, NULL);
	bind_i64(&b, x->bounded);
	bind_i64(&b, x->blocked);
	bind_i64(&b, x->violating);
	bind_i64(&b, x->redelivered);
	bind_i64(&b, x->fenced);
	bind_dbl(&b, x->seconds);
	bind_text(&b, x->shown_trace[0] ? x->shown_trace : NULL);
	bind_text(&b, x->shown_trace[0] ? x->shown_why : NULL);
	bind_i64(&b, x->shown_blocked);
	bind_u64(&b, x->shown_redeliveries);
	bind_u64(&b, x->shown_fenced);
	rc = insert_row(db, &b, "storing the explore", err, errlen);
	sqlite3_finalize(b.st);
	if (rc == 0)
		x->id = sqlite3_last_insert_rowid(db);
	return rc;
}

int store_explore_append(struct store *s, struct store_session *session, const struct store_context *ctx,
			 const struct invocation_result *r, struct store_explore *x, char *err, size_t errlen)
{
	static const char findings_sql[] =
		"INSERT INTO explore_findings (explore_id, finding, violation, schedules, in_shown) VALUES (?, ?, ?, ?, ?)";
	static const char events_sql[] =
		"INSERT INTO explore_events (explore_id, position, worker, kind, statement, blocked, result)"
		" VALUES (?, ?, ?, ?, ?, ?, ?)";
	static const char expects_sql[] =
		"INSERT INTO explore_expects (explore_id, position, source, expectation, value, holds)"
		" VALUES (?, ?, ?, ?, ?, ?)";
	long long invocation_id = session->invocation_id;
	sqlite3 *db = s->db;

	if (sql_exec(db, "BEGIN IMMEDIATE", "storing the explore", err, errlen) < 0)
		return -1;
	if (!invocation_id && store_insert_invocation(db, ctx, r, &invocation_id, err, errlen) < 0)
		goto rollback;
	if (insert_explore(db, invocation_id, x, err, errlen) < 0 ||
	    sql_insert_each(db, findings_sql, (size_t)x->n_findings, bind_finding, x, "storing the explore's findings",
			    err, errlen) < 0 ||
	    sql_insert_each(db, events_sql, x->n_events, bind_event, x, "storing the schedule shown", err, errlen) < 0 ||
	    sql_insert_each(db, expects_sql, x->n_expects, bind_expect, x, "storing the expectations' verdicts", err,
			    errlen) < 0 ||
	    sql_exec(db, "COMMIT", "storing the explore", err, errlen) < 0)
		goto rollback;
	session->invocation_id = invocation_id;
	x->invocation_id = invocation_id;
	return 0;
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	x->id = 0;
	return -1;
}
