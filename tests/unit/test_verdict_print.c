/*
 * Unit tests of the verdicts' printers (output/verdict_print.h) on hand-made results of
 * compare and ab: each command's list (a verdict per row, its gate and its figures), the
 * JUnit document's counts (skipped ones for ab alone, an undecided metric a failure under
 * --fail-on-undecided, compare's failure naming its group), the tables' lines at their
 * columns' widths, markdown's alignment row and the JSON's members around "comparisons",
 * each compared with what d411741's printers wrote.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/metric_table.h"
#include "output/verdict_print.h"

/* Calls print on list and returns what it wrote, a string the caller frees; NULL when out of memory. */
static char *printed(void (*print)(FILE *, const struct verdict_list *), const struct verdict_list *list)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	print(f, list);
	fclose(f);
	return buf;
}

/* Whether text holds line, a whole line of it. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

/* Checks that text holds line whole (what says what it shows); if not, prints text as comment lines after the check. */
static void expect_line(const char *text, const char *line, const char *what)
{
	bool found = has_line(text, line);

	CHECK(found, "%s: the line \"%s\"", what, line);
	for (const char *p = text; !found && p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		printf("#   %.*s\n", (int)strcspn(p, "\n"), p);
}

/* compare's verdicts: a regression of a guarded metric, an unguarded metric, JUnit naming the group, the table. */
static void compare_list(void)
{
	static const struct compare_tolerance tol = { .throughput_drop_pct = 10, .jain_drop = 0.05 };
	struct compare_row rows[] = {
		{ .group = { .strategy = "skip-locked", .claim_mode = "hold", .workers = 10, .section = "contended" },
		  .metric = "throughput_jps", .direction = HIGHER_IS_BETTER, .base = { .n = 2, .mean = 99 },
		  .cand = { .n = 2, .mean = 69.3 }, .change = -29.7, .change_pct = -30,
		  .welch = { .valid = true, .significant = true }, .beyond_tolerance = true, .verdict = VERDICT_REGRESSION,
		  .reason = "throughput down 30.0 %, beyond 10 %" },
		{ .metric = "claim_latency_ms.p99", .direction = LOWER_IS_BETTER, .base = { .n = 2, .mean = 1.5 },
		  .cand = { .n = 2, .mean = 1.5 }, .change = 0, .change_pct = 0, .verdict = VERDICT_OK },
	};
	struct compare_result res = { .rows = rows, .n_rows = 2, .regressions = 1 };
	struct compare_report report = { .baseline = "base.json", .baseline_runs = 2, .candidate = "slow.json",
					  .candidate_runs = 2, .tol = &tol, .res = &res };
	struct verdict_list list;
	char *junit, *table, *md;

	rows[1].group = rows[0].group;
	check_need(compare_verdicts(&report, &list) == 0, "compare_verdicts");
	CHECK(list.n == 2 && list.verdicts[0].gate == VERDICT_GATE_REGRESSION && list.verdicts[1].gate == VERDICT_GATE_NONE,
	      "a verdict a row: the guarded regression gated, the unguarded p99 not (%zu verdicts, gates %d %d)", list.n,
	      (int)list.verdicts[0].gate, (int)list.verdicts[1].gate);
	CHECK_STR_EQ(list.verdicts[0].figures, "throughput_jps 99.00 -> 69.30: throughput down 30.0 %, beyond 10 % (significant)",
		     "the regression's figures, after its group's words");
	junit = printed(verdict_print_junit, &list);
	table = printed(verdict_print_table, &list);
	md = printed(verdict_print_markdown, &list);
	check_need(junit && table && md, "the printers' output");
	expect_line(junit, "<testsuites name=\"claimbench compare\" tests=\"1\" failures=\"1\">",
		    "JUnit: one gated test case, failing, and no skipped count (compare has no undecided verdict)");
	expect_line(junit, "      <failure type=\"regression\" message=\"skip-locked hold 10 workers in [contended], "
			   "throughput_jps 99.00 -&gt; 69.30: throughput down 30.0 %, beyond 10 % (significant)\"/>",
		    "JUnit: compare's failure names its group first");
	expect_line(table, "skip-locked      hold   10  [contended]", "the table: the group's heading in columns");
	expect_line(table, "  metric                         runs    baseline   candidate      change  change%  sig  tol     verdict",
		    "the table: the columns' titles at their widths");
	expect_line(table, "  throughput_jps                  2/2       99.00       69.30      -29.70   -30.0%  yes  beyond  REGRESSION",
		    "the table: a row's cells at their widths");
	expect_line(table, "REGRESSION: skip-locked hold 10 workers in [contended], throughput_jps 99.00 -> 69.30: "
			   "throughput down 30.0 %, beyond 10 % (significant)",
		    "the table's REGRESSION line: the group in words, then the figures");
	expect_line(md, "|---|---|---|---:|---:|---:|---|---|", "markdown: the numbers' columns right-aligned");
	expect_line(md, "| skip-locked hold 10 workers in [contended] | `throughput_jps` | 2/2 | 99.00 | 69.30 | -30.0% | yes | REGRESSION |",
		    "markdown: a row's cells");
	free(junit);
	free(table);
	free(md);
	verdict_list_free(&list);
	CHECK(list.verdicts == NULL && list.n == 0 && list.table_head == NULL, "verdict_list_free empties the list");
}

/* ab's verdicts: a regression, an undecided metric, one not gated; JUnit's skipped, and failing under --fail-on-undecided. */
static void ab_list(void)
{
	static const struct ab_tolerance tol = { .cost_pct = 5, .timing_pct = 10 };
	const struct metric *thru = metric_find("throughput_jps"), *buf = metric_find("costs.buffers_hit_per_job");
	const struct metric *dup = metric_find("race_duplicates");
	struct ab_row rows[] = {
		{ .metric = dup, .paired = { .n = 3, .valid = true, .base_mean = 0, .cand_mean = 2, .significant = true },
		  .change_pct = NAN, .ci_low_pct = NAN, .ci_high_pct = NAN, .mde_pct = NAN, .gated = true,
		  .verdict = AB_REGRESSION, .gate = AB_GATE_REGRESSION },
		{ .metric = thru, .paired = { .n = 3, .valid = true, .base_mean = 100, .cand_mean = 97 }, .change_pct = -3,
		  .ci_low_pct = -20, .ci_high_pct = 14, .mde_pct = 30, .tolerance_pct = 10, .gated = true,
		  .verdict = AB_SAME, .gate = AB_GATE_UNDECIDED, .family = 1, .rounds_to_decide = 40 },
		{ .metric = buf, .paired = { .n = 1, .base_mean = 50, .cand_mean = 50 }, .change_pct = 0,
		  .ci_low_pct = NAN, .ci_high_pct = NAN, .mde_pct = NAN, .note = AB_NOTE_TOO_FEW, .verdict = AB_SAME },
	};
	struct ab_result res = { .rows = rows, .n_rows = 3, .regressions = 1, .undecided = 1, .ungated = 1 };
	struct ab_report report = { .baseline = "a.ini", .candidate = "b.ini", .rounds = 3, .backend = "postgresql",
				    .tol = &tol, .res = &res };
	struct verdict_list list;
	char *junit, *table;

	for (size_t i = 0; i < 3; i++)
		rows[i].group = (struct compare_group){ .strategy = "probe", .claim_mode = "flip", .workers = 1 };
	check_need(ab_verdicts(&report, &list) == 0, "ab_verdicts");
	CHECK(list.verdicts[0].gate == VERDICT_GATE_REGRESSION && list.verdicts[1].gate == VERDICT_GATE_UNDECIDED &&
	      list.verdicts[2].gate == VERDICT_GATE_NONE, "ab's gates: regression, undecided, not gated");
	CHECK_STR_EQ(list.verdicts[0].figures, "race_duplicates 0.000 -> 2.000: where the baseline had none",
		     "an outcome's regression: where the baseline had none");
	CHECK_STR_EQ(list.verdicts[1].figures, "throughput_jps 100.0 -> 97.00 (-3.0%, 95% interval [-20.0%, +14.0%]): "
		     "its interval holds its 10% tolerance; about 40 rounds would decide it",
		     "an undecided metric's figures and the rounds that would decide it");
	junit = printed(verdict_print_junit, &list);
	table = printed(verdict_print_table, &list);
	check_need(junit && table, "the printers' output");
	expect_line(junit, "<testsuites name=\"claimbench ab\" tests=\"2\" failures=\"1\" skipped=\"1\">",
		    "JUnit: two gated cases, the regression a failure, the undecided one skipped");
	expect_line(junit, "      <skipped message=\"undecided: throughput_jps 100.0 -&gt; 97.00 (-3.0%, 95% interval "
			   "[-20.0%, +14.0%]): its interval holds its 10% tolerance; about 40 rounds would decide it\"/>",
		    "JUnit: the undecided metric skipped, with why");
	expect_line(table, "  costs.buffers_hit_per_job       cost         50.00      -      50.00      -       ~ -                       -  ~  (not gated: known in fewer than 2 rounds)",
		    "the table: a row not gated ends with why");
	expect_line(table, "UNDECIDED: probe flip 1 worker, throughput_jps 100.0 -> 97.00 (-3.0%, 95% interval "
			   "[-20.0%, +14.0%]): its interval holds its 10% tolerance; about 40 rounds would decide it",
		    "the table's UNDECIDED line");
	free(junit);
	free(table);
	verdict_list_free(&list);

	report.fail_on_undecided = true;
	check_need(ab_verdicts(&report, &list) == 0, "ab_verdicts");
	junit = printed(verdict_print_junit, &list);
	check_need(junit != NULL, "the JUnit document");
	expect_line(junit, "<testsuites name=\"claimbench ab\" tests=\"2\" failures=\"2\" skipped=\"0\">",
		    "--fail-on-undecided: both gated cases fail, none is skipped");
	expect_line(junit, "      <failure type=\"undecided\" message=\"undecided: throughput_jps 100.0 -&gt; 97.00 (-3.0%, "
			   "95% interval [-20.0%, +14.0%]): its interval holds its 10% tolerance; about 40 rounds would decide it\"/>",
		    "--fail-on-undecided: the undecided metric a failure of its own type");
	free(junit);
	verdict_list_free(&list);
}

int main(void)
{
	compare_list();
	ab_list();
	return check_exit_status();
}
