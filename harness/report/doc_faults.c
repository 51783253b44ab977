/* The report's table of each fault (doc_faults.h). */
#include <math.h>
#include <stdbool.h>
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
	{ .header = "recovered after (s)", .number = true },
	{ .header = "of it, the strategy's own (s)", .number = true },
};

#define FAULT_COLUMNS (sizeof(fault_columns) / sizeof(fault_columns[0]))

/* Room for one cell's text: a strategy's or a section's whole name (CHART_LABEL). */
#define FAULT_CELL 192

/* How many of run's faults are of kind (restart) or on a job (any other kind, restart false). */
static size_t faults_like(const struct run_result *run, bool restart)
{
	size_t n = 0;

	for (size_t i = 0; i < run->n_faults; i++)
		n += (run->faults[i].kind == FAULT_RESTART) == restart;
	return n;
}

void doc_fault_recovery(const struct run_result *run, const struct fault_record *f, char *total, char *own,
			size_t size)
{
	const bool restart = f->kind == FAULT_RESTART;
	const double outage_s = restart ? (double)f->duration_ns / 1e9 : 0;
	const size_t like = faults_like(run, restart);
	const double ms = restart ? run->metrics.restart_first_completion_ms : run->metrics.recovery_ms.p50;
	const double max = run->metrics.recovery_ms.max;

	if (!isfinite(ms)) {
		snprintf(total, size, "never");
		snprintf(own, size, "-");
	} else if (like == 1) {
		snprintf(total, size, "%.3f", outage_s + ms / 1e3);
		snprintf(own, size, "%.3f", ms / 1e3);
	} else if (restart) {
		snprintf(total, size, "-");
		snprintf(own, size, "at most %.3f (longest of %zu)", ms / 1e3, like);
	} else {
		snprintf(total, size, "-");
		snprintf(own, size, "median %.3f, longest %.3f (of %zu)", ms / 1e3, max / 1e3, like);
	}
}

/* Writes fault f of run into the row of cells at text (FAULT_COLUMNS cells of FAULT_CELL bytes), cells pointing at them. */
static void fault_row(const struct run_result *run, const struct fault_record *f, char (*text)[FAULT_CELL],
		      const char **cells)
{
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
	snprintf(text[7], FAULT_CELL, f->kind == FAULT_RESTART ? "%.3f" : "-", (double)f->duration_ns / 1e9);
	doc_fault_recovery(run, f, text[8], text[9], FAULT_CELL);
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
		      "was gone (a restart, until it accepted connections again), and how long after the fault the "
		      "strategy recovered, to the millisecond, as the run recorded it: after a restart, the server's "
		      "outage plus the server back to the first completion (`restart_first_completion_ms`, rstrt "
		      "above), of which the last column is the strategy's own part; after a fault on a job (crash, "
		      "stall, kill-backend), the fault to that job's next commit (`recovery_ms`, rec50 above). A run "
		      "records these per run, not per fault: a run with several faults of a kind shows the longest "
		      "after its restarts, the median and longest after its faults on jobs. never: the strategy did "
		      "not recover (its jobs lost).");
	mk->grid(out, fault_columns, FAULT_COLUMNS, cells, n);
	free(text);
	free(cells);
	return 0;
}
