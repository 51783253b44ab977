/*
 * The charts' data files of chart_data.h, one writer per chart of a case's figures; the
 * charts over time are chart_time.c's, those of the server's samples chart_server.c's, those
 * of guarded runs chart_guard.c's. The
 * file format is chart_block.h's.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_block.h"
#include "report/chart_data.h"
#include "report/chart_guard.h"
#include "report/chart_recovery.h"
#include "report/chart_server.h"
#include "report/chart_time.h"
#include "report/chart_wanted.h"
#include "report/out_dir.h"
#include "model/metric_table.h"

/* The height of a chart's image unless its writer sets another, in pixels. */
#define CHART_HEIGHT 540

/*
 * A key below the plot (common.gp, more than CHART_KEY_BESIDE entries): the width its
 * entries are laid out in, a character's width and an entry's sample, and a row's height,
 * in pixels; the entries a chart adds to its blocks' (the ideal, a ceiling, a rate asked).
 */
#define KEY_WIDTH 900
#define KEY_CHAR_WIDTH 7
#define KEY_SAMPLE_WIDTH 50
#define KEY_ROW_HEIGHT 18
#define KEY_EXTRA_ENTRIES 4

/* The x axis of strategies' names reaches this far beyond the first and the last. */
#define NAMES_AXIS_MARGIN 0.6

/* Workers go on a log scale when the most is at least this many times the fewest. */
#define LOG_WORKERS_RATIO 8

/* Room above the highest value, as a fraction of it, for the labels and the key. */
#define Y_HEADROOM 0.2

/* Room above the highest bar of clustered counts, whose values stand on them upright. */
#define COUNTS_HEADROOM 0.4

/*
 * The worker axis' margins: a log axis reaches this factor beyond the fewest and the most
 * workers; a linear one this fraction of its span beyond them, at least the minimum.
 */
#define LOG_AXIS_MARGIN 1.5
#define LINEAR_AXIS_MARGIN 0.08
#define LINEAR_AXIS_MIN_PAD 0.6

/* A log y axis reaches this factor below the least and beyond the most. */
#define LOG_Y_MARGIN 2

/* The width of a cluster of bars, one position being 1. */
#define CLUSTER_WIDTH 0.8

/* The shares' y range reaches at least this many fair shares. */
#define SHARES_MIN_TOP 1.5

/*
 * How far apart the throughput's series sit at one worker count, so that equal values stay
 * apart: in octaves on a log axis, in fractions of the axis on a linear one; and the most
 * all of them may spread over.
 */
#define NUDGE_OCTAVES 0.07
#define NUDGE_OCTAVES_SPAN 0.5
#define NUDGE_LINEAR 0.02
#define NUDGE_LINEAR_SPAN 0.1

/* Every chart's file stem and heading, indexed by enum chart_kind. */
static const struct {
	const char *name;	/* file stem */
	const char *title;	/* heading */
} chart_names[CHART_COUNT] = {
	[CHART_THROUGHPUT] = { "throughput", "Throughput against workers" },
	[CHART_MAKESPAN] = { "makespan", "Makespan per strategy" },
	[CHART_SHARES] = { "shares", "Each worker's share of completed jobs" },
	[CHART_LATENCY] = { "latency", "Claim-latency percentiles" },
	[CHART_QUEUE_WAIT] = { "queue_wait", "Queue-wait percentiles" },
	[CHART_TIMELINE] = { "timeline", "Completions over time" },
	[CHART_BACKLOG] = { "backlog", "Backlog over time" },
	[CHART_ARRIVALS] = { "arrivals", "Arrivals over time" },
	[CHART_EMPTIES] = { "empties", "Empty and spurious empty claims" },
	[CHART_INTEGRITY] = { "integrity", "Race duplicates, overlaps and lost jobs" },
	[CHART_RECOVERY] = { "recovery", "Time to recover from faults" },
	[CHART_WAITS] = { "waits", "Where the workers' server backends were, sampled" },
	[CHART_PRESSURE] = { "pressure", "Throughput and dead tuples over time, the pressure phases marked" },
	[CHART_BUFFERS] = { "buffers", "Blocks per claim and the head lookup's buffers" },
	[CHART_HOLDERS] = { "holders", "Guarded resources: holders and waiters over time" },
	[CHART_GUARD_WAITS] = { "guard_waits", "Guarded resources: wait for a grant" },
};

