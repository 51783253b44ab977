/*
 * A paired comparison: a baseline and a candidate measured round by round under the same
 * conditions (claimbench ab runs them alternately on one server), compared through the
 * differences of each round's pair. Pairing removes what a round shares (the machine's
 * load at the time) from the noise. The test is Student's paired t on the differences:
 * with the 2 to 10 rounds a CI job affords, a rank test cannot reach 95 % at all below 6
 * pairs (Wilcoxon's smallest two-sided p with 5 is 0.0625), nor can a bootstrap resample
 * so few; the t interval can, and says how wide it is.
 */
#ifndef CLAIMBENCH_PAIRED_H
#define CLAIMBENCH_PAIRED_H

#include <stdbool.h>
#include <stddef.h>

/* The paired comparison of one metric over the rounds. */
struct paired_result {
	size_t n;		/* pairs: rounds where both sides have a finite value */
	bool valid;		/* n >= 2: the interval, significance and detectable effect are known; otherwise NaN, false */
	double base_mean;	/* the baseline's mean over the pairs */
	double cand_mean;	/* the candidate's mean over the pairs */
	double base_sd;		/* the baseline's sample standard deviation over the pairs (0 when n < 2) */
	double cand_sd;		/* the candidate's sample standard deviation over the pairs (0 when n < 2) */
	double diff_mean;	/* mean of candidate - baseline, round by round; 0 when it is rounding in the means */
	double diff_sd;		/* sample standard deviation of those differences */
	double ci_low;		/* lower end of the 95 % confidence interval of diff_mean (t, n - 1 degrees of freedom) */
	double ci_high;		/* its upper end */
	bool significant;	/* the interval leaves out 0; with differences all equal, any difference but 0 */
	double mde;		/* minimum detectable effect: the smallest true difference that these rounds find
				 * significant 80 % of the time, (t95 + t80) x sd / sqrt(n), sd the upper end of the
				 * 95 % interval of diff_sd (so that a few rounds that agreed by chance do not claim a
				 * precision they lack); 0 when diff_sd is 0 */
};

/*
 * Compares cand against base, n rounds of each, base[i] and cand[i] measured in round i.
 * A round where either value is not finite (unknown) is left out.
 */
struct paired_result paired_compare(const double *base, const double *cand, size_t n);

/* x in % of the magnitude of base: NaN when base is 0 or x or base is not finite. */
double paired_pct(double x, double base);

#endif
