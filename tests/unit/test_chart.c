/*
 * The pure parts of the report's charts: the palette, labels, runs grouped into series and
 * cases (runs of two engines apart, each label naming its engine; whether cases were
 * repeated), which charts a report draws, the data of the timeline, throughput, shares,
 * latency, server and guarded-resource charts.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/chart_colour.h"
#include "report/chart_data.h"
#include "report/chart_wanted.h"
#include "check.h"
#include "plugin/strategy.h"
#include "measure/server_metrics.h"
#include "model/faults.h"
#include "model/metric_table.h"
#include "model/run_descriptor.h"

/* Fills s as a stored run of strategy:mode at workers, repetition repeat. */
static void fake_run(struct store_run *s, const char *strategy, const char *mode, int workers, int repeat)
{
	memset(s, 0, sizeof(*s));
	s->run.strategy = strategy;
	s->run.claim_mode = mode;
	s->run.workers = workers;
	s->run.repeat = repeat;
}

/* Colour numbers: distinct colours, none grey but the palette's black; the shades of one. */
static void test_palette(void)
{
	static char rgb[1024][8];
	bool distinct = true, grey = false;
	char shade[8];

	for (size_t n = 0; n < sizeof(rgb) / sizeof(rgb[0]); n++) {
		unsigned int c[3];

		chart_colour(n, rgb[n]);
		sscanf(rgb[n], "#%2x%2x%2x", &c[0], &c[1], &c[2]);
		grey |= c[0] == c[1] && c[1] == c[2] && strcmp(rgb[n], "#000000") != 0;
		for (size_t i = 0; i < n; i++)
			distinct &= strcmp(rgb[i], rgb[n]) != 0;
	}
	CHECK(distinct, "the first 1024 colour numbers have 1024 colours");
	CHECK(!grey, "no colour number is grey");
	chart_shade(3, 0, shade);
	CHECK_STR_EQ(shade, rgb[3], "shade 0 is the colour itself");
	chart_shade(3, 1, shade);
	CHECK(strcmp(shade, rgb[3]) != 0 && shade[0] == '#' && strlen(shade) == 7, "shade 1 is another #rrggbb (%s)",
	      shade);
}

/*
 * Every registered strategy, two a scenario defines (one twice) and a guarded run of a guard
 * named like a strategy: each name its own colour, skip-locked the one it always had.
 */
static void test_strategy_colours(void)
{
	size_t n = strategy_registry_len + 4, i, j;
	struct store_run *runs = calloc(n, sizeof(*runs));
	struct chart_set set;
	char a[8], b[8];
	bool distinct = true;

	for (i = 0; i < strategy_registry_len; i++)
		fake_run(&runs[i], strategy_registry[i]->name, "hold", 2, 1);
	fake_run(&runs[i++], "my-own", "flip", 2, 1);
	fake_run(&runs[i++], "other-own", "flip", 2, 1);
	fake_run(&runs[i++], "my-own", "hold", 2, 1);
	fake_run(&runs[i++], "naive", "refresh", 2, 1);
	CHECK_EQ(chart_set_build(&set, runs, n), 0, "the runs are grouped");
	for (i = 0; i < set.n_series; i++)
		for (j = 0; j < i; j++) {
			chart_shade(set.series[i].colour, 0, a);
			chart_shade(set.series[j].colour, 0, b);
			distinct &= strcmp(a, b) != 0 || strcmp(set.series[i].strategy, set.series[j].strategy) == 0;
		}
	CHECK(distinct, "every strategy, defined one and guard has a colour of its own among %zu series", set.n_series);
	CHECK_EQ(set.series[strategy_registry_len + 2].colour, set.series[strategy_registry_len].colour,
	      "a defined strategy's second claim mode keeps its colour");
	chart_shade(set.series[strategy_index(strategy_find("skip-locked"))].colour, 0, a);
	CHECK_STR_EQ(a, "#009e73", "skip-locked keeps its colour (%s)", a);
	chart_set_free(&set);
	free(runs);
}

/* Least CIE76 difference (Lab) between two strategy/mode pairs' colours that a reader tells apart at a glance. */
#define MIN_COLOUR_DELTA 12.0
/* Least contrast ratio (WCAG) of a series' colour against the white background. */
#define MIN_WHITE_CONTRAST 2.0

/* The linear-light value of an sRGB channel c (0 to 255). */
static double linear(unsigned int c)
{
	double u = c / 255.0;

	return u <= 0.04045 ? u / 12.92 : pow((u + 0.055) / 1.055, 2.4);
}

/* Lab's f of a ratio to the white point. */
static double lab_f(double t)
{
	return t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116;
}

/* Colour "#rrggbb" in CIE Lab (D65) into lab, and its relative luminance. */
static double to_lab(const char *rgb, double lab[3])
{
	unsigned int c[3];
	double r, g, b, x, y, z;

	sscanf(rgb, "#%2x%2x%2x", &c[0], &c[1], &c[2]);
	r = linear(c[0]), g = linear(c[1]), b = linear(c[2]);
	x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
	y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
	z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
	lab[0] = 116 * lab_f(y) - 16;
	lab[1] = 500 * (lab_f(x) - lab_f(y));
	lab[2] = 200 * (lab_f(y) - lab_f(z));
	return y;
}

/* The CIE76 difference between colours a and b ("#rrggbb"). */
static double colour_delta(const char *a, const char *b)
{
	double la[3], lb[3];

	to_lab(a, la);
	to_lab(b, lb);
	return sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) +
		    (la[2] - lb[2]) * (la[2] - lb[2]));
}

/* The contrast ratio of colour rgb against white. */
static double white_contrast(const char *rgb)
{
	double lab[3];

	return 1.05 / (to_lab(rgb, lab) + 0.05);
}

