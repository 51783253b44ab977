/*
 * The charts' data files of chart_data.h. Each is tab-separated text for a script in
 * scripts/charts/: blocks separated by two blank lines (gnuplot's `index`), each
 * opening with a header line whose first column, quoted, is the block's legend title.
 * An undefined figure is written as NaN, which gnuplot skips.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_data.h"
#include "model/faults.h"
#include "model/metric_table.h"

/* A strategy and its colour. */
struct strategy_colour {
	const char *name;	/* strategy name */
	const char *rgb;	/* "#rrggbb", from the Okabe-Ito palette, which colour-blind readers can tell apart */
};

static const struct strategy_colour palette[] = {
	{ "naive", "#d55e00" },
	{ "for-update", "#0072b2" },
	{ "nowait-backoff", "#e69f00" },
	{ "skip-locked", "#009e73" },
	{ "ticket", "#cc79a7" },
	{ "update-returning", "#56b4e9" },
};

/* The colour of a strategy palette does not name. */
#define FALLBACK_COLOUR "#666666"

/* How far each shade variant moves towards white (> 0) or black (< 0); variant 0 is the colour itself. */
static const double shade_mix[] = { 0, 0.45, -0.3, 0.7, -0.5 };

/* Every chart's file stem and heading, indexed by enum chart_kind. */
static const struct {
	const char *name;	/* file stem */
	const char *title;	/* heading */
} chart_names[CHART_COUNT] = {
	[CHART_THROUGHPUT] = { "throughput", "Throughput against workers" },
	[CHART_MAKESPAN] = { "makespan", "Makespan per strategy" },
	[CHART_SHARES] = { "shares", "Each worker's share of completed jobs" },
	[CHART_LATENCY] = { "latency", "Claim-latency percentiles" },
	[CHART_TIMELINE] = { "timeline", "Completions over time" },
	[CHART_INTEGRITY] = { "integrity", "Duplicates, overlaps and lost jobs" },
};

/* A figure over a case's repeats. */
struct figure_stats {
	double mean;	/* mean of the finite values; NaN when none */
	double min;	/* smallest finite value; NaN when none */
	double max;	/* largest finite value; NaN when none */
	int n;		/* finite values seen */
};

const char *chart_strategy_colour(const char *strategy)
{
	size_t i;

	for (i = 0; strategy && i < sizeof(palette) / sizeof(palette[0]); i++)
		if (strcmp(strategy, palette[i].name) == 0)
			return palette[i].rgb;
	return FALLBACK_COLOUR;
}

