/* Reading a run or an invocation back from the result store, and lists of runs read one after another. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/config.h"
#include "model/run_descriptor.h"
#include "model/faults.h"
#include "model/metric_table.h"
#include "store/run_columns.h"
#include "store/store_columns.h"
#include "store/store_sql.h"

/* The error kind named name; a kind this binary does not know (a newer one wrote it) counts as other. */
static enum error_kind kind_of(const unsigned char *name)
{
	for (int k = 0; name && k < ERR_KIND_COUNT; k++)
		if (strcmp((const char *)name, error_kind_name((enum error_kind)k)) == 0)
			return (enum error_kind)k;
	return ERR_OTHER;
}

/* Reads the run's and its invocation's row into s. 0; 1 when there is no such run; -1 with err. */
static int load_run(sqlite3 *db, long long run_id, struct store_run *s, char *err, size_t errlen)
{
	char sql[RUN_COLUMNS_SQL + 512], columns[RUN_COLUMNS_SQL];
	struct reader c = { .next = 0 };
	int rc, ret = -1;

	if (run_columns_sql(columns, sizeof(columns), "r.", false) < 0) {
		snprintf(err, errlen, "reading the run: too many columns");
		return -1;
	}
	snprintf(sql, sizeof(sql),
		 "SELECT r.recorded_at, i.id, i.started_at, i.host, i.claimbench_version, i.git_revision,"
		 " i.scenario, i.scenario_text, i.backend, i.server_version, i.seed, i.command, %s"
		 " FROM runs r JOIN invocations i ON i.id = r.invocation_id WHERE r.id = ?", columns);
	if (sql_prepare(db, sql, &c.st, err, errlen) < 0)
		goto out;
	sqlite3_bind_int64(c.st, 1, run_id);
	rc = sqlite3_step(c.st);
	if (rc == SQLITE_DONE) {
		ret = 1;
		goto out;
	}
	if (rc != SQLITE_ROW) {
		sql_fail(db, "reading the run", err, errlen);
		goto out;
	}
	col_copy(&c, s->recorded_at, sizeof(s->recorded_at));
	s->report.invocation_id = col_i64(&c);
	col_copy(&c, s->report.started_at, sizeof(s->report.started_at));
	if (col_owned(&c, s, &s->ctx.host) < 0 || col_owned(&c, s, &s->ctx.version) < 0 ||
	    col_owned(&c, s, &s->ctx.git_revision) < 0 || col_owned(&c, s, &s->report.scenario) < 0 ||
	    col_owned(&c, s, &s->ctx.scenario_text) < 0 || col_owned(&c, s, &s->report.backend) < 0)
		goto oom;
	col_copy(&c, s->report.server_version, sizeof(s->report.server_version));
	s->report.seed = col_u64(&c);
	if (col_owned(&c, s, &s->ctx.command) < 0 || run_columns_read(&c, s) < 0)
		goto oom;
	/* The per-worker counters are sized by it: a crafted row's must not ask for gigabytes. */
	if (s->run.workers < 1 || s->run.workers > MAX_WORKERS) {
		snprintf(err, errlen, "its workers, %d, is no number of workers (1 to %d): not a store claimbench wrote",
			 s->run.workers, MAX_WORKERS);
		goto out;
	}
	engine_name(s->run.engine, sizeof(s->run.engine), s->report.backend, s->report.server_version);
	ret = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	sqlite3_finalize(c.st);
	return ret;
}

