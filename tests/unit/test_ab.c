/*
 * Unit tests of ab.c: the verdicts of hand-made rounds, each metric as its nature says
 * (a cost held to its tolerance, a timing gated only where detectable, an outcome by its
 * guard), a cost from a baseline of 0, groups on one side only and runs that ran dry.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/ab.h"
#include "model/metric_table.h"

/* Rounds of the hand-made sides. */
#define ROUNDS 3

/* The default tolerances: costs 5 %, timings 10 %. */
static const struct ab_tolerance tol = { .cost_pct = AB_COST_TOLERANCE_PCT, .timing_pct = AB_TIMING_TOLERANCE_PCT };

/* A run of probe/flip/2 workers with every metric unknown but throughput, buffers per job and duplicates. */
static struct run_result make_run(const char *strategy, double thru, double buffers, uint64_t duplicates)
{
	struct run_result r = { .strategy = strategy, .claim_mode = "flip", .workers = 2 };

	metrics_set_unknown(&r.metrics);
	r.metrics.throughput_jps = thru;
	metric_set_double(metric_find("costs.buffers_hit_per_job"), &r.metrics, buffers);
	r.metrics.duplicates = duplicates;
	r.metrics.dry.ran_dry = 0;
	return r;
}

/* One side: ROUNDS runs and their rounds 0, 1, 2. */
struct side_runs {
	struct run_result runs[ROUNDS];	/* one a round */
	size_t round[ROUNDS];		/* 0, 1, 2 */
	struct ab_side side;		/* pointing at them */
};

/* Fills s with the rounds' runs of strategy, their throughputs thru and buffers per job buffers. */
static void fill(struct side_runs *s, const char *strategy, const double *thru, const double *buffers,
		 uint64_t duplicates)
{
	for (size_t k = 0; k < ROUNDS; k++) {
		s->runs[k] = make_run(strategy, thru[k], buffers[k], duplicates);
		s->round[k] = k;
	}
	s->side = (struct ab_side){ .runs = s->runs, .round = s->round, .n = ROUNDS };
}

/* The row of metric path in r, or NULL. */
static const struct ab_row *row_of(const struct ab_result *r, const char *path)
{
	for (size_t i = 0; i < r->n_rows; i++)
		if (strcmp(r->rows[i].metric->path, path) == 0)
			return &r->rows[i];
	return NULL;
}

