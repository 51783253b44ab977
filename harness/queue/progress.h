/*
 * The progress line on stderr: done/total, the rate over the last second and since the
 * start, and the elapsed time, redrawn at most 4 times a second, on a terminal only.
 */
#ifndef CLAIMBENCH_PROGRESS_H
#define CLAIMBENCH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Redraw at most this often. */
#define PROGRESS_INTERVAL_NS 250000000

/* The rate shown as "now" is measured over a window at least this long. */
#define PROGRESS_WINDOW_NS 1000000000

struct progress {
	FILE *out;		/* where it is drawn (stderr) */
	bool enabled;		/* false when out is not a terminal */
	int64_t last_draw_ns;	/* when it was last drawn (clock_now_ns) */
	bool drawn;		/* a line is on the screen and must be cleared */
	int64_t window_ns;	/* elapsed time at the start of the current rate window */
	uint64_t window_done;	/* jobs done at that time */
	double recent_rate;	/* jobs/s over the last full window; negative before the first */
};

/* Prepares p for out; it draws only when out is a terminal and wanted is true. */
void progress_init(struct progress *p, FILE *out, bool wanted);

/*
 * Redraws the line if the interval has passed: label, done of total (total 0: unknown),
 * the rate over the last second and since the start, and elapsed_ns since the start.
 */
void progress_update(struct progress *p, const char *label, uint64_t done, uint64_t total, int64_t elapsed_ns);

/* Erases the line, if one is drawn. */
void progress_clear(struct progress *p);

#endif
