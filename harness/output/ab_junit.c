/*
 * ab's verdicts as a JUnit XML document: one test case per gated metric per group, so
 * that a CI system lists each and marks the regressions (and the undecided) as such.
 */
#include "output/ab_print.h"
#include "output/ab_text.h"
#include "output/compare_print.h"
#include "output/xml_text.h"

/* Counts of r's test cases: all, failures and skipped ones. */
struct junit_counts {
	size_t tests;		/* gated rows */
	size_t failures;	/* regressions, and the undecided with fail_on_undecided */
	size_t skipped;		/* the undecided without it */
};

/* The counts of r's test cases. */
static struct junit_counts count_cases(const struct ab_report *r)
{
	struct junit_counts c = { 0 };

	for (size_t i = 0; i < r->res->n_rows; i++) {
		const struct ab_row *row = &r->res->rows[i];

		c.tests += row->gated;
		c.failures += row->gate == AB_GATE_REGRESSION || (row->gate == AB_GATE_UNDECIDED && r->fail_on_undecided);
		c.skipped += row->gate == AB_GATE_UNDECIDED && !r->fail_on_undecided;
	}
	return c;
}

/* Prints the <testcase> of a gated row: empty when it passed, holding a <failure> or <skipped> when not. */
static void print_case(FILE *out, const struct ab_row *row, bool fail_on_undecided)
{
	char group[192], text[512];

	compare_group_text(group, sizeof(group), &row->group);
	fputs("    <testcase classname=\"", out);
	xml_print_text(out, group);
	fputs("\" name=\"", out);
	xml_print_text(out, row->metric->path);
	if (row->gate == AB_GATE_NO_REGRESSION) {
		fputs("\"/>\n", out);
		return;
	}
	if (row->gate == AB_GATE_REGRESSION) {
		ab_row_text(text, sizeof(text), ab_print_regression_figures, row);
		fputs("\">\n      <failure type=\"regression\" message=\"", out);
	} else {
		ab_row_text(text, sizeof(text), ab_print_undecided_figures, row);
		fprintf(out, "\">\n      <%s message=\"undecided: ", fail_on_undecided ? "failure type=\"undecided\"" : "skipped");
	}
	xml_print_text(out, text);
	fputs("\"/>\n    </testcase>\n", out);
}

void ab_print_junit(FILE *out, const struct ab_report *r)
{
	struct junit_counts c = count_cases(r);

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"claimbench ab\" tests=\"%zu\" "
		"failures=\"%zu\" skipped=\"%zu\">\n  <testsuite name=\"", c.tests, c.failures, c.skipped);
	xml_print_text(out, r->baseline);
	fputs(" -> ", out);
	xml_print_text(out, r->candidate);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" errors=\"0\">\n", c.tests, c.failures, c.skipped);
	for (size_t i = 0; i < r->res->n_rows; i++)
		if (r->res->rows[i].gated)
			print_case(out, &r->res->rows[i], r->fail_on_undecided);
	fputs("  </testsuite>\n</testsuites>\n", out);
}
