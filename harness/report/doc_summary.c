/* The report's summary table (doc_summary.h). */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "model/faults.h"
#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "output/figures.h"
#include "report/doc_summary.h"

/* The columns of the summary; the engine's is left out when the runs are of one. */
static const struct grid_column summary_columns[] = {
	{ .header = "strategy:mode" },
	{ .header = "engine" },
	{ .header = "runs", .number = true },
	{ .header = "delivery guarantee" },
	{ .header = "race duplicates", .number = true },
	{ .header = "redeliveries", .number = true },
	{ .header = "lost", .number = true },
	{ .header = "recovery, median / worst (ms)" },
	{ .header = "throughput / ideal", .number = true },
	{ .header = "verdict" },
};

#define SUMMARY_COLUMNS (sizeof(summary_columns) / sizeof(summary_columns[0]))

/* The engine's column in summary_columns. */
#define ENGINE_COLUMN 1

/* Room for one cell's text. */
#define SUMMARY_CELL 256

/* What one row adds up from its runs. */
struct summary_row {
	const struct store_run *first;	/* its first run: the strategy, mode and engine */
	size_t runs;			/* its runs */
	bool faulted;			/* a run of it met a fault */
	bool lost_known;		/* a run of it knew its lost jobs */
	uint64_t races;			/* race duplicates summed (a run stored before them: duplicates - redeliveries) */
	uint64_t redeliveries;		/* redeliveries summed */
	uint64_t rerun;			/* redeliveries of a job begun before, summed: work done twice */
	uint64_t integrity_errors;	/* disagreements of the ledger and the table nothing explains, summed */
	char integrity_where[160];	/* the first run's with some: its section and jobs ("" when none) */
	uint64_t lost;			/* lost jobs summed, the runs that knew them */
	bool kinds[FAULT_KIND_COUNT];	/* the fault kinds its runs met */
};

/* Whether runs a and b belong to one row: strategy, claim mode and engine alike. */
static bool same_row(const struct store_run *a, const struct store_run *b)
{
	return strcmp(a->run.strategy, b->run.strategy) == 0 && strcmp(a->run.claim_mode, b->run.claim_mode) == 0 &&
	       strcmp(a->report.backend, b->report.backend) == 0;
}

/* Whether run met a fault of kind. */
static bool met_kind(const struct run_result *run, int kind)
{
	for (size_t i = 0; i < run->n_faults; i++)
		if (run->faults[i].kind == kind)
			return true;
	return false;
}

/* Adds run to row r. */
static void row_add(struct summary_row *r, const struct run_result *run)
{
	const struct run_metrics *m = &run->metrics;

	r->runs++;
	r->faulted |= run->n_faults > 0;
	const uint64_t races = metric_races(m);

	r->races += races;
	r->redeliveries += m->redeliveries != METRIC_UNKNOWN ? m->redeliveries : 0;
	r->rerun += metric_begun_again(m) - races;
	if (m->integrity_errors != METRIC_UNKNOWN && m->integrity_errors) {
		r->integrity_errors += m->integrity_errors;
		for (size_t i = 0; !*r->integrity_where && i < run->verify.n_diffs; i++)
			if (strcmp(run->verify.diffs[i].figure, INTEGRITY_DIFFERENCE) == 0)
				snprintf(r->integrity_where, sizeof(r->integrity_where), "%s%s%sjobs %s",
					 run->group && *run->group ? "section " : "", run->group ? run->group : "",
					 run->group && *run->group ? ": " : "", run->verify.diffs[i].jobs);
	}
	if (m->lost != METRIC_UNKNOWN) {
		r->lost_known = true;
		r->lost += m->lost;
	}
	for (size_t i = 0; i < run->n_faults; i++)
		if (run->faults[i].kind >= 0 && run->faults[i].kind < FAULT_KIND_COUNT)
			r->kinds[run->faults[i].kind] = true;
}