void chart_shade(const char *strategy, int variant, char *buf)
{
	const char *rgb = chart_strategy_colour(strategy);
	size_t n = sizeof(shade_mix) / sizeof(shade_mix[0]);
	double mix = shade_mix[variant < 0 ? 0 : (size_t)variant % n];
	unsigned int c[3], i;

	sscanf(rgb, "#%2x%2x%2x", &c[0], &c[1], &c[2]);
	for (i = 0; i < 3; i++)
		c[i] = (unsigned int)lround(mix >= 0 ? c[i] + (255 - c[i]) * mix : c[i] * (1 + mix));
	snprintf(buf, 8, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}

void chart_clean_label(char *buf, size_t size, const char *s)
{
	size_t i;

	if (!size)
		return;
	for (i = 0; s && s[i] && i + 1 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = c < 0x20 || c == 0x7f ? '?' : c == '"' ? '\'' : c == '\\' ? '/' : (char)c;
	}
	buf[i] = '\0';
}

/* s, or "" for NULL. */
static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* Whether run belongs to series s. */
static bool same_series(const struct chart_series *s, const struct run_result *run)
{
	return strcmp(s->strategy, or_empty(run->strategy)) == 0 && strcmp(s->mode, or_empty(run->claim_mode)) == 0 &&
	       strcmp(s->group, or_empty(run->group)) == 0 && strcmp(s->sweep, or_empty(run->sweep)) == 0;
}

/* Fills series s from run, its variant counted among the set's series so far. */
static void init_series(const struct chart_set *set, struct chart_series *s, const struct run_result *run)
{
	char label[CHART_LABEL * 2];
	size_t i;

	s->strategy = or_empty(run->strategy);
	s->mode = or_empty(run->claim_mode);
	s->group = or_empty(run->group);
	s->sweep = or_empty(run->sweep);
	snprintf(label, sizeof(label), "%s%s%s%s%s%s%s", s->strategy, *s->mode ? ":" : "", s->mode,
		 *s->group ? " [" : "", s->group, *s->group ? "]" : "", *s->sweep ? " " : "");
	snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s", s->sweep);
	chart_clean_label(s->label, sizeof(s->label), label);
	s->variant = 0;
	for (i = 0; i < set->n_series; i++)
		if (strcmp(set->series[i].strategy, s->strategy) == 0)
			s->variant++;
}

/* Orders cases by series, then by worker count. */
static int case_order(const void *a, const void *b)
{
	const struct chart_case *x = a, *y = b;

	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	return (x->workers > y->workers) - (x->workers < y->workers);
}

/* The index of the series of run, added when new. */
static size_t series_of(struct chart_set *set, const struct run_result *run)
{
	size_t i;

	for (i = 0; i < set->n_series; i++)
		if (same_series(&set->series[i], run))
			return i;
	init_series(set, &set->series[set->n_series], run);
	return set->n_series++;
}

/* Adds the case (series, workers) when new. */
static void add_case(struct chart_set *set, size_t series, int workers)
{
	size_t i;

	for (i = 0; i < set->n_cases; i++)
		if (set->cases[i].series == series && set->cases[i].workers == workers)
			return;
	set->cases[set->n_cases++] = (struct chart_case){ .series = series, .workers = workers };
}

/* Labels the sorted cases, counts their variants and maps each run to its case. */
static void finish_cases(struct chart_set *set, const size_t *series_of_run)
{
	struct chart_case *c;
	size_t i, j;

	for (i = 0; i < set->n_cases; i++) {
		c = &set->cases[i];
		snprintf(c->label, sizeof(c->label), "%.*s, %d wrk", CHART_LABEL - 16, set->series[c->series].label,
			 c->workers);
		for (j = 0; j < i; j++)
			if (strcmp(set->series[set->cases[j].series].strategy, set->series[c->series].strategy) == 0)
				c->variant++;
	}
	for (i = 0; i < set->n_runs; i++)
		for (j = 0; j < set->n_cases; j++)
			if (set->cases[j].series == series_of_run[i] && set->cases[j].workers == set->runs[i].run.workers)
				set->case_of[i] = j;
}

int chart_set_build(struct chart_set *set, const struct store_run *runs, size_t n)
{
	size_t *series_of_run = NULL, i;
	int ret = -1;

	memset(set, 0, sizeof(*set));
	set->runs = runs;
	set->n_runs = n;
	set->series = calloc(n ? n : 1, sizeof(*set->series));
	set->cases = calloc(n ? n : 1, sizeof(*set->cases));
	set->case_of = calloc(n ? n : 1, sizeof(*set->case_of));
	series_of_run = calloc(n ? n : 1, sizeof(*series_of_run));
	if (!set->series || !set->cases || !set->case_of || !series_of_run)
		goto out;
	for (i = 0; i < n; i++) {
		series_of_run[i] = series_of(set, &runs[i].run);
		add_case(set, series_of_run[i], runs[i].run.workers);
		if (!runs[i].run.n_series)
			set->runs_without_series++;
	}
	qsort(set->cases, set->n_cases, sizeof(*set->cases), case_order);
	finish_cases(set, series_of_run);
	ret = 0;
out:
	free(series_of_run);
	if (ret < 0)
		chart_set_free(set);
	return ret;
}

void chart_set_free(struct chart_set *set)
{
	free(set->series);
	free(set->cases);
	free(set->case_of);
	memset(set, 0, sizeof(*set));
}

/* The mean, min and max of the metric at path over the runs of case c; unknown values left out. */
static struct figure_stats case_stats(const struct chart_set *set, size_t c, const char *path)
{
	struct figure_stats st = { .mean = NAN, .min = NAN, .max = NAN };
	const struct metric *m = metric_find(path);
	double v, sum = 0;
	size_t i;

	for (i = 0; m && i < set->n_runs; i++) {
		if (set->case_of[i] != c)
			continue;
		v = metric_get(m, &set->runs[i].run.metrics);
		if (!isfinite(v))
			continue;
		sum += v;
		st.min = st.n && st.min < v ? st.min : v;
		st.max = st.n && st.max > v ? st.max : v;
		st.n++;
	}
	if (st.n)
		st.mean = sum / st.n;
	return st;
}

/* Prints v for gnuplot: NaN when not finite. */
static void put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else
		fputs("NaN", f);
}

