#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/config.h"
#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "output/figures.h"

/* Whether run belongs to a scenario group or a sweep point. */
static bool has_point(const struct run_result *run)
{
	return (run->group && *run->group) || (run->sweep && *run->sweep);
}

/* Whether run is of a sweep point. */
static bool has_sweep(const struct run_result *run)
{
	return run->sweep && *run->sweep;
}

/*
 * The group/sweep cell: "group", "sweep" or "group/sweep" (spaces shown as '_'), "-" when
 * neither; with sweep_only (a table of one section's rows), the sweep alone.
 */
static void point_cell(const struct run_result *run, bool sweep_only, char *buf, size_t size)
{
	const char *group = run->group && !sweep_only ? run->group : "", *sweep = run->sweep ? run->sweep : "";

	if (!*group && !*sweep) {
		snprintf(buf, size, "-");
		return;
	}
	snprintf(buf, size, "%s%s%s", group, *group && *sweep ? "/" : "", sweep);
	for (char *c = buf; *c; c++)
		if (*c == ' ' || (unsigned char)*c < 0x20 || *c == 0x7f)
			*c = *c == ' ' ? '_' : '?';
}

/* Formats metric m of run as its table cell; "-" when unknown or not finite. */
static void metric_cell(const struct metric *m, const struct run_result *run, char *buf, size_t size)
{
	double v = metric_get(m, &run->metrics);
	int decimals = m->cell.decimals;

	if (!isfinite(v)) {
		snprintf(buf, size, "-");
	} else if (m->type == METRIC_FLAG) {
		snprintf(buf, size, "%s", metric_get_count(m, &run->metrics) ? "yes" : "no");
	} else if (m->type == METRIC_COUNT) {
		snprintf(buf, size, "%" PRIu64, metric_get_count(m, &run->metrics));
	} else {
		if (decimals == CELL_MS_DECIMALS)
			decimals = fabs(v) < 10 ? 3 : fabs(v) < 1000 ? 1 : 0;
		snprintf(buf, size, "%.*f", decimals, v);
	}
}

/* Adds a column that is no metric to f, with what it holds. */
static void add_column(struct figures *f, const char *header, bool text, const char *gloss)
{
	f->columns[f->n_columns++] = (struct figures_column){ .header = header, .unit = "", .text = text,
							      .gloss = gloss };
}

/* Adds metric m's column to f, with its gloss and definition. */
static void add_metric_column(struct figures *f, const struct metric *m)
{
	f->columns[f->n_columns++] = (struct figures_column){ .header = m->cell.header, .unit = m->cell.unit,
							      .metric = m, .gloss = m->cell.gloss,
							      .definition = m->definition };
}

/* The faults table's columns shown when some run has them known: a failover's, even when 0. */
static const char *const fault_columns_if_known[] = {
	"failover.lag_bytes", "failover.lost_completions", "failover.rerun", "failover.left_active",
	"failover.claims_lost", "failover.first_completion_ms",
};

/* Whether a run among the n has metric m known. */
static bool any_known(const struct metric *m, const struct run_result *const *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isfinite(metric_get(m, &runs[i]->metrics)))
			return true;
	return false;
}

/* Whether a run among the n has metric m known and not 0. */
static bool any_has(const struct metric *m, const struct run_result *const *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double v = metric_get(m, &runs[i]->metrics);

		if (isfinite(v) && v != 0)
			return true;
	}
	return false;
}

/* The metrics of the faults table (its columns follow the metric table's order). */
static const char *const fault_columns[] = {
	"faults_injected", "lost", "stuck", "race_duplicates", "redeliveries", "overlaps", "zombie_completions", "fenced",
	"reaped", "reconnects", "recovery_ms.p50", "recovery_ms.max", "restart_first_completion_ms",
};

/*
 * The faults table's columns shown when some run has them known and not 0: the redeliveries
 * by cause, those of jobs never begun, the claims lost in flight and the completions a cut
 * connection left unknown.
 */
static const char *const fault_columns_if_any[] = {
	"redeliveries_crash", "redeliveries_lease", "redeliveries_reaper", "redeliveries_stale_ticket",
	"redeliveries_restart", "redeliveries_killed_backend", "redeliveries_failover", "redelivered_unbegun",
	"claims_lost_in_flight", "completions_unknown", "overwritten_completions",
};

