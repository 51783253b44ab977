/* The report's table of each fault (doc_faults.h). */
#include <stdlib.h>

#include "report/doc_faults.h"
#include "model/faults.h"
#include "output/figures.h"

/* The columns of the table of faults. */
static const struct grid_column fault_columns[] = {
	{ .header = "run", .number = true },
	{ .header = "section" },
	{ .header = "strategy" },
	{ .header = "mode" },
	{ .header = "fault" },
	{ .header = "at (s)", .number = true },
	{ .header = "struck" },
	{ .header = "server outage (s)", .number = true },
	{ .header = "first completion after (s)", .number = true },
	{ .header = "of it, after the outage (s)", .number = true },
};

#define FAULT_COLUMNS (sizeof(fault_columns) / sizeof(fault_columns[0]))

/* Room for one cell's text. */
#define FAULT_CELL 48

/* The length of a bucket of the time series, ms. */
#define BUCKET_MS 100

double doc_fault_first_completion_ms(const struct run_result *run, int64_t at_ns, int64_t duration_ns)
{
	const double at_ms = (double)at_ns / 1e6, end_ms = (double)(at_ns + duration_ns) / 1e6;

	for (size_t b = 0; b < run->n_series; b++) {
		const double start = (double)run->series[b].t_ms;

		if (start >= at_ms && start + BUCKET_MS > end_ms && run->series[b].completed > 0)
			return start + BUCKET_MS - at_ms;
	}
	return -1;
}

/* Writes fault f of run into the row of cells at text (FAULT_COLUMNS cells of FAULT_CELL bytes), cells pointing at them. */
static void fault_row(const struct run_result *run, const struct fault_record *f, char (*text)[FAULT_CELL],
		      const char **cells)
{
	double first = doc_fault_first_completion_ms(run, f->at_ns, f->duration_ns);
	double outage_ms = (double)f->duration_ns / 1e6;

	snprintf(text[0], FAULT_CELL, "%lld", run->run_id);
	snprintf(text[1], FAULT_CELL, "%s", run->group && *run->group ? run->group : "-");
	snprintf(text[2], FAULT_CELL, "%s", run->strategy);
	snprintf(text[3], FAULT_CELL, "%s", run->claim_mode);
	snprintf(text[4], FAULT_CELL, "%s", f->kind >= 0 && f->kind < FAULT_KIND_COUNT ? fault_kind_names[f->kind] : "?");
	snprintf(text[5], FAULT_CELL, "%.3f", (double)f->at_ns / 1e9);
	if (f->worker < 0)
		snprintf(text[6], FAULT_CELL, "the server");
	else
		snprintf(text[6], FAULT_CELL, "worker %d%s", f->worker, f->job_id ? ", in a job" : "");
	snprintf(text[7], FAULT_CELL, f->kind == FAULT_RESTART ? "%.3f" : "-", outage_ms / 1e3);
	if (first < 0) {
		snprintf(text[8], FAULT_CELL, "none");
		snprintf(text[9], FAULT_CELL, "-");
	} else {
		snprintf(text[8], FAULT_CELL, "%.1f", first / 1e3);
		snprintf(text[9], FAULT_CELL, "%.1f", (first - outage_ms) / 1e3);
	}
	for (size_t c = 0; c < FAULT_COLUMNS; c++)
		cells[c] = text[c];
}

int doc_write_fault_list(FILE *out, const struct report_doc *d, const struct doc_markup *mk)
{
	char (*text)[FAULT_CELL] = NULL;
	const char **cells = NULL;
	size_t n = 0, row = 0;

	for (size_t i = 0; i < d->n_runs; i++)
		if (!figures_is_guarded(&d->runs[i].run))
			n += d->runs[i].run.n_faults;
	if (!n)
		return 0;
	text = calloc(n * FAULT_COLUMNS, sizeof(*text));
	cells = calloc(n * FAULT_COLUMNS, sizeof(*cells));
	if (!text || !cells) {
		free(text);
		free(cells);
		return -1;
	}
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct run_result *run = &d->runs[i].run;

		for (size_t k = 0; k < run->n_faults && !figures_is_guarded(run); k++, row++)
			fault_row(run, &run->faults[k], text + row * FAULT_COLUMNS, cells + row * FAULT_COLUMNS);
	}
	mk->heading(out, 3, "Each fault");
	mk->paragraph(out, "Every fault that struck, in the order of the runs: when, what it struck, how long the server "
		      "was gone (a restart, until it accepted connections again), and the first completion after the "
		      "fault (after the server was back, for a restart), read from the 100 ms time series: the end of "
		      "the first bucket that began after the fault and holds a completion, so at most 0.2 s late. The last column is that time less the "
		      "outage: the strategy's own way back once the server was. A crash does not stop the other "
		      "workers, so its first completion comes at once; its job's own recovery is rec50 and recmax "
		      "above.");
	mk->grid(out, fault_columns, FAULT_COLUMNS, cells, n);
	free(text);
	free(cells);
	return 0;
}