/*
 * Every strategy and claim mode the registry has, and four a scenario defines in both
 * modes: each pair a colour a reader tells apart from every other's (a visible Lab
 * difference) and from white, and its own marker; a section's part of them the same
 * colours as in the whole.
 */
static void test_mode_colours(void)
{
	static const char *const defined[] = { "team-naive", "team-skip", "team-batch", "team-advisory" };
	size_t n = 2 * strategy_registry_len + 2 * 4, i, j, pairs = 0;
	struct store_run *runs = calloc(n, sizeof(*runs));
	struct chart_set set, part;
	char a[8], b[8];
	bool distinct = true, same = true, visible = true;
	double least = INFINITY;

	for (i = 0; i < strategy_registry_len; i++)
		for (int m = 0; m < MODE_COUNT; m++)
			if (strategy_registry[i]->modes & MODE_BIT(m))
				fake_run(&runs[pairs++], strategy_registry[i]->name, claim_mode_names[m], 8, 1);
	for (i = 0; i < 4; i++) {
		fake_run(&runs[pairs++], defined[i], "flip", 8, 1);
		fake_run(&runs[pairs++], defined[i], "hold", 8, 1);
	}
	CHECK(chart_set_build(&set, runs, pairs) == 0 && set.n_series == pairs, "%zu strategy/mode pairs grouped", pairs);
	for (i = 0; i < set.n_series; i++) {
		chart_shade(set.series[i].colour, set.series[i].variant, a);
		if (white_contrast(a) < MIN_WHITE_CONTRAST) {
			visible = false;
			printf("# %s's %s is too light on white (%.2f:1)\n", set.series[i].label, a, white_contrast(a));
		}
		for (j = 0; j < i; j++) {
			chart_shade(set.series[j].colour, set.series[j].variant, b);
			least = fmin(least, colour_delta(a, b));
			if (colour_delta(a, b) < MIN_COLOUR_DELTA) {
				distinct = false;
				printf("# %s %s and %s %s look alike (delta %.1f)\n", set.series[i].label, a,
				       set.series[j].label, b, colour_delta(a, b));
			}
		}
	}
	CHECK(distinct, "the %zu strategy/mode pairs' colours differ by at least %.0f in Lab (least %.1f)", set.n_series,
	      MIN_COLOUR_DELTA, least);
	CHECK(visible, "every pair's colour has a contrast of at least %.1f:1 on white", MIN_WHITE_CONTRAST);
	CHECK(chart_shape(set.series[0].colour, 0) != chart_shape(set.series[0].colour, 1),
	      "a strategy's two modes have different markers");
	CHECK_EQ(chart_set_build_within(&part, runs + pairs - 3, 3, &set), 0, "a part of the runs is grouped");
	for (i = 0; i < part.n_series; i++)
		same &= part.series[i].colour == set.series[set.n_series - 3 + i].colour &&
			part.series[i].variant == set.series[set.n_series - 3 + i].variant;
	CHECK(same, "a part's series keep the whole's colours and shades");
	chart_set_free(&part);
	chart_set_free(&set);
	free(runs);
}

/*
 * One strategy in two modes at three worker counts: a case's colour is its mode's, the
 * other mode's clearly darker and far from every case's of the first, none near white;
 * the worker counts of one mode told apart by dash or marker.
 */
static void test_worker_shades(void)
{
	static const int workers[] = { 1, 2, 4 };
	struct store_run runs[6];
	struct chart_set set;
	char a[8], b[8];
	bool mode_colour = true, apart = true, visible = true, marked = true;

	for (size_t w = 0; w < 3; w++) {
		fake_run(&runs[w], "update-returning", "hold", workers[w], 1);
		fake_run(&runs[3 + w], "update-returning", "flip", workers[w], 1);
	}
	CHECK(chart_set_build(&set, runs, 6) == 0 && set.n_cases == 6, "six cases grouped");
	for (size_t i = 0; i < set.n_cases; i++) {
		const struct chart_series *s = &set.series[set.cases[i].series];

		chart_shade(s->colour, set.cases[i].variant, a);
		chart_shade(s->colour, s->variant, b);
		mode_colour &= strcmp(a, b) == 0;
		visible &= white_contrast(a) >= MIN_WHITE_CONTRAST;
		for (size_t j = 0; j < i; j++) {
			const struct chart_series *o = &set.series[set.cases[j].series];

			chart_shade(o->colour, set.cases[j].variant, b);
			if (o != s)
				apart &= colour_delta(a, b) >= MIN_COLOUR_DELTA;
			else
				marked &= set.cases[i].variant % 10 != set.cases[j].variant % 10 &&
					  chart_shape(s->colour, set.cases[i].variant) !=
						  chart_shape(s->colour, set.cases[j].variant);
		}
	}
	CHECK(mode_colour, "each worker count is drawn in its strategy and mode's colour");
	CHECK(apart, "every hold case's colour is far from every flip case's");
	CHECK(visible, "no case's colour is near white");
	CHECK(marked, "a mode's worker counts differ in dash and marker");
	chart_set_free(&set);
}

/*
 * naive in two sections: the report's swatch of the second section's case (drawn from the
 * whole's set) is the colour its section's charts draw it in (the part's set).
 */
static void test_section_colours(void)
{
	struct store_run runs[2];
	struct chart_set whole, part;
	char a[8], b[8];

	fake_run(&runs[0], "naive", "flip", 8, 1);
	runs[0].run.group = "happy";
	fake_run(&runs[1], "naive", "flip", 8, 1);
	runs[1].run.group = "crashes";
	CHECK(chart_set_build(&whole, runs, 2) == 0 && chart_set_build_within(&part, runs + 1, 1, &whole) == 0,
	      "the runs and the second section's part are grouped");
	chart_shade(whole.series[whole.cases[1].series].colour, whole.cases[1].variant, a);
	chart_shade(part.series[part.cases[0].series].colour, part.cases[0].variant, b);
	CHECK(whole.cases[1].series == 1 && strcmp(a, b) == 0,
	      "a section's case has one colour in the whole (%s) and in its section's charts (%s)", a, b);
	chart_set_free(&part);
	chart_set_free(&whole);
}

