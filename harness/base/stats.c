#include <math.h>

#include "base/stats.h"

double stats_t95(size_t df)
{
	/* t(0.975, df) for df = 1..30; beyond, the value at the bracket's lower end, so never too narrow. */
	static const double table[30] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};

	if (df == 0)
		return NAN;
	if (df <= 30)
		return table[df - 1];
	if (df <= 40)
		return 2.042;
	if (df <= 60)
		return 2.021;
	if (df <= 120)
		return 2.000;
	return 1.980;
}

struct stats_summary stats_summarize(const double *x, size_t n)
{
	struct stats_summary s = { .n = n };
	double sum = 0, sq = 0;

	if (n == 0)
		return s;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	s.mean = sum / (double)n;
	if (n < 2)
		return s;
	for (size_t i = 0; i < n; i++)
		sq += (x[i] - s.mean) * (x[i] - s.mean);
	s.sd = sqrt(sq / (double)(n - 1));
	s.ci95 = stats_t95(n - 1) * s.sd / sqrt((double)n);
	return s;
}
