/*
 * ab's verdicts as the printers' list (verdict_print.h): a verdict per group and metric
 * with its table's and markdown's cells, its JSON row and, regressed or undecided, its
 * figures; the sides, the rounds, what each section gates and the counts around them.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/text.h"
#include "model/metric_table.h"
#include "output/json_out.h"
#include "output/verdict_print.h"

/* The table's columns: the metric, its nature, each side and its spread, the change, its interval, mde, the verdict, a note. */
static const struct verdict_column table_columns[] = {
	{ "metric", -31, "", false },	{ "nature", -7, " ", false },	{ "baseline", 10, " ", false },
	{ "+-sd", 6, " ", false },	{ "candidate", 10, " ", false },	{ "+-sd", 6, " ", false },
	{ "change", 7, " ", false },	{ "95% interval", -18, " ", false },	{ "mde", 6, " ", false },
	{ "verdict", 0, "  ", false },	{ "", 0, "", false },
};

/* The markdown table's columns. */
static const struct verdict_column md_columns[] = {
	{ "group", 0, "", false },	{ "metric", 0, "", false },	{ "nature", 0, "", false },
	{ "baseline", 0, "", true },	{ "candidate", 0, "", true },	{ "change", 0, "", true },
	{ "95% interval", 0, "", false },	{ "mde", 0, "", true },	{ "verdict", 0, "", false },
	{ "gate", 0, "", false },
};

/* Formats pct as "+1.2%" (sign when signed); "-" when not finite. */
static void pct_text(char *buf, size_t size, double pct, bool sign)
{
	if (!isfinite(pct))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.1f%%" : "%.1f%%", pct);
}

/* The 95 % interval of row's change, "[-1.0%, +2.0%]", or "-" when unknown. */
static void interval_text(char *buf, size_t size, const struct ab_row *row)
{
	char low[16], high[16];

	if (!isfinite(row->ci_low_pct) || !isfinite(row->ci_high_pct)) {
		snprintf(buf, size, "-");
		return;
	}
	pct_text(low, sizeof(low), row->ci_low_pct, true);
	pct_text(high, sizeof(high), row->ci_high_pct, true);
	snprintf(buf, size, "[%s, %s]", low, high);
}

/* Prints "about N rounds would decide it", or why no count would, for an undecided row. */
static void print_rounds_to_decide(FILE *out, const struct ab_row *row)
{
	if (row->rounds_to_decide)
		fprintf(out, "about %zu rounds would decide it", row->rounds_to_decide);
	else
		fputs("no count of rounds in reach would decide it (the change is about the tolerance)", out);
}

/* Prints "metric base -> cand" of row. */
static void print_means(FILE *out, const struct ab_row *row)
{
	char base[32], cand[32];

	verdict_number_text(base, sizeof(base), row->paired.base_mean, false);
	verdict_number_text(cand, sizeof(cand), row->paired.cand_mean, false);
	fprintf(out, "%s %s -> %s", row->metric->path, base, cand);
}

/*
 * Prints, when row's group gates more than one cost or timing, the interval its regression
 * is judged by (family-wise: ab.h), as a change of the metric like the 95 % one before it.
 */
static void print_family(FILE *out, const struct ab_row *row)
{
	bool higher_better = row->metric->direction == HIGHER_IS_BETTER;
	double low = higher_better ? -row->family_high : row->family_low;
	double high = higher_better ? -row->family_low : row->family_high;
	const char *unit = row->paired.base_mean == 0 ? "" : "%";

	if (row->family <= 1 || !isfinite(low) || !isfinite(high))
		return;
	fprintf(out, "; [%+.1f%s, %+.1f%s] over the %zu metrics its group gates", low, unit, high, unit, row->family);
}

/*
 * Prints what makes row a regression: "costs.x 1406 -> 30501 (+2070.0%, 95% interval
 * [...]): a cost beyond its 5% tolerance", or ": where the baseline had none".
 */
static void print_regression_figures(FILE *out, const struct ab_row *row)
{
	char interval[40];

	print_means(out, row);
	if (row->metric->nature == NATURE_OUTCOME) {
		fputs(": where the baseline had none", out);
		return;
	}
	if (row->paired.base_mean == 0) {
		fprintf(out, " (95%% interval of the change [%+g, %+g]", row->paired.ci_low, row->paired.ci_high);
		print_family(out, row);
		fprintf(out, "): a %s from 0 beyond the floor of 0.01", ab_nature_name(row->metric->nature));
		return;
	}
	interval_text(interval, sizeof(interval), row);
	fprintf(out, " (%+.1f%%, 95%% interval %s", row->change_pct, interval);
	print_family(out, row);
	fprintf(out, "): a %s beyond its %g%% tolerance", ab_nature_name(row->metric->nature), row->tolerance_pct);
}