static void test_clean_label(void)
{
	char buf[16];

	chart_clean_label(buf, sizeof(buf), "a\"b\\c\nd");
	CHECK_STR_EQ(buf, "a'b/c?d", "quotes, backslashes and control characters are replaced (%s)", buf);
	chart_clean_label(buf, 4, "abcdef");
	CHECK_STR_EQ(buf, "abc", "a long label is cut to fit");
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
	CHECK_EQ(chart_set_build(&set, runs, 5), 0, "five runs are grouped");
	CHECK_EQ(set.n_series, 3, "three series: naive:flip, for-update:hold, for-update:flip (%zu)", set.n_series);
	CHECK(strcmp(set.series[0].label, "naive:flip") == 0 && strcmp(set.series[2].label, "for-update:flip") == 0,
	      "series keep the order they first appear in");
	CHECK(set.series[1].variant == 0 && set.series[2].variant == 1,
	      "a strategy's second claim mode is its second shade");
	CHECK_EQ(set.n_cases, 4, "four cases (%zu)", set.n_cases);
	CHECK(set.cases[0].workers == 2 && set.cases[1].workers == 4 && set.cases[0].series == 0,
	      "a series' cases go by worker count");
	CHECK_STR_EQ(set.cases[1].label, "naive:flip, 4 wrk", "a case is labelled with its workers (%s)",
	      set.cases[1].label);
	CHECK(set.case_of[0] == 1 && set.case_of[3] == 1 && set.case_of[1] == 0,
	      "both repetitions of naive at 4 workers fall in one case");
	CHECK_EQ(set.runs_without_series, 5, "runs without a time series are counted");
	chart_set_free(&set);
}

/* Runs of two engines are two series, each labelled with its engine; repeats of one engine are one case. */
static void test_engines_apart(void)
{
	struct store_run runs[3];
	struct chart_set set;

	fake_run(&runs[0], "naive", "flip", 2, 1);
	fake_run(&runs[1], "naive", "flip", 2, 1);
	fake_run(&runs[2], "naive", "flip", 2, 2);
	snprintf(runs[0].run.engine, sizeof(runs[0].run.engine), "postgresql 16.4");
	snprintf(runs[1].run.engine, sizeof(runs[1].run.engine), "mariadb 11.4.2");
	snprintf(runs[2].run.engine, sizeof(runs[2].run.engine), "postgresql 16.4");
	CHECK_EQ(chart_set_build(&set, runs, 3), 0, "three runs of two engines are grouped");
	CHECK(set.engines && set.n_series == 2 && set.n_cases == 2 && set.cases[0].repeats == 2 &&
	      set.cases[1].repeats == 1, "two series and two cases, PostgreSQL's two runs one case (%zu series, %zu "
	      "cases)", set.n_series, set.n_cases);
	CHECK(set.n_series == 2 && strcmp(set.series[0].label, "naive:flip (postgresql 16.4)") == 0 &&
	      strcmp(set.series[1].label, "naive:flip (mariadb 11.4.2)") == 0, "each label names its engine (%s; %s)",
	      set.series[0].label, set.n_series > 1 ? set.series[1].label : "-");
	CHECK(chart_repeats_of(&set) == REPEATS_SOME, "one case repeated, one not: some repeated");
	chart_set_free(&set);
	CHECK_EQ(chart_set_build(&set, runs + 1, 1), 0, "one run of one engine is grouped");
	CHECK(!set.engines && strcmp(set.series[0].label, "naive:flip") == 0 && chart_repeats_of(&set) == REPEATS_NONE,
	      "one engine: no engine in the label (%s), one run: no repeats", set.series[0].label);
	chart_set_free(&set);
}

/* Reads dir/NAME.tsv into buf (size bytes, NUL-terminated); buf is "" when it cannot. */
static void read_data(const char *dir, const char *name, char *buf, size_t size)
{
	char path[512];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.tsv", dir, name);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* Writes chart kind of set into dir, its data into buf. 0, or -1. */
static int write_chart(const struct chart_set *set, enum chart_kind kind, const char *dir, struct chart *c,
		       char *buf, size_t size)
{
	struct out_dir out = { .fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), .path = dir };
	char err[256];
	int rc;

	rc = out.fd < 0 ? -1 : chart_write(set, kind, &out, c, err, sizeof(err));
	out_dir_close(&out);
	if (rc < 0)
		return -1;
	read_data(dir, c->name, buf, size);
	return 0;
}

static void test_wanted(void)
{
	struct store_run runs[2];
	struct chart_set set;

	fake_run(&runs[0], "skip-locked", "hold", 2, 1);
	fake_run(&runs[1], "skip-locked", "hold", 4, 1);
	chart_set_build(&set, runs, 2);
	CHECK(chart_wanted(&set, CHART_MAKESPAN) && !chart_wanted(&set, CHART_QUEUE_WAIT) &&
	      !chart_wanted(&set, CHART_BACKLOG) && !chart_wanted(&set, CHART_ARRIVALS) && chart_wanted(&set, CHART_EMPTIES),
	      "drain runs: a makespan chart and no open-loop chart");
	chart_set_free(&set);
	runs[0].run.duration_s = runs[1].run.duration_s = 4;
	runs[0].run.arrival_rate = runs[1].run.arrival_rate = 120;
	chart_set_build(&set, runs, 2);
	CHECK(!chart_wanted(&set, CHART_MAKESPAN), "timed runs: no makespan chart (it would be their duration)");
	CHECK(chart_wanted(&set, CHART_QUEUE_WAIT) && chart_wanted(&set, CHART_BACKLOG) &&
	      chart_wanted(&set, CHART_ARRIVALS), "runs with arrivals: the queue-wait, backlog and arrivals charts");
	chart_set_free(&set);
}

