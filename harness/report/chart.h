/*
 * What a chart of `claimbench report` is: its kind (the charts, in the order the report
 * shows them), its limits, and struct chart, what chart_write found while writing its data
 * file and what its gnuplot script needs.
 */
#ifndef CLAIMBENCH_CHART_H
#define CLAIMBENCH_CHART_H

#include <stdbool.h>
#include <stddef.h>

/* Room for a chart's space-separated colours or styles, one per block, NUL included. */
#define CHART_LIST 4096

/* Entries a chart's key holds beside the plot at most; a longer key goes below it, in columns (common.gp). */
#define CHART_KEY_BESIDE 6

/* Room for a chart's file stem and for its section's name, NUL included. */
#define CHART_STEM 96
#define CHART_SECTION 192

/* Blocks one chart holds at most: a longer report is cut to this many series or cases. */
#define CHART_MAX_BLOCKS 256

/* Cases the timeline draws in one shared pair of plots at most; more get a panel per series. */
#define CHART_TIMELINE_SHARED 4

/*
 * Panels the pressure (or holders) chart draws at most, one per sampled (or guarded) case: a
 * longer report is cut to these, and the chart's title says how many it left out.
 */
#define CHART_PRESSURE_PANELS 64

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
	CHART_RECOVERY,		/* runs with faults: the server's outage and each strategy's own recovery time */
	CHART_WAITS,		/* sampled backend states by wait class, a stacked bar per case */
	CHART_PRESSURE,		/* throughput and dead tuples (or the -wal file) over time, the phases marked */
	CHART_BUFFERS,		/* blocks per claim at both ends, the head lookup's buffers before and after */
	CHART_HOLDERS,		/* guarded runs: holders and waiters per resource over time, a panel per case */
	CHART_GUARD_WAITS,	/* guarded runs: wait for a grant (p50, p99, max, writers' p99) per case, log scale */
	CHART_COUNT
};

/* Whether the cases of a chart's set were repeated. */
enum chart_repeats {
	REPEATS_NONE,	/* every case is one run: its figure is that run's, no mean, no bars */
	REPEATS_ALL,	/* every case has two runs or more: means over them, min-max bars */
	REPEATS_SOME,	/* some cases are one run, some more */
};

/* How a chart of percentiles treats a case's repeats. */
enum chart_pooling {
	POOL_SINGLE,		/* every case is one run: nothing to pool */
	POOL_HISTOGRAMS,	/* the repeats' histograms merged, percentiles of the whole */
	POOL_MEAN,		/* the mean of the repeats' percentiles (no histogram stored) */
};

/* One chart's data file as chart_write produced it, and what its gnuplot script needs. */
struct chart {
	enum chart_kind kind;		/* which chart */
	const char *script;		/* its kind's stem: scripts/charts/SCRIPT.gp draws it */
	char name[CHART_STEM];		/* file stem: NAME.tsv, NAME.png, NAME.svg; SCRIPT, or SCRIPT-PART */
	char part[CHART_STEM];		/* its file names' suffix: its section's name made file-safe
					   (chart_part_stem) when the report has several, else "" */
	char section[CHART_SECTION];	/* the scenario section of its runs (chart_clean_label), "" when the
					   report draws runs of no section or of several together */
	const char *title;		/* heading in the documents */
	size_t blocks;			/* data blocks (or columns) written, one per series or case */
	size_t marks;			/* blocks after those: the timeline's fault marks (0 or 1) */
	char colours[CHART_LIST];	/* "#rrggbb" per block, space-separated; the wait shares': per wait class */
	char styles[CHART_LIST];	/* a small number per block (dash type), space-separated */
	char shapes[CHART_LIST];	/* a marker shape number per block (chart_shape), space-separated */
	int height;			/* the image's height in pixels, a key below the plot included */
	int workers;			/* the worker count every case ran at (the set's), 0 when they differ:
					   the charts then name strategies, not worker counts, on their axes */
	double xlo, xhi;		/* the throughput's worker range; charts over time: xhi, the last instant (s) */
	bool log_x;			/* workers on a log scale: they span a wide range */
	char ticks[CHART_LIST];		/* throughput: the worker counts measured, space-separated: its x tics */
	double ylo;			/* the bottom of a log y range (percentile charts); 0: a range from 0 */
	double ymax;			/* the top of the y range; 0: automatic */
	double ymax2;			/* the top of a second plot's y range: the timeline's jobs done so far */
	double ceiling;			/* jobs/s one worker can complete (1000 / work_ms), common to every run; -1: they differ; 0: none */
	double arrival_rate;		/* jobs/s the producers were asked for, common to every run; 0: none or unequal */
	enum chart_pooling pooling;	/* percentile charts: how repeats are pooled */
	enum chart_repeats repeats;	/* whether its cases were repeated: what a mean and its bars stand for */
	bool engines;			/* its set's runs are of more than one engine: labels long enough to slant */
	bool dups_known;		/* timeline, pressure: every run's series drawn tells first completions
					   from duplicates (the rates drawn are of distinct jobs) */
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
	char faulted[CHART_LIST];	/* timeline: the blocks (from 1) with a fault mark, space-separated */
	char outages[CHART_LIST];	/* timeline: the blocks (from 1) with a server outage (a restart's), space-separated */
	size_t left_out;		/* pressure, holders: cases with something to draw beyond the panels drawn */
	bool own_scales;		/* timeline panels: each its own y range, their highest rates far apart */
	bool own_times;			/* timeline panels: each its own x range, their runs' lengths far apart */
	char phases[CHART_LIST];	/* pressure: per phase "panel kind start end" (panel from 1, kind 0 a held
					   snapshot, 1 a vacuum, instants in s), space-separated */
};

#endif
