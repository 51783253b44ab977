/*
 * The data behind `claimbench report`'s charts: stored runs grouped into series
 * (strategy, claim mode, scenario section, sweep point) and cases (a series at one
 * worker count, its repeats averaged), each chart's tab-separated data file, and
 * the colours of the strategies.
 */
#ifndef CLAIMBENCH_CHART_DATA_H
#define CLAIMBENCH_CHART_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "report/out_dir.h"
#include "store/store.h"

/* Room for a series' or a case's label, NUL included. */
#define CHART_LABEL 192

/* Room for a chart's space-separated colours or styles, one per block, NUL included. */
#define CHART_LIST 4096

/* Blocks one chart holds at most: a longer report is cut to this many series or cases. */
#define CHART_MAX_BLOCKS 256

/* Cases the timeline draws in one shared pair of plots at most; more get a panel per series. */
#define CHART_TIMELINE_SHARED 4

/* Panels the pressure (or holders) chart draws at most, one per sampled (or guarded) case: a longer report is cut to these. */
#define CHART_PRESSURE_PANELS 12

/* The first chart of guarded-resource runs: it and those after it draw only those, the others only queue runs. */
#define CHART_FIRST_GUARDED CHART_HOLDERS

/* The charts, in the order the report shows them. */
enum chart_kind {
	CHART_THROUGHPUT,	/* throughput against workers, markers per series, the work time's ceiling */
	CHART_MAKESPAN,		/* makespan per drain case, bars with min-max and the ideal */
	CHART_SHARES,		/* each worker's share of completed jobs against a fair share, per case */
	CHART_LATENCY,		/* claim-latency percentiles per case, log scale */
	CHART_QUEUE_WAIT,	/* queue-wait percentiles per open-loop case, log scale */
	CHART_TIMELINE,		/* distinct completions and duplicates per second and cumulative, per case */
	CHART_BACKLOG,		/* jobs waiting over time, per open-loop case */
	CHART_ARRIVALS,		/* arrivals per second over time against the rate asked, per open-loop case */
	CHART_EMPTIES,		/* empty claims and spurious empties per case */
	CHART_INTEGRITY,	/* duplicates, overlaps and lost jobs per case */
	CHART_WAITS,		/* sampled backend states by wait class, a stacked bar per case */
	CHART_PRESSURE,		/* throughput and dead tuples (or the -wal file) over time, the phases marked */
	CHART_BUFFERS,		/* blocks per claim at both ends, the head lookup's buffers before and after */
	CHART_HOLDERS,		/* guarded runs: holders and waiters per resource over time, a panel per case */
	CHART_GUARD_WAITS,	/* guarded runs: wait for a grant (p50, p99, max, writers' p99) per case, log scale */
	CHART_COUNT
};

/* How a chart of percentiles treats a case's repeats. */
enum chart_pooling {
	POOL_SINGLE,		/* every case is one run: nothing to pool */
	POOL_HISTOGRAMS,	/* the repeats' histograms merged, percentiles of the whole */
	POOL_MEAN,		/* the mean of the repeats' percentiles (no histogram stored) */
};

/* Runs that draw one line or one set of bars: everything but the worker count and the repeat alike. */
struct chart_series {
	char label[CHART_LABEL];	/* "strategy:mode", then " [group]" and " sweep" when set */
	const char *strategy;		/* strategy name (points into a run) */
	const char *mode;		/* claim mode, "" when unknown (points into a run) */
	const char *group;		/* scenario section, "" when none (points into a run) */
	const char *sweep;		/* sweep point, "" when none (points into a run) */
	int variant;			/* series of the same strategy before this one: picks its shade */
	size_t colour;			/* its strategy's colour number (chart_colour): the strategy's place in
					   the registry; a guard's (a guarded run's) after those; a name neither
					   registry holds after both, by first appearance in the set */
};

/* One series at one worker count: the repeats of one measurement. */
struct chart_case {
	size_t series;			/* index in chart_set.series */
	int workers;			/* worker threads */
	int variant;			/* cases of the same strategy before this one: picks its shade */
	int repeats;			/* runs in the case */
	bool timed;			/* a run of it is timed (duration_s > 0): no makespan */
	bool open_loop;			/* a run of it had arrivals (arrival_rate > 0) */
	char label[CHART_LABEL];	/* the series' label, then ", N wrk" */
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
};