/* A cost 8 % up in every round: a regression; throughput moving with the rounds' load: not gated. */
static void cost_regression(void)
{
	const double thru[] = { 100, 140, 80 }, thru_c[] = { 120, 90, 100 };
	const double buf[] = { 50, 50.5, 49.5 }, buf_c[] = { 54, 54.5, 53.5 };
	struct side_runs base, cand;
	struct ab_result r;
	const struct ab_row *cost, *timing, *dup;

	fill(&base, "probe", thru, buf, 0);
	fill(&cand, "probe", thru_c, buf_c, 0);
	check_need(ab_compare(&base.side, &cand.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	cost = row_of(&r, "costs.buffers_hit_per_job");
	timing = row_of(&r, "throughput_jps");
	dup = row_of(&r, "duplicates");
	check_need(cost && timing && dup, "the rows of buffers, throughput and duplicates");
	CHECK(cost->paired.n == ROUNDS && cost->paired.significant && cost->verdict == AB_REGRESSION && cost->gated,
	      "buffers per job +4 in each round (+8 %%) beyond the 5 %% tolerance: REGRESSION");
	CHECK_NEAR(cost->change_pct, 8.0, 1e-9, "its change: +8.0 %% of the baseline's mean");
	CHECK(cost->mde_pct == 0 && cost->ci_low_pct == cost->ci_high_pct, "the same difference each round: mde 0");
	CHECK(timing->note == AB_NOTE_UNDETECTABLE && !timing->gated && timing->verdict == AB_SAME,
	      "throughput -3 %% with noise of 30 %%: not gated (detectable %.0f %% > 10 %%), ~", timing->mde_pct);
	CHECK(dup->gated && dup->verdict == AB_SAME, "no duplicates on either side: an outcome, ~");
	CHECK(r.regressions == 1 && r.ungated == 1 && r.n_lone == 0 && !r.dry_runs[0] && !r.dry_runs[1],
	      "one regression, one metric not gated, every group on both sides, no run dry");
	ab_result_free(&r);
}

/* The same +8 % of a cost with the rounds' differences 4.5, 4, 3.5: significant, but not detectable within 5 %. */
static void noisy_cost(void)
{
	const double thru[] = { 100, 100, 100 }, buf[] = { 50, 50.5, 49.5 }, buf_c[] = { 54.5, 54.5, 53 };
	struct side_runs base, cand;
	struct ab_result r;
	const struct ab_row *cost;

	fill(&base, "probe", thru, buf, 0);
	fill(&cand, "probe", thru, buf_c, 0);
	check_need(ab_compare(&base.side, &cand.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	cost = row_of(&r, "costs.buffers_hit_per_job");
	check_need(cost != NULL, "the row of buffers");
	CHECK(cost->paired.significant && cost->change_pct > 5, "+8 %%, significant");
	CHECK(cost->note == AB_NOTE_UNDETECTABLE && !cost->gated && cost->verdict == AB_WORSE && r.regressions == 0,
	      "but a cost as noisy as that (detectable %.0f %%) is not gated: worse, no regression", cost->mde_pct);
	ab_result_free(&r);
}

/* A cost 3 % up: worse, within tolerance; a timing as steady as a cost: gated. */
static void within_tolerance(void)
{
	const double thru[] = { 100, 101, 99 }, thru_c[] = { 85, 86, 84 };
	const double buf[] = { 50, 50.5, 49.5 }, buf_c[] = { 51.5, 52, 51 };
	struct side_runs base, cand;
	struct ab_result r;
	const struct ab_row *cost, *timing;

	fill(&base, "probe", thru, buf, 0);
	fill(&cand, "probe", thru_c, buf_c, 0);
	check_need(ab_compare(&base.side, &cand.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	cost = row_of(&r, "costs.buffers_hit_per_job");
	timing = row_of(&r, "throughput_jps");
	check_need(cost && timing, "the rows");
	CHECK(cost->verdict == AB_WORSE && cost->gated, "buffers +3 %%: significantly worse, within 5 %%: worse");
	CHECK(timing->gated && timing->verdict == AB_REGRESSION,
	      "throughput -15 %% in each round, detectable within 10 %%: gated, REGRESSION");
	ab_result_free(&r);
}

/*
 * A cost at 0 in the baseline (no percentage of it): from 0 to 2 buffers per job is a
 * regression; from 0 to 0.005 (within the absolute floor) is worse, no regression.
 */
static void cost_from_zero(void)
{
	const double thru[] = { 100, 100, 100 }, zero[] = { 0, 0, 0 }, up[] = { 2, 2.1, 1.9 };
	const double tiny[] = { 0.005, 0.005, 0.005 };
	struct side_runs base, cand;
	struct ab_result r;
	const struct ab_row *cost;

	fill(&base, "probe", thru, zero, 0);
	fill(&cand, "probe", thru, up, 0);
	check_need(ab_compare(&base.side, &cand.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	cost = row_of(&r, "costs.buffers_hit_per_job");
	check_need(cost != NULL, "the row of buffers");
	CHECK(cost->gated && cost->note == AB_NOTE_NONE && cost->verdict == AB_REGRESSION && r.regressions == 1,
	      "buffers per job from 0 to 2: gated, REGRESSION (note %d, verdict %s)", (int)cost->note,
	      ab_verdict_name(cost->verdict));
	ab_result_free(&r);
	fill(&cand, "probe", thru, tiny, 0);
	check_need(ab_compare(&base.side, &cand.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	cost = row_of(&r, "costs.buffers_hit_per_job");
	check_need(cost != NULL, "the row of buffers");
	CHECK(cost->gated && cost->verdict == AB_WORSE && r.regressions == 0,
	      "buffers per job from 0 to 0.005, within the floor of 0.01: worse, no regression");
	ab_result_free(&r);
}

/* Duplicates where the baseline had none; a group on one side only; a run that ran dry. */
static void outcomes_groups_dry(void)
{
	const double thru[] = { 100, 100, 100 }, buf[] = { 50, 50, 50 };
	struct side_runs base, cand, other;
	struct ab_result r;
	const struct ab_row *dup;

	fill(&base, "probe", thru, buf, 0);
	fill(&cand, "probe", thru, buf, 2);
	check_need(ab_compare(&base.side, &cand.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	dup = row_of(&r, "duplicates");
	check_need(dup != NULL, "the row of duplicates");
	CHECK(dup->verdict == AB_REGRESSION && r.regressions == 1, "duplicates where the baseline had none: REGRESSION");
	ab_result_free(&r);

	fill(&other, "skip-locked", thru, buf, 0);
	check_need(ab_compare(&base.side, &other.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	CHECK(r.n_rows == 0 && r.n_lone == 2 && r.lone[0].side == SIDE_BASELINE && r.lone[0].runs == ROUNDS &&
	      r.lone[1].side == SIDE_CANDIDATE && strcmp(r.lone[1].group.strategy, "skip-locked") == 0,
	      "different strategies: each group on one side only, nothing compared");
	ab_result_free(&r);

	fill(&cand, "probe", thru, buf, 0);
	cand.runs[1].metrics.dry.ran_dry = 1;
	check_need(ab_compare(&base.side, &cand.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	CHECK(r.dry_runs[0] == 0 && r.dry_runs[1] == 1, "the candidate's run that ran dry is counted");
	ab_result_free(&r);
}

/* A metric known in one round only: not tested, not gated. */
static void too_few(void)
{
	const double thru[] = { 100, NAN, NAN }, buf[] = { 50, 50, 50 }, buf_c[] = { 60, 60, 60 };
	struct side_runs base, cand;
	struct ab_result r;
	const struct ab_row *timing;

	fill(&base, "probe", thru, buf, 0);
	fill(&cand, "probe", thru, buf_c, 0);
	check_need(ab_compare(&base.side, &cand.side, ROUNDS, &tol, &r) == 0, "ab_compare");
	timing = row_of(&r, "throughput_jps");
	check_need(timing != NULL, "the row of throughput");
	CHECK(timing->paired.n == 1 && timing->note == AB_NOTE_TOO_FEW && !timing->gated && timing->verdict == AB_SAME,
	      "throughput known in one round: not gated, ~");
	CHECK_EQ(row_of(&r, "claim_latency_ms.p99"), NULL, "a metric no run knows has no row");
	CHECK(strcmp(ab_verdict_name(AB_SAME), "~") == 0 && strcmp(ab_nature_name(NATURE_COST), "cost") == 0,
	      "the names: ~ and cost");
	ab_result_free(&r);
}

int main(void)
{
	cost_regression();
	noisy_cost();
	within_tolerance();
	cost_from_zero();
	outcomes_groups_dry();
	too_few();
	return check_exit_status();
}
