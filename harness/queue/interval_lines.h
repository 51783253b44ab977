/*
 * The interval lines of --progress-interval, as pgbench -P prints them: every S seconds
 * of a run, one line on stderr with what happened in that interval alone (throughput,
 * mean claim latency, empty claims, errors, arrivals), so that a decline shows where an
 * average since the start would hide it. The last, shorter interval is printed at the
 * end, so that the lines add up to the run.
 */
#ifndef CLAIMBENCH_INTERVAL_LINES_H
#define CLAIMBENCH_INTERVAL_LINES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "queue/live_counters.h"

/* The interval lines of one run. */
struct interval_lines {
	FILE *out;			/* where they go (stderr) */
	int64_t every_ns;		/* the interval; 0: no lines */
	int64_t start_ns;		/* the run's start (clock_now_ns) */
	int64_t measured_from_ns;	/* the warm-up's end: intervals before it are marked */
	bool arrivals;			/* the run has producers: arrivals are shown */
	int64_t last_ns;		/* the end of the interval last printed (start_ns at first) */
	struct live_totals last;	/* the totals at last_ns */
};

/*
 * Prepares il for a run that started at start_ns and is measured from measured_from_ns:
 * a line every every_s seconds on out (0: none), with arrivals when the run has producers.
 */
void interval_lines_init(struct interval_lines *il, FILE *out, double every_s, int64_t start_ns,
			 int64_t measured_from_ns, bool arrivals);

/* Whether the interval after the last printed one has ended at now_ns. */
bool interval_lines_due(const struct interval_lines *il, int64_t now_ns);

/* Prints under label the interval from the last printed one to now_ns, whose totals are now. */
void interval_lines_print(struct interval_lines *il, const char *label, const struct live_totals *now,
			  int64_t now_ns);

/* Prints the last interval, shorter than the others, if the run went on after the last line. */
void interval_lines_finish(struct interval_lines *il, const char *label, const struct live_totals *now,
			   int64_t now_ns);

#endif