/* Appends one block's colour (strategy at shade variant) and style to c. */
static void add_block(struct chart *c, const char *strategy, int variant)
{
	char rgb[8];
	size_t len;

	chart_shade(strategy, variant, rgb);
	len = strlen(c->colours);
	snprintf(c->colours + len, sizeof(c->colours) - len, "%s%s", c->blocks ? " " : "", rgb);
	len = strlen(c->styles);
	snprintf(c->styles + len, sizeof(c->styles) - len, "%s%d", c->blocks ? " " : "", variant);
	c->blocks++;
}

/* Starts a block with its title line: a blank-line pair before every block but the first. */
static void open_block(FILE *f, const struct chart *c, const char *title, const char *columns)
{
	fprintf(f, "%s\"%s\"\t%s\n", c->blocks ? "\n\n" : "", title, columns);
}

/* Throughput: a block per series, a row per worker count: workers, mean, min, max. */
static void write_throughput(const struct chart_set *set, FILE *f, struct chart *c)
{
	const struct chart_series *s;
	struct figure_stats st;
	size_t i, k;

	for (i = 0; i < set->n_series && c->blocks < CHART_MAX_BLOCKS; i++) {
		s = &set->series[i];
		open_block(f, c, s->label, "\"mean\"\t\"min\"\t\"max\"");
		for (k = 0; k < set->n_cases; k++) {
			if (set->cases[k].series != i)
				continue;
			st = case_stats(set, k, "throughput_jps");
			fprintf(f, "%d\t", set->cases[k].workers);
			put_num(f, st.mean);
			putc('\t', f);
			put_num(f, st.min);
			putc('\t', f);
			put_num(f, st.max);
			putc('\n', f);
		}
		add_block(c, s->strategy, s->variant);
	}
}

/*
 * Makespan: a block per series, a row per case: x position, mean, min, max, ideal,
 * tick label, repeats. Series are a position apart.
 */
static void write_makespan(const struct chart_set *set, FILE *f, struct chart *c)
{
	struct figure_stats st, ideal;
	size_t i, k, x = 0;

	for (i = 0; i < set->n_series && c->blocks < CHART_MAX_BLOCKS; i++) {
		open_block(f, c, set->series[i].label, "\"mean\"\t\"min\"\t\"max\"\t\"ideal\"\t\"tick\"\t\"repeats\"");
		for (k = 0; k < set->n_cases; k++) {
			if (set->cases[k].series != i)
				continue;
			st = case_stats(set, k, "makespan_s");
			ideal = case_stats(set, k, "ideal_s");
			fprintf(f, "%zu\t", x++);
			put_num(f, st.mean);
			putc('\t', f);
			put_num(f, st.min);
			putc('\t', f);
			put_num(f, st.max);
			putc('\t', f);
			put_num(f, ideal.mean);
			fprintf(f, "\t\"%d wrk\"\t%d\n", set->cases[k].workers, st.n);
		}
		x++;
		add_block(c, set->series[i].strategy, set->series[i].variant);
	}
}

/* Worker w's share of run's completed jobs, in percent; NaN when the run has no per-worker rows or completions. */
static double worker_share(const struct run_result *run, int w)
{
	uint64_t total = 0;
	int i;

	if (!run->per_worker || w >= run->workers)
		return NAN;
	for (i = 0; i < run->workers; i++)
		total += run->per_worker[i].completed;
	if (!total)
		return NAN;
	return 100.0 * (double)run->per_worker[w].completed / (double)total;
}

