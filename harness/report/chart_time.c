/*
 * The data of the charts over time (chart_time.h): the timeline of completions, the
 * backlog and the arrivals, each from the stored 100 ms series of a case's first
 * repetition, and the faults' marks on the timeline.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/chart_block.h"
#include "report/chart_colour.h"
#include "report/chart_time.h"
#include "model/faults.h"
#include "model/metric_table.h"

/* The timeline's image height: the shared layout's, and per row of panels (two panels a row) plus the title's. */
#define TIMELINE_HEIGHT 600
#define PANEL_ROW_HEIGHT 260
#define PANEL_TITLE_HEIGHT 80

/* Room above the timeline's highest rate (its panels share one y range) and most jobs done, as a fraction. */
#define TIMELINE_HEADROOM 0.1

/*
 * Timeline panels get their own y ranges when the highest rate of one is over this many
 * times another's, their own x ranges when the longest run of one is over this many times
 * as long as another's.
 */
#define OWN_SCALE_RATIO 2.5

/* Room above the arrivals' highest rate or the rate asked, or the highest backlog, as a fraction of it. */
#define ARRIVALS_HEADROOM 0.25

/* Width of bucket i of run's series in ms: to the next bucket, the bucket width for the last. */
static double bucket_ms(const struct run_result *run, size_t i)
{
	if (i + 1 < run->n_series && run->series[i + 1].t_ms > run->series[i].t_ms)
		return (double)(run->series[i + 1].t_ms - run->series[i].t_ms);
	return SERIES_BUCKET_NS / 1e6;
}

/* Whether every bucket of run's series knows its first completions. */
static bool first_known(const struct run_result *run)
{
	for (size_t i = 0; i < run->n_series; i++)
		if (run->series[i].first_completed == METRIC_UNKNOWN)
			return false;
	return true;
}

/* Appends block (from 1) to the space-separated list. */
static void add_to_list(char *list, size_t size, size_t block)
{
	size_t len = strlen(list);

	snprintf(list + len, size - len, "%s%zu", len ? " " : "", block);
}

/*
 * The timeline's marks: one last block, after the cases', with a row per fault that
 * struck a block's run (block_case[b]: the case of block b + 1, of blocks in all): its
 * instant (s), the case's colour as a number, its kind, the block (from 1) whose run it
 * struck, how long the server was down (s; 0 but for a restart). Written only when there is
 * a fault, counted in c->marks; the blocks with one in c->faulted, with an outage in
 * c->outages.
 */
static void write_fault_marks(const struct chart_set *set, FILE *f, struct chart *c, const size_t *block_case,
			      size_t blocks)
{
	const struct run_result *run;
	unsigned int rgb;
	char colour[8];
	bool opened = false, outage;

	for (size_t b = 0; b < blocks; b++) {
		size_t k = block_case[b];

		run = chart_timeline_run(set, k);
		outage = false;
		for (size_t i = 0; run && i < run->n_faults; i++) {
			if (!opened)
				fprintf(f, "\n\n\"faults\"\t\"rgb\"\t\"kind\"\t\"block\"\t\"down_s\"\n");
			if (!i)
				add_to_list(c->faulted, sizeof(c->faulted), b + 1);
			opened = true;
			outage |= run->faults[i].duration_ns > 0;
			chart_shade(set->series[set->cases[k].series].colour, set->cases[k].variant, colour);
			sscanf(colour, "#%6x", &rgb);
			fprintf(f, "%.3f\t%u\t\"%s\"\t%zu\t%.3f\n", (double)run->faults[i].at_ns / 1e9, rgb,
				fault_kind_name(run->faults[i].kind), b + 1, (double)run->faults[i].duration_ns / 1e9);
		}
		if (outage)
			add_to_list(c->outages, sizeof(c->outages), b + 1);
	}
	c->marks = opened;
}

/*
 * Splits the timeline's blocks into a panel per series when they are too many for one
 * plot and come from more than one series: c->panels, c->firsts and the height; each
 * panel its own y range (c->own_scales) when the highest rate of one (top_of_block[b],
 * the highest of block b + 1) is over OWN_SCALE_RATIO times another's, its own x range
 * (c->own_times) when the longest run of one (end_of_block[b], in s) is.
 */