/* A naive run of 5 jobs in two buckets: 5 executions done in each, of them 3 and 2 firsts. */
static void test_timeline_distinct(const char *dir)
{
	struct series_point series[2] = {
		{ .t_ms = 0, .completed = 5, .first_completed = 3 },
		{ .t_ms = 100, .completed = 5, .first_completed = 2 },
	};
	struct store_run run;
	struct chart_set set;
	struct chart c;
	char data[4096], *last;
	double t, rate, dup_rate, jobs = -1, dups = -1;

	fake_run(&run, "naive", "flip", 2, 1);
	run.run.series = series;
	run.run.n_series = 2;
	chart_set_build(&set, &run, 1);
	CHECK_EQ(write_chart(&set, CHART_TIMELINE, dir, &c, data, sizeof(data)), 0, "the timeline's data is written");
	last = strrchr(data, '\n');
	while (last && last > data && last[-1] != '\n')
		last--;
	CHECK(last && sscanf(last, "%lf\t%lf\t%lf\t%lf\t%lf", &t, &rate, &dup_rate, &jobs, &dups) == 5,
	      "the timeline's last row has five columns");
	CHECK(jobs == 5 && dups == 5, "it counts 5 distinct jobs, not 10 executions, and 5 duplicates apart (%g, %g)",
	      jobs, dups);
	CHECK(strstr(data, "0.000\t30\t20\t0\t0\n") != NULL, "the first bucket: 30 jobs/s, 20 duplicates/s");
	CHECK(c.dups_known && strcmp(c.layer, "1") == 0, "the block with duplicates is named (%s)", c.layer);
	chart_set_free(&set);
	series[0].first_completed = METRIC_UNKNOWN;
	chart_set_build(&set, &run, 1);
	write_chart(&set, CHART_TIMELINE, dir, &c, data, sizeof(data));
	CHECK(!c.dups_known, "a series stored without first completions is flagged");
	chart_set_free(&set);
}

/*
 * Six runs of six strategies, a panel each: one at 1000 jobs/s, the others at 20, so the
 * panels get their own y scales; a restart of 0.4 s in the third run only, which its block
 * alone names and lists as an outage; the recovery chart's bar of it, outage and own part.
 */
static void test_timeline_faults(const char *dir)
{
	static const char *const names[] = { "naive", "for-update", "skip-locked", "ticket", "cas", "batch" };
	struct series_point slow[2] = { { .t_ms = 0, .completed = 2, .first_completed = 2 },
					{ .t_ms = 100, .completed = 2, .first_completed = 2 } };
	struct series_point fast[2] = { { .t_ms = 0, .completed = 100, .first_completed = 100 },
					{ .t_ms = 100, .completed = 100, .first_completed = 100 } };
	struct fault_record restart = { .at_ns = 300000000, .duration_ns = 400000000, .kind = FAULT_RESTART, .worker = -1 };
	struct store_run runs[6];
	struct chart_set set;
	struct chart c;
	char data[8192];

	for (size_t i = 0; i < 6; i++) {
		fake_run(&runs[i], names[i], "flip", 2, 1);
		runs[i].run.series = i == 5 ? fast : slow;
		runs[i].run.n_series = 2;
		runs[i].run.metrics.restart_first_completion_ms = NAN;
		runs[i].run.metrics.recovery_ms = (struct recovery_summary){ .p50 = NAN, .max = NAN };
	}
	runs[2].run.faults = &restart;
	runs[2].run.n_faults = 1;
	runs[2].run.metrics.restart_first_completion_ms = 150;
	chart_set_build(&set, runs, 6);
	CHECK_EQ(write_chart(&set, CHART_TIMELINE, dir, &c, data, sizeof(data)), 0, "the timeline of six runs is written");
	CHECK(c.panels == 6 && c.own_scales, "a panel per run, each its own y scale: 1000 jobs/s beside 20");
	CHECK(!c.own_times, "runs of one length share one time scale");
	CHECK(strstr(data, "\"faults\"\t\"rgb\"\t\"kind\"\t\"block\"\t\"down_s\"\n") &&
		      strstr(data, "\t\"restart\"\t3\t0.400\n"),
	      "the restart's mark names the block of the run it struck and the server's 0.4 s outage");
	CHECK(strcmp(c.faulted, "3") == 0 && strcmp(c.outages, "3") == 0,
	      "only that block has a fault and an outage (%s, %s)", c.faulted, c.outages);
	CHECK(write_chart(&set, CHART_RECOVERY, dir, &c, data, sizeof(data)) == 0 && c.blocks == 1 &&
		      strstr(data, "0\t\"skip-locked:flip (restart)\"\t0.4\t0.15\tNaN\t") && strcmp(c.layer, "1") == 0,
	      "the recovery chart: one bar, the 0.4 s outage apart from the 0.15 s to the first completion");
	chart_set_free(&set);
	runs[2].run.metrics.restart_first_completion_ms = NAN;
	runs[2].run.metrics.lost = 3;
	chart_set_build(&set, runs, 6);
	CHECK(write_chart(&set, CHART_RECOVERY, dir, &c, data, sizeof(data)) == 0 &&
		      strstr(data, "0\t\"skip-locked:flip (restart)\"\t0.4\tNaN\tNaN\t") &&
		      strstr(data, "\t\"never (3 lost)\"\n") && strcmp(c.layer, "1 3") == 0,
	      "a case that never recovered: its slot says \"never (3 lost)\", not an empty bar");
	chart_set_free(&set);
	runs[2].run.metrics.restart_first_completion_ms = 150;
	runs[2].run.metrics.lost = 0;
	fast[0].first_completed = 2;
	fast[0].completed = 2;
	fast[1].first_completed = 2;
	fast[1].completed = 2;
	chart_set_build(&set, runs, 6);
	write_chart(&set, CHART_TIMELINE, dir, &c, data, sizeof(data));
	CHECK(!c.own_scales, "runs of like rates share one y scale");
	chart_set_free(&set);
	fast[1].t_ms = 2000;
	chart_set_build(&set, runs, 6);
	write_chart(&set, CHART_TIMELINE, dir, &c, data, sizeof(data));
	CHECK(c.own_times, "a run of 2.1 s beside runs of 0.2 s: each panel its own time scale");
	chart_set_free(&set);
}