/* One chart's data file as chart_write produced it, and what its gnuplot script needs. */
struct chart {
	enum chart_kind kind;		/* which chart */
	const char *name;		/* file stem: scripts/charts/NAME.gp, NAME.tsv, NAME.png, NAME.svg */
	const char *title;		/* heading in the documents */
	size_t blocks;			/* data blocks (or columns) written, one per series or case */
	size_t marks;			/* blocks after those: the timeline's fault marks (0 or 1) */
	char colours[CHART_LIST];	/* "#rrggbb" per block, space-separated; the wait shares': per wait class */
	char styles[CHART_LIST];	/* a small number per block (dash type), space-separated */
	int height;			/* the image's height in pixels */
	double xlo, xhi;		/* the throughput's worker range; charts over time: xhi, the last instant (s) */
	bool log_x;			/* workers on a log scale: they span a wide range */
	char ticks[CHART_LIST];		/* throughput: the worker counts measured, space-separated: its x tics */
	double ylo;			/* the bottom of a log y range (percentile charts); 0: a range from 0 */
	double ymax;			/* the top of the y range; 0: automatic */
	double ymax2;			/* the top of a second plot's y range: the timeline's jobs done so far */
	double ceiling;			/* jobs/s one worker can complete (1000 / work_ms), common to every run; -1: they differ; 0: none */
	double arrival_rate;		/* jobs/s the producers were asked for, common to every run; 0: none or unequal */
	enum chart_pooling pooling;	/* percentile charts: how repeats are pooled */
	bool dups_known;		/* timeline: every run's series tells first completions from duplicates */
	char layer[CHART_LIST];		/* the blocks (from 1) a second layer draws, space-separated: the
					   timeline's with a duplicate, the throughput's with a ceiling of
					   their own, the makespan's with a repeated case; the pressure
					   chart's panels drawing the -wal file; the buffers chart's panels
					   written (1 blocks per claim, 2 the head lookup); the holders
					   chart's panels with a limit */
	size_t panels;			/* timeline: panels, one per series; 0: the shared layout; pressure, holders:
					   one per case */
	char firsts[CHART_LIST];	/* timeline, holders: each panel's first block (from 1), then blocks + 1,
					   space-separated */
	char phases[CHART_LIST];	/* pressure: per phase "panel kind start end" (panel from 1, kind 0 a held
					   snapshot, 1 a vacuum, instants in s), space-separated */
};

/*
 * Writes into buf (at least 8 bytes) colour number n as "#rrggbb": a fixed palette for the
 * first numbers, then generated hues, never grey; different numbers (the first 1024 at least,
 * four times the blocks a chart draws), different colours.
 */
void chart_colour(size_t n, char *buf);

/*
 * Writes into buf (at least 8 bytes) colour number colour at shade variant: the colour
 * itself for 0, then alternately lighter and darker ones.
 */
void chart_shade(size_t colour, int variant, char *buf);

/*
 * Copies s into buf for a gnuplot data string or a document: control characters and
 * double quotes become '?' and '\'', backslashes '/'; truncated to fit.
 */
void chart_clean_label(char *buf, size_t size, const char *s);

/*
 * Whether the report draws chart kind for set: the makespan only when a case is a drain
 * run, the queue wait, backlog and arrivals only when a case had arrivals; the wait shares
 * only when a run sampled its backends' wait events, the pressure chart when a run with a
 * time series sampled dead tuples or the -wal file, the buffers when a sampled run knows
 * blocks per claim or the head lookup's buffers; the holders when a run has a holders series,
 * the guard waits when set has a case; the others always, but never for a set of no run.
 * The charts from CHART_FIRST_GUARDED on are meant for a set of guarded runs, the others
 * for a set of queue runs.
 */
bool chart_wanted(const struct chart_set *set, enum chart_kind kind);

/* Groups the n runs into set (zeroed first). 0, or -1 when out of memory. */
int chart_set_build(struct chart_set *set, const struct store_run *runs, size_t n);

/* Frees what chart_set_build allocated in set and zeroes it; a zeroed set is fine. */
void chart_set_free(struct chart_set *set);

/*
 * Writes chart kind's data file NAME.tsv into the folder dir and fills *c (a chart kind
 * chart_wanted refuses is written with no block). 0, or -1
 * with err when the file cannot be written.
 */
int chart_write(const struct chart_set *set, enum chart_kind kind, const struct out_dir *dir, struct chart *c, char *err,
		size_t errlen);

#endif