/* Adds a run_params row (name, value) to the struct run_result at ctx. 0, or -1 with err. */
static int param_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	const char *name = (const char *)sqlite3_column_text(c->st, 0), *value = (const char *)sqlite3_column_text(c->st, 1);

	if (run_param_add(ctx, name ? name : "", value ? value : "") < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/*
 * Adds a row of run_workers joined with worker_errors (a worker's counters and one error
 * kind's count) to the struct run_result at ctx, allocating its per_worker at the first.
 * 0, or -1 with err.
 */
static int worker_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	struct worker_stats *w;
	long long worker = col_i64(c);
	enum error_kind kind;

	if (worker < 0 || worker >= run->workers) {
		snprintf(err, errlen, "worker %lld of %d workers", worker, run->workers);
		return -1;
	}
	if (!run->per_worker) {
		run->per_worker = calloc((size_t)run->workers, sizeof(*run->per_worker));
		if (!run->per_worker) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	w = &run->per_worker[worker];
	store_table_read(c, &store_workers_table, w);
	if (sqlite3_column_type(c->st, c->next) != SQLITE_NULL) {
		kind = kind_of(sqlite3_column_text(c->st, c->next++));
		w->errors[kind] += col_u64(c);
	}
	return 0;
}

/*
 * Makes room in *array, which holds n elements of size bytes, for one more: 64 at first,
 * then doubled whenever a power of two is full. 0, or -1 with err.
 */
static int room_for_one(void **array, size_t n, size_t size, char *err, size_t errlen)
{
	void *grown;

	if (n != 0 && (n < 64 || (n & (n - 1)) != 0))
		return 0;
	grown = realloc(*array, (n ? 2 * n : 64) * size);
	if (!grown) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	*array = grown;
	return 0;
}

/* Adds a run_series row (one 100 ms bucket) to the struct run_result at ctx. 0, or -1 with err. */
static int series_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	void *series = run->series;
	struct series_point *p;

	if (room_for_one(&series, run->n_series, sizeof(*p), err, errlen) < 0)
		return -1;
	run->series = series;
	p = &run->series[run->n_series++];
	store_table_read(c, &store_series_table, p);
	return 0;
}

/* Adds a run_holders row (one resource in one bucket) to the struct run_result at ctx. 0, or -1 with err. */
static int holders_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	void *holders = run->holders;
	struct holder_point *p;

	if (room_for_one(&holders, run->n_holders, sizeof(*p), err, errlen) < 0)
		return -1;
	run->holders = holders;
	p = &run->holders[run->n_holders++];
	store_table_read(c, &store_holders_table, p);
	return 0;
}

/* Adds a run_latency_bins row to the merged claim-latency histogram of the store_run at ctx. 0, or -1 with err. */
static int latency_bin_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct store_run *s = ctx;
	int64_t upper = col_i64(c);
	uint64_t count = col_u64(c);

	if (!s->claim_latency) {
		s->claim_latency = malloc(sizeof(*s->claim_latency));
		if (!s->claim_latency) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		hist_init(s->claim_latency);
		s->claim_latency->min = upper;
	}
	s->claim_latency->bins[hist_bin_of(upper)] += count;
	s->claim_latency->count += count;
	s->claim_latency->max = upper;
	return 0;
}

/* Adds a run_faults row to the struct run_result at ctx. 0, or -1 with err. */
static int fault_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	void *faults = run->faults;
	struct fault_record *f;
	uint64_t worker, job;

	if (room_for_one(&faults, run->n_faults, sizeof(*f), err, errlen) < 0)
		return -1;
	run->faults = faults;
	f = &run->faults[run->n_faults++];
	f->kind = fault_kind_find((const char *)sqlite3_column_text(c->st, c->next++));
	f->at_ns = col_i64(c);
	f->duration_ns = col_i64(c);
	worker = col_count(c);
	job = col_count(c);
	f->worker = worker == METRIC_UNKNOWN ? -1 : (int32_t)worker;
	f->job_id = job == METRIC_UNKNOWN ? 0 : (int64_t)job;
	return 0;
}

/* Notes that the struct run_result at ctx was verified (its run_verify row), and its claims in doubt. 0. */
static int verified_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;

	(void)err;
	(void)errlen;
	run->verify.verified = true;
	c->next++;
	run->verify.in_doubt = (size_t)col_i64(c);
	return 0;
}

