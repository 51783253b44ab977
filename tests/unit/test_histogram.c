/*
 * Unit tests of the log-linear claim-latency histogram (base/histogram.c): bin placement
 * and its error bound, nearest-rank percentiles, recording and merging.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "base/histogram.h"

/* Bin placement: exact small values, contiguous edges, the 1/64 error bound, the last bin. */
static void test_histogram_bins(void)
{
	int64_t v, upper;
	int b, bad_exact = 0, bad_error = 0, bad_edges = 0;

	for (v = 0; v < HIST_EXACT_LIMIT; v++)
		if (hist_bin_of(v) != v || hist_bin_upper((int)v) != v)
			bad_exact++;
	CHECK_EQ(bad_exact, 0, "histogram: every value below 128 has a bin of its own");
	CHECK_EQ(hist_bin_of(-5), 0, "histogram: a negative value falls in bin 0");
	CHECK(hist_bin_of(128) == 128 && hist_bin_of(129) == 128 && hist_bin_of(130) == 129,
	      "histogram: 128 and 129 share the first 2-wide bin, 130 starts the next");
	CHECK_EQ(hist_bin_upper(128), 129, "histogram: the first log-linear bin ends at 129");
	CHECK(hist_bin_of(((int64_t)1 << 46) - 1) == HIST_BINS - 1 &&
	      hist_bin_upper(HIST_BINS - 1) == ((int64_t)1 << 46) - 1,
	      "histogram: the last bin ends at 2^46 - 1");
	CHECK(hist_bin_of((int64_t)1 << 46) == HIST_BINS - 1 &&
	      hist_bin_of(INT64_MAX) == HIST_BINS - 1,
	      "histogram: values from 2^46 up land in the last bin");

	for (b = 0; b < HIST_BINS - 1; b++)
		if (hist_bin_of(hist_bin_upper(b)) != b ||
		    hist_bin_of(hist_bin_upper(b) + 1) != b + 1)
			bad_edges++;
	CHECK_EQ(bad_edges, 0,
	      "histogram: bins are contiguous, each upper edge is in its bin and the next value in the next");

	/* v grows by about 0.37 % a step, visiting every bin from 128 to 2^46 */
	for (v = HIST_EXACT_LIMIT; v < ((int64_t)1 << 46); v += v / 271 + 1) {
		upper = hist_bin_upper(hist_bin_of(v));
		if (upper < v || (double)(upper - v) > (double)v / 64.0)
			bad_error++;
	}
	CHECK_EQ(bad_error, 0,
	      "histogram: a bin's upper edge is >= the value and within 1/64 of it");
}

/* Nearest-rank percentiles, clamping to [min, max], negative values, merging, empty histograms. */
static void test_histogram_percentiles(void)
{
	struct histogram *h, *a, *b;
	int64_t v;

	h = malloc(sizeof(*h));
	a = malloc(sizeof(*a));
	b = malloc(sizeof(*b));
	check_need(h && a && b, "histogram allocation");

	hist_init(h);
	CHECK(h->count == 0 && h->min == 0 && h->max == 0,
	      "histogram: an empty one has count, min, max 0");
	CHECK(hist_percentile(h, 50.0) == 0 && hist_percentile(h, 100.0) == 0,
	      "histogram: percentiles of an empty one are 0");

	for (v = 1; v <= 100; v++)
		hist_record(h, v);
	CHECK(h->count == 100 && h->min == 1 && h->max == 100,
	      "histogram: 1..100 gives count 100, min 1, max 100");
	CHECK_EQ(hist_percentile(h, 50.0), 50, "histogram: p50 of 1..100 is 50 (nearest rank)");
	CHECK_EQ(hist_percentile(h, 90.0), 90, "histogram: p90 of 1..100 is 90");
	CHECK_EQ(hist_percentile(h, 99.0), 99, "histogram: p99 of 1..100 is 99");
	CHECK_EQ(hist_percentile(h, 99.9), 100,
	      "histogram: p99.9 of 1..100 is 100 (rank ceil(99.9) = 100)");
	CHECK_EQ(hist_percentile(h, 100.0), 100, "histogram: p100 of 1..100 is the max");
	CHECK_EQ(hist_percentile(h, 0.5), 1, "histogram: p0.5 of 1..100 is the min (rank 1)");

	hist_init(h);
	hist_record(h, -7);
	CHECK(h->count == 1 && h->min == 0 && h->max == 0 && h->bins[0] == 1,
	      "histogram: a negative value is recorded as 0");

	/* 1000 lies in bin [1000, 1007]: alone, clamped to max; beside 2000, the edge shows */
	hist_init(h);
	hist_record(h, 1000);
	CHECK_EQ(hist_percentile(h, 50.0), 1000,
	      "histogram: a lone value is reported exactly (edge clamped to max)");
	hist_record(h, 2000);
	CHECK_EQ(hist_percentile(h, 50.0), 1007,
	      "histogram: p50 of {1000, 2000} is the upper edge 1007 of 1000's bin");
	CHECK_EQ(hist_percentile(h, 100.0), 2000,
	      "histogram: p100 of {1000, 2000} is clamped to max 2000");

	/* rank ceil(0.999 * 41000) = 40959, the last value of bin [40448, 40959] */
	hist_init(h);
	for (v = 1; v <= 41000; v++)
		hist_record(h, v);
	CHECK_EQ(hist_percentile(h, 99.9), 40959,
	      "histogram: p99.9 of 1..41000 is rank 40959, not one rank higher through rounding");

	hist_init(a);
	hist_init(b);
	for (v = 1; v <= 50; v++)
		hist_record(a, v);
	for (v = 51; v <= 100; v++)
		hist_record(b, v);
	hist_init(h);
	hist_merge(h, b);
	CHECK(h->count == 50 && h->min == 51 && h->max == 100,
	      "histogram: merging into an empty one takes min 51 and max 100, not 0");
	hist_merge(h, a);
	CHECK(h->count == 100 && h->min == 1 && h->max == 100,
	      "histogram: merged 1..50 and 51..100 give count 100, min 1, max 100");
	CHECK(hist_percentile(h, 50.0) == 50 && hist_percentile(h, 99.0) == 99,
	      "histogram: merged halves give the percentiles of 1..100");
	hist_init(a);
	hist_merge(h, a);
	CHECK(h->count == 100 && h->min == 1 && h->max == 100,
	      "histogram: merging an empty one changes nothing");

	free(h);
	free(a);
	free(b);
}

int main(void)
{
	test_histogram_bins();
	test_histogram_percentiles();
	return check_exit_status();
}