/* An open-loop run whose workers kept up: no backlog at all still gets a y range, so gnuplot does not warn. */
static void test_empty_backlog(const char *dir)
{
	struct series_point series[2] = { { .t_ms = 0, .enqueued = 10 }, { .t_ms = 100, .enqueued = 12 } };
	struct store_run run;
	struct chart_set set;
	struct chart c;
	char data[4096];

	fake_run(&run, "skip-locked", "hold", 2, 1);
	run.run.arrival_rate = 100;
	run.run.series = series;
	run.run.n_series = 2;
	chart_set_build(&set, &run, 1);
	write_chart(&set, CHART_BACKLOG, dir, &c, data, sizeof(data));
	CHECK(c.blocks == 1 && c.ymax == 1 && c.xhi > 0.19, "a backlog of 0 throughout: the y range 0 to 1 (%g)", c.ymax);
	write_chart(&set, CHART_ARRIVALS, dir, &c, data, sizeof(data));
	CHECK(c.arrival_rate == 100 && c.ymax >= 120, "the arrivals' range holds the rate asked (%g)", c.ymax);
	chart_set_free(&set);
}

/* Two strategies at 8 workers with one throughput, 10 ms of work: markers apart, the ceiling 100 jobs/s a worker. */
static void test_throughput_apart(const char *dir)
{
	struct store_run runs[4];
	struct chart_set set;
	struct chart c;
	char data[4096];
	double x1 = 0, x2 = 0;
	const char *second;

	fake_run(&runs[0], "skip-locked", "hold", 4, 1);
	fake_run(&runs[1], "ticket", "hold", 4, 1);
	fake_run(&runs[2], "skip-locked", "hold", 8, 1);
	fake_run(&runs[3], "ticket", "hold", 8, 1);
	for (int i = 0; i < 4; i++) {
		runs[i].run.work_ms = 10;
		runs[i].run.metrics.throughput_jps = 128.3;
	}
	chart_set_build(&set, runs, 4);
	write_chart(&set, CHART_THROUGHPUT, dir, &c, data, sizeof(data));
	second = strstr(data, "\"ticket:hold\"");
	CHECK(sscanf(strchr(data, '\n') + 1, "%lf", &x1) == 1 && second &&
	      sscanf(strchr(second, '\n') + 1, "%lf", &x2) == 1 && x1 < 4 && x2 > 4,
	      "equal throughputs at 4 workers are drawn either side of 4 (%g, %g)", x1, x2);
	CHECK(c.ceiling == 100 && c.ymax >= 128.3 && c.xlo < 4 && c.xhi > 8 && strcmp(c.ticks, "4 8") == 0,
	      "one work time: a common ceiling of 100 jobs/s a worker, a tick per worker count, a range around them (%g)",
	      c.ceiling);
	chart_set_free(&set);
	chart_set_build(&set, runs + 2, 2);
	write_chart(&set, CHART_THROUGHPUT, dir, &c, data, sizeof(data));
	CHECK(strstr(data, "\n0\t128.3\t128.3\t128.3\t800\t8\t\"skip-locked:hold\"\n") &&
		      strstr(data, "\n1\t128.3\t128.3\t128.3\t800\t8\t\"ticket:hold\"\n") && c.workers == 8 && c.xlo < 0 &&
		      c.xhi > 1,
	      "at one worker count, the strategies side by side, each named on the axis, not '8 8'");
	chart_set_free(&set);
}

/* A run whose two workers completed 6 and 2 jobs: shares of 1.5 and 0.5 fair shares, largest first. */
static void test_shares(const char *dir)
{
	struct worker_stats w[2] = { { .completed = 2 }, { .completed = 6 } };
	struct store_run run;
	struct chart_set set;
	struct chart c;
	char data[4096];

	fake_run(&run, "for-update", "hold", 2, 1);
	run.run.per_worker = w;
	chart_set_build(&set, &run, 1);
	write_chart(&set, CHART_SHARES, dir, &c, data, sizeof(data));
	CHECK(strstr(data, "-0.2\t1.5\t0.4\t\"\"\n0.2\t0.5\t0.4\t\"\"\n0\t0\t0\t\"for-update:hold\"\n") != NULL,
	      "shares in fair shares, ranked, then the cluster's tick: at one worker count, the strategy's name");
	chart_set_free(&set);
}

