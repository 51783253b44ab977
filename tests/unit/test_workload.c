/*
 * Unit tests of the work-time draw (engine/workload.c): fixed, uniform (0 to twice the mean,
 * or a range), exponential and the heavy-tailed lognormal and Pareto times, the same for the
 * same seed.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/workload.h"

/* Mean of n work times in ms. */
static double mean_ms(const int64_t *w, long n)
{
	double sum = 0;

	for (long i = 0; i < n; i++)
		sum += (double)w[i] / 1e6;
	return sum / (double)n;
}

/* Draws n work times of dist with mean mean_ms under seed. */
static int64_t *draw(long n, double mean_ms, enum work_dist dist, uint64_t seed)
{
	const struct work_spec spec = { .mean_ms = mean_ms, .dist = dist, .sigma = 1, .alpha = 1.5 };

	return workload_make(n, &spec, seed);
}

/* Each distribution's range and mean over 20000 draws, and the seed's effect. */
static void test_workload(void)
{
	const long n = 20000;
	int64_t *fixed = draw(n, 100, WORK_FIXED, 1);
	int64_t *uni = draw(n, 10, WORK_UNIFORM, 7);
	int64_t *uni_again = draw(n, 10, WORK_UNIFORM, 7);
	int64_t *uni_other = draw(n, 10, WORK_UNIFORM, 8);
	int64_t *expo = draw(n, 10, WORK_EXP, 7);
	int64_t lo = INT64_MAX, hi = 0;
	long equal_fixed = 0, over_mean = 0;

	CHECK(fixed && uni && uni_again && uni_other && expo, "workload_make allocates");
	if (!fixed || !uni || !uni_again || !uni_other || !expo)
		goto out;
	for (long i = 0; i < n; i++) {
		equal_fixed += fixed[i] == 100000000;
		lo = uni[i] < lo ? uni[i] : lo;
		hi = uni[i] > hi ? uni[i] : hi;
		over_mean += expo[i] > 10000000;
	}
	CHECK_EQ(equal_fixed, n, "fixed: every job works exactly work_ms");
	CHECK_EQ(memcmp(uni, uni_again, (size_t)n * sizeof(*uni)), 0, "the same seed draws the same work times");
	CHECK(memcmp(uni, uni_other, (size_t)n * sizeof(*uni)) != 0, "another seed draws other work times");
	CHECK(lo >= 0 && hi <= 20000000, "uniform: every draw within [0, 2 x mean] (%lld..%lld ns)",
	      (long long)lo, (long long)hi);
	CHECK_NEAR(mean_ms(uni, n), 10, 0.2, "uniform: mean within 2%% of 10 ms (%.3f)", mean_ms(uni, n));
	CHECK_NEAR(mean_ms(expo, n), 10, 0.4, "exp: mean within 4%% of 10 ms (%.3f)", mean_ms(expo, n));
	CHECK_NEAR((double)over_mean / (double)n, exp(-1), 0.02,
		   "exp: share above the mean is e^-1 (%.3f)", (double)over_mean / (double)n);
out:
	free(fixed);
	free(uni);
	free(uni_again);
	free(uni_other);
	free(expo);
}

/*
 * uniform:MIN-MAX: every draw within [5, 15] ms, their mean the range's, spread over the whole
 * range (each tenth of it holds about a tenth of the draws), the same for the same seed as the
 * range-less uniform's draws scaled onto the range.
 */
static void test_uniform_range(void)
{
	const long n = 20000;
	const struct work_spec range = { .mean_ms = 10, .dist = WORK_UNIFORM, .min_ms = 5, .max_ms = 15 };
	int64_t *w = workload_make(n, &range, 7), *plain = draw(n, 10, WORK_UNIFORM, 7);
	int64_t lo = INT64_MAX, hi = 0;
	long tenths[10] = { 0 }, fewest = n, most = 0, unscaled = 0;

	check_need(w && plain, "workload_make allocates");
	for (long i = 0; i < n; i++) {
		lo = w[i] < lo ? w[i] : lo;
		hi = w[i] > hi ? w[i] : hi;
		tenths[(w[i] - 5000000) * 10 / 10000001]++;
		/* the same u: plain is 20 ms x u, the range 5 ms + 10 ms x u */
		unscaled += llabs(w[i] - (5000000 + plain[i] / 2)) > 1;
	}
	for (int t = 0; t < 10; t++) {
		fewest = tenths[t] < fewest ? tenths[t] : fewest;
		most = tenths[t] > most ? tenths[t] : most;
	}
	CHECK(lo >= 5000000 && hi <= 15000000, "uniform:5-15: every draw within [5, 15] ms (%lld..%lld ns)",
	      (long long)lo, (long long)hi);
	CHECK(lo < 5100000 && hi > 14900000, "and the range's ends reached within 1 %% (%lld..%lld ns)", (long long)lo,
	      (long long)hi);
	CHECK_NEAR(mean_ms(w, n), 10, 0.1, "uniform:5-15: mean within 1 %% of 10 ms (%.3f)", mean_ms(w, n));
	CHECK(fewest > 1800 && most < 2200, "each tenth of the range holds about a tenth of the draws (%ld..%ld of %ld)",
	      fewest, most, n);
	CHECK(unscaled == 0, "the seed's draws, scaled onto the range (%ld differ)", unscaled);
	free(w);
	free(plain);
}

/* The heavy tails: their means, and how much more often than exp a job outlasts ten times the mean. */
static void test_heavy_tails(void)
{
	const long n = 200000;
	int64_t *logn = draw(n, 10, WORK_LOGNORMAL, 3), *par = draw(n, 10, WORK_PARETO, 3), *expo = draw(n, 10, WORK_EXP, 3);
	long long_logn = 0, long_par = 0, long_exp = 0, capped = 0;

	CHECK(logn && par && expo, "heavy-tailed draws allocate");
	if (!logn || !par || !expo)
		goto out;
	for (long i = 0; i < n; i++) {
		long_logn += logn[i] > 100000000;
		long_par += par[i] > 100000000;
		long_exp += expo[i] > 100000000;
		capped += par[i] > (int64_t)WORK_TAIL_CAP * 10000000;
	}
	CHECK_NEAR(mean_ms(logn, n), 10, 0.3, "lognormal (sigma 1): mean within 3%% of 10 ms (%.3f)", mean_ms(logn, n));
	CHECK_NEAR(mean_ms(par, n), 10, 1.0, "pareto (alpha 1.5, cut at 1000x): mean within 10%% of 10 ms (%.3f)",
		   mean_ms(par, n));
	CHECK(long_logn > 20 * long_exp && long_par > 20 * long_exp,
	      "beyond 10x the mean: lognormal %ld and pareto %ld jobs of %ld, exp %ld", long_logn, long_par, n, long_exp);
	CHECK_EQ(capped, 0, "no Pareto draw passes the cut");
out:
	free(logn);
	free(par);
	free(expo);
}

int main(void)
{
	test_workload();
	test_uniform_range();
	test_heavy_tails();
	return check_exit_status();
}