void figures_delivery(const struct run_metrics *m, char *buf, size_t size)
{
	bool most = m->delivery.at_most_once == 1, least = m->delivery.at_least_once == 1;
	char dup[48] = "", lost[48] = "";

	if (m->delivery.at_most_once == METRIC_UNKNOWN) {
		snprintf(buf, size, "-");
		return;
	}
	if (!most)
		snprintf(dup, sizeof(dup), "%" PRIu64 " begun again", metric_begun_again(m));
	if (m->delivery.at_least_once == 0)
		snprintf(lost, sizeof(lost), "%" PRIu64 " lost", m->lost);
	if (m->delivery.at_least_once == METRIC_UNKNOWN)
		snprintf(buf, size, "at-most-once %s, at-least-once unknown%s%s%s", most ? "held" : "broken",
			 most ? "" : " (", dup, most ? "" : ")");
	else if (most && least)
		snprintf(buf, size, "both held");
	else if (least)
		snprintf(buf, size, "at-least-once only (%s)", dup);
	else if (most)
		snprintf(buf, size, "at-most-once only (%s)", lost);
	else
		snprintf(buf, size, "neither (%s, %s)", dup, lost);
}

/* What a table shows besides its metrics. */
struct table_shape {
	bool points;		/* a group/sweep column: a run has one */
	bool sweep_only;	/* its rows are shown a section at a time: the column holds the sweep alone */
	bool delivery;		/* a delivery column (the faults table) */
	bool guarded;		/* its first columns are guard and workload (the guarded-resources table) */
	bool engine;		/* an engine column after the workers: the runs are of more than one engine */
};

/* Whether the n runs are of more than one engine (run_result.engine). */
static bool engines_differ(const struct run_result *const *runs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(runs[i]->engine, runs[0]->engine) != 0)
			return true;
	return false;
}

/* Fills row r of f with run's cells, the columns being those build chose (shown[] per metric). */
static void fill_row(struct figures *f, size_t r, const struct run_result *run, const bool *shown,
		     const struct table_shape *shape)
{
	char (*cell)[FIGURES_CELL] = &f->cells[r * f->n_columns], label[FIGURES_CELL];

	run_strategy_label(run, label, sizeof(label));
	text_clean(*cell++, FIGURES_CELL, label, SIZE_MAX);
	text_clean(*cell++, FIGURES_CELL, run->claim_mode, SIZE_MAX);
	snprintf(*cell++, FIGURES_CELL, "%d", run->workers);
	if (shape->engine)
		text_clean(*cell++, FIGURES_CELL, *run->engine ? run->engine : "-", SIZE_MAX);
	for (size_t i = 0; i < metric_table_len; i++)
		if (shown[i])
			metric_cell(&metric_table[i], run, *cell++, FIGURES_CELL);
	if (shape->delivery)
		figures_delivery(&run->metrics, *cell++, FIGURES_CELL);
	if (shape->points)
		point_cell(run, shape->sweep_only, *cell, FIGURES_CELL);
}

/* Builds into f a table of the n runs with the metrics shown[] names and shape's other columns. 0, or -1. */
static int build(struct figures *f, const struct run_result *const *runs, size_t n, const bool *shown,
		 struct table_shape shape)
{
	size_t i;

	for (i = 0; i < n; i++)
		shape.points |= shape.sweep_only ? has_sweep(runs[i]) : has_point(runs[i]);
	shape.engine = engines_differ(runs, n);
	if (shape.guarded) {
		add_column(f, "guard", true, "how the workers take the guarded resource (claimbench list guards)");
		add_column(f, "workload", true, "refresh, exclusive-use or resource (docs/guarded.md)");
	} else {
		add_column(f, "strategy", true, "the claiming strategy");
		add_column(f, "mode", true, "claim mode: hold (the claim's transaction stays open while the job runs) "
			   "or flip (the claim commits the job's status to active)");
	}
	add_column(f, "wrk", false, "worker threads, each with its own connection");
	if (shape.engine)
		add_column(f, "engine", true, "the backend and its server's version: runs of two engines are never "
			   "repeats of one case");
	for (i = 0; i < metric_table_len; i++)
		if (shown[i])
			add_metric_column(f, &metric_table[i]);
	if (shape.delivery)
		add_column(f, "delivery", true, "the delivery guarantees the run kept: at-most-once (no job executed "
			   "twice) and at-least-once (no job lost)");
	if (shape.points && shape.sweep_only)
		add_column(f, "sweep", true, "the swept keys' values of the run");
	else if (shape.points)
		add_column(f, "group/sweep", true, "the scenario section and the swept keys' values of the run");
	f->cells = calloc(n * f->n_columns + 1, sizeof(*f->cells));
	if (!f->cells) {
		memset(f, 0, sizeof(*f));
		return -1;
	}
	for (i = 0; i < n; i++)
		fill_row(f, i, runs[i], shown, &shape);
	f->n_rows = n;
	return 0;
}

