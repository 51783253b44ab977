/* The progress line on stderr: done/total, rate and elapsed time, redrawn at most 4 times a second. */
#ifndef CLAIMBENCH_PROGRESS_H
#define CLAIMBENCH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Redraw at most this often. */
#define PROGRESS_INTERVAL_NS 250000000

struct progress {
	FILE *out;		/* where it is drawn (stderr) */
	bool enabled;		/* false when out is not a terminal */
	int64_t last_draw_ns;	/* when it was last drawn (clock_now_ns) */
	bool drawn;		/* a line is on the screen and must be cleared */
};

/* Prepares p for out; it draws only when out is a terminal and wanted is true. */
void progress_init(struct progress *p, FILE *out, bool wanted);

/* Redraws the line if the interval has passed: label, done of total (total 0: unknown), rate, elapsed. */
void progress_update(struct progress *p, const char *label, uint64_t done, uint64_t total, double elapsed_s);

/* Erases the line, if one is drawn. */
void progress_clear(struct progress *p);

#endif
