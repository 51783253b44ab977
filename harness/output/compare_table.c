/* compare's verdicts as a table: a line per group and metric, the one-sided groups, a line per regression. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/text.h"
#include "model/metric_table.h"
#include "output/compare_print.h"

void compare_number_text(char *buf, size_t size, double v, bool sign)
{
	double a = fabs(v);
	int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;

	if (!isfinite(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.*f" : "%.*f", decimals, v);
}

/* The tolerance column: "beyond" when a guarded metric moved beyond its tolerance, else blank. */
static const char *tolerance_text(const struct compare_row *row)
{
	return row->beyond_tolerance ? "beyond" : "";
}

/* The significance column: "yes", "no" or "n/a". */
static const char *significance_text(const struct welch_result *w)
{
	if (!w->valid)
		return "n/a";
	return w->significant ? "yes" : "no";
}

/* Writes into out g's strategy as printed: an adapter's with its system and version ("adapter:pgq (PgQ 3.5)"). */
static void group_label(const struct compare_group *g, char *out, size_t len)
{
	char label[256];

	if (g->system && g->version)
		snprintf(label, sizeof(label), "%s (%s %s)", g->strategy ? g->strategy : "", g->system, g->version);
	else
		snprintf(label, sizeof(label), "%s", g->strategy ? g->strategy : "");
	text_clean(out, len, label, SIZE_MAX);
}

/* Prints group g as "strategy mode workers" columns, then its section and sweep point when it has them. */
static void print_group(FILE *out, const struct compare_group *g)
{
	char strategy[128], mode[16], where[96];

	group_label(g, strategy, sizeof(strategy));
	text_clean(mode, sizeof(mode), g->claim_mode, SIZE_MAX);
	fprintf(out, "%-16s %-4s %4d", strategy, mode, g->workers);
	if ((g->section && *g->section) || (g->sweep && *g->sweep)) {
		text_clean(where, sizeof(where), g->sweep && *g->sweep ? g->sweep : g->section, SIZE_MAX);
		fprintf(out, "  [%s]", where);
	}
}

/*
 * Prints one row of the table; a side with no value of the metric shows "-". across: the
 * comparison paired engines (--allow-diff backend), and the row ends with its two.
 */
static void print_row(FILE *out, const struct compare_row *row, bool across)
{
	char base[32], cand[32], change[32], pct[32], runs[48], engines[2][96];

	compare_number_text(base, sizeof(base), row->base.n ? row->base.mean : NAN, false);
	compare_number_text(cand, sizeof(cand), row->cand.n ? row->cand.mean : NAN, false);
	compare_number_text(change, sizeof(change), row->change, true);
	if (isfinite(row->change_pct))
		snprintf(pct, sizeof(pct), "%+.1f%%", row->change_pct);
	else
		snprintf(pct, sizeof(pct), "-");
	snprintf(runs, sizeof(runs), "%zu/%zu", row->base.n, row->cand.n);
	fprintf(out, "%-27s %7s %11s %11s %11s %8s  %-4s %-6s  %s", row->metric, runs, base, cand, change, pct,
		significance_text(&row->welch), tolerance_text(row), compare_verdict_name(row->verdict));
	if (across) {
		text_clean(engines[0], sizeof(engines[0]), row->group.engine, SIZE_MAX);
		text_clean(engines[1], sizeof(engines[1]), row->cand_engine, SIZE_MAX);
		fprintf(out, "  [%s -> %s]", engines[0], engines[1]);
	}
	putc('\n', out);
}

void compare_print_group_words(FILE *out, const struct compare_group *g)
{
	char strategy[128], mode[16], text[96];

	group_label(g, strategy, sizeof(strategy));
	text_clean(mode, sizeof(mode), g->claim_mode, SIZE_MAX);
	fprintf(out, "%s %s %d worker%s", strategy, mode, g->workers, g->workers == 1 ? "" : "s");
	if (g->section && *g->section) {
		text_clean(text, sizeof(text), g->section, SIZE_MAX);
		fprintf(out, " in [%s]", text);
	}
	if (g->sweep && *g->sweep) {
		text_clean(text, sizeof(text), g->sweep, SIZE_MAX);
		fprintf(out, " at %s", text);
	}
}

bool compare_row_gated(const struct compare_row *row)
{
	const struct metric *m = metric_find(row->metric);

	return m && m->guard != GUARD_NONE;
}

