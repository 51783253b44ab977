/*
 * A log-linear histogram of non-negative durations in nanoseconds.
 * Values below 128 have a bin each; above, every power of two is split into
 * 64 equal bins, so a reported value is within 1/64 (1.6 %) of the truth.
 * One histogram belongs to one thread: recording takes no lock and allocates nothing.
 */
#ifndef CLAIMBENCH_HISTOGRAM_H
#define CLAIMBENCH_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 6					/* 64 bins per power of two */
#define HIST_EXACT_LIMIT (2 << HIST_SUB_BITS)		/* 128: values below have a bin each */
#define HIST_MAX_EXPONENT 45				/* last split power of two: bins reach 2^46 - 1 ns, ~19.5 hours */
#define HIST_BINS (HIST_EXACT_LIMIT + (HIST_MAX_EXPONENT - HIST_SUB_BITS) * (1 << HIST_SUB_BITS))

struct histogram {
	uint64_t count;			/* values recorded */
	int64_t min;			/* smallest value recorded (exact); 0 when empty */
	int64_t max;			/* largest value recorded (exact); 0 when empty */
	uint64_t bins[HIST_BINS];	/* count per bin */
};

/* Empties h. */
void hist_init(struct histogram *h);

/* Adds one value; negative values count as 0, values past the last bin land in it. */
void hist_record(struct histogram *h, int64_t value_ns);

/* Adds every value of from into into. */
void hist_merge(struct histogram *into, const struct histogram *from);

/* The bin index a value falls in. */
int hist_bin_of(int64_t value_ns);

/* The largest value that falls in bin (its inclusive upper edge). */
int64_t hist_bin_upper(int bin);

/*
 * The p-th percentile (0 < p <= 100) by nearest rank: the smallest recorded value v such
 * that at least ceil(p/100 * count) recorded values are <= v, reported as the upper edge
 * of v's bin clamped to [min, max]. 0 when h is empty.
 */
int64_t hist_percentile(const struct histogram *h, double p);

#endif
