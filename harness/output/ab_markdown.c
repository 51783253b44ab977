/*
 * ab's verdicts as markdown, for a pull request's comment: the verdicts first, then the
 * changed SQL, then the whole table folded.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/text.h"
#include "output/ab_print.h"
#include "output/ab_text.h"
#include "output/compare_print.h"
#include "output/sql_diff.h"

/* Rows whose gate is g. */
static size_t count_gate(const struct ab_result *res, enum ab_gate g)
{
	size_t n = 0;

	for (size_t i = 0; i < res->n_rows; i++)
		n += res->rows[i].gate == g;
	return n;
}

/* Prints the first line: the gate's outcome and the count of each verdict. */
static void print_outcome(FILE *out, const struct ab_report *r)
{
	const struct ab_result *res = r->res;
	size_t passed = count_gate(res, AB_GATE_NO_REGRESSION);

	fprintf(out, "**%s**: %zu regression%s, %zu undecided%s, %zu no regression; %zu not gated\n",
		ab_gate_fails(res, r->fail_on_undecided) ? "FAIL" : "PASS", res->regressions,
		res->regressions == 1 ? "" : "s", res->undecided,
		r->fail_on_undecided && res->undecided ? " (failing: --fail-on-undecided)" : "", passed, res->ungated);
}

/* Prints a bullet per row whose gate is g: its group, then what fn says of it. */
static void print_bullets(FILE *out, const struct ab_result *res, enum ab_gate g, const char *label,
			  void (*fn)(FILE *, const struct ab_row *))
{
	for (size_t i = 0; i < res->n_rows; i++) {
		if (res->rows[i].gate != g)
			continue;
		fprintf(out, "- %s: ", label);
		compare_print_group_words(out, &res->rows[i].group);
		fputs(", ", out);
		fn(out, &res->rows[i]);
		putc('\n', out);
	}
}

/* Prints one row of the folded table; a "|" in a group's words (a section's name) shown as "/". */
static void print_table_row(FILE *out, const struct ab_row *row)
{
	char group[192], base[32], cand[32], change[16], interval[40], mde[16];
	const char *gate = ab_gate_name(row->gate);

	compare_number_text(base, sizeof(base), row->paired.n ? row->paired.base_mean : NAN, false);
	compare_number_text(cand, sizeof(cand), row->paired.n ? row->paired.cand_mean : NAN, false);
	if (row->paired.significant)
		ab_pct_text(change, sizeof(change), row->change_pct, true);
	else
		snprintf(change, sizeof(change), "~");
	ab_interval_text(interval, sizeof(interval), row);
	ab_pct_text(mde, sizeof(mde), row->mde_pct, false);
	compare_group_text(group, sizeof(group), &row->group);
	for (char *c = group; *c; c++)
		*c = *c == '|' ? '/' : *c;
	fprintf(out, "| %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n", group, row->metric->path,
		ab_nature_name(row->metric->nature), base, cand, change, interval, mde, ab_verdict_name(row->verdict),
		gate ? gate : "not gated");
}

void ab_print_markdown(FILE *out, const struct ab_report *r)
{
	const struct ab_result *res = r->res;

	print_outcome(out, r);
	print_bullets(out, res, AB_GATE_REGRESSION, "REGRESSION", ab_print_regression_figures);
	print_bullets(out, res, AB_GATE_UNDECIDED, "undecided", ab_print_undecided_figures);
	fprintf(out, "\n`claimbench ab` %s against %s, %zu rounds on %s (tolerances: costs %g%%, timings %g%%; new "
		"duplicates or losses)\n", r->baseline, r->candidate, r->rounds, r->backend, r->tol->cost_pct,
		r->tol->timing_pct);
	sql_diff_print_blocks(out, r->diffs, r->n_diffs);
	fprintf(out, "\n<details><summary>All %zu metrics</summary>\n\n", res->n_rows);
	fputs("| group | metric | nature | baseline | candidate | change | 95% interval | mde | verdict | gate |\n"
	      "|---|---|---|---:|---:|---:|---|---:|---|---|\n", out);
	for (size_t i = 0; i < res->n_rows; i++)
		print_table_row(out, &res->rows[i]);
	fputs("\n</details>\n", out);
}
