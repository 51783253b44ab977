/*
 * compare's verdicts as a JUnit XML document: one test case per guarded metric per group,
 * so that a CI system lists each and marks the regressions.
 */
#include <stdbool.h>

#include "output/compare_print.h"
#include "output/xml_text.h"

/* Prints the <testcase> of a guarded row: empty when it passed, holding a <failure> when it regressed. */
static void print_case(FILE *out, const struct compare_row *row)
{
	char group[192];
	FILE *mem;
	char text[512];

	compare_group_text(group, sizeof(group), &row->group);
	fputs("    <testcase classname=\"", out);
	xml_print_text(out, group);
	fputs("\" name=\"", out);
	xml_print_text(out, row->metric);
	if (row->verdict != VERDICT_REGRESSION) {
		fputs("\"/>\n", out);
		return;
	}
	text[0] = text[sizeof(text) - 1] = '\0';
	mem = fmemopen(text, sizeof(text) - 1, "w");
	if (mem) {
		compare_print_regression(mem, row);
		fclose(mem);
	}
	fputs("\">\n      <failure type=\"regression\" message=\"", out);
	xml_print_text(out, text);
	fputs("\"/>\n    </testcase>\n", out);
}

void compare_print_junit(FILE *out, const struct compare_report *c)
{
	const struct compare_result *res = c->res;
	size_t tests = 0;

	for (size_t i = 0; i < res->n_rows; i++)
		tests += compare_row_gated(&res->rows[i]);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"claimbench compare\" tests=\"%zu\" "
		"failures=\"%zu\">\n  <testsuite name=\"", tests, res->regressions);
	xml_print_text(out, c->baseline);
	fputs(" -> ", out);
	xml_print_text(out, c->candidate);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", tests, res->regressions);
	for (size_t i = 0; i < res->n_rows; i++)
		if (compare_row_gated(&res->rows[i]))
			print_case(out, &res->rows[i]);
	fputs("  </testsuite>\n</testsuites>\n", out);
}
