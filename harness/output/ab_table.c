/*
 * ab's verdicts as a table: a block per group, a line per metric, a line per section saying
 * what it gates, a line per regression and per undecided metric.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/text.h"
#include "output/ab_print.h"
#include "model/metric_table.h"
#include "output/compare_print.h"

/* Formats v with four significant digits or more (whole numbers from 1000); "-" when not finite. */
static void number_text(char *buf, size_t size, double v)
{
	double a = fabs(v);
	int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;

	if (!isfinite(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.*f", decimals, v);
}

/* Formats pct as "+1.2%" (sign when signed); "-" when not finite. */
static void pct_text(char *buf, size_t size, double pct, bool sign)
{
	if (!isfinite(pct))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.1f%%" : "%.1f%%", pct);
}

/* The change column: "~" when not significant (benchstat's mark), else the change in %. */
static void change_text(char *buf, size_t size, const struct ab_row *row)
{
	if (!row->paired.significant)
		snprintf(buf, size, "~");
	else
		pct_text(buf, size, row->change_pct, true);
}

/* The 95 % interval column, "[-1.0%, +2.0%]", or "-" when unknown. */
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

/* Prints the note after a row's verdict: undecided, or why it was not gated. */
static void print_note(FILE *out, const struct ab_row *row)
{
	if (row->gate == AB_GATE_UNDECIDED) {
		fputs("  undecided: ", out);
		print_rounds_to_decide(out, row);
	} else if (row->note == AB_NOTE_TOO_FEW) {
		fputs("  (not gated: known in fewer than 2 rounds)", out);
	}
}

/* Prints one metric's line. */
static void print_row(FILE *out, const struct ab_row *row)
{
	char base[32], cand[32], base_cv[16], cand_cv[16], change[16], interval[40], mde[16];

	number_text(base, sizeof(base), row->paired.n ? row->paired.base_mean : NAN);
	number_text(cand, sizeof(cand), row->paired.n ? row->paired.cand_mean : NAN);
	pct_text(base_cv, sizeof(base_cv), row->paired.valid ? row->base_cv_pct : NAN, false);
	pct_text(cand_cv, sizeof(cand_cv), row->paired.valid ? row->cand_cv_pct : NAN, false);
	change_text(change, sizeof(change), row);
	interval_text(interval, sizeof(interval), row);
	pct_text(mde, sizeof(mde), row->mde_pct, false);
	fprintf(out, "  %-31s %-7s %10s %6s %10s %6s %7s %-18s %6s  %s", row->metric->path, ab_nature_name(row->metric->nature), base,
		base_cv, cand, cand_cv, change, interval, mde, ab_verdict_name(row->verdict));
	print_note(out, row);
	putc('\n', out);
}

/* True when rows' groups a and b are the same one: ab_compare points both at one run's names. */
static bool same_group(const struct compare_group *a, const struct compare_group *b)
{
	return a->strategy == b->strategy && a->claim_mode == b->claim_mode && a->workers == b->workers &&
	       a->section == b->section && a->sweep == b->sweep;
}

/* Prints the start of a verdict line: LABEL: the group, the metric, its means on each side. */
static void print_verdict_head(FILE *out, const char *label, const struct ab_row *row)
{
	char base[32], cand[32];

	number_text(base, sizeof(base), row->paired.base_mean);
	number_text(cand, sizeof(cand), row->paired.cand_mean);
	fprintf(out, "%s: ", label);
	compare_print_group_words(out, &row->group);
	fprintf(out, ", %s %s -> %s", row->metric->path, base, cand);
}

/* Prints the line saying what a regression row is. */
static void print_regression(FILE *out, const struct ab_row *row)
{
	char interval[40];

	print_verdict_head(out, "REGRESSION", row);
	if (row->metric->nature == NATURE_OUTCOME) {
		fputs(": where the baseline had none\n", out);
		return;
	}
	interval_text(interval, sizeof(interval), row);
	if (row->paired.base_mean == 0) {
		fprintf(out, " (95%% interval of the change [%+g, %+g]): a %s from 0 beyond the floor of 0.01\n",
			row->paired.ci_low, row->paired.ci_high, ab_nature_name(row->metric->nature));
		return;
	}
	fprintf(out, " (%+.1f%%, 95%% interval %s): a %s beyond its %g%% tolerance\n", row->change_pct, interval,
		ab_nature_name(row->metric->nature), row->tolerance_pct);
}

/* Prints the line saying what an undecided row is and what would decide it. */
static void print_undecided(FILE *out, const struct ab_row *row)
{
	char interval[40];

	print_verdict_head(out, "UNDECIDED", row);
	if (row->paired.base_mean == 0) {
		fprintf(out, " (95%% interval of the change [%+g, %+g]): its interval holds the floor of 0.01; ",
			row->paired.ci_low, row->paired.ci_high);
	} else {
		interval_text(interval, sizeof(interval), row);
		fprintf(out, " (%+.1f%%, 95%% interval %s): its interval holds its %g%% tolerance; ", row->change_pct,
			interval, row->tolerance_pct);
	}
	print_rounds_to_decide(out, row);
	putc('\n', out);
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

void ab_print_table(FILE *out, const struct ab_report *r)
{
	const struct ab_result *res = r->res;
	size_t i;

	fprintf(out, "baseline: %s; candidate: %s; %zu rounds on %s, in turn (AB, BA, AB, ...)\n", r->baseline,
		r->candidate, r->rounds, r->backend);
	for (i = 0; i < res->n_rows; i++) {
		if (i == 0 || !same_group(&res->rows[i].group, &res->rows[i - 1].group)) {
			putc('\n', out);
			compare_print_group_words(out, &res->rows[i].group);
			fprintf(out, "\n  %-31s %-7s %10s %6s %10s %6s %7s %-18s %6s  %s\n", "metric", "nature", "baseline",
				"+-sd", "candidate", "+-sd", "change", "95% interval", "mde", "verdict");
		}
		print_row(out, &res->rows[i]);
	}
	putc('\n', out);
	fputs("change: the mean of the rounds' paired differences, ~ where its 95% interval holds 0 (paired t);\n"
	      "+-sd: each side's spread over the rounds, % of its mean; mde: the smallest change these rounds\n"
	      "detect 80% of the time, their noise taken at the top of its 95% interval. A cost or timing\n"
	      "regresses when its interval lies wholly beyond its tolerance the worse way, passes when it\n"
	      "lies wholly within, and is undecided when it holds the tolerance (docs/ci.md)\n", out);
	print_sections(out, res);
	for (i = 0; i < res->n_rows; i++)
		if (res->rows[i].gate == AB_GATE_REGRESSION)
			print_regression(out, &res->rows[i]);
	for (i = 0; i < res->n_rows; i++)
		if (res->rows[i].gate == AB_GATE_UNDECIDED)
			print_undecided(out, &res->rows[i]);
	fprintf(out, "%zu regression%s, %zu undecided%s (tolerances: costs %g%%, timings %g%%; new duplicates or "
		"losses); %zu metric%s not gated\n", res->regressions, res->regressions == 1 ? "" : "s", res->undecided,
		r->fail_on_undecided && res->undecided ? ", failing (--fail-on-undecided)" : "", r->tol->cost_pct,
		r->tol->timing_pct, res->ungated, res->ungated == 1 ? "" : "s");
	if (r->invocations[0] && r->invocations[1])
		fprintf(out, "the runs: invocations %lld (baseline) and %lld (candidate) of the result store\n",
			r->invocations[0], r->invocations[1]);
}
