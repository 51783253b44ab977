/* Appending a run to the result store, in one transaction; every value through a bound parameter. */
#include <stdlib.h>

#include "model/faults.h"
#include "model/metric_table.h"
#include "store/run_columns.h"
#include "store/store_columns.h"
#include "store/store_sql.h"

/* What the rows of one run are bound from. */
struct run_rows {
	long long id;			/* the run's row in runs */
	const struct run_result *run;	/* the run */
	const struct invocation_result *report;	/* its invocation (settings) */
	const struct histogram *merged;	/* the workers' claim-latency histograms merged */
};

/* Binds invocation_settings row i: the setting's position, name and value. */
static bool bind_setting(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;
	const struct db_setting *setting = &rows->report->settings[i];

	bind_i64(b, rows->id);
	bind_i64(b, (long long)i);
	bind_textn(b, setting->name, sizeof(setting->name));
	bind_textn(b, setting->value, sizeof(setting->value));
	return true;
}

/* Binds run_params row i: the parameter's position, name and value. */
static bool bind_param(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;

	bind_i64(b, rows->id);
	bind_i64(b, (long long)i);
	bind_text(b, rows->run->params[i].name);
	bind_text(b, rows->run->params[i].value);
	return true;
}

/* Binds run_workers row i: worker i's counters. */
static bool bind_worker(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;

	bind_i64(b, rows->id);
	bind_i64(b, (long long)i);
	store_table_bind(b, &store_workers_table, &rows->run->per_worker[i]);
	return true;
}

/* Binds run_faults row i: fault i, its worker and job NULL (as an unknown count) when there is none. */
static bool bind_fault(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;
	const struct fault_record *f = &rows->run->faults[i];

	bind_i64(b, rows->id);
	bind_i64(b, (long long)i);
	bind_text(b, fault_kind_name(f->kind));
	bind_i64(b, f->at_ns);
	bind_i64(b, f->duration_ns);
	bind_count(b, f->worker >= 0 ? (uint64_t)f->worker : METRIC_UNKNOWN);
	bind_count(b, f->job_id > 0 ? (uint64_t)f->job_id : METRIC_UNKNOWN);
	return true;
}

/* Binds worker_errors row i: worker i / ERR_KIND_COUNT's count of kind i % ERR_KIND_COUNT, zeros too. */
static bool bind_worker_error(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;
	size_t worker = i / ERR_KIND_COUNT, kind = i % ERR_KIND_COUNT;

	bind_i64(b, rows->id);
	bind_i64(b, (long long)worker);
	bind_text(b, error_kind_name((enum error_kind)kind));
	bind_u64(b, rows->run->per_worker[worker].errors[kind]);
	return true;
}

/* Binds run_latency_bins row i: bin i of the merged histogram; an empty bin is left out. */
static bool bind_latency_bin(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;

	if (!rows->merged->bins[i])
		return false;
	bind_i64(b, rows->id);
	bind_i64(b, hist_bin_upper((int)i));
	bind_u64(b, rows->merged->bins[i]);
	return true;
}

/* Binds run_series row i: bucket i of the time series. */
static bool bind_bucket(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;

	bind_i64(b, rows->id);
	store_table_bind(b, &store_series_table, &rows->run->series[i]);
	return true;
}

/* Binds run_holders row i: one resource in one bucket of the holders series. */
static bool bind_holders(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;

	bind_i64(b, rows->id);
	store_table_bind(b, &store_holders_table, &rows->run->holders[i]);
	return true;
}

/* Binds run_samples row i: sample i of the server. */
static bool bind_sample(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;

	bind_i64(b, rows->id);
	store_table_bind(b, &store_samples_table, &rows->run->samples[i]);
	return true;
}

/* Binds run_phases row i: pressure phase i. */
static bool bind_phase(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;
	const struct phase_record *ph = &rows->run->phases[i];

	bind_i64(b, rows->id);
	bind_i64(b, (long long)i);
	bind_text(b, phase_kind_names[ph->kind]);
	bind_i64(b, ph->at_ns);
	bind_i64(b, ph->duration_ns);
	return true;
}

