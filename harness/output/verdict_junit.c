/*
 * The verdicts as a JUnit XML document (verdict_print.h): one test case per gated verdict,
 * so that a CI system lists each and marks the regressions (and the undecided) as such.
 */
#include "output/verdict_print.h"

/* Counts of a list's test cases: all, failures and skipped ones. */
struct junit_counts {
	size_t tests;		/* gated verdicts */
	size_t failures;	/* regressions, and the undecided with fail_on_undecided */
	size_t skipped;		/* the undecided without it */
};

/* The counts of list's test cases. */
static struct junit_counts count_cases(const struct verdict_list *list)
{
	struct junit_counts c = { 0 };

	for (size_t i = 0; i < list->n; i++) {
		enum verdict_gate gate = list->verdicts[i].gate;

		c.tests += gate != VERDICT_GATE_NONE;
		c.failures += gate == VERDICT_GATE_REGRESSION || (gate == VERDICT_GATE_UNDECIDED && list->fail_on_undecided);
		c.skipped += gate == VERDICT_GATE_UNDECIDED && !list->fail_on_undecided;
	}
	return c;
}

/* Prints the counts of an element's attributes: tests and failures, skipped when the command has undecided verdicts. */
static void print_counts(FILE *out, const struct verdict_list *list, const struct junit_counts *c)
{
	fprintf(out, "tests=\"%zu\" failures=\"%zu\"", c->tests, c->failures);
	if (list->decides_undecided)
		fprintf(out, " skipped=\"%zu\"", c->skipped);
}

/*
 * Prints the message of verdict v's failure or skip: its figures, after its group's words
 * when the list says so (the two cut to fit VERDICT_FIGURES_SIZE together).
 */
static void print_message(FILE *out, const struct verdict_list *list, const struct verdict *v)
{
	char text[VERDICT_FIGURES_SIZE];
	FILE *mem;

	if (!list->junit_names_group) {
		xml_print_text(out, v->figures);
		return;
	}
	text[0] = text[sizeof(text) - 1] = '\0';
	mem = fmemopen(text, sizeof(text) - 1, "w");
	if (mem) {
		verdict_print_group_words(mem, v->group);
		fprintf(mem, ", %s", v->figures);
		fclose(mem);
	}
	xml_print_text(out, text);
}

/* Prints the <testcase> of a gated verdict: empty when it passed, holding a <failure> or <skipped> when not. */
static void print_case(FILE *out, const struct verdict_list *list, const struct verdict *v)
{
	char group[VERDICT_GROUP_SIZE];

	verdict_group_text(group, sizeof(group), v->group);
	fputs("    <testcase classname=\"", out);
	xml_print_text(out, group);
	fputs("\" name=\"", out);
	xml_print_text(out, v->metric);
	if (v->gate == VERDICT_GATE_PASS) {
		fputs("\"/>\n", out);
		return;
	}
	if (v->gate == VERDICT_GATE_REGRESSION)
		fputs("\">\n      <failure type=\"regression\" message=\"", out);
	else
		fprintf(out, "\">\n      <%s message=\"undecided: ",
			list->fail_on_undecided ? "failure type=\"undecided\"" : "skipped");
	print_message(out, list, v);
	fputs("\"/>\n    </testcase>\n", out);
}

void verdict_print_junit(FILE *out, const struct verdict_list *list)
{
	struct junit_counts c = count_cases(list);

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"claimbench %s\" ", list->command);
	print_counts(out, list, &c);
	fputs(">\n  <testsuite name=\"", out);
	xml_print_text(out, list->baseline);
	fputs(" -> ", out);
	xml_print_text(out, list->candidate);
	fputs("\" ", out);
	print_counts(out, list, &c);
	fputs(" errors=\"0\">\n", out);
	for (size_t i = 0; i < list->n; i++)
		if (list->verdicts[i].gate != VERDICT_GATE_NONE)
			print_case(out, list, &list->verdicts[i]);
	fputs("  </testsuite>\n</testsuites>\n", out);
}

void xml_print_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			putc((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s, out);
		}
	}
}