int figures_build(struct figures *f, const struct run_result *const *runs, size_t n, bool sections_apart)
{
	bool shown[METRIC_MAX], arrivals = any_has(metric_find("arrivals"), runs, n);

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < metric_table_len; i++) {
		const struct metric *m = &metric_table[i];

		shown[i] = m->cell.header && (m->cell.place == CELL_MAIN ||
					      (m->cell.place == CELL_MAIN_IF_ANY && any_has(m, runs, n)) ||
					      (m->cell.place == CELL_MAIN_IF_ARRIVALS && arrivals));
	}
	return build(f, runs, n, shown, (struct table_shape){ .sweep_only = sections_apart });
}

bool figures_any_faults(const struct run_result *const *runs, size_t n)
{
	return any_has(metric_find("faults_injected"), runs, n);
}

int figures_build_faults(struct figures *f, const struct run_result *const *runs, size_t n, bool sections_apart)
{
	bool shown[METRIC_MAX] = { false };

	memset(f, 0, sizeof(*f));
	for (size_t c = 0; c < sizeof(fault_columns) / sizeof(fault_columns[0]); c++)
		shown[metric_find(fault_columns[c]) - metric_table] = true;
	for (size_t c = 0; c < sizeof(fault_columns_if_any) / sizeof(fault_columns_if_any[0]); c++) {
		const struct metric *m = metric_find(fault_columns_if_any[c]);

		shown[m - metric_table] = any_has(m, runs, n);
	}
	for (size_t c = 0; c < sizeof(fault_columns_if_known) / sizeof(fault_columns_if_known[0]); c++) {
		const struct metric *m = metric_find(fault_columns_if_known[c]);

		shown[m - metric_table] = any_known(m, runs, n);
	}
	return build(f, runs, n, shown, (struct table_shape){ .delivery = true, .sweep_only = sections_apart });
}

bool figures_any_server(const struct run_result *const *runs, size_t n)
{
	return any_has(metric_find("server.samples"), runs, n);
}

int figures_build_server(struct figures *f, const struct run_result *const *runs, size_t n, bool sections_apart)
{
	bool shown[METRIC_MAX] = { false };

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < metric_table_len; i++) {
		const struct metric *m = &metric_table[i];

		shown[i] = m->cell.header && m->cell.place == CELL_SERVER &&
			   (any_has(m, runs, n) || strcmp(m->path, "server.samples") == 0);
	}
	return build(f, runs, n, shown, (struct table_shape){ .sweep_only = sections_apart });
}

bool figures_is_guarded(const struct run_result *run)
{
	for (int w = WORKLOAD_QUEUE + 1; w < WORKLOAD_COUNT; w++)
		if (run->claim_mode && strcmp(run->claim_mode, workload_names[w]) == 0)
			return true;
	return false;
}

int figures_build_guarded(struct figures *f, const struct run_result *const *runs, size_t n)
{
	bool shown[METRIC_MAX];

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < metric_table_len; i++) {
		const struct metric *m = &metric_table[i];

		shown[i] = m->cell.header && m->cell.place == CELL_GUARD;
	}
	return build(f, runs, n, shown, (struct table_shape){ .guarded = true });
}

const char *figures_cell(const struct figures *f, size_t r, size_t c)
{
	return f->cells[r * f->n_columns + c];
}

void figures_free(struct figures *f)
{
	free(f->cells);
	memset(f, 0, sizeof(*f));
}