/* The guarantee r's runs measured, as the summary names it. */
static const char *row_guarantee(const struct summary_row *r)
{
	const bool twice = r->races > 0 || r->rerun > 0, lost = r->lost > 0;

	if (twice && lost)
		return "neither";
	if (twice)
		return "at-least-once";
	if (lost)
		return "at-most-once";
	if (!r->lost_known)
		return "n/a (lost not known)";
	return r->faulted ? "exactly-once" : "no faults run";
}

/* Whether fault kind strikes the server (its recovery is the first completion after it) rather than a job. */
static bool kind_on_server(int kind)
{
	return kind == FAULT_RESTART || kind == FAULT_FAILOVER;
}

/* Ascending order of doubles, for qsort. */
static int by_value(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Writes into buf (size bytes) the recovery of r's runs from each fault kind they met,
 * "KIND median / worst" in ms: the median of the runs' medians and the worst of their
 * worst (a restart's or failover's: the fault to the first completion after it); "never"
 * when no run of a kind recovered; "n/a" without faults. scratch holds d's runs' count.
 */
static void row_recovery(const struct report_doc *d, const struct summary_row *r, double *scratch, char *buf,
			 size_t size)
{
	size_t used = 0;

	snprintf(buf, size, "n/a");
	for (int k = 0; k < FAULT_KIND_COUNT && used < size; k++) {
		size_t n = 0;
		double worst = NAN;

		if (!r->kinds[k])
			continue;
		for (size_t i = 0; i < d->n_runs; i++) {
			const struct run_result *run = &d->runs[i].run;
			double mid, top;

			if (!same_row(&d->runs[i], r->first) || !met_kind(run, k) || figures_is_guarded(run))
				continue;
			mid = k == FAULT_FAILOVER ? run->metrics.failover.first_completion_ms :
			      k == FAULT_RESTART ? run->metrics.restart_first_completion_ms : run->metrics.recovery_ms.p50;
			top = kind_on_server(k) ? mid : run->metrics.recovery_ms.max;
			if (!isfinite(mid))
				continue;
			scratch[n++] = mid;
			if (isfinite(top) && !(top <= worst))
				worst = top;
		}
		qsort(scratch, n, sizeof(*scratch), by_value);
		if (!n)
			used += (size_t)snprintf(buf + used, size - used, "%s%s never", used ? "; " : "", fault_kind_names[k]);
		else
			used += (size_t)snprintf(buf + used, size - used, "%s%s %.0f / %.0f", used ? "; " : "",
						 fault_kind_names[k], scratch[n / 2], isfinite(worst) ? worst : scratch[n - 1]);
	}
}

/* Whether runs a and b are repeats of one measurement: worker count, section and sweep point alike. */
static bool same_case(const struct run_result *a, const struct run_result *b)
{
	return a->workers == b->workers && strcmp(a->group ? a->group : "", b->group ? b->group : "") == 0 &&
	       strcmp(a->sweep ? a->sweep : "", b->sweep ? b->sweep : "") == 0;
}

/* Throughput as a fraction of the ideal over a row's runs (row_speed). */
struct row_pace {
	struct stats_summary over;	/* mean and 95 % interval; n 0 when no run has it (timed runs) */
	bool repeats;			/* the runs are repeats of one measurement: the interval means something */
	double lo, hi;			/* the lowest and highest run's, when they are not */
};

/*
 * Throughput as a fraction of the ideal (ideal_s / makespan_s) over r's drain runs that met
 * no fault, or over all its drain runs when each met one.
 */
static struct row_pace row_speed(const struct report_doc *d, const struct summary_row *r, double *scratch)
{
	struct row_pace p = { .repeats = true, .lo = INFINITY, .hi = -INFINITY };
	const struct run_result *first = NULL;
	size_t n = 0;

	for (int pass = 0; pass < 2 && n == 0; pass++)
		for (size_t i = 0; i < d->n_runs; i++) {
			const struct run_result *run = &d->runs[i].run;
			const double ratio = run->metrics.makespan_ratio;

			if (!same_row(&d->runs[i], r->first) || figures_is_guarded(run) || (!pass && run->n_faults) ||
			    !isfinite(ratio) || ratio <= 0)
				continue;
			scratch[n++] = 1.0 / ratio;
			first = first ? first : run;
			p.repeats &= same_case(first, run);
			p.lo = fmin(p.lo, 1.0 / ratio);
			p.hi = fmax(p.hi, 1.0 / ratio);
		}
	p.over = stats_summarize(scratch, n);
	return p;
}

/* The fault kinds r met, "crashes, restarts", into buf (size bytes); "" when none. */
static void row_kinds(const struct summary_row *r, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < FAULT_KIND_COUNT && used < size; k++)
		if (r->kinds[k])
			used += (size_t)snprintf(buf + used, size - used, "%s%s%s", used ? ", " : "", fault_kind_names[k],
						 k == FAULT_CRASH ? "es" : "s");
}

