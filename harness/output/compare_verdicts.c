/*
 * compare's verdicts as the printers' list (verdict_print.h): a verdict per group and
 * metric with its table's and markdown's cells and its JSON row; the sides, the allowed
 * differences and the groups on one side only around them.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/text.h"
#include "model/metric_table.h"
#include "output/json_out.h"
#include "output/verdict_print.h"

/* The table's columns: the metric, the runs, the sides, the change, its significance and tolerance, the verdict, the engines. */
static const struct verdict_column table_columns[] = {
	{ "metric", -27, "", false },	{ "runs", 7, " ", false },	{ "baseline", 11, " ", false },
	{ "candidate", 11, " ", false },	{ "change", 11, " ", false },	{ "change%", 8, " ", false },
	{ "sig", -4, "  ", false },	{ "tol", -6, " ", false },	{ "verdict", 0, "  ", false },
	{ "", 0, "", false },
};

/* The markdown table's columns. */
static const struct verdict_column md_columns[] = {
	{ "group", 0, "", false },	{ "metric", 0, "", false },	{ "runs", 0, "", false },
	{ "baseline", 0, "", true },	{ "candidate", 0, "", true },	{ "change", 0, "", true },
	{ "significant", 0, "", false },	{ "verdict", 0, "", false },
};

/* The significance column: "yes", "no" or "n/a". */
static const char *significance_text(const struct welch_result *w)
{
	if (!w->valid)
		return "n/a";
	return w->significant ? "yes" : "no";
}

/* True when row's metric is one of compare's tolerances judges (metric_table's guard): a row its gate rests on. */
static bool row_gated(const struct compare_row *row)
{
	const struct metric *m = metric_find(row->metric);

	return m && m->guard != GUARD_NONE;
}

/*
 * Writes the heading of group g's block into buf: a blank line unless it opens the table,
 * "strategy mode workers" as columns, then its sweep point or section when it has them.
 */
static void group_columns(char *buf, size_t size, const struct compare_group *g, bool opens_table)
{
	char strategy[128], mode[16], where[96] = "";

	verdict_group_label(g, strategy, sizeof(strategy));
	text_clean(mode, sizeof(mode), g->claim_mode, SIZE_MAX);
	if ((g->section && *g->section) || (g->sweep && *g->sweep))
		text_clean(where, sizeof(where), g->sweep && *g->sweep ? g->sweep : g->section, SIZE_MAX);
	snprintf(buf, size, "%s%-16s %-4s %4d%s%s%s\n", opens_table ? "" : "\n", strategy, mode, g->workers,
		 *where ? "  [" : "", where, *where ? "]" : "");
}

/* The change in % as the tables show it: "+1.2%", or "-" when not finite. */
static void pct_text(char *buf, size_t size, double pct)
{
	if (isfinite(pct))
		snprintf(buf, size, "%+.1f%%", pct);
	else
		snprintf(buf, size, "-");
}