/* Two repeats whose histograms the store kept: the latency chart pools them. */
static void test_latency_pooled(const char *dir)
{
	struct histogram *h = calloc(2, sizeof(*h));
	struct store_run runs[2];
	struct chart_set set;
	struct chart c;
	char data[4096];

	check_need(h != NULL, "histogram allocation");
	for (int i = 0; i < 2; i++) {
		fake_run(&runs[i], "skip-locked", "hold", 2, i + 1);
		hist_init(&h[i]);
		hist_record(&h[i], i ? 3000000 : 1000000);
		runs[i].claim_latency = &h[i];
		runs[i].run.metrics.claim_latency_ms.max = i ? 3 : 1;
	}
	chart_set_build(&set, runs, 2);
	write_chart(&set, CHART_LATENCY, dir, &c, data, sizeof(data));
	CHECK_EQ(c.pooling, POOL_HISTOGRAMS, "repeats with histograms are pooled");
	CHECK(c.ylo > 0 && c.ylo < 1 && c.ymax > 3, "the log range spans the values with room (%g to %g)", c.ylo, c.ymax);
	CHECK(strstr(data, "4\t3\t\"max\"") != NULL, "the pooled max is the largest of the repeats, 3 ms");
	chart_set_free(&set);
	runs[1].claim_latency = NULL;
	chart_set_build(&set, runs, 2);
	write_chart(&set, CHART_LATENCY, dir, &c, data, sizeof(data));
	CHECK(c.pooling == POOL_MEAN && strstr(data, "4\t2\t\"max\"") != NULL,
	      "without a histogram, the mean of the repeats' percentiles, and the chart says so");
	chart_set_free(&set);
	free(h);
}

/*
 * A skip-locked run at 4 workers sampled twice, 100 ms apart: 8 backend states (cpu 1, lock
 * 3, lwlock 1, client 3), 400 blocks for 10 claims, dead tuples 0 then 50; 3 buckets of 10,
 * 20 and 5 completions; a snapshot held from 100 to 200 ms and a vacuum at 250 ms for 10
 * ms; the head lookup touched 3 buffers before and 25 after.
 */
static struct server_sample sampled_samples[2] = {
	{ .t_ms = 0, .waits = { 1, 2, 0, 0, 1, 0 }, .dead_tuples = 0, .heap_blocks = 100, .index_blocks = 50,
	  .vacuums = 0, .xmin_age = 5, .wal_bytes = SAMPLE_UNKNOWN, .claims = 0 },
	{ .t_ms = 100, .waits = { 0, 1, 1, 0, 2, 0 }, .dead_tuples = 50, .heap_blocks = 400, .index_blocks = 150,
	  .vacuums = 1, .xmin_age = 7, .wal_bytes = SAMPLE_UNKNOWN, .claims = 10 },
};
static struct series_point sampled_series[3] = {
	{ .t_ms = 0, .completed = 10, .first_completed = 10 }, { .t_ms = 100, .completed = 20, .first_completed = 18 },
	{ .t_ms = 200, .completed = 5, .first_completed = 5 },
};
static struct phase_record sampled_phases[2] = {
	{ PHASE_SNAPSHOT, 100000000, 100000000 }, { PHASE_VACUUM, 250000000, 10000000 },
};

/* Fills s as that run, its server figures computed from its samples and probes. */
static void sampled_run(struct store_run *s)
{
	fake_run(s, "skip-locked", "hold", 4, 1);
	s->run.samples = sampled_samples;
	s->run.n_samples = 2;
	s->run.series = sampled_series;
	s->run.n_series = 3;
	s->run.phases = sampled_phases;
	s->run.n_phases = 2;
	s->run.probes[PROBE_BEFORE].head_buffers = 3;
	s->run.probes[PROBE_AFTER].head_buffers = 25;
	s->run.probes[PROBE_BEFORE].table_bytes = s->run.probes[PROBE_AFTER].table_bytes = SAMPLE_UNKNOWN;
	s->run.probes[PROBE_BEFORE].index_bytes = s->run.probes[PROBE_AFTER].index_bytes = SAMPLE_UNKNOWN;
	s->run.probes[PROBE_BEFORE].locks = s->run.probes[PROBE_AFTER].locks = SAMPLE_UNKNOWN;
	server_metrics_compute(&s->run);
}

/* The server's charts only when a run sampled the server; a SQLite run's samples draw the pressure alone. */
static void test_server_wanted(void)
{
	static struct server_sample wal[1] = { { .dead_tuples = SAMPLE_UNKNOWN, .heap_blocks = SAMPLE_UNKNOWN,
						 .index_blocks = SAMPLE_UNKNOWN, .vacuums = SAMPLE_UNKNOWN,
						 .xmin_age = SAMPLE_UNKNOWN, .wal_bytes = 4000000 } };
	struct store_run runs[2];
	struct chart_set set;

	fake_run(&runs[0], "skip-locked", "hold", 4, 1);
	runs[0].run.series = sampled_series;
	runs[0].run.n_series = 3;
	for (int k = 0; k < PROBE_MOMENTS; k++)
		runs[0].run.probes[k] = (struct table_probe){ NULL, 3, SAMPLE_UNKNOWN, SAMPLE_UNKNOWN, SAMPLE_UNKNOWN };
	server_metrics_compute(&runs[0].run);
	chart_set_build(&set, runs, 1);
	CHECK(!chart_wanted(&set, CHART_WAITS) && !chart_wanted(&set, CHART_PRESSURE) &&
	      !chart_wanted(&set, CHART_BUFFERS),
	      "a run without samples (--sample-ms 0): no server chart, though its head lookup was probed");
	chart_set_free(&set);
	sampled_run(&runs[1]);
	chart_set_build(&set, runs, 2);
	CHECK(chart_wanted(&set, CHART_WAITS) && chart_wanted(&set, CHART_PRESSURE) &&
	      chart_wanted(&set, CHART_BUFFERS),
	      "a sampled run beside it: the wait shares, pressure and buffers charts");
	chart_set_free(&set);
	runs[0].run.samples = wal;
	runs[0].run.n_samples = 1;
	for (int k = 0; k < PROBE_MOMENTS; k++)
		runs[0].run.probes[k].head_buffers = SAMPLE_UNKNOWN;
	server_metrics_compute(&runs[0].run);
	chart_set_build(&set, runs, 1);
	CHECK(!chart_wanted(&set, CHART_WAITS) && chart_wanted(&set, CHART_PRESSURE) &&
	      !chart_wanted(&set, CHART_BUFFERS),
	      "a SQLite run's samples (the -wal file only): the pressure chart alone");
	chart_set_free(&set);
}

