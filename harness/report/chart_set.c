/* The runs of a report grouped into series and cases (chart_set.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "report/chart_set.h"
#include "plugin/guard.h"
#include "plugin/strategy.h"

/* Shades a strategy's claim mode keeps apart from its other modes' (hold, flip) before a repeat's. */
#define SHADES_PER_MODE 2

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
	       strcmp(s->group, or_empty(run->group)) == 0 && strcmp(s->sweep, or_empty(run->sweep)) == 0 &&
	       strcmp(s->engine, run->engine) == 0;
}

/* Whether a run of claim mode mode is a guarded run's: its mode column names its workload. */
static bool guarded_mode(const char *mode)
{
	for (int w = WORKLOAD_QUEUE + 1; w < WORKLOAD_COUNT; w++)
		if (strcmp(mode, workload_names[w]) == 0)
			return true;
	return false;
}

/* The colour number of series s (chart_series.colour), the set's series before it numbered. */
static size_t colour_of(const struct chart_set *set, const struct chart_series *s)
{
	size_t unlisted = strategy_registry_len + guard_registry_len, next = unlisted;
	const struct strategy_ops *st = guarded_mode(s->mode) ? NULL : strategy_find(s->strategy);
	const struct guard_ops *g = guarded_mode(s->mode) ? guard_find(s->strategy) : NULL;

	if (st)
		return strategy_index(st);
	if (g)
		return strategy_registry_len + guard_index(g);
	for (size_t i = 0; i < set->n_series; i++) {
		if (set->series[i].colour < unlisted)
			continue;
		if (strcmp(set->series[i].strategy, s->strategy) == 0)
			return set->series[i].colour;
		next = set->series[i].colour >= next ? set->series[i].colour + 1 : next;
	}
	return next;
}

/*
 * The shade of series i's claim mode: 0 (its strategy's colour) unless the set also runs its
 * strategy in another mode, then 0 for hold (for the first mode the set runs the strategy
 * in when it runs none in hold) and 1 (darker) for the other.
 */
static int mode_shade(const struct chart_set *set, size_t i)
{
	const struct chart_series *s = &set->series[i];
	const char *base = NULL;

	for (size_t j = 0; j < set->n_series; j++) {
		const struct chart_series *o = &set->series[j];

		if (strcmp(o->strategy, s->strategy) != 0)
			continue;
		if (!base || strcmp(o->mode, claim_mode_names[MODE_HOLD]) == 0)
			base = o->mode;
	}
	return strcmp(s->mode, base) != 0;
}

/*
 * Sets each series' shade (chart_series.variant): its mode's (mode_shade; with whole, that
 * of the first series of its strategy and mode in whole, so that it looks alike in every
 * part of whole), then SHADES_PER_MODE more for each series of the same strategy and mode
 * before it (another section or sweep point), which change its dash and marker, not its colour.
 */
static void set_variants(struct chart_set *set, const struct chart_set *whole)
{
	for (size_t i = 0; i < set->n_series; i++) {
		struct chart_series *s = &set->series[i];
		int repeats = 0;

		s->variant = mode_shade(set, i);
		for (size_t j = 0; whole && j < whole->n_series; j++)
			if (strcmp(whole->series[j].strategy, s->strategy) == 0 &&
			    strcmp(whole->series[j].mode, s->mode) == 0) {
				s->variant = whole->series[j].variant;
				break;
			}
		for (size_t j = 0; j < i; j++)
			repeats += strcmp(set->series[j].strategy, s->strategy) == 0 &&
				   strcmp(set->series[j].mode, s->mode) == 0;
		s->variant += SHADES_PER_MODE * repeats;
	}
}

/*
 * Labels series s: "strategy:mode", then " [group]" (when with_group and set) and " sweep"
 * when set, then " (engine)" when with_engine.
 */
static void label_series(struct chart_series *s, bool with_group, bool with_engine)
{
	char label[CHART_LABEL * 2];
	bool g = with_group && *s->group;

	snprintf(label, sizeof(label), "%s%s%s%s%s%s%s", s->strategy, *s->mode ? ":" : "", s->mode, g ? " [" : "",
		 g ? s->group : "", g ? "]" : "", *s->sweep ? " " : "");
	snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s", s->sweep);
	if (with_engine)
		snprintf(label + strlen(label), sizeof(label) - strlen(label), " (%s)", *s->engine ? s->engine : "?");
	chart_clean_label(s->label, sizeof(s->label), label);
}

