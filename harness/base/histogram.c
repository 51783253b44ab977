/*
 * The log-linear histogram of histogram.h. A value v >= HIST_EXACT_LIMIT with
 * highest set bit e (2^e <= v < 2^(e+1)) falls in one of 64 bins of width
 * 2^(e - HIST_SUB_BITS) that split [2^e, 2^(e+1)); smaller values have a bin each.
 */
#include "base/histogram.h"

#include <math.h>
#include <string.h>

/* Values with their highest set bit at this exponent fill the first log-linear group. */
#define HIST_FIRST_EXPONENT (HIST_SUB_BITS + 1)
#define HIST_SUB_MASK ((1 << HIST_SUB_BITS) - 1)

/*
 * Relative slack taken off a rank before rounding it up: p is usually a decimal
 * such as 99.9 that binary floating point cannot hold, and p * count / 100 may then
 * land a hair above an integer (99.9 % of 41000 gives 40959.00000000001).
 * Exact for every count below 10^7 with p given to three decimals.
 */
#define HIST_RANK_SLACK 1e-12

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
}

/* Index of the highest set bit of v, which must be non-zero. */
static int highest_bit(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

int hist_bin_of(int64_t value_ns)
{
	int e;

	if (value_ns < HIST_EXACT_LIMIT)
		return value_ns < 0 ? 0 : (int)value_ns;
	e = highest_bit((uint64_t)value_ns);
	if (e > HIST_MAX_EXPONENT)
		return HIST_BINS - 1;
	return HIST_EXACT_LIMIT + ((e - HIST_FIRST_EXPONENT) << HIST_SUB_BITS) +
	       (int)((value_ns >> (e - HIST_SUB_BITS)) & HIST_SUB_MASK);
}

int64_t hist_bin_upper(int bin)
{
	int group, sub, e;
	int64_t width;

	if (bin < HIST_EXACT_LIMIT)
		return bin;
	group = (bin - HIST_EXACT_LIMIT) >> HIST_SUB_BITS;
	sub = (bin - HIST_EXACT_LIMIT) & HIST_SUB_MASK;
	e = group + HIST_FIRST_EXPONENT;
	width = (int64_t)1 << (e - HIST_SUB_BITS);
	return ((int64_t)1 << e) + (sub + 1) * width - 1;
}

void hist_record(struct histogram *h, int64_t value_ns)
{
	if (value_ns < 0)
		value_ns = 0;
	if (!h->count || value_ns < h->min)
		h->min = value_ns;
	if (!h->count || value_ns > h->max)
		h->max = value_ns;
	h->count++;
	h->bins[hist_bin_of(value_ns)]++;
}

void hist_merge(struct histogram *into, const struct histogram *from)
{
	int i;

	if (!from->count)
		return;
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (!into->count || from->max > into->max)
		into->max = from->max;
	into->count += from->count;
	for (i = 0; i < HIST_BINS; i++)
		into->bins[i] += from->bins[i];
}

int64_t hist_percentile(const struct histogram *h, double p)
{
	double exact_rank;
	uint64_t rank, seen = 0;
	int64_t v;
	int i;

	if (!h->count)
		return 0;
	exact_rank = p * (double)h->count / 100.0;
	exact_rank = ceil(exact_rank - exact_rank * HIST_RANK_SLACK);
	if (exact_rank < 1.0)
		rank = 1;
	else if (exact_rank >= (double)h->count)
		rank = h->count;
	else
		rank = (uint64_t)exact_rank;

	for (i = 0; i < HIST_BINS - 1; i++) {
		seen += h->bins[i];
		if (seen >= rank)
			break;
	}
	v = hist_bin_upper(i);
	if (v < h->min)
		return h->min;
	if (v > h->max)
		return h->max;
	return v;
}
