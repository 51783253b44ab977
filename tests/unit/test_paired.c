/* Unit tests of the paired comparison (analysis/paired.h) on hand-made rounds. */
#include <math.h>

#include "check.h"
#include "analysis/compare.h"
#include "analysis/paired.h"

/* Rounds whose differences are all 1: a certain difference, no noise to detect it through. */
static void constant_difference(void)
{
	const double base[] = { 10, 12, 11, 13 }, cand[] = { 11, 13, 12, 14 };
	struct paired_result p = paired_compare(base, cand, 4);

	CHECK(p.valid && p.n == 4 && p.diff_mean == 1 && p.diff_sd == 0, "differences all 1: mean 1, no spread");
	CHECK(p.significant && p.ci_low == 1 && p.ci_high == 1, "a constant difference is significant, its interval a point");
	CHECK_EQ(p.mde, 0, "no spread: any difference is detectable (mde 0)");
	CHECK_NEAR(p.base_mean, 11.5, 1e-12, "the baseline's mean");
	CHECK_NEAR(p.base_sd, 1.2909944487, 1e-9, "the baseline's own spread over the rounds");
}

/* Rounds that move together, +5 each within 1, over a spread of 40 between rounds. */
static void pairing_removes_the_rounds_noise(void)
{
	const double base[] = { 100, 120, 80, 110 }, cand[] = { 105, 126, 84, 115 };
	struct paired_result p = paired_compare(base, cand, 4);
	struct stats_summary sb = stats_summarize(base, 4), sc = stats_summarize(cand, 4);
	struct welch_result w = compare_welch(&sb, &sc);
	double half = 3.182 * sqrt(2.0 / 3.0) / 2;

	CHECK_EQ(p.diff_mean, 5, "differences 5, 6, 4, 5: mean 5");
	CHECK_NEAR(p.diff_sd, sqrt(2.0 / 3.0), 1e-12, "their sample sd is sqrt(2/3)");
	CHECK_NEAR(p.ci_low, 5 - half, 1e-9, "95%% interval: 5 - t(0.975, 3) x sd / sqrt(4) = %.4f", p.ci_low);
	CHECK_NEAR(p.ci_high, 5 + half, 1e-9, "its upper end %.4f", p.ci_high);
	CHECK(p.significant, "paired: significant");
	CHECK(w.valid && !w.significant, "the same values unpaired (Welch) are not: the rounds' spread hides the change");
	CHECK_NEAR(p.mde, (3.182 + 0.978) * sqrt(2.0 / 3.0) * sqrt(3 / 0.3518) / 2, 1e-9,
		   "mde = (t95 + t80 at 3 df) x sd x sqrt(3 / chi2(0.05, 3)) / sqrt(4) = %.4f: the sd at the upper "
		   "end of its 95 %% interval", p.mde);
}

/* Noisy differences of both signs: not significant, and the detectable effect says how far off. */
static void noise_is_not_a_change(void)
{
	const double base[] = { 100, 110, 90 }, cand[] = { 102, 108, 95 };
	struct paired_result p = paired_compare(base, cand, 3);
	double sd = sqrt(37.0 / 3.0);

	CHECK_NEAR(p.diff_mean, 5.0 / 3.0, 1e-12, "differences 2, -2, 5: mean 5/3");
	CHECK_NEAR(p.diff_sd, sd, 1e-9, "their sample sd %.4f", p.diff_sd);
	CHECK(!p.significant && p.ci_low < 0 && p.ci_high > 0, "the interval [%.2f, %.2f] holds 0: not significant",
	      p.ci_low, p.ci_high);
	CHECK_NEAR(p.mde, (4.303 + 1.061) * sd * sqrt(2 / 0.1026) / sqrt(3.0), 1e-9,
		   "mde at 2 df: %.3f, above the change seen", p.mde);
	CHECK(p.mde > fabs(p.diff_mean), "the change seen is below what these rounds could detect");
}

/* Equal sides, unknown values, too few rounds. */
static void edges(void)
{
	const double same[] = { 3, 4, 5 }, holes[] = { 1, NAN, 3 }, full[] = { 2, 5, 4 };
	struct paired_result p = paired_compare(same, same, 3);

	CHECK(p.valid && p.diff_mean == 0 && !p.significant && p.mde == 0, "equal sides: no change, not significant");
	p = paired_compare(holes, full, 3);
	CHECK(p.n == 2 && p.diff_mean == 1 && p.significant, "a round with an unknown value is left out of the pairs");
	p = paired_compare(same, full, 1);
	CHECK(p.n == 1 && !p.valid && !p.significant && isnan(p.ci_low) && isnan(p.mde),
	      "one round: a difference but no interval, no significance, no detectable effect");
	p = paired_compare(same, full, 0);
	CHECK(p.n == 0 && !p.valid, "no round: nothing");
	CHECK(paired_pct(5, -50) == 10 && isnan(paired_pct(5, 0)) && isnan(paired_pct(NAN, 3)),
	      "percent of the baseline's magnitude; none of 0 or of an unknown");
}

int main(void)
{
	constant_difference();
	pairing_removes_the_rounds_noise();
	noise_is_not_a_change();
	edges();
	CHECK(stats_chi2_05(1) == 0.00393 && stats_chi2_05(30) == 18.4927 &&
	      fabs(stats_chi2_05(31) - 19.281) < 0.02 && fabs(stats_chi2_05(100) - 77.929) < 0.05,
	      "chi-square's 5th percentile: the table to 30, Wilson and Hilferty beyond (31: %.3f, 100: %.3f)",
	      stats_chi2_05(31), stats_chi2_05(100));
	CHECK(stats_t80(1) == 1.376 && stats_t80(2) == 1.061 && stats_t80(30) == 0.854 && stats_t80(1000) > 0.8416,
	      "t(0.80) table at df 1, 2, 30, and past it on the safe side of the normal's 0.8416");
	return check_exit_status();
}
