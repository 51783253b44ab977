/*
 * compare's verdicts as one JSON object: the sides, the tolerances, a comparison per group
 * and metric, the groups on one side only.
 */
#include "output/compare_print.h"
#include "output/json_out.h"

int compare_json_put_group(json_object *obj, const struct compare_group *g)
{
	json_object *strategy = g->strategy ? json_object_new_string(g->strategy) : NULL;
	json_object *mode = g->claim_mode ? json_object_new_string(g->claim_mode) : NULL;

	if (json_put(obj, "strategy", strategy) < 0 || json_put(obj, "claim_mode", mode) < 0)
		return -1;
	if (g->section && *g->section && json_put(obj, "group", json_object_new_string(g->section)) < 0)
		return -1;
	if (g->sweep && *g->sweep && json_put(obj, "sweep", json_object_new_string(g->sweep)) < 0)
		return -1;
	if (g->engine && *g->engine && json_put(obj, "engine", json_object_new_string(g->engine)) < 0)
		return -1;
	return json_put(obj, "workers", json_object_new_int(g->workers));
}

/* A {n, mean, sd} object of s, or NULL when out of memory. */
static json_object *json_summary(const struct stats_summary *s)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (json_put(obj, "n", json_object_new_uint64(s->n)) < 0 ||
	    json_put(obj, "mean", s->n ? json_number(s->mean) : NULL) < 0 ||
	    json_put(obj, "sd", s->n > 1 ? json_number(s->sd) : NULL) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* The JSON object of one row, or NULL when out of memory. */
static json_object *json_row(const struct compare_row *row)
{
	const struct welch_result *w = &row->welch;
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (compare_json_put_group(obj, &row->group) < 0 ||
	    json_put(obj, "candidate_engine", row->cand_engine && *row->cand_engine ?
		     json_object_new_string(row->cand_engine) : NULL) < 0 ||
	    json_put(obj, "metric", json_object_new_string(row->metric)) < 0 ||
	    json_put(obj, "higher_is_better", json_object_new_boolean(row->direction == HIGHER_IS_BETTER)) < 0 ||
	    json_put(obj, "baseline", json_summary(&row->base)) < 0 ||
	    json_put(obj, "candidate", json_summary(&row->cand)) < 0 ||
	    json_put(obj, "change", json_number(row->change)) < 0 ||
	    json_put(obj, "change_pct", json_number(row->change_pct)) < 0 ||
	    json_put(obj, "significant", w->valid ? json_object_new_boolean(w->significant) : NULL) < 0 ||
	    json_put(obj, "t", w->valid ? json_number(w->t) : NULL) < 0 ||
	    json_put(obj, "df", w->valid ? json_number(w->df) : NULL) < 0 ||
	    json_put(obj, "gated", json_object_new_boolean(compare_row_gated(row))) < 0 ||
	    json_put(obj, "beyond_tolerance", json_object_new_boolean(row->beyond_tolerance)) < 0 ||
	    json_put(obj, "verdict", json_object_new_string(compare_verdict_name(row->verdict))) < 0 ||
	    json_put(obj, "reason", row->reason ? json_object_new_string(row->reason) : NULL) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* The array of the groups found on side alone, or NULL when out of memory. */
static json_object *json_lone(const struct compare_result *res, enum compare_side side)
{
	json_object *arr = json_object_new_array(), *obj;
	size_t i;

	for (i = 0; arr && i < res->n_lone; i++) {
		if (res->lone[i].side != side)
			continue;
		obj = json_object_new_object();
		if (!obj || json_object_array_add(arr, obj) < 0) {
			json_object_put(obj);
			goto fail;
		}
		if (compare_json_put_group(obj, &res->lone[i].group) < 0 ||
		    json_put(obj, "runs", json_object_new_uint64(res->lone[i].runs)) < 0)
			goto fail;
	}
	return arr;
fail:
	json_object_put(arr);
	return NULL;
}

/* The array of the parameter differences --allow-diff allowed, or NULL when out of memory. */
static json_object *json_diffs(const struct compare_result *res)
{
	json_object *arr = json_object_new_array(), *obj;

	for (size_t i = 0; arr && i < res->n_diffs; i++) {
		obj = json_object_new_object();
		if (!obj || json_object_array_add(arr, obj) < 0) {
			json_object_put(obj);
			goto fail;
		}
		if (json_put(obj, "name", json_object_new_string(res->diffs[i].name)) < 0 ||
		    json_put(obj, "baseline", json_object_new_string(res->diffs[i].base_value)) < 0 ||
		    json_put(obj, "candidate", json_object_new_string(res->diffs[i].cand_value)) < 0 ||
		    json_put(obj, "sql", json_object_new_boolean(res->diffs[i].sql)) < 0)
			goto fail;
	}
	return arr;
fail:
	json_object_put(arr);
	return NULL;
}

/* The tolerances as an object, or NULL when out of memory. */
static json_object *json_tolerance(const struct compare_tolerance *t)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (json_put(obj, "throughput_drop_pct", json_number(t->throughput_drop_pct)) < 0 ||
	    json_put(obj, "jain_drop", json_number(t->jain_drop)) < 0 ||
	    json_put(obj, "allow_duplicates", json_object_new_boolean(t->allow_duplicates)) < 0 ||
	    json_put(obj, "allow_losses", json_object_new_boolean(t->allow_losses)) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

int compare_print_json(FILE *out, const struct compare_report *c)
{
	const struct compare_result *res = c->res;
	json_object *top = json_object_new_object(), *rows = json_object_new_array(), *row;
	size_t i;
	int ret = -1, added;

	if (!top || !rows)
		goto out;
	for (i = 0; i < res->n_rows; i++) {
		row = json_row(&res->rows[i]);
		if (!row || json_object_array_add(rows, row) < 0) {
			json_object_put(row);
			goto out;
		}
	}
	if (json_put(top, "baseline", json_object_new_string(c->baseline)) < 0 ||
	    json_put(top, "candidate", json_object_new_string(c->candidate)) < 0 ||
	    json_put(top, "tolerance", json_tolerance(c->tol)) < 0 ||
	    json_put(top, "regressions", json_object_new_uint64(res->regressions)) < 0 ||
	    json_put(top, "significance_tested", json_object_new_boolean(!res->untested)) < 0 ||
	    json_put(top, "allowed_differences", json_diffs(res)) < 0)
		goto out;
	added = json_put(top, "comparisons", rows);
	rows = NULL;	/* top holds it now, or json_put released it */
	if (added < 0 || json_put(top, "only_baseline", json_lone(res, SIDE_BASELINE)) < 0 ||
	    json_put(top, "only_candidate", json_lone(res, SIDE_CANDIDATE)) < 0)
		goto out;
	ret = json_print(out, top);
out:
	json_object_put(rows);
	json_object_put(top);
	return ret;
}

