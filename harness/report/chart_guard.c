/*
 * The data of the guarded-resource charts (chart_guard.h): each guarded case's holders
 * over time, a panel per case, and the waits for a grant per guard, grouped by workload.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_block.h"
#include "report/chart_guard.h"
#include "plugin/guard.h"
#include "model/metric_table.h"

/* The holders chart's image height: its title, and per panel. */
#define HOLDERS_TITLE_HEIGHT 80
#define HOLDERS_PANEL_HEIGHT 260

/* Room above the most holders, waiters or the limit, as a fraction of it. */
#define HOLDERS_HEADROOM 0.25

/* The wait chart's image height. */
#define GUARD_WAITS_HEIGHT 600

/* A log y axis reaches this factor below the least wait and beyond the most. */
#define WAITS_LOG_MARGIN 2

/* The waits the wait chart draws, its columns after the case's label and workload. */
static const char *const wait_paths[] = {
	"guarded.wait_ms.p50",
	"guarded.wait_ms.p99",
	"guarded.wait_ms.max",
	"guarded.writer_wait_ms.p99",
};

/* The value of run's parameter name, or NULL. */
static const char *param_of(const struct run_result *run, const char *name)
{
	for (size_t i = 0; i < run->n_params; i++)
		if (strcmp(run->params[i].name, name) == 0)
			return run->params[i].value;
	return NULL;
}

/*
 * The most holders run's workload lets one resource have at once: 1 for exclusive use
 * (but under a guard whose users share it), the parameter limit for resource; NaN for
 * another workload (refresh), drawn as no line.
 */
static double holders_limit(const struct run_result *run)
{
	const char *limit = param_of(run, "limit");
	const struct guard_ops *guard = guard_find(run->strategy);

	if (run->claim_mode && strcmp(run->claim_mode, "exclusive-use") == 0)
		return guard && guard->user.mode == ACQ_SHARED ? NAN : 1;
	if (run->claim_mode && strcmp(run->claim_mode, "resource") == 0 && limit)
		return atof(limit);
	return NAN;
}

/* The first run of case k (by repetition number) that has a holders series, or NULL. */
static const struct run_result *holders_run(const struct chart_set *set, size_t k)
{
	const struct run_result *best = NULL, *run;

	for (size_t i = 0; i < set->n_runs; i++) {
		run = &set->runs[i].run;
		if (set->case_of[i] == k && run->n_holders && (!best || run->repeat < best->repeat))
			best = run;
	}
	return best;
}

/* Appends n to list (CHART_LIST bytes), space-separated. */
static void add_number(char *list, size_t n)
{
	size_t len = strlen(list);

	snprintf(list + len, CHART_LIST - len, "%s%zu", len ? " " : "", n);
}

/*
 * Writes the holders series of case k's run from entry *i, one resource's buckets, as a
 * block: a row per bucket, its start (s), most holders, most waiting, the limit; then a
 * row at the last bucket's end repeating them. Moves *i past them; the block's top in *top.
 */
static void write_resource(const struct chart_set *set, FILE *f, struct chart *c, size_t k,
			   const struct run_result *run, size_t *i, double *top)
{
	const struct holder_point *p = &run->holders[*i];
	int32_t resource = p->resource;
	double limit = holders_limit(run), end;
	char title[CHART_LABEL + 32];

	if (*i == 0)
		snprintf(title, sizeof(title), "%s: resource %d", set->cases[k].label, (int)resource);
	else
		snprintf(title, sizeof(title), "resource %d", (int)resource);
	chart_open_block(f, c, title, "\"holders\"\t\"waiting\"\t\"limit\"");
	for (; *i < run->n_holders && run->holders[*i].resource == resource; (*i)++) {
		p = &run->holders[*i];
		fprintf(f, "%.3f\t%u\t%u\t", p->t_ms / 1000.0, p->holders, p->waiting);
		chart_put_num(f, limit);
		putc('\n', f);
		*top = p->holders > *top ? p->holders : *top;
		*top = p->waiting > *top ? p->waiting : *top;
	}
	end = (p->t_ms + SERIES_BUCKET_NS / 1e6) / 1000.0;
	fprintf(f, "%.3f\t%u\t%u\t", end, p->holders, p->waiting);
	chart_put_num(f, limit);
	putc('\n', f);
	*top = limit > *top ? limit : *top;
	c->xhi = end > c->xhi ? end : c->xhi;
	chart_add_case_block(set, c, k);
}

