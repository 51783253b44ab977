/*
 * The runs of a report grouped into series and cases (chart_data.h), the strategies'
 * colours, and which charts the runs call for.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_block.h"
#include "model/metric_table.h"

/* A strategy and its colour. */
struct strategy_colour {
	const char *name;	/* strategy name */
	const char *rgb;	/* "#rrggbb": the Okabe-Ito palette, then Paul Tol's darker ones and black, which
				   colour-blind readers can tell apart */
};

static const struct strategy_colour palette[] = {
	{ "naive", "#d55e00" },
	{ "for-update", "#0072b2" },
	{ "nowait-backoff", "#e69f00" },
	{ "skip-locked", "#009e73" },
	{ "ticket", "#cc79a7" },
	{ "update-returning", "#56b4e9" },
	{ "advisory", "#332288" },
	{ "cas", "#882255" },
	{ "delete-returning", "#999933" },
	{ "move-table", "#000000" },
};

/* The colour of a strategy palette does not name. */
#define FALLBACK_COLOUR "#666666"

/* How far each shade variant moves towards white (> 0) or black (< 0); variant 0 is the colour itself. */
static const double shade_mix[] = { 0, 0.45, -0.3, 0.7, -0.5 };

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

/* Labels the sorted cases, counts their variants, maps each run to its case and counts its repeats and kinds. */
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
	for (i = 0; i < set->n_runs; i++) {
		const struct run_result *run = &set->runs[i].run;

		for (j = 0; j < set->n_cases; j++)
			if (set->cases[j].series == series_of_run[i] && set->cases[j].workers == run->workers)
				set->case_of[i] = j;
		c = &set->cases[set->case_of[i]];
		c->repeats++;
		c->timed |= run->duration_s > 0;
		c->open_loop |= run->arrival_rate > 0;
	}
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

/*
 * Whether a run of set that sampled the server has what chart kind draws: wait shares, dead
 * tuples or the -wal file beside a time series, blocks per claim or head lookup buffers.
 */
static bool any_sampled(const struct chart_set *set, enum chart_kind kind)
{
	for (size_t i = 0; i < set->n_runs; i++) {
		const struct run_result *run = &set->runs[i].run;
		const struct server_figures *f = &run->metrics.server;

		if (!run->n_samples)
			continue;
		if (kind == CHART_WAITS && isfinite(f->wait_pct[WAIT_CPU]))
			return true;
		if (kind == CHART_PRESSURE && chart_pressure_drawable(run))
			return true;
		if (kind == CHART_BUFFERS &&
		    (isfinite(f->blocks_per_claim_start) || isfinite(f->blocks_per_claim_end) ||
		     f->head_buffers_before != METRIC_UNKNOWN || f->head_buffers_after != METRIC_UNKNOWN))
			return true;
	}
	return false;
}

bool chart_wanted(const struct chart_set *set, enum chart_kind kind)
{
	bool drain = false, open_loop = false, holders = false;

	if (!set->n_runs)
		return false;
	for (size_t i = 0; i < set->n_runs; i++)
		holders |= set->runs[i].run.n_holders > 0;
	for (size_t k = 0; k < set->n_cases; k++) {
		drain |= !set->cases[k].timed;
		open_loop |= set->cases[k].open_loop;
	}
	switch (kind) {
	case CHART_WAITS:
	case CHART_PRESSURE:
	case CHART_BUFFERS:
		return any_sampled(set, kind);
	case CHART_MAKESPAN:
		return drain;
	case CHART_QUEUE_WAIT:
	case CHART_BACKLOG:
	case CHART_ARRIVALS:
		return open_loop;
	case CHART_HOLDERS:
		return holders;
	default:
		return kind < CHART_COUNT;
	}
}