/* The one-line verdict of r into buf (size bytes), its throughput speed. */
static void row_verdict(const struct summary_row *r, const struct row_pace *speed, char *buf, size_t size)
{
	char kinds[128], pace[48] = "";
	row_kinds(r, kinds, sizeof(kinds));
	if (speed->over.n && speed->repeats)
		snprintf(pace, sizeof(pace), ", %.2fx ideal", speed->over.mean);
	else if (speed->over.n)
		snprintf(pace, sizeof(pace), ", up to %.2fx ideal", speed->hi);
	if (r->integrity_errors)
		snprintf(buf, size, "integrity error: the ledger and the table disagree on %" PRIu64 " jobs nothing "
			 "explains (%s)", r->integrity_errors, r->integrity_where);
	else if (r->races)
		snprintf(buf, size, "duplicates under contention (%" PRIu64 " races): not a claim", r->races);
	else if (r->lost && r->rerun)
		snprintf(buf, size, "loses and redoes jobs under %s: not a claim", kinds);
	else if (r->lost)
		snprintf(buf, size, "loses jobs under %s: at-most-once only", kinds);
	else if (r->rerun)
		snprintf(buf, size, "at-least-once under %s: make the work idempotent%s", kinds, pace);
	else if (!r->lost_known)
		snprintf(buf, size, "lost jobs not known%s", pace);
	else if (r->faulted)
		snprintf(buf, size, "safe under %s%s", kinds, pace);
	else
		snprintf(buf, size, "no duplicates or losses, no faults run%s", pace);
}

/* Writes row r's cells into text (SUMMARY_COLUMNS cells), scratch holding d's runs' count of doubles. */
static void row_cells(const struct report_doc *d, const struct summary_row *r, double *scratch,
		      char (*text)[SUMMARY_CELL])
{
	const char *system = run_param_value(&r->first->run, RUN_PARAM_ADAPTER_SYSTEM);
	const char *version = run_param_value(&r->first->run, RUN_PARAM_ADAPTER_VERSION);
	char adapter[SUMMARY_CELL] = "";
	struct row_pace speed;

	if (system && version)
		snprintf(adapter, sizeof(adapter), " (%.80s %.40s)", system, version);
	snprintf(text[0], SUMMARY_CELL, "%s:%s%s", r->first->run.strategy, r->first->run.claim_mode, adapter);
	snprintf(text[1], SUMMARY_CELL, "%s", r->first->report.backend);
	snprintf(text[2], SUMMARY_CELL, "%zu", r->runs);
	snprintf(text[3], SUMMARY_CELL, "%s", row_guarantee(r));
	snprintf(text[4], SUMMARY_CELL, "%" PRIu64, r->races);
	snprintf(text[5], SUMMARY_CELL, "%" PRIu64, r->redeliveries);
	if (r->lost_known)
		snprintf(text[6], SUMMARY_CELL, "%" PRIu64, r->lost);
	else
		snprintf(text[6], SUMMARY_CELL, "n/a");
	row_recovery(d, r, scratch, text[7], SUMMARY_CELL);
	speed = row_speed(d, r, scratch);
	if (!speed.over.n)
		snprintf(text[8], SUMMARY_CELL, "n/a");
	else if (!speed.repeats)
		snprintf(text[8], SUMMARY_CELL, "%.2f to %.2f (%zu runs, unlike)", speed.lo, speed.hi, speed.over.n);
	else if (speed.over.n > 1)
		snprintf(text[8], SUMMARY_CELL, "%.2f [%.2f, %.2f]", speed.over.mean,
			 fmax(0, speed.over.mean - speed.over.ci95), speed.over.mean + speed.over.ci95);
	else
		snprintf(text[8], SUMMARY_CELL, "%.2f (one run)", speed.over.mean);
	row_verdict(r, &speed, text[9], SUMMARY_CELL);
}