/* Adds a run_verify_differences row to the struct run_result at ctx (beyond VERIFY_MAX_DIFFS: left out). 0. */
static int difference_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	struct verify_difference *d;

	(void)err;
	(void)errlen;
	if (run->verify.n_diffs == VERIFY_MAX_DIFFS)
		return 0;
	d = &run->verify.diffs[run->verify.n_diffs++];
	store_table_read(c, &store_differences_table, d);
	return 0;
}

/* Adds a run_samples row to the struct run_result at ctx. 0, or -1 with err. */
static int sample_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	void *samples = run->samples;
	struct server_sample *p;

	if (room_for_one(&samples, run->n_samples, sizeof(*p), err, errlen) < 0)
		return -1;
	run->samples = samples;
	p = &run->samples[run->n_samples++];
	store_table_read(c, &store_samples_table, p);
	return 0;
}

/* Adds a run_phases row to the struct run_result at ctx; a kind this binary does not know is left out. 0, or -1 with err. */
static int phase_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	const char *kind = (const char *)sqlite3_column_text(c->st, c->next++);
	void *phases = run->phases;
	int k;

	for (k = 0; k < PHASE_KIND_COUNT && (!kind || strcmp(kind, phase_kind_names[k]) != 0); k++)
		;
	if (k == PHASE_KIND_COUNT)
		return 0;
	if (room_for_one(&phases, run->n_phases, sizeof(*run->phases), err, errlen) < 0)
		return -1;
	run->phases = phases;
	run->phases[run->n_phases].kind = (enum phase_kind)k;
	run->phases[run->n_phases].at_ns = col_i64(c);
	run->phases[run->n_phases++].duration_ns = col_i64(c);
	return 0;
}

/* Keeps a run_plans row's plan in the struct run_result at ctx; a moment this binary does not know is left out. 0, or -1 with err. */
static int plan_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct run_result *run = ctx;
	const char *moment = (const char *)sqlite3_column_text(c->st, c->next++);
	const char *plan = (const char *)sqlite3_column_text(c->st, c->next++);

	for (int k = 0; moment && plan && k < PROBE_MOMENTS; k++) {
		if (strcmp(moment, probe_moment_names[k]) != 0 || run->probes[k].plan)
			continue;
		run->probes[k].plan = strdup(plan);
		if (!run->probes[k].plan) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* Adds an invocation_settings row to the struct invocation_result at ctx; past DB_MAX_SETTINGS it is left out. Always 0. */
static int setting_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct invocation_result *r = ctx;
	struct db_setting *setting;

	(void)err;
	(void)errlen;
	if (r->n_settings == DB_MAX_SETTINGS)
		return 0;
	setting = &r->settings[r->n_settings++];
	col_copy(c, setting->name, sizeof(setting->name));
	col_copy(c, setting->value, sizeof(setting->value));
	return 0;
}

