/* Statistics over repetitions: mean, standard deviation and a 95 % confidence interval. */
#ifndef CLAIMBENCH_STATS_H
#define CLAIMBENCH_STATS_H

#include <stddef.h>

/* The spread of one metric over n repetitions. */
struct stats_summary {
	size_t n;	/* repetitions */
	double mean;	/* arithmetic mean */
	double sd;	/* sample standard deviation (n - 1); 0 when n < 2 */
	double ci95;	/* half-width of the 95 % confidence interval of the mean (Student's t); 0 when n < 2 */
};

/* Summarises the n values x. */
struct stats_summary stats_summarize(const double *x, size_t n);

/* The two-sided 95 % critical value of Student's t with df degrees of freedom (df >= 1). */
double stats_t95(size_t df);

/*
 * The 80th percentile of Student's t with df degrees of freedom (df >= 1): what a true
 * effect's estimate must clear, beyond stats_t95, to be found significant 80 % of the time
 * (the power of a minimum detectable effect).
 */
double stats_t80(size_t df);

/*
 * The 5th percentile of the chi-square distribution with df degrees of freedom (df >= 1):
 * sd x sqrt(df / it) is the upper end of a one-sided 95 % confidence interval of a standard
 * deviation sd estimated with df degrees of freedom.
 */
double stats_chi2_05(size_t df);

/*
 * The q quantile of Student's t distribution with df degrees of freedom (df >= 1, q in
 * [0.5, 1)), to a relative 1e-9: the inverse of its distribution function, found by bisection
 * on the regularized incomplete beta function. stats_t_quantile(0.975, df) is stats_t95(df)
 * without its table's rounding. NaN outside that domain.
 */
double stats_t_quantile(double q, size_t df);

#endif