/*
 * Fills series s from run: its colour counted among set's series so far (colour_of); with
 * whole, the colour of the first series of its strategy and mode in whole, so that a
 * strategy and mode look alike in every part of whole. Its shade is set once every series
 * is known (set_variants).
 */
static void init_series(const struct chart_set *set, const struct chart_set *whole, struct chart_series *s,
			const struct run_result *run)
{
	s->strategy = or_empty(run->strategy);
	s->mode = or_empty(run->claim_mode);
	s->group = or_empty(run->group);
	s->sweep = or_empty(run->sweep);
	s->engine = run->engine;
	label_series(s, true, set->engines);
	s->colour = colour_of(set, s);
	for (size_t i = 0; whole && i < whole->n_series; i++) {
		const struct chart_series *w = &whole->series[i];

		if (strcmp(w->strategy, s->strategy) == 0 && strcmp(w->mode, s->mode) == 0) {
			s->colour = w->colour;
			return;
		}
	}
}

/* Orders cases by series, then by worker count. */
static int case_order(const void *a, const void *b)
{
	const struct chart_case *x = a, *y = b;

	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	return (x->workers > y->workers) - (x->workers < y->workers);
}

/* The index of the series of run, added when new (its colour and shade from whole when given). */
static size_t series_of(struct chart_set *set, const struct chart_set *whole, const struct run_result *run)
{
	size_t i;

	for (i = 0; i < set->n_series; i++)
		if (same_series(&set->series[i], run))
			return i;
	init_series(set, whole, &set->series[set->n_series], run);
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

	set->workers = set->n_cases ? set->cases[0].workers : 0;
	for (i = 0; i < set->n_cases; i++)
		set->workers = set->cases[i].workers == set->workers ? set->workers : 0;
	for (i = 0; i < set->n_cases; i++) {
		c = &set->cases[i];
		if (set->workers)
			snprintf(c->label, sizeof(c->label), "%s", set->series[c->series].label);
		else
			snprintf(c->label, sizeof(c->label), "%.*s, %d wrk", CHART_LABEL - 16,
				 set->series[c->series].label, c->workers);
		c->variant = set->series[c->series].variant;
		for (j = 0; j < i; j++)
			if (set->cases[j].series == c->series)
				c->variant += SHADES_PER_MODE;
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

int chart_set_build_within(struct chart_set *set, const struct store_run *runs, size_t n, const struct chart_set *whole)
{
	size_t *series_of_run = NULL, i;
	bool one_group = true;
	int ret = -1;

	memset(set, 0, sizeof(*set));
	set->runs = runs;
	set->n_runs = n;
	set->series = alloc_zeroed(n, sizeof(*set->series));
	set->cases = alloc_zeroed(n, sizeof(*set->cases));
	set->case_of = alloc_zeroed(n, sizeof(*set->case_of));
	series_of_run = alloc_zeroed(n, sizeof(*series_of_run));
	if (!set->series || !set->cases || !set->case_of || !series_of_run)
		goto out;
	set->engines = whole && whole->engines;
	for (i = 1; i < n; i++)
		set->engines |= strcmp(runs[i].run.engine, runs[0].run.engine) != 0;
	for (i = 0; i < n; i++) {
		series_of_run[i] = series_of(set, whole, &runs[i].run);
		add_case(set, series_of_run[i], runs[i].run.workers);
		if (!runs[i].run.n_series)
			set->runs_without_series++;
	}
	set_variants(set, whole);
	for (i = 0; whole && i < set->n_series; i++)
		one_group &= strcmp(set->series[i].group, set->series[0].group) == 0;
	for (i = 0; whole && one_group && i < set->n_series; i++)
		label_series(&set->series[i], false, set->engines);
	qsort(set->cases, set->n_cases, sizeof(*set->cases), case_order);
	finish_cases(set, series_of_run);
	ret = 0;
out:
	free(series_of_run);
	if (ret < 0)
		chart_set_free(set);
	return ret;
}

int chart_set_build(struct chart_set *set, const struct store_run *runs, size_t n)
{
	return chart_set_build_within(set, runs, n, NULL);
}

enum chart_repeats chart_repeats_of(const struct chart_set *set)
{
	size_t single = 0;

	for (size_t i = 0; i < set->n_cases; i++)
		single += set->cases[i].repeats < 2;
	return single == set->n_cases ? REPEATS_NONE : single ? REPEATS_SOME : REPEATS_ALL;
}

void chart_set_free(struct chart_set *set)
{
	free(set->series);
	free(set->cases);
	free(set->case_of);
	memset(set, 0, sizeof(*set));
}