/* The wait shares of the sampled run: each class's states of the 8 sampled, summing to 100. */
static void test_waits_data(const char *dir)
{
	static const char header[] = "\"case\"\t\"cpu\"\t\"lock\"\t\"lwlock\"\t\"io\"\t\"client\"\t\"other\"\n";
	struct store_run run;
	struct chart_set set;
	struct chart c;
	char data[4096], label[64];
	double pct[WAIT_CLASS_COUNT], sum = 0;

	sampled_run(&run);
	chart_set_build(&set, &run, 1);
	CHECK_EQ(write_chart(&set, CHART_WAITS, dir, &c, data, sizeof(data)), 0, "the wait shares' data is written");
	CHECK_EQ(strncmp(data, header, sizeof(header) - 1), 0,
	      "its header names the six wait classes");
	CHECK_EQ(sscanf(strchr(data, '\n') + 1, "\"%63[^\"]\"\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf", label, &pct[0], &pct[1],
		     &pct[2], &pct[3], &pct[4], &pct[5]), 7, "a row per case: its label and six shares");
	for (int k = 0; k < WAIT_CLASS_COUNT; k++)
		sum += pct[k];
	CHECK(fabs(sum - 100) < 1e-9 && pct[WAIT_LOCK] == 37.5 && pct[WAIT_CPU] == 12.5 && pct[WAIT_IO] == 0,
	      "the shares of 8 states: lock 3 of 8 is 37.5 %%, all 100 %% (%g)", sum);
	CHECK(c.blocks == 1 && strcmp(c.colours, "#009988 #cc3311 #ee7733 #0077bb #bbbbbb #aa3377") == 0,
	      "one row, the classes' own colours (%s)", c.colours);
	chart_set_free(&set);
}

/* The pressure chart of the sampled run beside a SQLite run: throughput, dead tuples or the -wal file, the phases. */
static void test_pressure_data(const char *dir)
{
	static struct server_sample wal[2] = {
		{ .t_ms = 0, .dead_tuples = SAMPLE_UNKNOWN, .wal_bytes = 0 },
		{ .t_ms = 100, .dead_tuples = SAMPLE_UNKNOWN, .wal_bytes = 2500000 },
	};
	struct store_run runs[2];
	struct chart_set set;
	struct chart c;
	char data[4096];

	sampled_run(&runs[0]);
	fake_run(&runs[1], "update-returning", "flip", 2, 1);
	runs[1].run.samples = wal;
	runs[1].run.n_samples = 2;
	runs[1].run.series = sampled_series;
	runs[1].run.n_series = 3;
	chart_set_build(&set, runs, 2);
	CHECK_EQ(write_chart(&set, CHART_PRESSURE, dir, &c, data, sizeof(data)), 0,
	      "the pressure chart's data is written");
	CHECK(strstr(data, "\"skip-locked:hold, 4 wrk\"\t\"jobs_per_s\"\n"
			   "0.000\t100\n0.100\t180\n0.200\t50\n0.300\t50\n") != NULL && c.dups_known,
	      "distinct jobs per 100 ms bucket as jobs/s (2 duplicate executions left out), then the last bucket's end");
	CHECK(strstr(data, "\"dead tuples\"\t\"dead_tuples\"\n0.000\t0\n0.100\t50\n") != NULL,
	      "dead tuples at each sample");
	CHECK(strstr(data, "\"-wal file (MB)\"\t\"wal_mb\"\n0.000\t0\n0.100\t2.5\n") != NULL,
	      "the SQLite run's -wal file in MB instead");
	CHECK(strstr(data, "\"panel\"\t\"phase\"\t\"from_s\"\t\"to_s\"\n"
			   "1\t\"snapshot\"\t0.100\t0.200\n1\t\"vacuum\"\t0.250\t0.260\n") != NULL,
	      "the phases last: the snapshot's span and the vacuum, on panel 1");
	CHECK_STR_EQ(c.phases, "1 0 0.100 0.200 1 1 0.250 0.260", "the phases for drawing (%s)", c.phases);
	CHECK(c.panels == 2 && c.blocks == 2 && strcmp(c.layer, "2") == 0 && c.xhi > 0.29,
	      "a panel per case, the second drawing the -wal file (%zu, %s)", c.panels, c.layer);
	chart_set_free(&set);
}

/* The buffers chart of the sampled run: 400 blocks for 10 claims, 3 buffers before and 25 after. */
static void test_buffers_data(const char *dir)
{
	struct store_run run;
	struct chart_set set;
	struct chart c;
	char data[4096];

	sampled_run(&run);
	chart_set_build(&set, &run, 1);
	CHECK_EQ(write_chart(&set, CHART_BUFFERS, dir, &c, data, sizeof(data)), 0,
	      "the buffers chart's data is written");
	CHECK(strstr(data, "\"first 2 s\"\t40\n\"last 2 s\"\t40\n") != NULL,
	      "40 blocks per claim at the start and the end");
	CHECK(strstr(data, "\n\n\n\"figure\"\t\"skip-locked:hold\"\n"
			   "\"before the run\"\t3\n\"after the run\"\t25\n") != NULL,
	      "the head lookup's buffers in a block of their own: 3 before, 25 after");
	CHECK(strcmp(c.layer, "1 2") == 0 && c.blocks == 1, "both panels, one case (%s)", c.layer);
	chart_set_free(&set);
}

/*
 * Guarded runs: a resource run with X = 3 on two resources, an exclusive-use one, a refresh
 * one and a resource one again: a holders panel per run with a block per resource and the
 * limit its workload allows; the waits grouped by workload, an empty row between groups.
 */