/* Writes into buf the SELECT that format makes of t's columns (its one %s), each after prefix. 0, or -1 when too long. */
static int select_sql(char *buf, size_t size, const struct store_table *t, const char *prefix, const char *format)
{
	char columns[STORE_TABLE_SQL];
	int n;

	if (store_table_columns_sql(t, prefix, columns, sizeof(columns)) < 0)
		return -1;
	n = snprintf(buf, size, format, columns);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * Reads the parameters, per-worker counters, time series, holders over time, faults, server samples, pressure
 * phases, plans and settings of the run s holds. 0, or -1 with err.
 */
static int load_rest(sqlite3 *db, struct store_run *s, char *err, size_t errlen)
{
	static const char params_sql[] = "SELECT name, value FROM run_params WHERE run_id = ? ORDER BY position";
	static const char bins_sql[] =
		"SELECT bin_upper_ns, count FROM run_latency_bins WHERE run_id = ? ORDER BY bin_upper_ns";
	static const char faults_sql[] = "SELECT kind, at_ns, duration_ns, worker, job FROM run_faults"
					 " WHERE run_id = ? ORDER BY position";
	static const char settings_sql[] =
		"SELECT name, value FROM invocation_settings WHERE invocation_id = ? ORDER BY position";
	static const char phases_sql[] =
		"SELECT kind, at_ns, duration_ns FROM run_phases WHERE run_id = ? ORDER BY position";
	static const char plans_sql[] = "SELECT moment, plan FROM run_plans WHERE run_id = ?";
	static const char verified_sql[] = "SELECT differences, in_doubt FROM run_verify WHERE run_id = ?";
	char workers_sql[2 * STORE_TABLE_SQL], series_sql[2 * STORE_TABLE_SQL], holders_sql[2 * STORE_TABLE_SQL];
	char samples_sql[2 * STORE_TABLE_SQL], differences_sql[2 * STORE_TABLE_SQL];

	if (select_sql(workers_sql, sizeof(workers_sql), &store_workers_table, "w.",
		       "SELECT w.worker, %s, e.kind, e.count FROM run_workers w LEFT JOIN worker_errors e"
		       " ON e.run_id = w.run_id AND e.worker = w.worker WHERE w.run_id = ? ORDER BY w.worker") < 0 ||
	    select_sql(series_sql, sizeof(series_sql), &store_series_table, "",
		       "SELECT %s FROM run_series WHERE run_id = ? ORDER BY bucket_ms") < 0 ||
	    select_sql(holders_sql, sizeof(holders_sql), &store_holders_table, "",
		       "SELECT %s FROM run_holders WHERE run_id = ? ORDER BY resource, bucket_ms") < 0 ||
	    select_sql(samples_sql, sizeof(samples_sql), &store_samples_table, "",
		       "SELECT %s FROM run_samples WHERE run_id = ? ORDER BY t_ms") < 0 ||
	    select_sql(differences_sql, sizeof(differences_sql), &store_differences_table, "",
		       "SELECT %s FROM run_verify_differences WHERE run_id = ? ORDER BY position") < 0) {
		snprintf(err, errlen, "reading the run: too many columns");
		return -1;
	}
	if (sql_each_row(db, params_sql, s->run.run_id, param_row, &s->run, "reading the run's parameters", err,
			 errlen) < 0 ||
	    sql_each_row(db, workers_sql, s->run.run_id, worker_row, &s->run, "reading the per-worker counters", err,
			 errlen) < 0 ||
	    sql_each_row(db, series_sql, s->run.run_id, series_row, &s->run, "reading the time series", err, errlen) < 0 ||
	    sql_each_row(db, holders_sql, s->run.run_id, holders_row, &s->run, "reading the holders over time", err,
			 errlen) < 0 ||
	    sql_each_row(db, bins_sql, s->run.run_id, latency_bin_row, s, "reading the claim-latency histogram", err,
			 errlen) < 0 ||
	    sql_each_row(db, faults_sql, s->run.run_id, fault_row, &s->run, "reading the faults", err, errlen) < 0 ||
	    sql_each_row(db, samples_sql, s->run.run_id, sample_row, &s->run, "reading the server's samples", err,
			 errlen) < 0 ||
	    sql_each_row(db, phases_sql, s->run.run_id, phase_row, &s->run, "reading the pressure phases", err,
			 errlen) < 0 ||
	    store_timeline_load(db, &s->run, err, errlen) < 0 ||
	    sql_each_row(db, plans_sql, s->run.run_id, plan_row, &s->run, "reading the plans", err, errlen) < 0 ||
	    sql_each_row(db, verified_sql, s->run.run_id, verified_row, &s->run, "reading the verification", err,
			 errlen) < 0 ||
	    sql_each_row(db, differences_sql, s->run.run_id, difference_row, &s->run,
			 "reading the verification's differences", err, errlen) < 0)
		return -1;
	return sql_each_row(db, settings_sql, s->report.invocation_id, setting_row, &s->report, "reading the server settings",
			    err, errlen);
}

int store_load(struct store *s, long long run_id, struct store_run *out, char *err, size_t errlen)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->run.run_id = run_id;
	rc = load_run(s->db, run_id, out, err, errlen);
	if (rc != 0)
		goto fail;
	rc = -1;
	if (load_rest(s->db, out, err, errlen) < 0)
		goto fail;
	out->report.version = out->ctx.version;
	out->report.results = &out->run;
	out->report.n_results = 1;
	return 0;
fail:
	store_run_free(out);
	return rc;
}