static void timeline_panels(struct chart *c, const size_t *series_of_block, const double *top_of_block,
			    const double *end_of_block)
{
	double panel_top = 0, lowest = INFINITY, highest = 0, panel_end = 0, shortest = INFINITY, longest = 0;
	size_t b, len;

	if (c->blocks <= CHART_TIMELINE_SHARED || series_of_block[0] == series_of_block[c->blocks - 1])
		return;
	for (b = 0; b < c->blocks; b++) {
		panel_top = top_of_block[b] > panel_top ? top_of_block[b] : panel_top;
		panel_end = end_of_block[b] > panel_end ? end_of_block[b] : panel_end;
		if (b + 1 == c->blocks || series_of_block[b + 1] != series_of_block[b]) {
			lowest = panel_top < lowest ? panel_top : lowest;
			highest = panel_top > highest ? panel_top : highest;
			shortest = panel_end < shortest ? panel_end : shortest;
			longest = panel_end > longest ? panel_end : longest;
			panel_top = panel_end = 0;
		}
		if (b && series_of_block[b] == series_of_block[b - 1])
			continue;
		len = strlen(c->firsts);
		snprintf(c->firsts + len, sizeof(c->firsts) - len, "%zu ", b + 1);
		c->panels++;
	}
	c->own_scales = highest > OWN_SCALE_RATIO * lowest;
	c->own_times = longest > OWN_SCALE_RATIO * shortest;
	len = strlen(c->firsts);
	snprintf(c->firsts + len, sizeof(c->firsts) - len, "%zu", c->blocks + 1);
	c->height = PANEL_TITLE_HEIGHT + PANEL_ROW_HEIGHT * (int)((c->panels + 1) / 2);
}

/*
 * Timeline: a block per case with a time series (its first repetition), a row per bucket:
 * its start (s), distinct jobs completed per second in it, duplicate executions per second
 * (NaN when not stored), distinct jobs completed before it, duplicates before it; then a
 * row at the last bucket's end repeating its rates, with every completion. The faults'
 * marks follow (write_fault_marks).
 */
static void write_timeline(const struct chart_set *set, FILE *f, struct chart *c)
{
	size_t series_of_block[CHART_MAX_BLOCKS], case_of_block[CHART_MAX_BLOCKS];
	double top_of_block[CHART_MAX_BLOCKS], end_of_block[CHART_MAX_BLOCKS];
	const struct run_result *run;
	uint64_t first, dups, total_first, total_dups;
	double width = 0, rate = 0, dup_rate = 0, top = 0, done = 0, end;
	bool known;
	size_t k, i;

	c->dups_known = true;
	for (k = 0; k < set->n_cases && c->blocks < CHART_MAX_BLOCKS; k++) {
		run = chart_timeline_run(set, k);
		if (!run)
			continue;
		known = first_known(run);
		c->dups_known &= known;
		chart_open_block(f, c, set->cases[k].label,
				 "\"jobs_per_s\"\t\"duplicates_per_s\"\t\"jobs\"\t\"duplicates\"");
		total_first = total_dups = 0;
		top_of_block[c->blocks] = 0;
		for (i = 0; i < run->n_series; i++) {
			const struct series_point *p = &run->series[i];

			first = known ? p->first_completed : p->completed;
			dups = known && p->completed > first ? p->completed - first : 0;
			width = bucket_ms(run, i);
			rate = (double)first * 1000.0 / width;
			dup_rate = known ? (double)dups * 1000.0 / width : NAN;
			fprintf(f, "%.3f\t%.9g\t", p->t_ms / 1000.0, rate);
			chart_put_num(f, dup_rate);
			fprintf(f, "\t%llu\t", (unsigned long long)total_first);
			top_of_block[c->blocks] = rate > top_of_block[c->blocks] ? rate : top_of_block[c->blocks];
			top_of_block[c->blocks] = dup_rate > top_of_block[c->blocks] ? dup_rate : top_of_block[c->blocks];
			chart_put_num(f, known ? (double)total_dups : NAN);
			putc('\n', f);
			total_first += first;
			total_dups += dups;
		}
		end = (run->series[run->n_series - 1].t_ms + width) / 1000.0;
		c->xhi = end > c->xhi ? end : c->xhi;
		end_of_block[c->blocks] = end;
		fprintf(f, "%.3f\t%.9g\t", end, rate);
		chart_put_num(f, dup_rate);
		fprintf(f, "\t%llu\t", (unsigned long long)total_first);
		chart_put_num(f, known ? (double)total_dups : NAN);
		putc('\n', f);
		done = (double)total_first > done ? (double)total_first : done;
		done = (double)total_dups > done ? (double)total_dups : done;
		if (total_dups)
			chart_add_layer_block(c);
		top = top_of_block[c->blocks] > top ? top_of_block[c->blocks] : top;
		series_of_block[c->blocks] = set->cases[k].series;
		case_of_block[c->blocks] = k;
		chart_add_case_block(set, c, k);
	}
	c->height = TIMELINE_HEIGHT;
	if (c->blocks)
		timeline_panels(c, series_of_block, top_of_block, end_of_block);
	c->ymax = top > 0 ? top * (1 + TIMELINE_HEADROOM) : 1;
	c->ymax2 = done > 0 ? done * (1 + TIMELINE_HEADROOM) : 1;
	write_fault_marks(set, f, c, case_of_block, c->blocks);
}

