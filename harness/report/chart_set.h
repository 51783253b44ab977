/*
 * The stored runs of a report grouped for drawing: series (strategy, claim mode, scenario
 * section, sweep point, engine) and cases (a series at one worker count, its repeats averaged).
 */
#ifndef CLAIMBENCH_CHART_SET_H
#define CLAIMBENCH_CHART_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "report/chart.h"
#include "store/store.h"

/* Room for a series' or a case's label, NUL included. */
#define CHART_LABEL 192

/* Runs that draw one line or one set of bars: everything but the worker count and the repeat alike. */
struct chart_series {
	char label[CHART_LABEL];	/* "strategy:mode", then " [group]" and " sweep" when set, then " (engine)"
					   when the set's runs are of more than one engine */
	const char *strategy;		/* strategy name (points into a run) */
	const char *mode;		/* claim mode, "" when unknown (points into a run) */
	const char *group;		/* scenario section, "" when none (points into a run) */
	const char *sweep;		/* sweep point, "" when none (points into a run) */
	const char *engine;		/* backend and server version (run_result.engine; points into a run) */
	int variant;			/* its shade (chart_shade): its claim mode's (0, or 1 for the other
					   mode of a strategy the set runs in two), then 2 more (dash and
					   marker, not colour) per series of the same strategy and mode
					   before it (chart_set.c) */
	size_t colour;			/* its strategy's colour number (chart_colour): the strategy's place in
					   the registry; a guard's (a guarded run's) after those; a name neither
					   registry holds after both, by first appearance in the set */
};

/* One series at one worker count: the repeats of one measurement. */
struct chart_case {
	size_t series;			/* index in chart_set.series */
	int workers;			/* worker threads */
	int variant;			/* its shade: its series', then 2 more (dash and marker, not colour) per
					   case of the series before it */
	int repeats;			/* runs in the case */
	bool timed;			/* a run of it is timed (duration_s > 0): no makespan */
	bool open_loop;			/* a run of it had arrivals (arrival_rate > 0) */
	char label[CHART_LABEL];	/* the series' label, then ", N wrk" unless every case ran at N (workers) */
};

/* The runs of a report grouped for drawing. */
struct chart_set {
	const struct store_run *runs;	/* the runs, in the order given (not owned) */
	size_t n_runs;			/* entries in runs */
	struct chart_series *series;	/* series in order of first appearance (owned) */
	size_t n_series;		/* entries in series */
	struct chart_case *cases;	/* cases by series, then by worker count (owned) */
	size_t n_cases;			/* entries in cases */
	size_t *case_of;		/* each run's case index, n_runs of them (owned) */
	size_t runs_without_series;	/* runs whose time series the store does not hold */
	int workers;			/* the worker count every case ran at, 0 when they differ: the cases'
					   labels then leave it out and the charts say it once */
	bool engines;			/* the runs are of more than one engine: each label names its own */
};

/*
 * Copies s into buf for a gnuplot data string or a document: control characters and
 * double quotes become '?' and '\'', backslashes '/'; truncated to fit.
 */
void chart_clean_label(char *buf, size_t size, const char *s);

/* Groups the n runs into set (zeroed first). 0, or -1 when out of memory. */
int chart_set_build(struct chart_set *set, const struct store_run *runs, size_t n);

/*
 * As chart_set_build, for a part of the runs of whole (a report's section): each series
 * takes the colour and mode shade of the first series of its strategy and mode in whole, so that
 * a strategy and mode look alike in every part's charts; a part of one section labels its
 * series without it. whole NULL: as chart_set_build.
 */
int chart_set_build_within(struct chart_set *set, const struct store_run *runs, size_t n,
			   const struct chart_set *whole);

/* Whether set's cases were repeated: none, all or some of them (chart.h). */
enum chart_repeats chart_repeats_of(const struct chart_set *set);

/* Frees what chart_set_build allocated in set and zeroes it; a zeroed set is fine. */
void chart_set_free(struct chart_set *set);

#endif