int store_invocation_load(struct store *s, long long invocation_id, struct store_run *out, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT started_at, host, claimbench_version, git_revision, scenario, scenario_text, backend,"
		" server_version, seed, command FROM invocations WHERE id = ?";
	static const char settings_sql[] =
		"SELECT name, value FROM invocation_settings WHERE invocation_id = ? ORDER BY position";
	struct reader c = { .next = 0 };
	int rc, ret = -1;

	memset(out, 0, sizeof(*out));
	out->report.invocation_id = invocation_id;
	if (sql_prepare(s->db, sql, &c.st, err, errlen) < 0)
		goto out;
	sqlite3_bind_int64(c.st, 1, invocation_id);
	rc = sqlite3_step(c.st);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			ret = 1;
		else
			sql_fail(s->db, "reading the invocation", err, errlen);
		goto out;
	}
	col_copy(&c, out->report.started_at, sizeof(out->report.started_at));
	if (col_owned(&c, out, &out->ctx.host) < 0 || col_owned(&c, out, &out->ctx.version) < 0 ||
	    col_owned(&c, out, &out->ctx.git_revision) < 0 || col_owned(&c, out, &out->report.scenario) < 0 ||
	    col_owned(&c, out, &out->ctx.scenario_text) < 0 || col_owned(&c, out, &out->report.backend) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	col_copy(&c, out->report.server_version, sizeof(out->report.server_version));
	out->report.seed = col_u64(&c);
	if (col_owned(&c, out, &out->ctx.command) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	out->report.version = out->ctx.version;
	ret = sql_each_row(s->db, settings_sql, invocation_id, setting_row, &out->report, "reading the server settings",
			   err, errlen);
out:
	sqlite3_finalize(c.st);
	if (ret != 0)
		store_run_free(out);
	return ret;
}

void store_run_free(struct store_run *run)
{
	for (size_t i = 0; i < run->n_strings; i++)
		free(run->strings[i]);
	free(run->strings);
	free(run->run.per_worker);
	free(run->run.series);
	free(run->run.holders);
	free(run->run.faults);
	free(run->claim_latency);
	free(run->run.samples);
	free(run->run.phases);
	free(run->run.timeline);
	for (int k = 0; k < PROBE_MOMENTS; k++)
		free(run->run.probes[k].plan);
	run_params_free(&run->run);
	memset(run, 0, sizeof(*run));
}

int store_run_list_add(struct store *s, long long run_id, struct store_run_list *list, char *err, size_t errlen)
{
	struct store_run *grown;
	int rc;

	grown = realloc(list->runs, (list->n + 1) * sizeof(*grown));
	if (!grown) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	list->runs = grown;
	for (size_t i = 0; i < list->n; i++)
		grown[i].report.results = &grown[i].run;
	rc = store_load(s, run_id, &list->runs[list->n], err, errlen);
	if (rc == 0)
		list->n++;
	return rc;
}

int store_run_list_add_invocation(struct store *s, long long invocation_id, struct store_run_list *list,
				  size_t *added, char *err, size_t errlen)
{
	long long *ids;
	size_t n, i;
	int rc;

	*added = 0;
	rc = store_invocation_runs(s, invocation_id, &ids, &n, err, errlen);
	for (i = 0; rc == 0 && i < n; i++) {
		rc = store_run_list_add(s, ids[i], list, err, errlen);
		if (rc > 0) {
			snprintf(err, errlen, "run %lld of invocation %lld is gone", ids[i], invocation_id);
			rc = -1;
		}
		*added += rc == 0;
	}
	free(ids);
	return rc;
}

void store_run_list_free(struct store_run_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		store_run_free(&list->runs[i]);
	free(list->runs);
	list->runs = NULL;
	list->n = 0;
}