/* Fills v's cells from row; across: the comparison paired engines (--allow-diff backend), the last cell their two. */
static void fill_cells(struct verdict *v, const struct compare_row *row, bool across)
{
	char base[32], cand[32], pct[32], engines[2][96];

	verdict_number_text(base, sizeof(base), row->base.n ? row->base.mean : NAN, false);
	verdict_number_text(cand, sizeof(cand), row->cand.n ? row->cand.mean : NAN, false);
	pct_text(pct, sizeof(pct), row->change_pct);
	snprintf(v->cells[0], VERDICT_CELL_SIZE, "%s", row->metric);
	snprintf(v->cells[1], VERDICT_CELL_SIZE, "%zu/%zu", row->base.n, row->cand.n);
	snprintf(v->cells[2], VERDICT_CELL_SIZE, "%s", base);
	snprintf(v->cells[3], VERDICT_CELL_SIZE, "%s", cand);
	verdict_number_text(v->cells[4], VERDICT_CELL_SIZE, row->change, true);
	snprintf(v->cells[5], VERDICT_CELL_SIZE, "%s", pct);
	snprintf(v->cells[6], VERDICT_CELL_SIZE, "%s", significance_text(&row->welch));
	snprintf(v->cells[7], VERDICT_CELL_SIZE, "%s", row->beyond_tolerance ? "beyond" : "");
	snprintf(v->cells[8], VERDICT_CELL_SIZE, "%s", compare_verdict_name(row->verdict));
	if (across) {
		text_clean(engines[0], sizeof(engines[0]), row->group.engine, SIZE_MAX);
		text_clean(engines[1], sizeof(engines[1]), row->cand_engine, SIZE_MAX);
		snprintf(v->cells[9], VERDICT_CELL_SIZE, "  [%s -> %s]", engines[0], engines[1]);
	}
	verdict_group_text(v->md_cells[0], VERDICT_GROUP_SIZE, &row->group);
	for (char *p = v->md_cells[0]; *p; p++)
		*p = *p == '|' ? '/' : *p;
	snprintf(v->md_cells[1], VERDICT_CELL_SIZE, "`%s`", row->metric);
	snprintf(v->md_cells[2], VERDICT_CELL_SIZE, "%s", v->cells[1]);
	snprintf(v->md_cells[3], VERDICT_CELL_SIZE, "%s", base);
	snprintf(v->md_cells[4], VERDICT_CELL_SIZE, "%s", cand);
	snprintf(v->md_cells[5], VERDICT_CELL_SIZE, "%s", pct);
	snprintf(v->md_cells[6], VERDICT_CELL_SIZE, "%s", v->cells[6]);
	snprintf(v->md_cells[7], VERDICT_CELL_SIZE, "%s", v->cells[8]);
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
	if (verdict_json_put_group(obj, &row->group) < 0 ||
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
	    json_put(obj, "gated", json_object_new_boolean(row_gated(row))) < 0 ||
	    json_put(obj, "beyond_tolerance", json_object_new_boolean(row->beyond_tolerance)) < 0 ||
	    json_put(obj, "verdict", json_object_new_string(compare_verdict_name(row->verdict))) < 0 ||
	    json_put(obj, "reason", row->reason ? json_object_new_string(row->reason) : NULL) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* Fills verdict v of row, opens_table when it is the first; across as fill_cells says. 0, or -1 when out of memory. */
static int fill_verdict(struct verdict *v, const struct compare_row *row, bool opens_table, bool across)
{
	char base[32], cand[32];

	v->group = &row->group;
	v->metric = row->metric;
	v->gate = row->verdict == VERDICT_REGRESSION ? VERDICT_GATE_REGRESSION :
		  row_gated(row) ? VERDICT_GATE_PASS : VERDICT_GATE_NONE;
	group_columns(v->heading, sizeof(v->heading), &row->group, opens_table);
	fill_cells(v, row, across);
	if (v->gate == VERDICT_GATE_REGRESSION) {
		verdict_number_text(base, sizeof(base), row->base.mean, false);
		verdict_number_text(cand, sizeof(cand), row->cand.mean, false);
		snprintf(v->figures, sizeof(v->figures), "%s %s -> %s: %s%s", row->metric, base, cand,
			 row->reason ? row->reason : "", row->welch.valid ? " (significant)" : " (significance not tested)");
	}
	v->json = json_row(row);
	return v->json ? 0 : -1;
}

/* Prints the SQL of a strategy defined in SQL that changed between the sides, both versions whole (to 400 bytes). */
static void print_sql_diff(FILE *out, const struct compare_param_diff *d)
{
	char base[400], cand[400], strategy[48];

	text_clean(base, sizeof(base), d->base_value, SIZE_MAX);
	text_clean(cand, sizeof(cand), d->cand_value, SIZE_MAX);
	text_clean(strategy, sizeof(strategy), d->group.strategy, SIZE_MAX);
	fprintf(out, "changed SQL: %s of %s\n  baseline:  %s\n  candidate: %s\n", d->name, strategy, base, cand);
}

/* Prints the table's head: the sides, the differences in the runs' parameters allowed (--allow-diff's, changed SQL). */
static void print_table_head(FILE *out, const void *ctx)
{
	const struct compare_report *c = ctx;
	const struct compare_result *res = c->res;
	char base[64], cand[64];

	fprintf(out, "baseline: %s (%zu run%s); candidate: %s (%zu run%s)\n", c->baseline, c->baseline_runs,
		c->baseline_runs == 1 ? "" : "s", c->candidate, c->candidate_runs, c->candidate_runs == 1 ? "" : "s");
	for (size_t i = 0; i < res->n_diffs; i++) {
		if (res->diffs[i].sql) {
			print_sql_diff(out, &res->diffs[i]);
			continue;
		}
		text_clean(base, sizeof(base), res->diffs[i].base_value, SIZE_MAX);
		text_clean(cand, sizeof(cand), res->diffs[i].cand_value, SIZE_MAX);
		fprintf(out, "allowed difference: %s %s -> %s\n", res->diffs[i].name, base, cand);
	}
	putc('\n', out);
}

/* Prints the table's notes: the groups found on one side only, and why no significance was tested. */
static void print_table_notes(FILE *out, const void *ctx)
{
	const struct compare_result *res = ((const struct compare_report *)ctx)->res;
	const struct compare_lone_group *l;

	if (res->n_lone)
		putc('\n', out);
	for (size_t i = 0; i < res->n_lone; i++) {
		l = &res->lone[i];
		fprintf(out, "only in the %s: ", l->side == SIDE_BASELINE ? "baseline" : "candidate");
		verdict_print_group_words(out, &l->group);
		fprintf(out, " (%zu run%s)\n", l->runs, l->runs == 1 ? "" : "s");
	}
	putc('\n', out);
	if (res->untested)
		fputs("sig n/a: fewer than 2 runs on a side, so no change could be told from noise; a guarded metric "
		      "beyond its tolerance counts as a regression all the same (run --repeat 3 or more)\n", out);
}

/* Prints the tolerances as the table's last line and markdown's context end them. */
static void print_tolerances(FILE *out, const struct compare_tolerance *t)
{
	fprintf(out, "throughput drop %g %%, Jain drop %g, duplicates %s, losses %s", t->throughput_drop_pct,
		t->jain_drop, t->allow_duplicates ? "allowed" : "not allowed", t->allow_losses ? "allowed" : "not allowed");
}

/* Prints the table's summary: the regressions counted, the tolerances. */
static void print_table_summary(FILE *out, const void *ctx)
{
	const struct compare_report *c = ctx;

	fprintf(out, "%zu regression%s (tolerances: ", c->res->regressions, c->res->regressions == 1 ? "" : "s");
	print_tolerances(out, c->tol);
	fputs(")\n", out);
}

/* Prints markdown's first line: the outcome and the counts of the guarded metrics' verdicts. */
static void print_md_outcome(FILE *out, const void *ctx)
{
	const struct compare_result *res = ((const struct compare_report *)ctx)->res;
	size_t gated = 0;

	for (size_t i = 0; i < res->n_rows; i++)
		gated += row_gated(&res->rows[i]);
	fprintf(out, "**%s**: %zu regression%s, %zu no regression (guarded metrics); %zu more compared, not gated\n",
		res->regressions ? "FAIL" : "PASS", res->regressions, res->regressions == 1 ? "" : "s",
		gated - res->regressions, res->n_rows - gated);
}

/* Prints markdown's context: the sides with their runs, the tolerances. */
static void print_md_context(FILE *out, const void *ctx)
{
	const struct compare_report *c = ctx;

	fprintf(out, "\n`claimbench compare` %s (%zu run%s) against %s (%zu run%s); tolerances: ", c->candidate,
		c->candidate_runs, c->candidate_runs == 1 ? "" : "s", c->baseline, c->baseline_runs,
		c->baseline_runs == 1 ? "" : "s");
	print_tolerances(out, c->tol);
	putc('\n', out);
}

/* Prints markdown's notes: the allowed differences other than changed SQL. */
static void print_md_notes(FILE *out, const void *ctx)
{
	const struct compare_result *res = ((const struct compare_report *)ctx)->res;
	char base[64], cand[64];

	for (size_t i = 0; i < res->n_diffs; i++) {
		if (res->diffs[i].sql || !res->diffs[i].allowed)
			continue;
		text_clean(base, sizeof(base), res->diffs[i].base_value, SIZE_MAX);
		text_clean(cand, sizeof(cand), res->diffs[i].cand_value, SIZE_MAX);
		fprintf(out, "\nAllowed difference: `%s` %s -> %s\n", res->diffs[i].name, base, cand);
	}
}

/* The array of the groups found on side alone, or NULL when out of memory. */
static json_object *json_lone(const struct compare_result *res, enum compare_side side)
{
	json_object *arr = json_object_new_array(), *obj;

	for (size_t i = 0; arr && i < res->n_lone; i++) {
		if (res->lone[i].side != side)
			continue;
		obj = json_object_new_object();
		if (!obj || json_object_array_add(arr, obj) < 0) {
			json_object_put(obj);
			goto fail;
		}
		if (verdict_json_put_group(obj, &res->lone[i].group) < 0 ||
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

/* Fills list's JSON members around "comparisons". 0, or -1 when out of memory. */
static int fill_json(struct verdict_list *list, const struct compare_report *c)
{
	const struct compare_result *res = c->res;

	list->json_head = json_object_new_object();
	list->json_tail = json_object_new_object();
	if (!list->json_head || !list->json_tail ||
	    json_put(list->json_head, "baseline", json_object_new_string(c->baseline)) < 0 ||
	    json_put(list->json_head, "candidate", json_object_new_string(c->candidate)) < 0 ||
	    json_put(list->json_head, "tolerance", json_tolerance(c->tol)) < 0 ||
	    json_put(list->json_head, "regressions", json_object_new_uint64(res->regressions)) < 0 ||
	    json_put(list->json_head, "significance_tested", json_object_new_boolean(!res->untested)) < 0 ||
	    json_put(list->json_head, "allowed_differences", json_diffs(res)) < 0 ||
	    json_put(list->json_tail, "only_baseline", json_lone(res, SIDE_BASELINE)) < 0 ||
	    json_put(list->json_tail, "only_candidate", json_lone(res, SIDE_CANDIDATE)) < 0)
		return -1;
	return 0;
}

int compare_verdicts(const struct compare_report *c, struct verdict_list *list)
{
	const struct compare_result *res = c->res;

	*list = (struct verdict_list){ .command = "compare", .baseline = c->baseline, .candidate = c->candidate,
		.columns = table_columns, .n_columns = sizeof(table_columns) / sizeof(table_columns[0]),
		.md_columns = md_columns, .n_md_columns = sizeof(md_columns) / sizeof(md_columns[0]),
		.junit_names_group = true, .diffs = res->diffs, .n_diffs = res->n_diffs };
	list->verdicts = calloc(res->n_rows ? res->n_rows : 1, sizeof(*list->verdicts));
	if (!list->verdicts)
		goto fail;
	for (; list->n < res->n_rows; list->n++)
		if (fill_verdict(&list->verdicts[list->n], &res->rows[list->n], list->n == 0, res->across_engines) < 0)
			goto fail;
	list->table_head = verdict_text(print_table_head, c);
	list->table_notes = verdict_text(print_table_notes, c);
	list->table_summary = verdict_text(print_table_summary, c);
	list->md_outcome = verdict_text(print_md_outcome, c);
	list->md_context = verdict_text(print_md_context, c);
	list->md_notes = verdict_text(print_md_notes, c);
	if (!list->table_head || !list->table_notes || !list->table_summary || !list->md_outcome ||
	    !list->md_context || !list->md_notes || fill_json(list, c) < 0)
		goto fail;
	return 0;
fail:
	verdict_list_free(list);
	return -1;
}
