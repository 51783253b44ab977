/* Appending a run to the result store, in one transaction; every value through a bound parameter. */
#include <stdlib.h>

#include "store/run_columns.h"
#include "store/store_sql.h"

/* Inserts the invocation row and its settings; its id in *id. 0, or -1 with err. */
static int insert_invocation(sqlite3 *db, const struct store_context *ctx, const struct report *r, long long *id,
			     char *err, size_t errlen)
{
	static const char invocation_sql[] =
		"INSERT INTO invocations (started_at, host, claimbench_version, git_revision, scenario,"
		" scenario_text, backend, server_version, seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
	static const char setting_sql[] =
		"INSERT INTO invocation_settings (invocation_id, position, name, value) VALUES (?, ?, ?, ?)";
	struct binder b = { .next = 1 };
	int ret = -1;

	if (sql_prepare(db, invocation_sql, &b.st, err, errlen) < 0)
		goto out;
	bind_textn(&b, r->started_at, sizeof(r->started_at));
	bind_text(&b, ctx->host);
	bind_text(&b, ctx->version);
	bind_text(&b, ctx->git_revision);
	bind_text(&b, r->scenario);
	bind_text(&b, ctx->scenario_text);
	bind_text(&b, r->backend);
	bind_textn(&b, r->server_version, sizeof(r->server_version));
	bind_u64(&b, r->seed);
	if (insert_row(db, &b, "storing the invocation", err, errlen) < 0)
		goto out;
	*id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(b.st);

	if (sql_prepare(db, setting_sql, &b.st, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < r->n_settings && i < DB_MAX_SETTINGS; i++) {
		bind_i64(&b, *id);
		bind_i64(&b, (long long)i);
		bind_textn(&b, r->settings[i].name, sizeof(r->settings[i].name));
		bind_textn(&b, r->settings[i].value, sizeof(r->settings[i].value));
		if (insert_row(db, &b, "storing the server settings", err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(b.st);
	return ret;
}

/* Inserts the run row: its descriptors and every metric (run_columns.h); its id in *id. 0, or -1 with err. */
static int insert_run(sqlite3 *db, long long invocation_id, const struct run_result *run, long long *id, char *err,
		      size_t errlen)
{
	char sql[2 * RUN_COLUMNS_SQL + 64], columns[RUN_COLUMNS_SQL], values[RUN_COLUMNS_SQL];
	struct binder b = { .next = 1 };
	int ret = -1;

	if (run_columns_sql(columns, sizeof(columns), "", false) < 0 ||
	    run_columns_sql(values, sizeof(values), "", true) < 0) {
		snprintf(err, errlen, "storing the run: too many columns");
		return -1;
	}
	snprintf(sql, sizeof(sql), "INSERT INTO runs (invocation_id, %s) VALUES (?, %s)", columns, values);
	if (sql_prepare(db, sql, &b.st, err, errlen) < 0)
		goto out;
	bind_i64(&b, invocation_id);
	run_columns_bind(&b, run);
	if (insert_row(db, &b, "storing the run", err, errlen) < 0)
		goto out;
	*id = sqlite3_last_insert_rowid(db);
	ret = 0;
out:
	sqlite3_finalize(b.st);
	return ret;
}

/* Inserts the run's parameters, in order. 0, or -1 with err. */
static int insert_params(sqlite3 *db, long long run_id, const struct run_result *run, char *err, size_t errlen)
{
	static const char sql[] = "INSERT INTO run_params (run_id, position, name, value) VALUES (?, ?, ?, ?)";
	struct binder b = { .next = 1 };
	int ret = -1;

	if (sql_prepare(db, sql, &b.st, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < run->n_params; i++) {
		bind_i64(&b, run_id);
		bind_i64(&b, (long long)i);
		bind_text(&b, run->params[i].name);
		bind_text(&b, run->params[i].value);
		if (insert_row(db, &b, "storing the run's parameters", err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(b.st);
	return ret;
}

/* Inserts each worker's counters and its errors by kind, zeros too. 0, or -1 with err. */
static int insert_workers(sqlite3 *db, long long run_id, const struct run_result *run, char *err, size_t errlen)
{
	static const char worker_sql[] =
		"INSERT INTO run_workers (run_id, worker, completed, claims, empty, retries, give_ups, busy_ns)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
	static const char errors_sql[] = "INSERT INTO worker_errors (run_id, worker, kind, count) VALUES (?, ?, ?, ?)";
	struct binder b = { .next = 1 }, e = { .next = 1 };
	const struct worker_stats *w;
	int ret = -1;

	if (sql_prepare(db, worker_sql, &b.st, err, errlen) < 0 || sql_prepare(db, errors_sql, &e.st, err, errlen) < 0)
		goto out;
	for (int i = 0; run->per_worker && i < run->workers; i++) {
		w = &run->per_worker[i];
		bind_i64(&b, run_id);
		bind_i64(&b, i);
		bind_u64(&b, w->completed);
		bind_u64(&b, w->claims);
		bind_u64(&b, w->empty);
		bind_u64(&b, w->retries);
		bind_u64(&b, w->give_ups);
		bind_i64(&b, w->busy_ns);
		if (insert_row(db, &b, "storing a worker's counters", err, errlen) < 0)
			goto out;
		for (int k = 0; k < ERR_KIND_COUNT; k++) {
			bind_i64(&e, run_id);
			bind_i64(&e, i);
			bind_text(&e, error_kind_name((enum error_kind)k));
			bind_u64(&e, w->errors[k]);
			if (insert_row(db, &e, "storing a worker's errors", err, errlen) < 0)
				goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(e.st);
	sqlite3_finalize(b.st);
	return ret;
}

/* Merges the workers' claim-latency histograms and inserts the non-empty bins. 0, or -1 with err. */
static int insert_latency_bins(sqlite3 *db, long long run_id, const struct run_result *run, char *err,
			       size_t errlen)
{
	static const char sql[] = "INSERT INTO run_latency_bins (run_id, bin_upper_ns, count) VALUES (?, ?, ?)";
	struct histogram *merged;
	struct binder b = { .next = 1 };
	int i, ret = -1;

	merged = malloc(sizeof(*merged));
	if (!merged) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	hist_init(merged);
	for (i = 0; run->per_worker && i < run->workers; i++)
		hist_merge(merged, &run->per_worker[i].claim_latency);
	if (sql_prepare(db, sql, &b.st, err, errlen) < 0)
		goto out;
	for (i = 0; i < HIST_BINS; i++) {
		if (!merged->bins[i])
			continue;
		bind_i64(&b, run_id);
		bind_i64(&b, hist_bin_upper(i));
		bind_u64(&b, merged->bins[i]);
		if (insert_row(db, &b, "storing the claim-latency histogram", err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(b.st);
	free(merged);
	return ret;
}

/* Inserts the run's time series, one row per bucket. 0, or -1 with err. */
static int insert_series(sqlite3 *db, long long run_id, const struct run_result *run, char *err, size_t errlen)
{
	static const char sql[] =
		"INSERT INTO run_series (run_id, bucket_ms, completed, empty_claims, errors, enqueued, backlog)"
		" VALUES (?, ?, ?, ?, ?, ?, ?)";
	const struct series_point *p;
	struct binder b = { .next = 1 };
	int ret = -1;

	if (sql_prepare(db, sql, &b.st, err, errlen) < 0)
		goto out;
	for (size_t i = 0; run->series && i < run->n_series; i++) {
		p = &run->series[i];
		bind_i64(&b, run_id);
		bind_i64(&b, p->t_ms);
		bind_u64(&b, p->completed);
		bind_u64(&b, p->empty_claims);
		bind_u64(&b, p->errors);
		bind_u64(&b, p->enqueued);
		bind_u64(&b, p->backlog);
		if (insert_row(db, &b, "storing the time series", err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(b.st);
	return ret;
}

int store_append(struct store *s, struct store_session *session, const struct store_context *ctx,
		 const struct report *r, const struct run_result *run, long long *run_id, char *err, size_t errlen)
{
	long long invocation_id = session->invocation_id, id;
	sqlite3 *db = s->db;

	if (sql_exec(db, "BEGIN IMMEDIATE", "storing the run", err, errlen) < 0)
		return -1;
	if (!invocation_id && insert_invocation(db, ctx, r, &invocation_id, err, errlen) < 0)
		goto rollback;
	if (insert_run(db, invocation_id, run, &id, err, errlen) < 0 ||
	    insert_params(db, id, run, err, errlen) < 0 ||
	    insert_workers(db, id, run, err, errlen) < 0 ||
	    insert_latency_bins(db, id, run, err, errlen) < 0 ||
	    insert_series(db, id, run, err, errlen) < 0 ||
	    sql_exec(db, "COMMIT", "storing the run", err, errlen) < 0)
		goto rollback;
	session->invocation_id = invocation_id;
	if (run_id)
		*run_id = id;
	return 0;
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}