/* A percentile a chart of percentiles draws. */
struct percentile {
	const char *name;	/* tick label */
	const char *suffix;	/* the metric's path after the duration's: ".p50" */
	double p;		/* the percentile, for a histogram; 100 for the max */
};

static const struct percentile percentiles[] = {
	{ "p50", ".p50", 50 }, { "p90", ".p90", 90 }, { "p99", ".p99", 99 }, { "p99.9", ".p999", 99.9 },
	{ "max", ".max", 100 },
};

/* A count a chart of clustered bars draws. */
struct count_figure {
	const char *name;	/* cluster label */
	const char *path;	/* the count's metric */
};

static const struct count_figure integrity_figures[] = {
	{ "race duplicates", "race_duplicates" }, { "overlaps", "overlaps" }, { "lost", "lost" },
};

static const struct count_figure empties_figures[] = {
	{ "empty claims", "empty_claims" }, { "spurious empties", "spurious_empties" },
};

/* The jobs/s one worker of run can complete at most, 1000 / work_ms; 0 when the work time is 0. */
static double worker_ceiling(const struct run_result *run)
{
	return run->work_ms > 0 ? 1000.0 / run->work_ms : 0;
}

/* Whether a case before k has k's worker count. */
static bool workers_seen(const struct chart_set *set, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (set->cases[j].workers == set->cases[k].workers)
			return true;
	return false;
}

/* Sets c's worker axis from the cases' counts: its tics, log or linear, and its range. The fewest workers. */
static int worker_axis(const struct chart_set *set, struct chart *c)
{
	int lo = 0, hi = 0;
	double pad;
	size_t len;

	for (size_t k = 0; k < set->n_cases; k++) {
		lo = !k || set->cases[k].workers < lo ? set->cases[k].workers : lo;
		hi = !k || set->cases[k].workers > hi ? set->cases[k].workers : hi;
		if (workers_seen(set, k))
			continue;
		len = strlen(c->ticks);
		snprintf(c->ticks + len, sizeof(c->ticks) - len, "%s%d", len ? " " : "", set->cases[k].workers);
	}
	c->log_x = lo >= 1 && hi >= LOG_WORKERS_RATIO * lo;
	if (c->log_x) {
		c->xlo = lo / LOG_AXIS_MARGIN;
		c->xhi = hi * LOG_AXIS_MARGIN;
		return lo;
	}
	pad = LINEAR_AXIS_MARGIN * (hi - lo);
	pad = pad > LINEAR_AXIS_MIN_PAD ? pad : LINEAR_AXIS_MIN_PAD;
	c->xlo = lo - pad;
	c->xhi = hi + pad;
	return lo;
}

/* Where series i of n sits at workers w: nudged sideways from the others. */
static double nudged_x(const struct chart *c, int w, size_t i, size_t n)
{
	double step = c->log_x ? NUDGE_OCTAVES : NUDGE_LINEAR;
	double span = c->log_x ? NUDGE_OCTAVES_SPAN : NUDGE_LINEAR_SPAN;
	double offset;

	if (n > 1 && step * (double)(n - 1) > span)
		step = span / (double)(n - 1);
	offset = ((double)i - (double)(n - 1) / 2.0) * step;
	return c->log_x ? w * pow(2, offset) : w + offset * (c->xhi - c->xlo);
}

/* Writes case k's tick label, a tab before it: its workers, or its series' label when every case ran at one count. */
static void put_tick(FILE *f, const struct chart_set *set, size_t k)
{
	if (set->workers)
		fprintf(f, "\t\"%s\"", set->series[set->cases[k].series].label);
	else
		fprintf(f, "\t\"%d\"", set->cases[k].workers);
}

/* Sets c->ceiling: the common per-worker ceiling, -1 when the runs' work times differ, 0 when none. */
static void common_ceiling(const struct chart_set *set, struct chart *c)
{
	double first = worker_ceiling(&set->runs[0].run);

	c->ceiling = first;
	for (size_t i = 1; i < set->n_runs; i++)
		if (worker_ceiling(&set->runs[i].run) != first)
			c->ceiling = -1;
}

/* The mean per-worker ceiling of case k's runs times its workers; NaN when the work time is 0. */
static double case_ceiling(const struct chart_set *set, size_t k)
{
	double sum = 0;
	int n = 0;

	for (size_t i = 0; i < set->n_runs; i++) {
		if (set->case_of[i] == k) {
			sum += worker_ceiling(&set->runs[i].run);
			n++;
		}
	}
	return n && sum > 0 ? set->cases[k].workers * sum / n : NAN;
}

