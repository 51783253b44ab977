/* The pure parts of the report's charts: the palette, labels, and runs grouped into series and cases. */
#include <string.h>

#include "chart/chart_data.h"
#include "check.h"

/* Fills s as a stored run of strategy:mode at workers, repetition repeat. */
static void fake_run(struct store_run *s, const char *strategy, const char *mode, int workers, int repeat)
{
	memset(s, 0, sizeof(*s));
	s->run.strategy = strategy;
	s->run.claim_mode = mode;
	s->run.workers = workers;
	s->run.repeat = repeat;
}

static void test_palette(void)
{
	char rgb[8];

	CHECK(strcmp(chart_strategy_colour("skip-locked"), "#009e73") == 0, "skip-locked has its fixed colour");
	CHECK(strcmp(chart_strategy_colour("naive"), chart_strategy_colour("for-update")) != 0,
	      "two strategies differ in colour");
	CHECK(strcmp(chart_strategy_colour("my-own"), chart_strategy_colour(NULL)) == 0,
	      "an unknown strategy gets the fallback colour");
	chart_shade("naive", 0, rgb);
	CHECK(strcmp(rgb, chart_strategy_colour("naive")) == 0, "shade 0 is the strategy's colour");
	chart_shade("naive", 1, rgb);
	CHECK(strcmp(rgb, chart_strategy_colour("naive")) != 0 && rgb[0] == '#' && strlen(rgb) == 7,
	      "shade 1 is another #rrggbb (%s)", rgb);
}

static void test_clean_label(void)
{
	char buf[16];

	chart_clean_label(buf, sizeof(buf), "a\"b\\c\nd");
	CHECK(strcmp(buf, "a'b/c?d") == 0, "quotes, backslashes and control characters are replaced (%s)", buf);
	chart_clean_label(buf, 4, "abcdef");
	CHECK(strcmp(buf, "abc") == 0, "a long label is cut to fit");
}

static void test_grouping(void)
{
	struct store_run runs[5];
	struct chart_set set;

	fake_run(&runs[0], "naive", "flip", 4, 1);
	fake_run(&runs[1], "naive", "flip", 2, 1);
	fake_run(&runs[2], "for-update", "hold", 2, 1);
	fake_run(&runs[3], "naive", "flip", 4, 2);
	fake_run(&runs[4], "for-update", "flip", 2, 1);
	CHECK(chart_set_build(&set, runs, 5) == 0, "five runs are grouped");
	CHECK(set.n_series == 3, "three series: naive:flip, for-update:hold, for-update:flip (%zu)", set.n_series);
	CHECK(strcmp(set.series[0].label, "naive:flip") == 0 && strcmp(set.series[2].label, "for-update:flip") == 0,
	      "series keep the order they first appear in");
	CHECK(set.series[1].variant == 0 && set.series[2].variant == 1,
	      "a strategy's second claim mode is its second shade");
	CHECK(set.n_cases == 4, "four cases (%zu)", set.n_cases);
	CHECK(set.cases[0].workers == 2 && set.cases[1].workers == 4 && set.cases[0].series == 0,
	      "a series' cases go by worker count");
	CHECK(strcmp(set.cases[1].label, "naive:flip, 4 wrk") == 0, "a case is labelled with its workers (%s)",
	      set.cases[1].label);
	CHECK(set.case_of[0] == 1 && set.case_of[3] == 1 && set.case_of[1] == 0,
	      "both repetitions of naive at 4 workers fall in one case");
	CHECK(set.runs_without_series == 5, "runs without a time series are counted");
	chart_set_free(&set);
}

int main(void)
{
	test_palette();
	test_clean_label();
	test_grouping();
	return check_exit_status();
}