static void test_guarded_data(const char *dir)
{
	static struct holder_point two[] = {
		{ .t_ms = 0, .resource = 0, .holders = 3, .waiting = 2 },
		{ .t_ms = 100, .resource = 0, .holders = 1, .waiting = 0 },
		{ .t_ms = 0, .resource = 1, .holders = 2, .waiting = 4 },
		{ .t_ms = 100, .resource = 1, .holders = 0, .waiting = 0 },
	};
	static struct holder_point one[] = { { .t_ms = 0, .resource = 0, .holders = 1, .waiting = 5 } };
	struct store_run runs[4];
	struct chart_set set;
	struct chart c;
	char data[4096];
	const char *gap;

	fake_run(&runs[0], "ticket-line", "resource", 4, 1);
	fake_run(&runs[1], "row-lock", "exclusive-use", 4, 1);
	fake_run(&runs[2], "advisory", "refresh", 4, 1);
	fake_run(&runs[3], "naive", "resource", 4, 1);
	runs[0].run.holders = two;
	runs[0].run.n_holders = 4;
	runs[1].run.holders = runs[2].run.holders = one;
	runs[1].run.n_holders = runs[2].run.n_holders = 1;
	runs[0].run.metrics.guarded.wait_ms = (struct latency_summary){ .p50 = 2, .p99 = 40, .max = 80 };
	runs[0].run.metrics.guarded.writer_wait_ms.p99 = 50;
	runs[3].run.metrics.guarded.wait_ms.max = 0;
	if (run_param_add(&runs[0].run, "limit", "3") < 0)
		return;
	chart_set_build(&set, runs, 4);
	CHECK(chart_wanted(&set, CHART_HOLDERS) && chart_wanted(&set, CHART_GUARD_WAITS), "guarded runs: both charts");
	CHECK_EQ(write_chart(&set, CHART_HOLDERS, dir, &c, data, sizeof(data)), 0, "the holders' data is written");
	CHECK(c.panels == 3 && strcmp(c.firsts, "1 3 4 5") == 0 && c.blocks == 4,
	      "a panel per run with a series, a block per resource (panels %zu, firsts %s)", c.panels, c.firsts);
	CHECK(strstr(data, "\"ticket-line:resource: resource 0\"\t\"holders\"\t\"waiting\"\t\"limit\"\n"
			   "0.000\t3\t2\t3\n0.100\t1\t0\t3\n0.200\t1\t0\t3\n") != NULL &&
	      strstr(data, "\n\"resource 1\"\t") != NULL,
	      "resource: X = 3 beside each bucket, the last repeated at its end; the next resource titled alone");
	CHECK(strstr(data, "exclusive-use: resource 0\"\t\"holders\"\t\"waiting\"\t\"limit\"\n0.000\t1\t5\t1\n") &&
	      strstr(data, "refresh: resource 0\"\t\"holders\"\t\"waiting\"\t\"limit\"\n0.000\t1\t5\tNaN\n"),
	      "exclusive use allows 1 holder; refresh draws no limit");
	CHECK_STR_EQ(c.layer, "1 2", "the panels with a limit: resource and exclusive use (%s)", c.layer);
	CHECK(c.ymax > 5 && c.xhi > 0.19, "the y range holds the most waiting (%g)", c.ymax);
	CHECK_EQ(write_chart(&set, CHART_GUARD_WAITS, dir, &c, data, sizeof(data)), 0, "the waits' data is written");
	gap = strstr(data, "\"\"\t\"\"\tNaN\tNaN\tNaN\tNaN\n");
	CHECK(strstr(data, "\"ticket-line\"\t\"resource\"\t2\t40\t80\t50\n"
			   "\"naive\"\t\"resource\"\tNaN\tNaN\tNaN\tNaN\n") != NULL &&
	      gap && strstr(gap, "\"row-lock\"\t\"exclusive-use\"") && strstr(gap + 1, "\"\"\t\"\"") &&
	      strstr(strstr(gap + 1, "\"\"\t\"\""), "\"advisory\"\t\"refresh\""),
	      "a row per case grouped by workload (its label without it), an empty row between groups, a wait of 0 "
	      "as NaN");
	CHECK(c.blocks == 4 && c.ylo == 1 && c.ymax == 160, "the log range reaches past the least and the most wait");
	chart_set_free(&set);
	chart_set_build(&set, runs + 3, 1);
	CHECK(!chart_wanted(&set, CHART_HOLDERS), "no run with a holders series: no holders chart");
	chart_set_free(&set);
	chart_set_build(&set, runs, 0);
	CHECK(!chart_wanted(&set, CHART_THROUGHPUT) && !chart_wanted(&set, CHART_GUARD_WAITS),
	      "a set of no run draws nothing (a report of guarded runs only has no queue charts)");
	chart_set_free(&set);
	run_params_free(&runs[0].run);
}

int main(void)
{
	static const char *const written[] = { "timeline", "backlog", "arrivals", "throughput", "shares", "latency",
					       "waits", "pressure", "buffers", "holders", "guard_waits",
					       "recovery" };
	char dir[] = "/tmp/claimbench-test-chart-XXXXXX";

	test_palette();
	test_strategy_colours();
	test_mode_colours();
	test_worker_shades();
	test_section_colours();
	test_clean_label();
	test_grouping();
	test_engines_apart();
	test_wanted();
	test_server_wanted();
	check_need(mkdtemp(dir) != NULL, "a temporary directory");
	test_timeline_distinct(dir);
	test_timeline_faults(dir);
	test_empty_backlog(dir);
	test_throughput_apart(dir);
	test_shares(dir);
	test_latency_pooled(dir);
	test_waits_data(dir);
	test_pressure_data(dir);
	test_buffers_data(dir);
	test_guarded_data(dir);
	for (size_t k = 0; k < sizeof(written) / sizeof(written[0]); k++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/%s.tsv", dir, written[k]);
		unlink(path);
	}
	rmdir(dir);
	return check_exit_status();
}
