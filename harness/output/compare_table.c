/* compare's verdicts as a table: a line per group and metric, the one-sided groups, a line per regression. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/text.h"
#include "output/compare_print.h"

/* Formats v with six significant digits, sign when signed; "-" when not finite. */
static void number_text(char *buf, size_t size, double v, bool sign)
{
	if (!isfinite(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.6g" : "%.6g", v);
}

/* The significance column: "yes", "no" or "n/a". */
static const char *significance_text(const struct welch_result *w)
{
	if (!w->valid)
		return "n/a";
	return w->significant ? "yes" : "no";
}

/* Prints group g as "strategy mode workers" columns. */
static void print_group(FILE *out, const struct compare_group *g)
{
	char strategy[48], mode[16];

	text_clean(strategy, sizeof(strategy), g->strategy, SIZE_MAX);
	text_clean(mode, sizeof(mode), g->claim_mode, SIZE_MAX);
	fprintf(out, "%-16s %-4s %4d", strategy, mode, g->workers);
}

/* Prints one row of the table; a side with no value of the metric shows "-". */
static void print_row(FILE *out, const struct compare_row *row)
{
	char base[32], cand[32], change[32], pct[32], runs[48];

	number_text(base, sizeof(base), row->base.n ? row->base.mean : NAN, false);
	number_text(cand, sizeof(cand), row->cand.n ? row->cand.mean : NAN, false);
	number_text(change, sizeof(change), row->change, true);
	if (isfinite(row->change_pct))
		snprintf(pct, sizeof(pct), "%+.1f%%", row->change_pct);
	else
		snprintf(pct, sizeof(pct), "-");
	snprintf(runs, sizeof(runs), "%zu/%zu", row->base.n, row->cand.n);
	print_group(out, &row->group);
	fprintf(out, "  %-20s %7s %11s %11s %11s %8s  %-4s  %s\n", row->metric, runs, base, cand, change, pct,
		significance_text(&row->welch), compare_verdict_name(row->verdict));
}

/* Prints group g in words: "strategy mode N workers". */
static void print_group_words(FILE *out, const struct compare_group *g)
{
	char strategy[48], mode[16];

	text_clean(strategy, sizeof(strategy), g->strategy, SIZE_MAX);
	text_clean(mode, sizeof(mode), g->claim_mode, SIZE_MAX);
	fprintf(out, "%s %s %d worker%s", strategy, mode, g->workers, g->workers == 1 ? "" : "s");
}

/* Prints the lines naming the groups found on one side only. */
static void print_lone(FILE *out, const struct compare_result *res)
{
	const struct compare_lone_group *l;
	size_t i;

	for (i = 0; i < res->n_lone; i++) {
		l = &res->lone[i];
		fprintf(out, "only in the %s: ", l->side == SIDE_BASELINE ? "baseline" : "candidate");
		print_group_words(out, &l->group);
		fprintf(out, " (%zu run%s)\n", l->runs, l->runs == 1 ? "" : "s");
	}
}

void compare_print_table(FILE *out, const struct compare_report *c)
{
	const struct compare_tolerance *t = c->tol;
	const struct compare_result *res = c->res;
	const struct compare_row *row;
	size_t i;

	fprintf(out, "baseline: %s (%zu runs); candidate: %s (%zu runs)\n\n", c->baseline, c->baseline_runs,
		c->candidate, c->candidate_runs);
	fprintf(out, "%-16s %-4s %4s  %-20s %7s %11s %11s %11s %8s  %-4s  %s\n", "strategy", "mode", "wrk", "metric",
		"runs", "baseline", "candidate", "change", "change%", "sig", "verdict");
	for (i = 0; i < res->n_rows; i++)
		print_row(out, &res->rows[i]);
	if (!res->n_rows)
		fputs("(no group is on both sides)\n", out);
	if (res->n_lone)
		putc('\n', out);
	print_lone(out, res);
	putc('\n', out);
	for (i = 0; i < res->n_rows; i++) {
		row = &res->rows[i];
		if (row->verdict != VERDICT_REGRESSION)
			continue;
		fputs("REGRESSION: ", out);
		print_group_words(out, &row->group);
		fprintf(out, ", %s %.6g -> %.6g: %s\n", row->metric, row->base.mean, row->cand.mean, row->reason);
	}
	fprintf(out, "%zu regression%s (tolerances: throughput drop %g %%, Jain drop %g, duplicates %s, losses %s)\n",
		res->regressions, res->regressions == 1 ? "" : "s", t->throughput_drop_pct, t->jain_drop,
		t->allow_duplicates ? "allowed" : "not allowed", t->allow_losses ? "allowed" : "not allowed");
}