/* Prints what leaves row undecided and what would decide it, as print_regression_figures does. */
static void print_undecided_figures(FILE *out, const struct ab_row *row)
{
	char interval[40];

	print_means(out, row);
	if (row->paired.base_mean == 0) {
		fprintf(out, " (95%% interval of the change [%+g, %+g]", row->paired.ci_low, row->paired.ci_high);
		print_family(out, row);
		fputs("): its interval holds the floor of 0.01; ", out);
	} else {
		interval_text(interval, sizeof(interval), row);
		fprintf(out, " (%+.1f%%, 95%% interval %s", row->change_pct, interval);
		print_family(out, row);
		fprintf(out, "): its interval holds its %g%% tolerance; ", row->tolerance_pct);
	}
	print_rounds_to_decide(out, row);
}

/* Writes the figures of v's row (a regression's or an undecided one's; none otherwise) into v->figures, cut to fit. */
static void figures_text(struct verdict *v, const struct ab_row *row)
{
	FILE *mem;

	v->figures[0] = v->figures[sizeof(v->figures) - 1] = '\0';
	if (v->gate != VERDICT_GATE_REGRESSION && v->gate != VERDICT_GATE_UNDECIDED)
		return;
	mem = fmemopen(v->figures, sizeof(v->figures) - 1, "w");
	if (!mem)
		return;
	if (v->gate == VERDICT_GATE_REGRESSION)
		print_regression_figures(mem, row);
	else
		print_undecided_figures(mem, row);
	fclose(mem);
}

/* Writes the note after a row's verdict into buf: undecided, or why it was not gated; "" when none. */
static void note_text(char *buf, size_t size, const struct ab_row *row)
{
	FILE *mem;

	buf[0] = buf[size - 1] = '\0';
	if (row->gate == AB_GATE_UNDECIDED) {
		mem = fmemopen(buf, size - 1, "w");
		if (!mem)
			return;
		fputs("  undecided: ", mem);
		print_rounds_to_decide(mem, row);
		fclose(mem);
	} else if (row->note == AB_NOTE_TOO_FEW) {
		snprintf(buf, size, "  (not gated: known in fewer than 2 rounds)");
	}
}

