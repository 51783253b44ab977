/* The paired comparison of paired.h: Student's t on the rounds' differences. */
#include <math.h>

#include "analysis/paired.h"
#include "base/stats.h"

/* A mean difference this small relative to the means is rounding in the means, and counts as none. */
#define DIFF_ROUNDING 1e-9

double paired_pct(double x, double base)
{
	if (!isfinite(x) || !isfinite(base) || base == 0)
		return NAN;
	return 100.0 * x / fabs(base);
}

struct paired_result paired_compare(const double *base, const double *cand, size_t n)
{
	struct paired_result p = { .ci_low = NAN, .ci_high = NAN, .mde = NAN };
	double sum_b = 0, sum_c = 0, sum_d = 0, sq_b = 0, sq_c = 0, sq_d = 0, d, half, root_n;
	size_t i, df;

	for (i = 0; i < n; i++) {
		if (!isfinite(base[i]) || !isfinite(cand[i]))
			continue;
		p.n++;
		sum_b += base[i];
		sum_c += cand[i];
		sum_d += cand[i] - base[i];
	}
	if (!p.n)
		return p;
	p.base_mean = sum_b / (double)p.n;
	p.cand_mean = sum_c / (double)p.n;
	p.diff_mean = sum_d / (double)p.n;
	if (fabs(p.diff_mean) <= DIFF_ROUNDING * fmax(fabs(p.base_mean), fabs(p.cand_mean)))
		p.diff_mean = 0;
	if (p.n < 2)
		return p;
	for (i = 0; i < n; i++) {
		if (!isfinite(base[i]) || !isfinite(cand[i]))
			continue;
		d = cand[i] - base[i] - p.diff_mean;
		sq_b += (base[i] - p.base_mean) * (base[i] - p.base_mean);
		sq_c += (cand[i] - p.cand_mean) * (cand[i] - p.cand_mean);
		sq_d += d * d;
	}
	df = p.n - 1;
	root_n = sqrt((double)p.n);
	p.valid = true;
	p.base_sd = sqrt(sq_b / (double)df);
	p.cand_sd = sqrt(sq_c / (double)df);
	p.diff_sd = sqrt(sq_d / (double)df);
	/* Differences equal but for rounding are equal: their spread is no noise to test against. */
	if (p.diff_sd <= DIFF_ROUNDING * fmax(fabs(p.base_mean), fabs(p.cand_mean)))
		p.diff_sd = 0;
	half = stats_t95(df) * p.diff_sd / root_n;
	p.ci_low = p.diff_mean - half;
	p.ci_high = p.diff_mean + half;
	p.significant = p.diff_mean != 0 && (p.ci_low > 0 || p.ci_high < 0);
	p.mde = (stats_t95(df) + stats_t80(df)) * p.diff_sd * sqrt((double)df / stats_chi2_05(df)) / root_n;
	return p;
}