/*
 * Backlog and arrivals: a block per open-loop case with a time series, a row per bucket.
 * Backlog: the bucket's end (s), jobs waiting then. Arrivals: its start (s), arrivals per
 * second in it, the rate asked; then a row at the last bucket's end repeating them.
 */
static void write_open_loop(const struct chart_set *set, FILE *f, struct chart *c)
{
	const struct run_result *run;
	double width = 0, rate = 0, asked = -1, top = 0, end;
	size_t k, i;

	for (k = 0; k < set->n_cases && c->blocks < CHART_MAX_BLOCKS; k++) {
		run = chart_timeline_run(set, k);
		if (!run || !set->cases[k].open_loop)
			continue;
		chart_open_block(f, c, set->cases[k].label,
				 c->kind == CHART_BACKLOG ? "\"waiting\"" : "\"arrivals_per_s\"\t\"asked\"");
		for (i = 0; i < run->n_series; i++) {
			const struct series_point *p = &run->series[i];

			width = bucket_ms(run, i);
			rate = (double)p->enqueued * 1000.0 / width;
			top = c->kind == CHART_BACKLOG ? ((double)p->backlog > top ? (double)p->backlog : top) :
							 (rate > top ? rate : top);
			if (c->kind == CHART_BACKLOG)
				fprintf(f, "%.3f\t%llu\n", (p->t_ms + width) / 1000.0, (unsigned long long)p->backlog);
			else
				fprintf(f, "%.3f\t%.9g\t%.9g\n", p->t_ms / 1000.0, rate, run->arrival_rate);
		}
		end = (run->series[run->n_series - 1].t_ms + width) / 1000.0;
		c->xhi = end > c->xhi ? end : c->xhi;
		if (c->kind == CHART_ARRIVALS)
			fprintf(f, "%.3f\t%.9g\t%.9g\n", end, rate, run->arrival_rate);
		if (c->kind == CHART_ARRIVALS)
			top = run->arrival_rate > top ? run->arrival_rate : top;
		asked = asked < 0 || asked == run->arrival_rate ? run->arrival_rate : 0;
		chart_add_case_block(set, c, k);
	}
	c->arrival_rate = asked > 0 ? asked : 0;
	c->ymax = top > 0 ? top * (1 + ARRIVALS_HEADROOM) : 1;
}

void chart_write_time(const struct chart_set *set, FILE *f, struct chart *c)
{
	if (c->kind == CHART_TIMELINE)
		write_timeline(set, f, c);
	else
		write_open_loop(set, f, c);
}