/* Sets c->arrival_rate to the rate every run asked for, 0 when none or they differ. */
static void common_arrival_rate(const struct chart_set *set, struct chart *c)
{
	c->arrival_rate = set->runs[0].run.arrival_rate;
	for (size_t i = 1; i < set->n_runs; i++)
		if (set->runs[i].run.arrival_rate != c->arrival_rate)
			c->arrival_rate = 0;
}

/*
 * Throughput: a block per series, a row per worker count: x (the workers, nudged apart
 * from the other series), mean, min, max, the ceiling (workers / work time), workers, ""
 * as the tick. At one worker count (set->workers), x is the series' place from 0 and the
 * tick its label: the axis names the strategies. When the runs' work times differ, the
 * series with a ceiling form the layer of ceiling marks.
 */
static void write_throughput(const struct chart_set *set, FILE *f, struct chart *c)
{
	const struct chart_series *s;
	struct figure_stats st;
	double top = 0, lowest, ceiling;
	bool own_ceiling;
	size_t i, k, n = set->n_series < CHART_MAX_BLOCKS ? set->n_series : CHART_MAX_BLOCKS;
	int fewest;

	if (!set->n_runs)
		return;
	fewest = worker_axis(set, c);
	common_ceiling(set, c);
	common_arrival_rate(set, c);
	for (i = 0; i < n; i++) {
		s = &set->series[i];
		chart_open_block(f, c, s->label, "\"mean\"\t\"min\"\t\"max\"\t\"ceiling\"\t\"workers\"\t\"tick\"");
		own_ceiling = false;
		for (k = 0; k < set->n_cases; k++) {
			if (set->cases[k].series != i)
				continue;
			st = chart_case_stats(set, k, "throughput_jps");
			fprintf(f, "%.9g\t", set->workers ? (double)i : nudged_x(c, set->cases[k].workers, i, n));
			chart_put_num(f, st.mean);
			putc('\t', f);
			chart_put_num(f, st.min);
			putc('\t', f);
			chart_put_num(f, st.max);
			putc('\t', f);
			ceiling = case_ceiling(set, k);
			own_ceiling |= c->ceiling < 0 && isfinite(ceiling);
			chart_put_num(f, ceiling);
			fprintf(f, "\t%d\t\"%s\"\n", set->cases[k].workers, set->workers ? s->label : "");
			top = isfinite(st.max) && st.max > top ? st.max : top;
		}
		if (own_ceiling)
			chart_add_layer_block(c);
		chart_add_block(c, s->colour, s->variant);
	}
	if (set->workers) {
		c->xlo = -NAMES_AXIS_MARGIN;
		c->xhi = (double)n - 1 + NAMES_AXIS_MARGIN;
		c->log_x = false;
	}
	top = c->arrival_rate > top ? c->arrival_rate : top;
	lowest = c->ceiling > 0 ? c->ceiling * fewest : 0;
	top = lowest > top ? lowest : top;
	c->ymax = top > 0 ? top * (1 + Y_HEADROOM) : 1;
}

/*
 * Makespan: a block per series with a drain case, a row per drain case: x position, mean,
 * min, max, ideal, tick label (the workers, or the series' label when every case ran at one
 * count), repeats. Series are a position apart; those
 * with a repeated case form the layer of min-max bars.
 */
static void write_makespan(const struct chart_set *set, FILE *f, struct chart *c)
{
	struct figure_stats st, ideal;
	double top = 0;
	size_t i, k, x = 0;
	bool opened, repeated;

	for (i = 0; i < set->n_series && c->blocks < CHART_MAX_BLOCKS; i++) {
		opened = repeated = false;
		for (k = 0; k < set->n_cases; k++) {
			if (set->cases[k].series != i || set->cases[k].timed)
				continue;
			if (!opened)
				chart_open_block(f, c, set->series[i].label,
						 "\"mean\"\t\"min\"\t\"max\"\t\"ideal\"\t\"tick\"\t\"repeats\"");
			opened = true;
			st = chart_case_stats(set, k, "makespan_s");
			ideal = chart_case_stats(set, k, "ideal_s");
			fprintf(f, "%zu\t", x++);
			chart_put_num(f, st.mean);
			putc('\t', f);
			chart_put_num(f, st.min);
			putc('\t', f);
			chart_put_num(f, st.max);
			putc('\t', f);
			chart_put_num(f, ideal.mean);
			put_tick(f, set, k);
			fprintf(f, "\t%d\n", st.n);
			repeated |= st.n > 1;
			top = isfinite(st.max) && st.max > top ? st.max : top;
			top = isfinite(ideal.mean) && ideal.mean > top ? ideal.mean : top;
		}
		if (!opened)
			continue;
		x++;
		if (repeated)
			chart_add_layer_block(c);
		chart_add_block(c, set->series[i].colour, set->series[i].variant);
	}
	c->ymax = top > 0 ? top * (1 + Y_HEADROOM) : 1;
}