/* Worker w's share, in percent, averaged over case k's runs; NaN when none has it. */
static double case_share(const struct chart_set *set, size_t k, int w)
{
	double v, sum = 0;
	size_t i;
	int n = 0;

	for (i = 0; i < set->n_runs; i++) {
		if (set->case_of[i] != k)
			continue;
		v = worker_share(&set->runs[i].run, w);
		if (isfinite(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

/*
 * Shares: a block per series; per case a centre row (x, NaN, 0, fair share, tick label, 1)
 * then a row per worker (bar centre, share, bar width, fair share, "", 0).
 */
static void write_shares(const struct chart_set *set, FILE *f, struct chart *c)
{
	const struct chart_case *k;
	double width, fair;
	size_t i, j, x = 0;
	int w;

	for (i = 0; i < set->n_series && c->blocks < CHART_MAX_BLOCKS; i++) {
		open_block(f, c, set->series[i].label, "\"share\"\t\"width\"\t\"fair\"\t\"tick\"\t\"centre\"");
		for (j = 0; j < set->n_cases; j++) {
			k = &set->cases[j];
			if (k->series != i || k->workers < 1)
				continue;
			width = 0.8 / k->workers;
			fair = 100.0 / k->workers;
			fprintf(f, "%zu\tNaN\t0\t%.9g\t\"%d wrk\"\t1\n", x, fair, k->workers);
			for (w = 0; w < k->workers; w++) {
				fprintf(f, "%.9g\t", (double)x - 0.4 + width * (w + 0.5));
				put_num(f, case_share(set, j, w));
				fprintf(f, "\t%.9g\t%.9g\t\"\"\t0\n", width, fair);
			}
			x++;
		}
		x++;
		add_block(c, set->series[i].strategy, set->series[i].variant);
	}
}

/* Latency: a block per case, a row per percentile: position, mean over repeats (NaN unless > 0), name. */
static void write_latency(const struct chart_set *set, FILE *f, struct chart *c)
{
	static const struct {
		const char *name;	/* tick label */
		const char *path;	/* the percentile's metric */
	} pct[] = { { "p50", "claim_latency_ms.p50" }, { "p90", "claim_latency_ms.p90" },
		    { "p99", "claim_latency_ms.p99" }, { "p99.9", "claim_latency_ms.p999" },
		    { "max", "claim_latency_ms.max" } };
	struct figure_stats st;
	size_t k, p;

	for (k = 0; k < set->n_cases && c->blocks < CHART_MAX_BLOCKS; k++) {
		open_block(f, c, set->cases[k].label, "\"ms\"\t\"percentile\"");
		for (p = 0; p < sizeof(pct) / sizeof(pct[0]); p++) {
			st = case_stats(set, k, pct[p].path);
			fprintf(f, "%zu\t", p);
			put_num(f, st.mean > 0 ? st.mean : NAN);
			fprintf(f, "\t\"%s\"\n", pct[p].name);
		}
		add_block(c, set->series[set->cases[k].series].strategy, set->cases[k].variant);
	}
}

/* The first run of case k (by repetition number) that has a time series, or NULL. */
static const struct run_result *timeline_run(const struct chart_set *set, size_t k)
{
	const struct run_result *best = NULL, *run;
	size_t i;

	for (i = 0; i < set->n_runs; i++) {
		run = &set->runs[i].run;
		if (set->case_of[i] == k && run->n_series && (!best || run->repeat < best->repeat))
			best = run;
	}
	return best;
}

/*
 * The timeline's marks: one last block, after the cases', with a row per fault that
 * struck a case's timeline run: its instant (s), the case's colour as a number, its kind.
 * Written only when there is a fault, counted in c->marks.
 */
static void write_fault_marks(const struct chart_set *set, FILE *f, struct chart *c, size_t n_cases)
{
	const struct run_result *run;
	unsigned int rgb;
	char colour[8];
	bool opened = false;

	for (size_t k = 0; k < n_cases; k++) {
		run = timeline_run(set, k);
		for (size_t i = 0; run && i < run->n_faults; i++) {
			if (!opened)
				fprintf(f, "\n\n\"faults\"\t\"rgb\"\t\"kind\"\n");
			opened = true;
			chart_shade(set->series[set->cases[k].series].strategy, set->cases[k].variant, colour);
			sscanf(colour, "#%6x", &rgb);
			fprintf(f, "%.3f\t%u\t\"%s\"\n", (double)run->faults[i].at_ns / 1e9, rgb,
				fault_kind_name(run->faults[i].kind));
		}
	}
	c->marks = opened;
}

/*
 * Timeline: a block per case with a time series (its first repetition), a row per bucket:
 * its start (s), completions per second in it, completions before it; then a row at the
 * last bucket's end repeating its rate, with every completion. The faults' marks follow.
 */
static void write_timeline(const struct chart_set *set, FILE *f, struct chart *c)
{
	const struct run_result *run;
	const struct series_point *p;
	uint64_t total;
	int64_t width;
	double rate = 0;
	size_t k, i;

	for (k = 0; k < set->n_cases && c->blocks < CHART_MAX_BLOCKS; k++) {
		run = timeline_run(set, k);
		if (!run)
			continue;
		open_block(f, c, set->cases[k].label, "\"jobs_per_s\"\t\"completions\"");
		total = 0;
		width = 100;
		for (i = 0; i < run->n_series; i++) {
			p = &run->series[i];
			if (i + 1 < run->n_series && run->series[i + 1].t_ms > p->t_ms)
				width = run->series[i + 1].t_ms - p->t_ms;
			rate = (double)p->completed * 1000.0 / (double)width;
			fprintf(f, "%.3f\t%.9g\t%llu\n", p->t_ms / 1000.0, rate, (unsigned long long)total);
			total += p->completed;
		}
		fprintf(f, "%.3f\t%.9g\t%llu\n", (run->series[run->n_series - 1].t_ms + width) / 1000.0, rate,
			(unsigned long long)total);
		add_block(c, set->series[set->cases[k].series].strategy, set->cases[k].variant);
	}
	write_fault_marks(set, f, c, k);
}

/* Integrity: a header of case titles, then a row per figure: its name and each case's mean over repeats. */
static void write_integrity(const struct chart_set *set, FILE *f, struct chart *c)
{
	static const struct {
		const char *name;	/* cluster label */
		const char *path;	/* the count's metric */
	} figs[] = { { "duplicates", "duplicates" }, { "overlaps", "overlaps" }, { "lost", "lost" } };
	size_t k, i, n = set->n_cases < CHART_MAX_BLOCKS ? set->n_cases : CHART_MAX_BLOCKS;

	fputs("\"figure\"", f);
	for (k = 0; k < n; k++) {
		fprintf(f, "\t\"%s\"", set->cases[k].label);
		add_block(c, set->series[set->cases[k].series].strategy, set->cases[k].variant);
	}
	putc('\n', f);
	for (i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		fprintf(f, "\"%s\"", figs[i].name);
		for (k = 0; k < n; k++) {
			putc('\t', f);
			put_num(f, case_stats(set, k, figs[i].path).mean);
		}
		putc('\n', f);
	}
}

int chart_write(const struct chart_set *set, enum chart_kind kind, const char *dir, struct chart *c, char *err,
		size_t errlen)
{
	char path[4096];
	FILE *f;

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->name = chart_names[kind].name;
	c->title = chart_names[kind].title;
	if (snprintf(path, sizeof(path), "%s/%s.tsv", dir, c->name) >= (int)sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -1;
	}
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	switch (kind) {
	case CHART_THROUGHPUT:
		write_throughput(set, f, c);
		break;
	case CHART_MAKESPAN:
		write_makespan(set, f, c);
		break;
	case CHART_SHARES:
		write_shares(set, f, c);
		break;
	case CHART_LATENCY:
		write_latency(set, f, c);
		break;
	case CHART_TIMELINE:
		write_timeline(set, f, c);
		break;
	case CHART_INTEGRITY:
		write_integrity(set, f, c);
		break;
	case CHART_COUNT:
		break;
	}
	if (ferror(f) | (fclose(f) != 0)) {
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}
