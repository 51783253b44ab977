/*
 * ab's verdicts as a table: a block per group, a line per metric, a line per section saying
 * what it gates, a line per regression and per undecided metric.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/text.h"
#include "output/ab_print.h"
#include "output/ab_text.h"
#include "model/metric_table.h"
#include "output/compare_print.h"

/* The change column: "~" when not significant (benchstat's mark), else the change in %. */
static void change_text(char *buf, size_t size, const struct ab_row *row)
{
	if (!row->paired.significant)
		snprintf(buf, size, "~");
	else
		ab_pct_text(buf, size, row->change_pct, true);
}

/* Prints the note after a row's verdict: undecided, or why it was not gated. */
static void print_note(FILE *out, const struct ab_row *row)
{
	if (row->gate == AB_GATE_UNDECIDED) {
		fputs("  undecided: ", out);
		ab_print_rounds_to_decide(out, row);
	} else if (row->note == AB_NOTE_TOO_FEW) {
		fputs("  (not gated: known in fewer than 2 rounds)", out);
	}
}

/* Prints one metric's line. */
static void print_row(FILE *out, const struct ab_row *row)
{
	char base[32], cand[32], base_cv[16], cand_cv[16], change[16], interval[40], mde[16];

	compare_number_text(base, sizeof(base), row->paired.n ? row->paired.base_mean : NAN, false);
	compare_number_text(cand, sizeof(cand), row->paired.n ? row->paired.cand_mean : NAN, false);
	ab_pct_text(base_cv, sizeof(base_cv), row->paired.valid ? row->base_cv_pct : NAN, false);
	ab_pct_text(cand_cv, sizeof(cand_cv), row->paired.valid ? row->cand_cv_pct : NAN, false);
	change_text(change, sizeof(change), row);
	ab_interval_text(interval, sizeof(interval), row);
	ab_pct_text(mde, sizeof(mde), row->mde_pct, false);
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

/* Prints the line saying what a regression row is. */
static void print_regression(FILE *out, const struct ab_row *row)
{
	fputs("REGRESSION: ", out);
	compare_print_group_words(out, &row->group);
	fputs(", ", out);
	ab_print_regression_figures(out, row);
	putc('\n', out);
}

/* Prints the line saying what an undecided row is and what would decide it. */
static void print_undecided(FILE *out, const struct ab_row *row)
{
	fputs("UNDECIDED: ", out);
	compare_print_group_words(out, &row->group);
	fputs(", ", out);
	ab_print_undecided_figures(out, row);
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
