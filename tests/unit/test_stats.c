/* Unit tests of the repetition statistics on known inputs, and the quantiles of Student's t. */
#include <math.h>

#include "check.h"
#include "base/stats.h"

int main(void)
{
	const double three[] = { 2.0, 4.0, 6.0 };
	const double same[] = { 5.0, 5.0, 5.0, 5.0 };
	const double one[] = { 7.5 };
	struct stats_summary s = stats_summarize(three, 3);

	CHECK(s.n == 3 && s.mean == 4.0, "mean of 2, 4, 6 is 4");
	CHECK_NEAR(s.sd, 2.0, 1e-12, "sample sd of 2, 4, 6 is 2 (n - 1 in the denominator)");
	CHECK_NEAR(s.ci95, 4.303 * 2.0 / 1.7320508075688772, 1e-9,
		   "95%% CI half-width is t(0.975, 2) x sd / sqrt(3) = %.4f", s.ci95);
	s = stats_summarize(same, 4);
	CHECK(s.mean == 5.0 && s.sd == 0.0 && s.ci95 == 0.0, "identical values: no spread");
	s = stats_summarize(one, 1);
	CHECK(s.mean == 7.5 && s.sd == 0.0 && s.ci95 == 0.0, "one value: its mean, no interval");
	s = stats_summarize(one, 0);
	CHECK(s.n == 0 && s.mean == 0.0, "no values: zeros");
	CHECK(stats_t95(1) == 12.706 && stats_t95(9) == 2.262 && stats_t95(30) == 2.042,
	      "t table at df 1, 9 and 30");
	CHECK(stats_t95(35) >= 2.030 && stats_t95(1000) >= 1.96 && stats_t95(1000) < 1.99,
	      "past the table the critical value stays on the safe side of the true one");
	/* Published quantiles of Student's t. */
	CHECK_NEAR(stats_t_quantile(0.975, 1), 12.7062, 1e-3, "t(0.975, 1)");
	CHECK_NEAR(stats_t_quantile(0.975, 9), 2.2622, 1e-3, "t(0.975, 9)");
	CHECK_NEAR(stats_t_quantile(0.995, 1), 63.6567, 1e-2, "t(0.995, 1)");
	CHECK_NEAR(stats_t_quantile(0.995, 5), 4.0321, 1e-3, "t(0.995, 5)");
	CHECK_NEAR(stats_t_quantile(0.9995, 2), 31.5991, 1e-2, "t(0.9995, 2)");
	CHECK_NEAR(stats_t_quantile(0.8, 4), 0.9410, 1e-3, "t(0.80, 4)");
	CHECK_NEAR(stats_t_quantile(0.975, 1000), 1.9623, 1e-3, "t(0.975, 1000)");
	for (size_t df = 1; df <= 30; df++)
		CHECK_NEAR(stats_t_quantile(0.975, df), stats_t95(df), 1e-3, "t(0.975, %zu) agrees with the table", df);
	CHECK(isnan(stats_t_quantile(1, 3)) && isnan(stats_t_quantile(0.4, 3)) && isnan(stats_t_quantile(0.9, 0)) &&
	      stats_t_quantile(0.5, 3) == 0, "outside q in [0.5, 1) and df >= 1: NaN; the median is 0");
	return check_exit_status();
}
