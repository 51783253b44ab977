/*
 * The JSON object of the output contract, built with json-c: the invocation's
 * header, then per run its descriptors, every metric at its path (nested objects for
 * dotted paths), its parameters, per-worker counters and time series; the repetitions'
 * summaries last. Unknown and non-finite figures are null.
 */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "analysis/summary.h"
#include "model/faults.h"
#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "output/json_out.h"
#include "output/results_print.h"
#include "output/timeline_print.h"

/* A JSON string of s, or NULL (JSON null) when s is NULL. */
static json_object *json_text(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* A JSON string of at most max bytes of s, which need not be NUL-terminated within them. */
static json_object *json_textn(const char *s, size_t max)
{
	return json_object_new_string_len(s, (int)strnlen(s, max));
}

/* Adds run's descriptors to obj, an optional one only when it is set. 0, or -1 when out of memory. */
static int put_descriptors(json_object *obj, const struct run_result *run)
{
	const struct run_descriptor *d;
	const char *s;
	int bad = 0;

	for (d = run_descriptors; d < run_descriptors + run_descriptors_len; d++) {
		switch (d->type) {
		case DESC_TEXT:
			s = descriptor_text(d, run);
			if (!d->optional || (s && *s))
				bad |= json_put(obj, d->name, json_text(s));
			break;
		case DESC_BOOL:
			bad |= json_put(obj, d->name, json_object_new_boolean(descriptor_int(d, run) != 0));
			break;
		case DESC_INT:
		case DESC_LONG:
			bad |= json_put(obj, d->name, json_object_new_int64(descriptor_int(d, run)));
			break;
		case DESC_DOUBLE:
			bad |= json_put(obj, d->name, json_number(descriptor_double(d, run)));
			break;
		}
	}
	return bad ? -1 : 0;
}

/* Adds every metric of run to obj at its path; null when unknown. 0, or -1 when out of memory. */
static int put_metrics(json_object *obj, const struct run_result *run)
{
	const struct metric *m;
	json_object *value;
	uint64_t count;
	int bad = 0;

	for (m = metric_table; m < metric_table + metric_table_len; m++) {
		count = m->type == METRIC_DOUBLE ? 0 : metric_get_count(m, &run->metrics);
		if (m->type == METRIC_DOUBLE)
			value = json_number(metric_get(m, &run->metrics));
		else if (count == METRIC_UNKNOWN)
			value = NULL;
		else if (m->type == METRIC_FLAG)
			value = json_object_new_boolean(count != 0);
		else
			value = json_object_new_uint64(count);
		bad |= json_put_path(obj, m->path, value);
	}
	return bad ? -1 : 0;
}

/* The params object: one string member per parameter, in order. NULL when out of memory. */
static json_object *params_object(const struct run_result *run)
{
	json_object *obj = json_object_new_object();
	int bad = !obj;

	for (size_t i = 0; obj && i < run->n_params; i++)
		bad |= json_put(obj, run->params[i].name, json_text(run->params[i].value));
	if (!bad)
		return obj;
	json_object_put(obj);
	return NULL;
}

/* Appends obj to array arr. 0, or -1 when out of memory (obj released). */
static int append(json_object *arr, json_object *obj)
{
	if (obj && json_object_array_add(arr, obj) == 0)
		return 0;
	json_object_put(obj);
	return -1;
}

/* Adds the members of worker i of run to obj. 0, or -1 when out of memory. */
static int worker_members(json_object *obj, const struct run_result *run, size_t i)
{
	const struct worker_stats *w = &run->per_worker[i];
	int bad = 0;

	bad |= json_put(obj, "worker", json_object_new_int64((int64_t)i));
	bad |= json_put(obj, "completed", json_object_new_uint64(w->completed));
	bad |= json_put(obj, "claims", json_object_new_uint64(w->claims));
	bad |= json_put(obj, "empty", json_object_new_uint64(w->empty));
	bad |= json_put(obj, "retries", json_object_new_uint64(w->retries));
	bad |= json_put(obj, "give_ups", json_object_new_uint64(w->give_ups));
	bad |= json_put(obj, "busy_s", json_number((double)w->busy_ns / 1e9));
	bad |= json_put(obj, "reconnects", json_object_new_uint64(w->reconnects));
	return bad ? -1 : 0;
}

/*
 * Adds the members of fault i of run to obj: kind, instant, duration, worker and job (null
 * for none). 0, or -1 when out of memory.
 */
static int fault_members(json_object *obj, const struct run_result *run, size_t i)
{
	const struct fault_record *f = &run->faults[i];
	int bad = 0;

	bad |= json_put(obj, "kind", json_text(fault_kind_name(f->kind)));
	bad |= json_put(obj, "at_s", json_number((double)f->at_ns / 1e9));
	bad |= json_put(obj, "duration_s", json_number((double)f->duration_ns / 1e9));
	bad |= json_put(obj, "worker", f->worker >= 0 ? json_object_new_int64(f->worker) : NULL);
	bad |= json_put(obj, "job", f->job_id > 0 ? json_object_new_int64(f->job_id) : NULL);
	return bad ? -1 : 0;
}

/* Adds the members of bucket i of run's series to obj. 0, or -1 when out of memory. */
static int bucket_members(json_object *obj, const struct run_result *run, size_t i)
{
	const struct series_point *p = &run->series[i];
	int bad = 0;

	bad |= json_put(obj, "t_ms", json_object_new_int64(p->t_ms));
	bad |= json_put(obj, "completed", json_object_new_uint64(p->completed));
	bad |= json_put(obj, "first_completed", p->first_completed == METRIC_UNKNOWN ? NULL :
					      json_object_new_uint64(p->first_completed));
	bad |= json_put(obj, "empty_claims", json_object_new_uint64(p->empty_claims));
	bad |= json_put(obj, "errors", json_object_new_uint64(p->errors));
	bad |= json_put(obj, "enqueued", json_object_new_uint64(p->enqueued));
	bad |= json_put(obj, "backlog", json_object_new_uint64(p->backlog));
	return bad ? -1 : 0;
}

/* Adds the members of point i of a guarded run's holders over time to obj. 0, or -1 when out of memory. */
static int holder_members(json_object *obj, const struct run_result *run, size_t i)
{
	const struct holder_point *p = &run->holders[i];
	int bad = 0;

	bad |= json_put(obj, "t_ms", json_object_new_int64(p->t_ms));
	bad |= json_put(obj, "resource", json_object_new_int64(p->resource));
	bad |= json_put(obj, "holders", json_object_new_int64(p->holders));
	bad |= json_put(obj, "waiting", json_object_new_int64(p->waiting));
	return bad ? -1 : 0;
}

/* v as a JSON integer, or null when it is SAMPLE_UNKNOWN. */
static json_object *sampled(int64_t v)
{
	return v == SAMPLE_UNKNOWN ? NULL : json_object_new_int64(v);
}

/*
 * Adds the members of server sample i of run to obj: its instant, the worker backends in
 * each wait class, the queue table's figures, the oldest transaction, SQLite's -wal file
 * and the claims by then; a figure not read is null. 0, or -1 when out of memory.
 */
static int sample_members(json_object *obj, const struct run_result *run, size_t i)
{
	const struct server_sample *p = &run->samples[i];
	json_object *waits = json_object_new_object();
	int bad = json_put(obj, "waits", waits);

	for (int k = 0; waits && k < WAIT_CLASS_COUNT; k++)
		bad |= json_put(waits, wait_class_names[k], json_object_new_int64(p->waits[k]));
	bad |= json_put(obj, "t_ms", json_object_new_int64(p->t_ms));
	bad |= json_put(obj, "live_tuples", sampled(p->live_tuples));
	bad |= json_put(obj, "dead_tuples", sampled(p->dead_tuples));
	bad |= json_put(obj, "heap_blocks", sampled(p->heap_blocks));
	bad |= json_put(obj, "index_blocks", sampled(p->index_blocks));
	bad |= json_put(obj, "vacuums", sampled(p->vacuums));
	bad |= json_put(obj, "autovacuums", sampled(p->autovacuums));
	bad |= json_put(obj, "xmin_age", sampled(p->xmin_age));
	bad |= json_put(obj, "wal_bytes", sampled(p->wal_bytes));
	bad |= json_put(obj, "claims", json_object_new_uint64(p->claims));
	return bad ? -1 : 0;
}

/* Adds the members of pressure phase i of run to obj: kind, instant and duration. 0, or -1 when out of memory. */
static int phase_members(json_object *obj, const struct run_result *run, size_t i)
{
	const struct phase_record *ph = &run->phases[i];
	int bad = 0;

	bad |= json_put(obj, "kind", json_text(phase_kind_names[ph->kind]));
	bad |= json_put(obj, "at_s", json_number((double)ph->at_ns / 1e9));
	bad |= json_put(obj, "duration_s", json_number((double)ph->duration_ns / 1e9));
	return bad ? -1 : 0;
}

/*
 * The plans object of run: before and after, each the head lookup's plan as its lines
 * joined by line ends, null when it was not read. NULL when out of memory.
 */
static json_object *plans_object(const struct run_result *run)
{
	json_object *obj = json_object_new_object();
	int bad = !obj;

	for (int k = 0; obj && k < PROBE_MOMENTS; k++)
		bad |= json_put(obj, probe_moment_names[k], run->probes[k].plan ? json_text(run->probes[k].plan) : NULL);
	if (!bad)
		return obj;
	json_object_put(obj);
	return NULL;
}

/* The members of verify_differences element i: difference i, its jobs as integers. 0, or -1 out of memory. */
static int difference_members(json_object *obj, const struct run_result *run, size_t i)
{
	const struct verify_difference *d = &run->verify.diffs[i];
	json_object *jobs = json_object_new_array();
	const char *p = d->jobs;
	int bad = json_put(obj, "figure", json_textn(d->figure, sizeof(d->figure)));

	bad |= json_put(obj, "ledger", json_object_new_int64(d->ledger));
	bad |= json_put(obj, "server", json_object_new_int64(d->server));
	bad |= json_put(obj, "jobs", jobs);
	while (jobs && *p >= '0' && *p <= '9') {
		char *end;
		long long id = strtoll(p, &end, 10);

		bad |= append(jobs, json_object_new_int64(id));
		p = end + strspn(end, " ");
	}
	bad |= json_put(obj, "more_jobs", json_object_new_boolean(strstr(d->jobs, "...") != NULL));
	return bad;
}

/* An array of n objects, object i given its members by members(obj, run, i). NULL when out of memory. */
static json_object *object_array(const struct run_result *run, size_t n,
				 int (*members)(json_object *obj, const struct run_result *run, size_t i))
{
	json_object *arr = json_object_new_array(), *obj;
	int bad = !arr;

	for (size_t i = 0; arr && i < n; i++) {
		obj = json_object_new_object();
		bad |= append(arr, obj);
		if (!obj)
			break;
		bad |= members(obj, run, i);
	}
	if (!bad)
		return arr;
	json_object_put(arr);
	return NULL;
}

/* The object of one run, an element of results. NULL when out of memory. */
static json_object *run_object(const struct run_result *run)
{
	json_object *obj = json_object_new_object();
	json_object *params, *workers, *series, *holders, *faults, *samples, *phases, *timeline, *plans, *differences;

	if (!obj)
		return NULL;
	if (run->run_id && json_put(obj, "run_id", json_object_new_int64(run->run_id)) < 0)
		goto fail;
	if (put_descriptors(obj, run) < 0 || put_metrics(obj, run) < 0)
		goto fail;
	params = params_object(run);
	if (!params || json_put(obj, "params", params) < 0)
		goto fail;
	workers = object_array(run, run->per_worker ? (size_t)run->workers : 0, worker_members);
	if (!workers || json_put(obj, "per_worker", workers) < 0)
		goto fail;
	series = object_array(run, run->series ? run->n_series : 0, bucket_members);
	if (!series || json_put(obj, "series", series) < 0)
		goto fail;
	holders = object_array(run, run->holders ? run->n_holders : 0, holder_members);
	if (!holders || json_put(obj, "holders", holders) < 0)
		goto fail;
	faults = object_array(run, run->faults ? run->n_faults : 0, fault_members);
	if (!faults || json_put(obj, "faults", faults) < 0)
		goto fail;
	samples = object_array(run, run->samples ? run->n_samples : 0, sample_members);
	if (!samples || json_put(obj, "samples", samples) < 0)
		goto fail;
	phases = object_array(run, run->phases ? run->n_phases : 0, phase_members);
	if (!phases || json_put(obj, "phases", phases) < 0)
		goto fail;
	timeline = timeline_json(run);
	if (!timeline || json_put(obj, "timeline", timeline) < 0)
		goto fail;
	plans = plans_object(run);
	if (!plans || json_put(obj, "plans", plans) < 0)
		goto fail;
	if (json_put(obj, "verified", json_object_new_boolean(run->verify.verified)) < 0 ||
	    json_put(obj, "verify_in_doubt", json_object_new_int64((int64_t)run->verify.in_doubt)) < 0)
		goto fail;
	differences = object_array(run, run->verify.n_diffs, difference_members);
	if (!differences || json_put(obj, "verify_differences", differences) < 0)
		goto fail;
	return obj;
fail:
	json_object_put(obj);
	return NULL;
}

/* The settings object: one string member per server setting (empty when none were read). NULL when out of memory. */
static json_object *settings_object(const struct invocation_result *r)
{
	json_object *obj = json_object_new_object();
	char name[sizeof(r->settings[0].name) + 1];
	int bad = !obj;

	for (size_t i = 0; obj && i < r->n_settings && i < DB_MAX_SETTINGS; i++) {
		snprintf(name, sizeof(name), "%.*s", (int)sizeof(r->settings[i].name), r->settings[i].name);
		bad |= json_put(obj, name, json_textn(r->settings[i].value, sizeof(r->settings[i].value)));
	}
	if (!bad)
		return obj;
	json_object_put(obj);
	return NULL;
}

/*
 * The summary object of one repeated point: its strategy, claim_mode, workers, group,
 * sweep, runs and, per summarised metric, mean, sd and ci95. NULL when out of memory.
 */
static json_object *summary_object(const struct summary_row *row)
{
	const struct run_result *f = row->first;
	json_object *obj = json_object_new_object(), *stat;
	int bad = !obj;

	if (!obj)
		return NULL;
	bad |= json_put(obj, "strategy", json_text(f->strategy));
	bad |= json_put(obj, "claim_mode", json_text(f->claim_mode));
	bad |= json_put(obj, "workers", json_object_new_int(f->workers));
	if (f->group && *f->group)
		bad |= json_put(obj, "group", json_text(f->group));
	if (f->sweep && *f->sweep)
		bad |= json_put(obj, "sweep", json_text(f->sweep));
	bad |= json_put(obj, "runs", json_object_new_uint64(row->runs));
	for (size_t m = 0; m < metric_table_len; m++) {
		if (!metric_table[m].summarised)
			continue;
		stat = json_object_new_object();
		bad |= json_put(obj, metric_table[m].path, stat);
		if (!stat)
			continue;
		bad |= json_put(stat, "mean", json_number(row->stats[m].mean));
		bad |= json_put(stat, "sd", json_number(row->stats[m].sd));
		bad |= json_put(stat, "ci95", json_number(row->stats[m].ci95));
	}
	if (!bad)
		return obj;
	json_object_put(obj);
	return NULL;
}

/* Adds the summaries array to top when any point was repeated. 0, or -1 when out of memory. */
static int put_summaries(json_object *top, const struct invocation_result *r)
{
	struct summary_row *rows = alloc_zeroed(r->n_results, sizeof(*rows));
	json_object *arr = NULL;
	size_t n;
	int bad = !rows;

	n = rows ? summary_build(r, rows) : 0;
	if (n) {
		arr = json_object_new_array();
		bad |= json_put(top, "summaries", arr);
	}
	for (size_t i = 0; arr && i < n; i++)
		bad |= append(arr, summary_object(&rows[i]));
	free(rows);
	return bad ? -1 : 0;
}

int results_print_json(FILE *out, const struct invocation_result *r)
{
	json_object *top = json_object_new_object(), *results;
	int bad = !top;

	if (!top)
		return -1;
	bad |= json_put(top, "claimbench", json_text(r->version));
	bad |= json_put(top, "scenario", json_text(r->scenario));
	bad |= json_put(top, "backend", json_text(r->backend));
	bad |= json_put(top, "server_version", json_textn(r->server_version, sizeof(r->server_version)));
	bad |= json_put(top, "settings", settings_object(r));
	bad |= json_put(top, "started_at", json_textn(r->started_at, sizeof(r->started_at)));
	bad |= json_put(top, "seed", json_object_new_uint64(r->seed));
	if (r->invocation_id)
		bad |= json_put(top, "invocation", json_object_new_int64(r->invocation_id));
	results = json_object_new_array();
	bad |= json_put(top, "results", results);
	for (size_t i = 0; results && i < r->n_results; i++)
		bad |= append(results, run_object(&r->results[i]));
	bad |= put_summaries(top, r);
	if (!bad)
		bad = json_print(out, top);
	json_object_put(top);
	return bad ? -1 : 0;
}