/* Orders doubles from the largest down. */
static int descending(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/*
 * Adds to sum[] run's workers' shares as multiples of a fair share (completed * workers /
 * total), largest first. false when the run has no per-worker rows or no completion.
 */
static bool add_ranked_shares(const struct run_result *run, double *sum, double *scratch)
{
	uint64_t total = 0;
	int w;

	if (!run->per_worker || run->workers < 1)
		return false;
	for (w = 0; w < run->workers; w++)
		total += run->per_worker[w].completed;
	if (!total)
		return false;
	for (w = 0; w < run->workers; w++)
		scratch[w] = (double)run->per_worker[w].completed * run->workers / (double)total;
	qsort(scratch, (size_t)run->workers, sizeof(*scratch), descending);
	for (w = 0; w < run->workers; w++)
		sum[w] += scratch[w];
	return true;
}

/*
 * Writes case k's cluster at x: a row per worker, largest share first (bar centre, share in
 * fair shares averaged by rank over the repeats, bar width, ""), then a tick row (x, 0, 0,
 * workers, or the series' label when every case ran at one count: a bar of no size, last
 * so that no worker's empty label replaces it). The largest share in *top. 0, or -1 when
 * out of memory.
 */
static int write_share_cluster(const struct chart_set *set, FILE *f, size_t k, size_t x, double *top)
{
	const struct chart_case *kc = &set->cases[k];
	double *sum = calloc((size_t)kc->workers, sizeof(*sum)), *scratch = calloc((size_t)kc->workers, sizeof(*scratch));
	double width = CLUSTER_WIDTH / kc->workers, v;
	int w, n = 0, ret = -1;

	if (!sum || !scratch)
		goto out;
	for (size_t i = 0; i < set->n_runs; i++)
		if (set->case_of[i] == k && set->runs[i].run.workers == kc->workers)
			n += add_ranked_shares(&set->runs[i].run, sum, scratch);
	for (w = 0; w < kc->workers; w++) {
		v = n ? sum[w] / n : NAN;
		fprintf(f, "%.9g\t", (double)x - CLUSTER_WIDTH / 2 + width * (w + 0.5));
		chart_put_num(f, v);
		fprintf(f, "\t%.9g\t\"\"\n", width);
		*top = isfinite(v) && v > *top ? v : *top;
	}
	fprintf(f, "%zu\t0\t0", x);
	put_tick(f, set, k);
	putc('\n', f);
	ret = 0;
out:
	free(sum);
	free(scratch);
	return ret;
}

/*
 * Shares: a block per series, per case a cluster of bars (write_share_cluster), clusters a
 * position apart. 0, or -1 when out of memory.
 */
static int write_shares(const struct chart_set *set, FILE *f, struct chart *c)
{
	double top = 0;
	size_t i, j, x = 0;

	for (i = 0; i < set->n_series && c->blocks < CHART_MAX_BLOCKS; i++) {
		chart_open_block(f, c, set->series[i].label, "\"share\"\t\"width\"\t\"tick\"");
		for (j = 0; j < set->n_cases; j++) {
			if (set->cases[j].series != i || set->cases[j].workers < 1)
				continue;
			if (write_share_cluster(set, f, j, x++, &top) < 0)
				return -1;
		}
		x++;
		chart_add_block(c, set->series[i].colour, set->series[i].variant);
	}
	top *= 1 + Y_HEADROOM;
	c->ymax = top > SHARES_MIN_TOP ? top : SHARES_MIN_TOP;
	return 0;
}

/* The claim-latency histograms of case k's runs merged into h; false when a run has none stored. */
static bool merged_latency(const struct chart_set *set, size_t k, struct histogram *h)
{
	hist_init(h);
	for (size_t i = 0; i < set->n_runs; i++) {
		if (set->case_of[i] != k)
			continue;
		if (!set->runs[i].claim_latency)
			return false;
		hist_merge(h, set->runs[i].claim_latency);
	}
	return h->count > 0;
}

/*
 * Latency and queue wait: a block per case (open-loop cases only for the queue wait), a
 * row per percentile: position, ms (NaN unless > 0), name. A claim latency of repeats
 * comes from their histograms merged when the store holds them; otherwise, and for the
 * queue wait, it is the mean of the repeats' percentiles; c->pooling says which.
 */
static int write_percentiles(const struct chart_set *set, FILE *f, struct chart *c, const char *duration)
{
	struct histogram *h = malloc(sizeof(*h));
	char path[64];
	bool pooled, repeated = false, all_pooled = true;
	double v, lo = INFINITY, hi = 0;
	size_t k, p;

	if (!h)
		return -1;
	for (k = 0; k < set->n_cases && c->blocks < CHART_MAX_BLOCKS; k++) {
		if (c->kind == CHART_QUEUE_WAIT && !set->cases[k].open_loop)
			continue;
		pooled = c->kind == CHART_LATENCY && merged_latency(set, k, h);
		repeated |= set->cases[k].repeats > 1;
		all_pooled &= pooled || set->cases[k].repeats < 2;
		chart_open_block(f, c, set->cases[k].label, "\"ms\"\t\"percentile\"");
		for (p = 0; p < sizeof(percentiles) / sizeof(percentiles[0]); p++) {
			snprintf(path, sizeof(path), "%s%s", duration, percentiles[p].suffix);
			if (pooled && percentiles[p].p < 100)
				v = (double)hist_percentile(h, percentiles[p].p) / 1e6;
			else if (pooled)
				v = chart_case_stats(set, k, path).max;
			else
				v = chart_case_stats(set, k, path).mean;
			fprintf(f, "%zu\t", p);
			chart_put_num(f, v > 0 ? v : NAN);
			fprintf(f, "\t\"%s\"\n", percentiles[p].name);
			lo = v > 0 && v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		chart_add_case_block(set, c, k);
	}
	c->pooling = !repeated ? POOL_SINGLE : all_pooled ? POOL_HISTOGRAMS : POOL_MEAN;
	if (hi > 0) {
		c->ylo = lo / LOG_Y_MARGIN;
		c->ymax = hi * LOG_Y_MARGIN;
	}
	free(h);
	return 0;
}

/* Clustered counts: a header of case titles, then a row per figure: its name and each case's mean over repeats. */
static void write_counts(const struct chart_set *set, FILE *f, struct chart *c, const struct count_figure *figs,
			 size_t n_figs)
{
	size_t k, i, n = set->n_cases < CHART_MAX_BLOCKS ? set->n_cases : CHART_MAX_BLOCKS;
	double v, top = 0;

	fputs("\"figure\"", f);
	for (k = 0; k < n; k++) {
		fprintf(f, "\t\"%s\"", set->cases[k].label);
		chart_add_case_block(set, c, k);
	}
	putc('\n', f);
	for (i = 0; i < n_figs; i++) {
		fprintf(f, "\"%s\"", figs[i].name);
		for (k = 0; k < n; k++) {
			v = chart_case_stats(set, k, figs[i].path).mean;
			putc('\t', f);
			chart_put_num(f, v);
			top = isfinite(v) && v > top ? v : top;
		}
		putc('\n', f);
	}
	c->ymax = top > 0 ? top * (1 + COUNTS_HEADROOM) : 1;
}

/* Writes chart c's data into f. 0, or -1 when out of memory. */
static int write_data(const struct chart_set *set, FILE *f, struct chart *c)
{
	switch (c->kind) {
	case CHART_THROUGHPUT:
		write_throughput(set, f, c);
		break;
	case CHART_MAKESPAN:
		write_makespan(set, f, c);
		break;
	case CHART_SHARES:
		return write_shares(set, f, c);
	case CHART_LATENCY:
		return write_percentiles(set, f, c, "claim_latency_ms");
	case CHART_QUEUE_WAIT:
		return write_percentiles(set, f, c, "queue_wait_ms");
	case CHART_TIMELINE:
	case CHART_BACKLOG:
	case CHART_ARRIVALS:
		chart_write_time(set, f, c);
		break;
	case CHART_EMPTIES:
		write_counts(set, f, c, empties_figures, sizeof(empties_figures) / sizeof(empties_figures[0]));
		break;
	case CHART_INTEGRITY:
		write_counts(set, f, c, integrity_figures, sizeof(integrity_figures) / sizeof(integrity_figures[0]));
		break;
	case CHART_RECOVERY:
		chart_write_recovery(set, f, c);
		break;
	case CHART_WAITS:
	case CHART_PRESSURE:
	case CHART_BUFFERS:
		chart_write_server(set, f, c);
		break;
	case CHART_HOLDERS:
	case CHART_GUARD_WAITS:
		chart_write_guarded(set, f, c);
		break;
	case CHART_COUNT:
		break;
	}
	return 0;
}

/*
 * Whether chart kind draws a key of an entry per block below the plot beyond
 * CHART_KEY_BESIDE (common.gp's, or the buffers' under both its panels); the others draw
 * keys of their own.
 */
static bool common_key(enum chart_kind kind)
{
	return kind != CHART_TIMELINE && kind != CHART_PRESSURE && kind != CHART_HOLDERS && kind != CHART_RECOVERY &&
	       kind != CHART_WAITS;
}

/*
 * The height in pixels a key of c's blocks takes below the plot: 0 when it stands beside it
 * or when the strategies' names are on the x axis instead (the throughput's, makespan's and
 * shares' at one worker count).
 */
static int key_height(const struct chart_set *set, const struct chart *c)
{
	size_t longest = 1, cols, entries = c->blocks + KEY_EXTRA_ENTRIES;

	if (c->blocks <= CHART_KEY_BESIDE || !common_key(c->kind) ||
	    (set->workers && (c->kind == CHART_MAKESPAN || c->kind == CHART_SHARES || c->kind == CHART_THROUGHPUT)))
		return 0;
	for (size_t k = 0; k < set->n_cases; k++)
		longest = strlen(set->cases[k].label) > longest ? strlen(set->cases[k].label) : longest;
	cols = KEY_WIDTH / (longest * KEY_CHAR_WIDTH + KEY_SAMPLE_WIDTH);
	cols = cols ? cols : 1;
	return (int)((entries + cols - 1) / cols + 1) * KEY_ROW_HEIGHT;
}

void chart_part_stem(char *buf, size_t size, const char *section)
{
	size_t i;

	for (i = 0; section[i] && i + 1 < size; i++) {
		char c = section[i];
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			    c == '_';

		buf[i] = keep ? c : '_';
	}
	buf[i] = '\0';
	if (!i)
		snprintf(buf, size, "%s", CHART_NO_SECTION_STEM);
}

int chart_write(const struct chart_set *set, enum chart_kind kind, const struct out_dir *dir, struct chart *c, char *err,
		size_t errlen)
{
	return chart_write_part(set, kind, "", "", dir, c, err, errlen);
}

int chart_write_part(const struct chart_set *set, enum chart_kind kind, const char *section, const char *part,
		     const struct out_dir *dir, struct chart *c, char *err, size_t errlen)
{
	char path[4096], name[256];
	FILE *f;
	int rc;

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->script = chart_names[kind].name;
	snprintf(c->name, sizeof(c->name), "%s%s%s", c->script, *part ? "-" : "", part);
	snprintf(c->part, sizeof(c->part), "%s", part);
	chart_clean_label(c->section, sizeof(c->section), section);
	c->title = chart_names[kind].title;
	c->height = CHART_HEIGHT;
	snprintf(name, sizeof(name), "%s.tsv", c->name);
	snprintf(path, sizeof(path), "%s/%s", dir->path, name);
	f = out_dir_fopen(dir, name, err, errlen);
	if (!f)
		return -1;
	c->workers = set->workers;
	c->repeats = chart_repeats_of(set);
	c->engines = set->engines;
	rc = chart_wanted(set, kind) ? write_data(set, f, c) : 0;
	c->height += key_height(set, c);
	if (ferror(f) | (fclose(f) != 0) || rc < 0) {
		snprintf(err, errlen, rc < 0 ? "out of memory writing %s" : "cannot write %s", path);
		return -1;
	}
	return 0;
}