void compare_group_text(char *buf, size_t size, const struct compare_group *g)
{
	FILE *mem = size > 1 ? fmemopen(buf, size - 1, "w") : NULL;

	if (size)
		buf[0] = buf[size - 1] = '\0';
	if (!mem)
		return;
	compare_print_group_words(mem, g);
	fclose(mem);
}

/* True when rows' groups a and b are the same one: compare_runs points both at one run's names. */
static bool same_group(const struct compare_group *a, const struct compare_group *b)
{
	return a->strategy == b->strategy && a->claim_mode == b->claim_mode && a->workers == b->workers &&
	       a->section == b->section && a->sweep == b->sweep;
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

void compare_print_regression(FILE *out, const struct compare_row *row)
{
	char base[32], cand[32];

	compare_number_text(base, sizeof(base), row->base.mean, false);
	compare_number_text(cand, sizeof(cand), row->cand.mean, false);
	compare_print_group_words(out, &row->group);
	fprintf(out, ", %s %s -> %s: %s%s", row->metric, base, cand, row->reason ? row->reason : "",
		row->welch.valid ? " (significant)" : " (significance not tested)");
}

/* Prints the differences in the runs' parameters that were allowed: --allow-diff's, and changed SQL. */
static void print_allowed_diffs(FILE *out, const struct compare_result *res)
{
	char base[64], cand[64];

	for (size_t i = 0; i < res->n_diffs; i++) {
		if (res->diffs[i].sql) {
			print_sql_diff(out, &res->diffs[i]);
			continue;
		}
		text_clean(base, sizeof(base), res->diffs[i].base_value, SIZE_MAX);
		text_clean(cand, sizeof(cand), res->diffs[i].cand_value, SIZE_MAX);
		fprintf(out, "allowed difference: %s %s -> %s\n", res->diffs[i].name, base, cand);
	}
}

/* Prints the lines naming the groups found on one side only. */
static void print_lone(FILE *out, const struct compare_result *res)
{
	const struct compare_lone_group *l;
	size_t i;

	for (i = 0; i < res->n_lone; i++) {
		l = &res->lone[i];
		fprintf(out, "only in the %s: ", l->side == SIDE_BASELINE ? "baseline" : "candidate");
		compare_print_group_words(out, &l->group);
		fprintf(out, " (%zu run%s)\n", l->runs, l->runs == 1 ? "" : "s");
	}
}

void compare_print_table(FILE *out, const struct compare_report *c)
{
	const struct compare_tolerance *t = c->tol;
	const struct compare_result *res = c->res;
	size_t i;

	fprintf(out, "baseline: %s (%zu run%s); candidate: %s (%zu run%s)\n", c->baseline, c->baseline_runs,
		c->baseline_runs == 1 ? "" : "s", c->candidate, c->candidate_runs, c->candidate_runs == 1 ? "" : "s");
	print_allowed_diffs(out, res);
	putc('\n', out);
	for (i = 0; i < res->n_rows; i++) {
		if (i == 0 || !same_group(&res->rows[i].group, &res->rows[i - 1].group)) {
			if (i)
				putc('\n', out);
			print_group(out, &res->rows[i].group);
			fprintf(out, "\n  %-27s %7s %11s %11s %11s %8s  %-4s %-6s  %s\n", "metric", "runs", "baseline",
				"candidate", "change", "change%", "sig", "tol", "verdict");
		}
		fputs("  ", out);
		print_row(out, &res->rows[i], res->across_engines);
	}
	if (res->n_lone)
		putc('\n', out);
	print_lone(out, res);
	putc('\n', out);
	if (res->untested)
		fputs("sig n/a: fewer than 2 runs on a side, so no change could be told from noise; a guarded metric "
		      "beyond its tolerance counts as a regression all the same (run --repeat 3 or more)\n", out);
	for (i = 0; i < res->n_rows; i++) {
		if (res->rows[i].verdict != VERDICT_REGRESSION)
			continue;
		fputs("REGRESSION: ", out);
		compare_print_regression(out, &res->rows[i]);
		putc('\n', out);
	}
	fprintf(out, "%zu regression%s (tolerances: throughput drop %g %%, Jain drop %g, duplicates %s, losses %s)\n",
		res->regressions, res->regressions == 1 ? "" : "s", t->throughput_drop_pct, t->jain_drop,
		t->allow_duplicates ? "allowed" : "not allowed", t->allow_losses ? "allowed" : "not allowed");
}

