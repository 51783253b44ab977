/*
 * The text helpers of the PR-ready outputs (output/sql_diff.c, output/verdict_junit.c's xml_print_text): a
 * changed SQL text as a unified-style line diff (a changed line, an added one, identical
 * texts, an empty side, a text too long to diff line by line, control characters), and
 * text escaped for XML.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output/sql_diff.h"
#include "output/verdict_print.h"

/* What sql_diff_print prints of base and cand, in a static buffer. */
static const char *diff_of(const char *base, const char *cand)
{
	static char buf[65536];
	FILE *mem;

	buf[0] = '\0';
	mem = fmemopen(buf, sizeof(buf) - 1, "w");

	check_need(mem != NULL, "an in-memory stream");
	sql_diff_print(mem, base, cand);
	fclose(mem);
	return buf;
}

/* What xml_print_text prints of s, in a static buffer. */
static const char *xml_of(const char *s)
{
	static char buf[1024];
	FILE *mem;

	buf[0] = '\0';
	mem = fmemopen(buf, sizeof(buf) - 1, "w");

	check_need(mem != NULL, "an in-memory stream");
	xml_print_text(mem, s);
	fclose(mem);
	return buf;
}

/* A text of n lines "line K". */
static char *lines_of(int n)
{
	char *text = malloc((size_t)n * 16 + 1);
	size_t used = 0;

	check_need(text != NULL, "memory for a long text");
	for (int k = 0; k < n; k++)
		used += (size_t)sprintf(text + used, "line %d\n", k);
	return text;
}

int main(void)
{
	const char *got;
	char *long_text;

	got = diff_of("SELECT id\nFROM {jobs}\nLIMIT 1", "SELECT id\nFROM {jobs} WHERE x\nLIMIT 1");
	CHECK(strcmp(got, "--- baseline\n+++ candidate\n SELECT id\n-FROM {jobs}\n+FROM {jobs} WHERE x\n LIMIT 1\n") == 0,
	      "a changed middle line: removed, added, the lines around it kept (%s)", got);
	got = diff_of("a\nb", "a\nnew\nb");
	CHECK(strcmp(got, "--- baseline\n+++ candidate\n a\n+new\n b\n") == 0, "an added line alone (%s)", got);
	got = diff_of("a\nb\n", "a\nb\n");
	CHECK(strcmp(got, "--- baseline\n+++ candidate\n a\n b\n") == 0, "identical texts: every line kept (%s)", got);
	got = diff_of(NULL, "x");
	CHECK(strcmp(got, "--- baseline\n+++ candidate\n+x\n") == 0, "no baseline text: every line added (%s)", got);
	got = diff_of("a\x01\tb", "a");
	CHECK(strcmp(got, "--- baseline\n+++ candidate\n-a?\tb\n+a\n") == 0, "a control character shown as ?, a tab kept (%s)",
	      got);
	long_text = lines_of(SQL_DIFF_MAX_LINES + 1);
	got = diff_of(long_text, "line 0");
	CHECK(strncmp(got, "--- baseline\n+++ candidate\n-line 0\n-line 1\n", 40) == 0 &&
	      strstr(got, "-line 128\n+line 0\n") != NULL,
	      "more than %d lines: the baseline removed whole, then the candidate added (%.60s...)", SQL_DIFF_MAX_LINES,
	      got);
	free(long_text);

	got = xml_of("a&b<\"c\">'d'");
	CHECK(strcmp(got, "a&amp;b&lt;&quot;c&quot;&gt;&apos;d&apos;") == 0, "the five XML specials as entities (%s)", got);
	got = xml_of("x\x01y\tz\n");
	CHECK(strcmp(got, "x?y\tz\n") == 0, "a control character XML 1.0 does not allow shown as ?, tab and newline kept");
	got = xml_of(NULL);
	CHECK(strcmp(got, "") == 0, "NULL prints nothing");
	return check_exit_status();
}
