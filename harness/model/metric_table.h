/*
 * The metric table: one row per figure of struct run_metrics, the only list of them.
 * The printers (table, CSV, JSON), the result store's columns, the repetitions'
 * summaries, compare, expectations and the JSON reader all walk it. Adding a metric
 * is a field in struct run_metrics, one row in metric_table.c and its computation in
 * measure/metrics.c.
 */
#ifndef CLAIMBENCH_METRIC_TABLE_H
#define CLAIMBENCH_METRIC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/result.h"

/*
 * The value of a count nobody knows (a run read from a store older than its column):
 * printed as "-" in the table, null in JSON, empty in CSV, NULL in the store.
 */
#define METRIC_UNKNOWN UINT64_MAX

/* Rows metric_table may hold at most; arrays indexed by a metric's row are this long. */
#define METRIC_MAX 192

/* Decimals of a table cell that shrink as a duration in ms grows: 3 below 10, 1 below 1000, then 0. */
#define CELL_MS_DECIMALS (-1)

/* How a metric is held in struct run_metrics. */
enum metric_type {
	METRIC_DOUBLE,	/* a double; NaN when not known */
	METRIC_COUNT,	/* a uint64_t; METRIC_UNKNOWN when not known */
	METRIC_FLAG,	/* a uint64_t, 1 true or 0 false; METRIC_UNKNOWN when not known */
};

/* Which way of a metric is better, for compare. */
enum metric_direction {
	NOT_COMPARED,		/* compare leaves it out */
	HIGHER_IS_BETTER,	/* throughput, fairness */
	LOWER_IS_BETTER,	/* makespan, duplicates, losses, latency */
};

/* Which of compare's tolerances guards a metric. */
enum metric_guard {
	GUARD_NONE,		/* compared, never a regression */
	GUARD_THROUGHPUT,	/* relative drop beyond --throughput-drop % of the baseline */
	GUARD_JAIN,		/* absolute drop beyond --jain-drop */
	GUARD_DUPLICATES,	/* above 0 where the baseline was 0, unless --allow-duplicates */
	GUARD_LOSSES,		/* above 0 where the baseline was 0, unless --allow-losses */
	GUARD_EXCLUSION,	/* above 0 where the baseline was 0: a guarded resource's guard broke */
};

/*
 * What kind of figure a metric is, for a comparison that must tell what noise can move
 * from what it cannot (`claimbench ab`). It starts at 1: a row that left it out (0) is
 * caught by tests/unit/test_metric_table.c.
 */
enum metric_nature {
	NATURE_OUTCOME = 1,	/* a count or state of what happened (duplicates, losses, errors, empty claims): its own guard judges it */
	NATURE_TIMING,	/* a time or a rate (throughput, latency, makespan): moves with the machine's load */
	NATURE_COST,	/* work counted per job (statements, buffers, WAL, CPU): stable run to run, gated with a tolerance */
};

/* Which table shows a metric's cell. */
enum cell_place {
	CELL_MAIN,		/* the figures table, always */
	CELL_MAIN_IF_ANY,	/* the figures table, when some run has it known and not 0 */
	CELL_MAIN_IF_ARRIVALS,	/* the figures table, when some run had arrivals (open loop) */
	CELL_ASIDE,		/* the faults table (output/figures.h), when some run met a fault */
	CELL_SERVER,		/* the server table (output/figures.h), when some run sampled the server */
	CELL_GUARD,		/* the guarded-resources table (output/figures.h), when some run was of a guarded workload */
};

/* A metric's column in the terminal table. */
struct metric_cell {
	const char *header;	/* the column's first header line, short ("thru"); NULL: no column */
	const char *unit;	/* its second header line ("jobs/s"), "" when none */
	int decimals;		/* digits after the point of a double, or CELL_MS_DECIMALS */
	enum cell_place place;	/* which table shows it */
	const char *gloss;	/* a few words for the key under the table ("executions beyond the first") */
};

/* One metric: where it is, what it is called and who shows or judges it. */
struct metric {
	const char *path;		/* its name in JSON, expectations and compare; dots nest: "fairness.jain" */
	const char *column;		/* its CSV column and result-store column: "jain" */
	enum metric_type type;		/* how it is held */
	size_t offset;			/* where, in struct run_metrics */
	struct metric_cell cell;	/* its column in the terminal table */
	bool summarised;		/* the repetitions' summary covers it */
	enum metric_direction direction; /* compare: which way is better */
	enum metric_guard guard;	/* compare: the tolerance that guards it */
	const char *definition;		/* one line saying what it is (docs/metrics.md has the whole) */
	enum metric_nature nature;	/* an outcome, a timing or a cost */
};

/* Every metric, in the order of the table's columns, CSV's columns and JSON's members. */
extern const struct metric metric_table[];

/* Rows in metric_table (at most METRIC_MAX). */
extern const size_t metric_table_len;

/* The metric called path, or NULL. */
const struct metric *metric_find(const char *path);

/* m in rm as a double: a count converted, NaN when unknown. */
double metric_get(const struct metric *m, const struct run_metrics *rm);

/* Count or flag m (METRIC_COUNT, METRIC_FLAG) in rm; METRIC_UNKNOWN when unknown. */
uint64_t metric_get_count(const struct metric *m, const struct run_metrics *rm);

/* Sets double m (METRIC_DOUBLE) in rm to v. */
void metric_set_double(const struct metric *m, struct run_metrics *rm, double v);

/* Sets count or flag m (METRIC_COUNT, METRIC_FLAG) in rm to v. */
void metric_set_count(const struct metric *m, struct run_metrics *rm, uint64_t v);

/* Sets every metric of rm to unknown: NaN and METRIC_UNKNOWN. */
void metrics_set_unknown(struct run_metrics *rm);

/*
 * rm's race duplicates; for a run of an older claimbench, which counted them in duplicates
 * alone (race_duplicates METRIC_UNKNOWN), its duplicates less its redeliveries (an unknown
 * count as 0).
 */
uint64_t metric_races(const struct run_metrics *rm);

/*
 * Fills the figures a run read back from an older claimbench's JSON file lacks, where its
 * own figures give them: race_duplicates (metric_races), so that compare gates an older
 * baseline's races as a new one's. (An older store's runs keep them unknown: a column added
 * at open cannot tell a run that never had the figure from one that did not know it.)
 */
void metrics_fill_older(struct run_metrics *rm);

/*
 * How many times rm's jobs had their work begun again: race duplicates plus redeliveries,
 * less the redeliveries that began no work again (redelivered_unbegun; metric_races; an unknown
 * count as 0).
 */
uint64_t metric_begun_again(const struct run_metrics *rm);

/* The value of the metric at path in run r (NaN when unknown). 0, or -1 when path names no metric. */
int metric_value(const struct run_result *r, const char *path, double *out);

/* Writes every metric path, comma-separated, into buf (for error messages), truncated to fit. */
void metric_paths_list(char *buf, size_t len);

#endif
