/*
 * ab's verdicts as one JSON object: the sides, the rounds, the tolerances, a comparison
 * per group and metric, the counts.
 */
#include <math.h>

#include "model/metric_table.h"
#include "output/ab_print.h"
#include "output/compare_print.h"
#include "output/json_out.h"

/* The note's name in JSON: null or "too_few_rounds". */
static json_object *json_note(enum ab_note note)
{
	return note == AB_NOTE_TOO_FEW ? json_object_new_string("too_few_rounds") : NULL;
}

/* A string, or null for NULL. */
static json_object *json_text(const char *text)
{
	return text ? json_object_new_string(text) : NULL;
}

/* A {mean, sd, cv_pct} object of one side, or NULL when out of memory. */
static json_object *json_side(const struct paired_result *p, double mean, double sd, double cv_pct)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (json_put(obj, "mean", p->n ? json_number(mean) : NULL) < 0 ||
	    json_put(obj, "sd", p->valid ? json_number(sd) : NULL) < 0 ||
	    json_put(obj, "cv_pct", p->valid ? json_number(cv_pct) : NULL) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* The JSON object of one row, or NULL when out of memory. */
static json_object *json_row(const struct ab_row *row)
{
	const struct paired_result *p = &row->paired;
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (compare_json_put_group(obj, &row->group) < 0 ||
	    json_put(obj, "metric", json_object_new_string(row->metric->path)) < 0 ||
	    json_put(obj, "nature", json_object_new_string(ab_nature_name(row->metric->nature))) < 0 ||
	    json_put(obj, "higher_is_better", json_object_new_boolean(row->metric->direction == HIGHER_IS_BETTER)) < 0 ||
	    json_put(obj, "pairs", json_object_new_uint64(p->n)) < 0 ||
	    json_put(obj, "baseline", json_side(p, p->base_mean, p->base_sd, row->base_cv_pct)) < 0 ||
	    json_put(obj, "candidate", json_side(p, p->cand_mean, p->cand_sd, row->cand_cv_pct)) < 0 ||
	    json_put(obj, "change", p->n ? json_number(p->diff_mean) : NULL) < 0 ||
	    json_put(obj, "change_pct", json_number(row->change_pct)) < 0 ||
	    json_put(obj, "ci95_low_pct", json_number(row->ci_low_pct)) < 0 ||
	    json_put(obj, "ci95_high_pct", json_number(row->ci_high_pct)) < 0 ||
	    json_put(obj, "significant", p->valid ? json_object_new_boolean(p->significant) : NULL) < 0 ||
	    json_put(obj, "mde_pct", json_number(row->mde_pct)) < 0 ||
	    json_put(obj, "tolerance_pct", json_number(row->tolerance_pct)) < 0 ||
	    json_put(obj, "gated", json_object_new_boolean(row->gated)) < 0 ||
	    json_put(obj, "not_gated_because", json_note(row->note)) < 0 ||
	    json_put(obj, "verdict", json_object_new_string(ab_verdict_name(row->verdict))) < 0 ||
	    json_put(obj, "gate", json_text(ab_gate_name(row->gate))) < 0 ||
	    json_put(obj, "rounds_to_decide", row->rounds_to_decide ? json_object_new_uint64(row->rounds_to_decide)
								    : NULL) < 0 ||
	    json_put(obj, "group_gates", json_object_new_uint64(row->family)) < 0 ||
	    json_put(obj, "worse_low", json_number(row->family_low)) < 0 ||
	    json_put(obj, "worse_high", json_number(row->family_high)) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* The array of the rows of res, or NULL when out of memory. */
static json_object *json_rows(const struct ab_result *res)
{
	json_object *arr = json_object_new_array(), *obj;

	for (size_t i = 0; arr && i < res->n_rows; i++) {
		obj = json_row(&res->rows[i]);
		if (!obj || json_object_array_add(arr, obj) < 0) {
			json_object_put(obj);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

/* The array of the paths of the metrics whose gate over section's groups is one of want (a bit per enum ab_gate). */
static json_object *json_section_metrics(const struct ab_result *res, const char *section, unsigned want)
{
	json_object *arr = json_object_new_array();

	for (const struct metric *m = metric_table; arr && m < metric_table + metric_table_len; m++)
		if ((want & (1u << ab_section_gate(res, section, m))) &&
		    json_object_array_add(arr, json_object_new_string(m->path)) < 0) {
			json_object_put(arr);
			return NULL;
		}
	return arr;
}

/* The {section, gates, undecided} object of section in res, or NULL when out of memory. */
static json_object *json_section(const struct ab_result *res, const char *section)
{
	const unsigned decided = 1u << AB_GATE_NO_REGRESSION | 1u << AB_GATE_REGRESSION;
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (json_put(obj, "section", json_text(section && *section ? section : NULL)) < 0 ||
	    json_put(obj, "gates", json_section_metrics(res, section, decided)) < 0 ||
	    json_put(obj, "undecided", json_section_metrics(res, section, 1u << AB_GATE_UNDECIDED)) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* The array of the sections of res, each as json_section says, or NULL when out of memory. */
static json_object *json_sections(const struct ab_result *res)
{
	json_object *arr = json_object_new_array(), *obj;

	for (size_t i = 0; arr && i < res->n_rows; i++) {
		if (!ab_first_of_section(res, i))
			continue;
		obj = json_section(res, res->rows[i].group.section);
		if (!obj || json_object_array_add(arr, obj) < 0) {
			json_object_put(obj);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

/* An invocation id, or null when not stored. */
static json_object *json_invocation(long long id)
{
	return id ? json_object_new_int64(id) : NULL;
}

int ab_print_json(FILE *out, const struct ab_report *r)
{
	json_object *root = json_object_new_object(), *tol = json_object_new_object();
	int rc = -1;

	if (!root || !tol) {
		json_object_put(tol);
		goto out;
	}
	/* tol goes into root first: from there, root owns it whatever fails. */
	if (json_put(root, "tolerances", tol) < 0 ||
	    json_put(tol, "cost_pct", json_number(r->tol->cost_pct)) < 0 ||
	    json_put(tol, "timing_pct", json_number(r->tol->timing_pct)) < 0 ||
	    json_put(root, "baseline", json_object_new_string(r->baseline)) < 0 ||
	    json_put(root, "candidate", json_object_new_string(r->candidate)) < 0 ||
	    json_put(root, "rounds", json_object_new_uint64(r->rounds)) < 0 ||
	    json_put(root, "backend", json_object_new_string(r->backend)) < 0 ||
	    json_put(root, "baseline_invocation", json_invocation(r->invocations[0])) < 0 ||
	    json_put(root, "candidate_invocation", json_invocation(r->invocations[1])) < 0 ||
	    json_put(root, "comparisons", json_rows(r->res)) < 0 ||
	    json_put(root, "regressions", json_object_new_uint64(r->res->regressions)) < 0 ||
	    json_put(root, "undecided", json_object_new_uint64(r->res->undecided)) < 0 ||
	    json_put(root, "fail_on_undecided", json_object_new_boolean(r->fail_on_undecided)) < 0 ||
	    json_put(root, "sections", json_sections(r->res)) < 0 ||
	    json_put(root, "not_gated", json_object_new_uint64(r->res->ungated)) < 0)
		goto out;
	rc = json_print(out, root);
out:
	json_object_put(root);
	return rc;
}