/* Whether d's queue runs are of more than one engine. */
static bool engines_mixed(const struct report_doc *d)
{
	for (size_t i = 1; i < d->n_runs; i++)
		if (strcmp(d->runs[i].report.backend, d->runs[0].report.backend) != 0)
			return true;
	return false;
}

int doc_write_summary(FILE *out, const struct report_doc *d, const char *heading, const struct doc_markup *mk)
{
	struct grid_column cols[SUMMARY_COLUMNS];
	struct summary_row *rows = calloc(d->n_runs + 1, sizeof(*rows));
	double *scratch = calloc(d->n_runs + 1, sizeof(*scratch));
	char (*text)[SUMMARY_CELL] = NULL;
	const char **cells = NULL;
	const bool mixed = engines_mixed(d);
	size_t n_rows = 0, n_cols = 0;
	int ret = -1;

	if (!rows || !scratch)
		goto out;
	for (size_t i = 0; i < d->n_runs; i++) {
		size_t r;

		if (figures_is_guarded(&d->runs[i].run))
			continue;
		for (r = 0; r < n_rows && !same_row(rows[r].first, &d->runs[i]); r++)
			;
		if (r == n_rows)
			rows[n_rows++].first = &d->runs[i];
		row_add(&rows[r], &d->runs[i].run);
	}
	ret = 0;
	if (!n_rows)
		goto out;
	text = calloc(n_rows * SUMMARY_COLUMNS, sizeof(*text));
	cells = calloc(n_rows * SUMMARY_COLUMNS, sizeof(*cells));
	if (!text || !cells) {
		ret = -1;
		goto out;
	}
	for (size_t c = 0; c < SUMMARY_COLUMNS; c++)
		if (c != ENGINE_COLUMN || mixed)
			cols[n_cols++] = summary_columns[c];
	for (size_t r = 0; r < n_rows; r++) {
		char (*row)[SUMMARY_CELL] = text + r * SUMMARY_COLUMNS;

		row_cells(d, &rows[r], scratch, row);
		for (size_t c = 0, k = 0; c < SUMMARY_COLUMNS; c++)
			if (c != ENGINE_COLUMN || mixed)
				cells[r * n_cols + k++] = row[c];
	}
	mk->heading(out, 2, heading);
	mk->grid(out, cols, n_cols, cells, n_rows);
	mk->paragraph(out, "A row per strategy and claim mode (and engine) over all its runs. Guarantee as measured: "
		      "exactly-once (nothing lost or done twice, over runs with faults; \"no faults run\": nothing "
		      "could show it), at-least-once (done twice, none lost), at-most-once (lost, none done twice), "
		      "neither; done twice means a job's work began twice (a crashed batch's tail never begun, handed "
		      "out again, is not). Race duplicates: a job handed out while another still held it; "
		      "redeliveries: a job handed out again after its holder lost it (docs/metrics.md). Recovery per fault kind, median / worst over the runs. "
		      "Throughput / ideal: ideal makespan over measured, over the fault-free drain runs: the mean "
		      "and 95 % interval of repeats, the lowest and highest of unlike runs (worker counts, sections). "
		      "n/a: not known.");
out:
	free(rows);
	free(scratch);
	free(text);
	free(cells);
	return ret;
}