/* Fills v's cells from row: the table's line of its metric and the folded markdown table's row. */
static void fill_cells(struct verdict *v, const struct ab_row *row)
{
	const char *gate = ab_gate_name(row->gate);
	char (*c)[VERDICT_CELL_SIZE] = v->cells;

	snprintf(c[0], VERDICT_CELL_SIZE, "%s", row->metric->path);
	snprintf(c[1], VERDICT_CELL_SIZE, "%s", ab_nature_name(row->metric->nature));
	verdict_number_text(c[2], VERDICT_CELL_SIZE, row->paired.n ? row->paired.base_mean : NAN, false);
	pct_text(c[3], VERDICT_CELL_SIZE, row->paired.valid ? row->base_cv_pct : NAN, false);
	verdict_number_text(c[4], VERDICT_CELL_SIZE, row->paired.n ? row->paired.cand_mean : NAN, false);
	pct_text(c[5], VERDICT_CELL_SIZE, row->paired.valid ? row->cand_cv_pct : NAN, false);
	if (row->paired.significant)
		pct_text(c[6], VERDICT_CELL_SIZE, row->change_pct, true);
	else
		snprintf(c[6], VERDICT_CELL_SIZE, "~");
	interval_text(c[7], VERDICT_CELL_SIZE, row);
	pct_text(c[8], VERDICT_CELL_SIZE, row->mde_pct, false);
	snprintf(c[9], VERDICT_CELL_SIZE, "%s", ab_verdict_name(row->verdict));
	note_text(c[10], VERDICT_CELL_SIZE, row);
	verdict_group_text(v->md_cells[0], VERDICT_GROUP_SIZE, &row->group);
	for (char *p = v->md_cells[0]; *p; p++)
		*p = *p == '|' ? '/' : *p;
	snprintf(v->md_cells[1], VERDICT_CELL_SIZE, "`%s`", row->metric->path);
	snprintf(v->md_cells[2], VERDICT_CELL_SIZE, "%s", c[1]);
	snprintf(v->md_cells[3], VERDICT_CELL_SIZE, "%s", c[2]);
	snprintf(v->md_cells[4], VERDICT_CELL_SIZE, "%s", c[4]);
	snprintf(v->md_cells[5], VERDICT_CELL_SIZE, "%s", c[6]);
	snprintf(v->md_cells[6], VERDICT_CELL_SIZE, "%s", c[7]);
	snprintf(v->md_cells[7], VERDICT_CELL_SIZE, "%s", c[8]);
	snprintf(v->md_cells[8], VERDICT_CELL_SIZE, "%s", c[9]);
	snprintf(v->md_cells[9], VERDICT_CELL_SIZE, "%s", gate ? gate : "not gated");
}

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
	if (verdict_json_put_group(obj, &row->group) < 0 ||
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

/* The verdicts' gate of ab's. */
static enum verdict_gate gate_of(enum ab_gate gate)
{
	switch (gate) {
	case AB_GATE_NO_REGRESSION:
		return VERDICT_GATE_PASS;
	case AB_GATE_REGRESSION:
		return VERDICT_GATE_REGRESSION;
	case AB_GATE_UNDECIDED:
		return VERDICT_GATE_UNDECIDED;
	case AB_GATE_NONE:
		break;
	}
	return VERDICT_GATE_NONE;
}

/* Fills verdict v of row. 0, or -1 when out of memory. */
static int fill_verdict(struct verdict *v, const struct ab_row *row)
{
	FILE *mem = fmemopen(v->heading, sizeof(v->heading) - 1, "w");

	v->group = &row->group;
	v->metric = row->metric->path;
	v->gate = gate_of(row->gate);
	if (mem) {
		putc('\n', mem);
		verdict_print_group_words(mem, &row->group);
		putc('\n', mem);
		fclose(mem);
	}
	fill_cells(v, row);
	figures_text(v, row);
	v->json = json_row(row);
	return v->json ? 0 : -1;
}

/* Prints the metrics whose gate over section's groups is one of want (a bit per enum ab_gate), comma-separated. */
static void print_section_metrics(FILE *out, const struct ab_result *res, const char *section, unsigned want)
{
	const char *sep = "";

	for (const struct metric *m = metric_table; m < metric_table + metric_table_len; m++)
		if (want & (1u << ab_section_gate(res, section, m))) {
			fprintf(out, "%s%s", sep, m->path);
			sep = ", ";
		}
}

/* Prints a line per section: the metrics its groups gate (decided), and those undecided. */
static void print_sections(FILE *out, const struct ab_result *res)
{
	const unsigned decided = 1u << AB_GATE_NO_REGRESSION | 1u << AB_GATE_REGRESSION;
	const char *section;
	char name[96];
	bool undecided;

	for (size_t i = 0; i < res->n_rows; i++) {
		if (!ab_first_of_section(res, i))
			continue;
		section = res->rows[i].group.section;
		undecided = false;
		for (const struct metric *m = metric_table; m < metric_table + metric_table_len; m++)
			undecided |= ab_section_gate(res, section, m) == AB_GATE_UNDECIDED;
		text_clean(name, sizeof(name), section && *section ? section : "", SIZE_MAX);
		if (*name)
			fprintf(out, "section [%s] gates: ", name);
		else
			fputs("the runs gate: ", out);
		print_section_metrics(out, res, section, decided);
		if (undecided) {
			fputs("; undecided: ", out);
			print_section_metrics(out, res, section, 1u << AB_GATE_UNDECIDED);
		}
		putc('\n', out);
	}
}

/* Prints the table's head: the sides, the rounds, the backend. */
static void print_table_head(FILE *out, const void *ctx)
{
	const struct ab_report *r = ctx;

	fprintf(out, "baseline: %s; candidate: %s; %zu rounds on %s, in turn (AB, BA, AB, ...)\n", r->baseline,
		r->candidate, r->rounds, r->backend);
}

/* Prints the table's notes: what its columns mean, what each section gates. */
static void print_table_notes(FILE *out, const void *ctx)
{
	putc('\n', out);
	fputs("change: the mean of the rounds' paired differences, ~ where its 95% interval holds 0 (paired t);\n"
	      "+-sd: each side's spread over the rounds, % of its mean; mde: the smallest change these rounds\n"
	      "detect 80% of the time, their noise taken at the top of its 95% interval. A cost or timing\n"
	      "regresses when its interval lies wholly beyond its tolerance the worse way, passes when it\n"
	      "lies wholly within, and is undecided when it holds the tolerance (docs/ci.md)\n", out);
	print_sections(out, ((const struct ab_report *)ctx)->res);
}

/* Prints the table's summary: the counts, the tolerances, the invocations in the store. */
static void print_table_summary(FILE *out, const void *ctx)
{
	const struct ab_report *r = ctx;
	const struct ab_result *res = r->res;

	fprintf(out, "%zu regression%s, %zu undecided%s (tolerances: costs %g%%, timings %g%%; new duplicates or "
		"losses); %zu metric%s not gated\n", res->regressions, res->regressions == 1 ? "" : "s", res->undecided,
		r->fail_on_undecided && res->undecided ? ", failing (--fail-on-undecided)" : "", r->tol->cost_pct,
		r->tol->timing_pct, res->ungated, res->ungated == 1 ? "" : "s");
	if (r->invocations[0] && r->invocations[1])
		fprintf(out, "the runs: invocations %lld (baseline) and %lld (candidate) of the result store\n",
			r->invocations[0], r->invocations[1]);
}

/* Prints markdown's first line: the gate's outcome and the count of each verdict. */
static void print_md_outcome(FILE *out, const void *ctx)
{
	const struct ab_report *r = ctx;
	const struct ab_result *res = r->res;
	size_t passed = 0;

	for (size_t i = 0; i < res->n_rows; i++)
		passed += res->rows[i].gate == AB_GATE_NO_REGRESSION;
	fprintf(out, "**%s**: %zu regression%s, %zu undecided%s, %zu no regression; %zu not gated\n",
		ab_gate_fails(res, r->fail_on_undecided) ? "FAIL" : "PASS", res->regressions,
		res->regressions == 1 ? "" : "s", res->undecided,
		r->fail_on_undecided && res->undecided ? " (failing: --fail-on-undecided)" : "", passed, res->ungated);
}

/* Prints markdown's context: the sides, the rounds, the backend, the tolerances. */
static void print_md_context(FILE *out, const void *ctx)
{
	const struct ab_report *r = ctx;

	fprintf(out, "\n`claimbench ab` %s against %s, %zu rounds on %s (tolerances: costs %g%%, timings %g%%; new "
		"duplicates or losses)\n", r->baseline, r->candidate, r->rounds, r->backend, r->tol->cost_pct,
		r->tol->timing_pct);
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

/* Fills list's JSON members around "comparisons". 0, or -1 when out of memory. */
static int fill_json(struct verdict_list *list, const struct ab_report *r)
{
	json_object *tol = json_object_new_object();

	list->json_head = json_object_new_object();
	list->json_tail = json_object_new_object();
	if (!list->json_head || !list->json_tail || !tol) {
		json_object_put(tol);
		return -1;
	}
	/* tol goes into json_head first: from there, json_head owns it whatever fails. */
	if (json_put(list->json_head, "tolerances", tol) < 0 ||
	    json_put(tol, "cost_pct", json_number(r->tol->cost_pct)) < 0 ||
	    json_put(tol, "timing_pct", json_number(r->tol->timing_pct)) < 0 ||
	    json_put(list->json_head, "baseline", json_object_new_string(r->baseline)) < 0 ||
	    json_put(list->json_head, "candidate", json_object_new_string(r->candidate)) < 0 ||
	    json_put(list->json_head, "rounds", json_object_new_uint64(r->rounds)) < 0 ||
	    json_put(list->json_head, "backend", json_object_new_string(r->backend)) < 0 ||
	    json_put(list->json_head, "baseline_invocation", json_invocation(r->invocations[0])) < 0 ||
	    json_put(list->json_head, "candidate_invocation", json_invocation(r->invocations[1])) < 0 ||
	    json_put(list->json_tail, "regressions", json_object_new_uint64(r->res->regressions)) < 0 ||
	    json_put(list->json_tail, "undecided", json_object_new_uint64(r->res->undecided)) < 0 ||
	    json_put(list->json_tail, "fail_on_undecided", json_object_new_boolean(r->fail_on_undecided)) < 0 ||
	    json_put(list->json_tail, "sections", json_sections(r->res)) < 0 ||
	    json_put(list->json_tail, "not_gated", json_object_new_uint64(r->res->ungated)) < 0)
		return -1;
	return 0;
}

int ab_verdicts(const struct ab_report *r, struct verdict_list *list)
{
	const struct ab_result *res = r->res;

	*list = (struct verdict_list){ .command = "ab", .baseline = r->baseline, .candidate = r->candidate,
		.columns = table_columns, .n_columns = sizeof(table_columns) / sizeof(table_columns[0]),
		.md_columns = md_columns, .n_md_columns = sizeof(md_columns) / sizeof(md_columns[0]),
		.decides_undecided = true, .fail_on_undecided = r->fail_on_undecided, .diffs = r->diffs,
		.n_diffs = r->n_diffs };
	list->verdicts = calloc(res->n_rows ? res->n_rows : 1, sizeof(*list->verdicts));
	if (!list->verdicts)
		goto fail;
	for (; list->n < res->n_rows; list->n++)
		if (fill_verdict(&list->verdicts[list->n], &res->rows[list->n]) < 0)
			goto fail;
	list->table_head = verdict_text(print_table_head, r);
	list->table_notes = verdict_text(print_table_notes, r);
	list->table_summary = verdict_text(print_table_summary, r);
	list->md_outcome = verdict_text(print_md_outcome, r);
	list->md_context = verdict_text(print_md_context, r);
	if (!list->table_head || !list->table_notes || !list->table_summary || !list->md_outcome ||
	    !list->md_context || fill_json(list, r) < 0)
		goto fail;
	return 0;
fail:
	verdict_list_free(list);
	return -1;
}
