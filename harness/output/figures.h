/*
 * The figures of runs as a table of text cells, built once and rendered by whoever shows
 * it: the terminal table (results_print_table) aligns it, report.md and report.html put it
 * in a document. Columns: strategy, mode, workers, the engine (backend and server version)
 * when the runs are of more than one, every metric the metric table places
 * in it (in table order; the open-loop ones when a run had arrivals, the error kinds a run
 * met), then group/sweep when a run has one. The faults table beside it holds the figures
 * of faults and recovery.
 */
#ifndef CLAIMBENCH_FIGURES_H
#define CLAIMBENCH_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "model/metric_table.h"
#include "model/result.h"

/* Room for one cell, NUL included. */
#define FIGURES_CELL 200

/* Columns the figures have at most: four before the metrics, two after. */
#define FIGURES_MAX_COLUMNS (METRIC_MAX + 6)

/* One column of the figures. */
struct figures_column {
	const char *header;	/* first header line, short: "thru" */
	const char *unit;	/* second header line: the unit, or "" */
	bool text;		/* left-aligned text rather than a right-aligned number */
	const struct metric *metric;	/* the metric it shows (its gloss and definition); NULL for strategy, mode ... */
	const char *gloss;		/* a few words on what it holds: the metric's gloss, or the column's own */
	const char *definition;		/* the metric's one-line definition; NULL for a column that is no metric */
};

/* The figures of some runs. */
struct figures {
	struct figures_column columns[FIGURES_MAX_COLUMNS]; /* the columns, left to right */
	size_t n_columns;			/* columns used */
	char (*cells)[FIGURES_CELL];		/* n_rows x n_columns cells, row after row (owned) */
	size_t n_rows;				/* rows: one per run, in the order given */
};

/*
 * Builds the figures of the n runs into f (zeroed first). An unknown figure's cell is "-".
 * sections_apart: its rows will be shown a section at a time, under the section's heading
 * (the report), so the last column holds the sweep alone ("sweep", when a run has one).
 * 0, or -1 when out of memory (f left empty). Release with figures_free.
 */
int figures_build(struct figures *f, const struct run_result *const *runs, size_t n, bool sections_apart);

/*
 * Builds the faults table of the n runs into f (zeroed first): strategy, mode, workers,
 * race duplicates, overlaps, lost, faults, stuck, redeliveries (and those of each cause, crash,
 * lease, reaper, stale ticket, restart, killed backend, failover, and of jobs never begun, the
 * claims lost in flight and the completions left unknown, that some run has), zombie
 * completions, fenced, reaped, reconnects, recovery times, the first completion after a restart, the delivery
 * verdict, then group/sweep when a run has one (sections_apart: as figures_build). 0, or -1
 * when out of memory.
 */
int figures_build_faults(struct figures *f, const struct run_result *const *runs, size_t n, bool sections_apart);

/* Whether a run among the n met a fault: the faults table is worth showing. */
bool figures_any_faults(const struct run_result *const *runs, size_t n);

/* Whether a run among the n sampled the server: the server table is worth showing. */
bool figures_any_server(const struct run_result *const *runs, size_t n);

/*
 * Builds the server table of the n runs into f (zeroed first): strategy, mode, workers, the
 * samples, and of the metrics placed CELL_SERVER (wait shares, blocks per claim, dead
 * tuples, vacuums, the oldest transaction, SQLite's -wal file, the head lookup's buffers,
 * locks left, the throughput around a held snapshot) those that some run knows and has not
 * 0, then group/sweep when a run has one (sections_apart: as figures_build). 0, or -1 when
 * out of memory.
 */
int figures_build_server(struct figures *f, const struct run_result *const *runs, size_t n, bool sections_apart);

/*
 * Writes the delivery verdict of m into buf: "both held", "at-least-once only (N executed
 * twice or more)", "at-most-once only (N lost)", "neither (...)"; "-" when unknown.
 */
void figures_delivery(const struct run_metrics *m, char *buf, size_t size);

/*
 * Whether run is of a guarded-resource workload (its mode is the workload's name): its
 * figures are the guarded-resources table's.
 */
bool figures_is_guarded(const struct run_result *run);

/*
 * Builds the guarded-resources table of the n runs (each of a guarded workload) into f
 * (zeroed first): guard, workload, workers, every metric placed CELL_GUARD, then
 * group/sweep when a run has one. 0, or -1 when out of memory.
 */
int figures_build_guarded(struct figures *f, const struct run_result *const *runs, size_t n);

/* The cell of row r, column c. */
const char *figures_cell(const struct figures *f, size_t r, size_t c);

/* Frees what figures_build allocated in f and zeroes it; a zeroed f is fine. */
void figures_free(struct figures *f);

#endif
