/* The report's table of the runs' timeline phases (doc_timeline.h). */
#include <math.h>
#include <stdlib.h>

#include "report/doc_timeline.h"

/* The columns of the table of phases. */
static const struct grid_column timeline_columns[] = {
	{ .header = "run", .number = true },
	{ .header = "strategy" },
	{ .header = "phase" },
	{ .header = "from (s)", .number = true },
	{ .header = "to (s)", .number = true },
	{ .header = "jobs/s median", .number = true },
	{ .header = "jobs/s p10", .number = true },
	{ .header = "e2e p50 (ms)", .number = true },
	{ .header = "e2e p99 (ms)", .number = true },
	{ .header = "depth max", .number = true },
	{ .header = "dead tuples", .number = true },
	{ .header = "errors", .number = true },
	{ .header = "recovery of the phase before (s)", .number = true },
};

#define TIMELINE_COLUMNS (sizeof(timeline_columns) / sizeof(timeline_columns[0]))

/* Room for one cell's text: a strategy's whole name. */
#define TIMELINE_CELL 192

bool doc_has_timeline(const struct report_doc *d)
{
	for (size_t i = 0; i < d->n_runs; i++)
		if (d->runs[i].run.n_timeline)
			return true;
	return false;
}

/* Writes v with decimals into cell, "-" when not a number. */
static void number_cell(char *cell, double v, int decimals)
{
	if (isnan(v))
		snprintf(cell, TIMELINE_CELL, "-");
	else
		snprintf(cell, TIMELINE_CELL, "%.*f", decimals, v);
}

/* Writes phase p of run into the row of cells at text (TIMELINE_COLUMNS cells), cells pointing at them. */
static void phase_row(const struct run_result *run, const struct timeline_phase *p, char (*text)[TIMELINE_CELL],
		      const char **cells)
{
	snprintf(text[0], TIMELINE_CELL, "%lld", run->run_id);
	snprintf(text[1], TIMELINE_CELL, "%s %s x%d", run->strategy, run->claim_mode, run->workers);
	snprintf(text[2], TIMELINE_CELL, "%s", p->name);
	snprintf(text[3], TIMELINE_CELL, "%.2f", (double)p->start_ns / 1e9);
	snprintf(text[4], TIMELINE_CELL, "%.2f", (double)p->end_ns / 1e9);
	number_cell(text[5], p->throughput_median, 1);
	number_cell(text[6], p->throughput_p10, 1);
	number_cell(text[7], p->latency_p50_ms, 1);
	number_cell(text[8], p->latency_p99_ms, 1);
	snprintf(text[9], TIMELINE_CELL, "%lld", (long long)p->depth_max);
	if (p->dead_start == TIMELINE_UNKNOWN)
		snprintf(text[10], TIMELINE_CELL, "-");
	else
		snprintf(text[10], TIMELINE_CELL, "%lld to %lld", (long long)p->dead_start, (long long)p->dead_end);
	snprintf(text[11], TIMELINE_CELL, "%lld", (long long)p->errors);
	if (isinf(p->recovery_s))
		snprintf(text[12], TIMELINE_CELL, "not recovered");
	else
		number_cell(text[12], p->recovery_s, 1);
	for (size_t c = 0; c < TIMELINE_COLUMNS; c++)
		cells[c] = text[c];
}

int doc_write_timeline(FILE *out, const struct report_doc *d, const char *heading, const struct doc_markup *mk)
{
	char (*text)[TIMELINE_CELL];
	const char **cells;
	size_t n = 0, row = 0;

	for (size_t i = 0; i < d->n_runs; i++)
		n += d->runs[i].run.n_timeline;
	text = calloc(n * TIMELINE_COLUMNS + 1, sizeof(*text));
	cells = calloc(n * TIMELINE_COLUMNS + 1, sizeof(*cells));
	if (!text || !cells) {
		free(text);
		free(cells);
		return -1;
	}
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct run_result *run = &d->runs[i].run;

		for (size_t k = 0; k < run->n_timeline; k++, row++)
			phase_row(run, &run->timeline[k], text + row * TIMELINE_COLUMNS, cells + row * TIMELINE_COLUMNS);
	}
	mk->heading(out, 2, heading);
	mk->paragraph(out, "Each run's timeline (--phase, docs/phases.md), a row per phase as it ran: completions per "
		      "second over its whole seconds (median and 10th percentile), enqueue-to-completion latency, the "
		      "queue's most depth, the queue table's dead tuples at its first and last sample, errors, and the "
		      "recovery of the pressure phase before it: the seconds from that one's end until a second's "
		      "throughput was within 20 % of the first clean phase's median.");
	mk->grid(out, timeline_columns, TIMELINE_COLUMNS, cells, n);
	free(text);
	free(cells);
	return 0;
}