/* Binds run_plans row i: the plan of moment i, when it was read (sql_insert_each skips a row bound false). */
static bool bind_plan(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;
	const char *plan = rows->run->probes[i].plan;

	if (!plan)
		return false;
	bind_i64(b, rows->id);
	bind_text(b, probe_moment_names[i]);
	bind_text(b, plan);
	return true;
}

/* Binds the run_verify row of a verified run (sql_insert_each skips a run not verified). */
static bool bind_verified(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;

	(void)i;
	if (!rows->run->verify.verified)
		return false;
	bind_i64(b, rows->id);
	bind_i64(b, (long long)rows->run->verify.n_diffs);
	bind_i64(b, (long long)rows->run->verify.in_doubt);
	return true;
}

/* Binds run_verify_differences row i: --verify's difference i. */
static bool bind_difference(struct binder *b, const void *ctx, size_t i)
{
	const struct run_rows *rows = ctx;

	bind_i64(b, rows->id);
	bind_i64(b, (long long)i);
	store_table_bind(b, &store_differences_table, &rows->run->verify.diffs[i]);
	return true;
}

int store_insert_invocation(sqlite3 *db, const struct store_context *ctx, const struct invocation_result *r, long long *id,
			     char *err, size_t errlen)
{
	static const char invocation_sql[] =
		"INSERT INTO invocations (started_at, host, claimbench_version, git_revision, scenario,"
		" scenario_text, backend, server_version, seed, command) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	static const char setting_sql[] =
		"INSERT INTO invocation_settings (invocation_id, position, name, value) VALUES (?, ?, ?, ?)";
	struct binder b = { .next = 1 };
	struct run_rows rows = { .report = r };
	int rc;

	if (sql_prepare(db, invocation_sql, &b.st, err, errlen) < 0)
		return -1;
	bind_textn(&b, r->started_at, sizeof(r->started_at));
	bind_text(&b, ctx->host);
	bind_text(&b, ctx->version);
	bind_text(&b, ctx->git_revision);
	bind_text(&b, r->scenario);
	bind_text(&b, ctx->scenario_text);
	bind_text(&b, r->backend);
	bind_textn(&b, r->server_version, sizeof(r->server_version));
	bind_u64(&b, r->seed);
	bind_text(&b, ctx->command);
	rc = insert_row(db, &b, "storing the invocation", err, errlen);
	sqlite3_finalize(b.st);
	if (rc < 0)
		return -1;
	*id = rows.id = sqlite3_last_insert_rowid(db);
	return sql_insert_each(db, setting_sql, r->n_settings < DB_MAX_SETTINGS ? r->n_settings : DB_MAX_SETTINGS,
			       bind_setting, &rows, "storing the server settings", err, errlen);
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

/*
 * Inserts the rows that hang off run rows->id: parameters, per-worker counters and
 * errors, the non-empty bins of the merged claim-latency histogram, the time series, the holders
 * over time, the faults, the server's samples and the pressure phases. 0, or -1 with err.
 */
static int insert_run_rows(sqlite3 *db, const struct run_rows *rows, char *err, size_t errlen)
{
	static const char params_sql[] = "INSERT INTO run_params (run_id, position, name, value) VALUES (?, ?, ?, ?)";
	static const char errors_sql[] = "INSERT INTO worker_errors (run_id, worker, kind, count) VALUES (?, ?, ?, ?)";
	static const char bins_sql[] = "INSERT INTO run_latency_bins (run_id, bin_upper_ns, count) VALUES (?, ?, ?)";
	static const char verified_sql[] = "INSERT INTO run_verify (run_id, differences, in_doubt) VALUES (?, ?, ?)";
	static const char faults_sql[] =
		"INSERT INTO run_faults (run_id, position, kind, at_ns, duration_ns, worker, job) VALUES (?, ?, ?, ?, ?, ?, ?)";
	static const char phases_sql[] =
		"INSERT INTO run_phases (run_id, position, kind, at_ns, duration_ns) VALUES (?, ?, ?, ?, ?)";
	static const char plans_sql[] = "INSERT INTO run_plans (run_id, moment, plan) VALUES (?, ?, ?)";
	char workers_sql[STORE_TABLE_SQL], series_sql[STORE_TABLE_SQL], holders_sql[STORE_TABLE_SQL];
	char samples_sql[STORE_TABLE_SQL], differences_sql[STORE_TABLE_SQL];
	const struct run_result *run = rows->run;
	size_t workers = run->per_worker ? (size_t)run->workers : 0;

	if (store_table_insert_sql(&store_workers_table, workers_sql, sizeof(workers_sql)) < 0 ||
	    store_table_insert_sql(&store_series_table, series_sql, sizeof(series_sql)) < 0 ||
	    store_table_insert_sql(&store_holders_table, holders_sql, sizeof(holders_sql)) < 0 ||
	    store_table_insert_sql(&store_samples_table, samples_sql, sizeof(samples_sql)) < 0 ||
	    store_table_insert_sql(&store_differences_table, differences_sql, sizeof(differences_sql)) < 0) {
		snprintf(err, errlen, "storing the run: too many columns");
		return -1;
	}
	if (sql_insert_each(db, params_sql, run->n_params, bind_param, rows, "storing the run's parameters", err,
			    errlen) < 0 ||
	    sql_insert_each(db, workers_sql, workers, bind_worker, rows, "storing a worker's counters", err,
			    errlen) < 0 ||
	    sql_insert_each(db, errors_sql, workers * ERR_KIND_COUNT, bind_worker_error, rows,
			    "storing a worker's errors", err, errlen) < 0 ||
	    sql_insert_each(db, bins_sql, HIST_BINS, bind_latency_bin, rows, "storing the claim-latency histogram",
			    err, errlen) < 0 ||
	    sql_insert_each(db, series_sql, run->series ? run->n_series : 0, bind_bucket, rows,
			    "storing the time series", err, errlen) < 0 ||
	    sql_insert_each(db, holders_sql, run->holders ? run->n_holders : 0, bind_holders, rows,
			    "storing the holders over time", err, errlen) < 0)
		return -1;
	if (sql_insert_each(db, faults_sql, run->faults ? run->n_faults : 0, bind_fault, rows, "storing the faults", err,
			    errlen) < 0 ||
	    sql_insert_each(db, samples_sql, run->samples ? run->n_samples : 0, bind_sample, rows,
			    "storing the server's samples", err, errlen) < 0)
		return -1;
	if (sql_insert_each(db, phases_sql, run->phases ? run->n_phases : 0, bind_phase, rows,
			    "storing the pressure phases", err, errlen) < 0 ||
	    store_timeline_append(db, rows->id, run, err, errlen) < 0)
		return -1;
	if (sql_insert_each(db, plans_sql, PROBE_MOMENTS, bind_plan, rows, "storing the plans", err, errlen) < 0 ||
	    sql_insert_each(db, verified_sql, 1, bind_verified, rows, "storing the verification", err, errlen) < 0)
		return -1;
	return sql_insert_each(db, differences_sql, run->verify.n_diffs, bind_difference, rows,
			       "storing the verification's differences", err, errlen);
}

int store_append(struct store *s, struct store_session *session, const struct store_context *ctx,
		 const struct invocation_result *r, const struct run_result *run, long long *run_id, char *err, size_t errlen)
{
	long long invocation_id = session->invocation_id;
	struct run_rows rows = { .run = run, .report = r };
	struct histogram *merged;
	sqlite3 *db = s->db;

	merged = malloc(sizeof(*merged));
	if (!merged) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	hist_init(merged);
	for (int i = 0; run->per_worker && i < run->workers; i++)
		hist_merge(merged, &run->per_worker[i].claim_latency);
	rows.merged = merged;
	if (sql_exec(db, "BEGIN IMMEDIATE", "storing the run", err, errlen) < 0)
		goto fail;
	if (!invocation_id && store_insert_invocation(db, ctx, r, &invocation_id, err, errlen) < 0)
		goto rollback;
	if (insert_run(db, invocation_id, run, &rows.id, err, errlen) < 0 ||
	    insert_run_rows(db, &rows, err, errlen) < 0 ||
	    sql_exec(db, "COMMIT", "storing the run", err, errlen) < 0)
		goto rollback;
	free(merged);
	session->invocation_id = invocation_id;
	if (run_id)
		*run_id = rows.id;
	return 0;
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
fail:
	free(merged);
	return -1;
}