/*
 * Holders: a panel per guarded case with a holders series (its first repetition), at most
 * CHART_PRESSURE_PANELS (the others counted in c->left_out); in it a block per resource
 * (write_resource). c->firsts holds each panel's first block, then blocks + 1; c->layer the
 * panels (from 1) whose workload has a limit.
 */
static void write_holders(const struct chart_set *set, FILE *f, struct chart *c)
{
	const struct run_result *run;
	double top = 0;
	size_t k, i;

	for (k = 0; k < set->n_cases; k++) {
		run = holders_run(set, k);
		if (!run)
			continue;
		if (c->panels == CHART_PRESSURE_PANELS) {
			c->left_out++;
			continue;
		}
		add_number(c->firsts, c->blocks + 1);
		if (isfinite(holders_limit(run)))
			add_number(c->layer, c->panels + 1);
		for (i = 0; i < run->n_holders && c->blocks < CHART_MAX_BLOCKS;)
			write_resource(set, f, c, k, run, &i, &top);
		c->panels++;
	}
	add_number(c->firsts, c->blocks + 1);
	c->height = HOLDERS_TITLE_HEIGHT + HOLDERS_PANEL_HEIGHT * (int)(c->panels ? c->panels : 1);
	c->ymax = top > 0 ? top * (1 + HOLDERS_HEADROOM) : 1;
}

/* Whether a case before k has k's workload. */
static bool workload_seen(const struct chart_set *set, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (strcmp(set->series[set->cases[j].series].mode, set->series[set->cases[k].series].mode) == 0)
			return true;
	return false;
}

/* Writes label into buf without its ":mode" (a guarded case's workload, which the grouping shows). */
static void label_without_mode(char *buf, size_t size, const char *label, const char *mode)
{
	const char *at = strstr(label, ":");
	size_t n = strlen(mode);

	if (at && strncmp(at + 1, mode, n) == 0)
		snprintf(buf, size, "%.*s%s", (int)(at - label), label, at + 1 + n);
	else
		snprintf(buf, size, "%s", label);
}

/*
 * Waits: a header, then a row per guarded case, grouped by workload (in order of first
 * appearance) with an empty row between groups: the case's label (its workload left out),
 * its workload, and per wait of wait_paths its mean over the repeats in ms (NaN unless
 * > 0: the axis is log).
 */
static void write_guard_waits(const struct chart_set *set, FILE *f, struct chart *c)
{
	const char *mode;
	char label[CHART_LABEL];
	double v, lo = INFINITY, hi = 0;
	size_t k, j, p, n_waits = sizeof(wait_paths) / sizeof(wait_paths[0]);

	fputs("\"case\"\t\"workload\"\t\"p50\"\t\"p99\"\t\"max\"\t\"writers p99\"\n", f);
	for (k = 0; k < set->n_cases; k++) {
		if (workload_seen(set, k))
			continue;
		mode = set->series[set->cases[k].series].mode;
		if (c->blocks)
			fputs("\"\"\t\"\"\tNaN\tNaN\tNaN\tNaN\n", f);
		for (j = k; j < set->n_cases && c->blocks < CHART_MAX_BLOCKS; j++) {
			if (strcmp(set->series[set->cases[j].series].mode, mode) != 0)
				continue;
			label_without_mode(label, sizeof(label), set->cases[j].label, mode);
			fprintf(f, "\"%s\"\t\"%s\"", label, mode);
			for (p = 0; p < n_waits; p++) {
				v = chart_case_stats(set, j, wait_paths[p]).mean;
				putc('\t', f);
				chart_put_num(f, v > 0 ? v : NAN);
				lo = v > 0 && v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
			putc('\n', f);
			chart_add_case_block(set, c, j);
		}
	}
	c->height = GUARD_WAITS_HEIGHT;
	if (hi > 0) {
		c->ylo = lo / WAITS_LOG_MARGIN;
		c->ymax = hi * WAITS_LOG_MARGIN;
	}
}

void chart_write_guarded(const struct chart_set *set, FILE *f, struct chart *c)
{
	if (c->kind == CHART_HOLDERS)
		write_holders(set, f, c);
	else
		write_guard_waits(set, f, c);
}
