/*
 * compare's verdicts as markdown, for a pull request's comment: the verdicts first, then
 * the changed SQL, then the whole table folded.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/text.h"
#include "output/compare_print.h"
#include "output/sql_diff.h"

/* Prints the first line: the outcome and the counts of the guarded metrics' verdicts. */
static void print_outcome(FILE *out, const struct compare_result *res)
{
	size_t gated = 0;

	for (size_t i = 0; i < res->n_rows; i++)
		gated += compare_row_gated(&res->rows[i]);
	fprintf(out, "**%s**: %zu regression%s, %zu no regression (guarded metrics); %zu more compared, not gated\n",
		res->regressions ? "FAIL" : "PASS", res->regressions, res->regressions == 1 ? "" : "s",
		gated - res->regressions, res->n_rows - gated);
}

/* Prints the changed SQL of each strategy defined in SQL as a ```diff block, and the other allowed differences. */
static void print_diffs(FILE *out, const struct compare_result *res)
{
	char base[64], cand[64];

	sql_diff_print_blocks(out, res->diffs, res->n_diffs);
	for (size_t i = 0; i < res->n_diffs; i++) {
		if (res->diffs[i].sql || !res->diffs[i].allowed)
			continue;
		text_clean(base, sizeof(base), res->diffs[i].base_value, SIZE_MAX);
		text_clean(cand, sizeof(cand), res->diffs[i].cand_value, SIZE_MAX);
		fprintf(out, "\nAllowed difference: `%s` %s -> %s\n", res->diffs[i].name, base, cand);
	}
}

/* Prints one row of the folded table; a "|" in a group's words (a section's name) shown as "/". */
static void print_table_row(FILE *out, const struct compare_row *row)
{
	char group[192], base[32], cand[32], pct[32];

	compare_number_text(base, sizeof(base), row->base.n ? row->base.mean : NAN, false);
	compare_number_text(cand, sizeof(cand), row->cand.n ? row->cand.mean : NAN, false);
	if (isfinite(row->change_pct))
		snprintf(pct, sizeof(pct), "%+.1f%%", row->change_pct);
	else
		snprintf(pct, sizeof(pct), "-");
	compare_group_text(group, sizeof(group), &row->group);
	for (char *p = group; *p; p++)
		*p = *p == '|' ? '/' : *p;
	fprintf(out, "| %s | `%s` | %zu/%zu | %s | %s | %s | %s | %s |\n", group, row->metric, row->base.n, row->cand.n, base, cand,
		pct, !row->welch.valid ? "n/a" : row->welch.significant ? "yes" : "no",
		compare_verdict_name(row->verdict));
}

void compare_print_markdown(FILE *out, const struct compare_report *c)
{
	const struct compare_result *res = c->res;

	print_outcome(out, res);
	for (size_t i = 0; i < res->n_rows; i++) {
		if (res->rows[i].verdict != VERDICT_REGRESSION)
			continue;
		fputs("- REGRESSION: ", out);
		compare_print_regression(out, &res->rows[i]);
		putc('\n', out);
	}
	fprintf(out, "\n`claimbench compare` %s (%zu run%s) against %s (%zu run%s); tolerances: throughput drop %g %%, "
		"Jain drop %g, duplicates %s, losses %s\n", c->candidate, c->candidate_runs,
		c->candidate_runs == 1 ? "" : "s", c->baseline, c->baseline_runs, c->baseline_runs == 1 ? "" : "s",
		c->tol->throughput_drop_pct, c->tol->jain_drop, c->tol->allow_duplicates ? "allowed" : "not allowed",
		c->tol->allow_losses ? "allowed" : "not allowed");
	print_diffs(out, res);
	fprintf(out, "\n<details><summary>All %zu metrics</summary>\n\n", res->n_rows);
	fputs("| group | metric | runs | baseline | candidate | change | significant | verdict |\n"
	      "|---|---|---|---:|---:|---:|---|---|\n", out);
	for (size_t i = 0; i < res->n_rows; i++)
		print_table_row(out, &res->rows[i]);
	fputs("\n</details>\n", out);
}
