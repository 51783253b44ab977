/* Unit tests of compare.c: verdicts on synthetic runs, the tolerances, Welch's t on hand-worked numbers. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/compare.h"
#include "model/metric_table.h"

/* Runs per side in most cases: enough for Welch's t-test. */
#define REPEATS 3

/* Every run, no parameter difference allowed. */
static const struct compare_scope everything = { .strategies = NULL };

/* Sets the guarded-resource figures of m unknown, as in a queue run, and its costs, as in one stored before them. */
static void guarded_unknown(struct run_metrics *m)
{
	for (size_t i = 0; i < metric_table_len; i++) {
		if (strncmp(metric_table[i].path, "guarded.", 8) != 0 && strncmp(metric_table[i].path, "costs.", 6) != 0)
			continue;
		if (metric_table[i].type == METRIC_DOUBLE)
			metric_set_double(&metric_table[i], m, NAN);
		else
			metric_set_count(&metric_table[i], m, METRIC_UNKNOWN);
	}
}

/*
 * A queue run of strategy/mode/workers with the figures compare looks at; makespan from
 * 200 jobs; its guarded-resource figures unknown.
 */
static struct run_result make_run(const char *strategy, const char *mode, int workers, double thru, double jain,
				  uint64_t duplicates, uint64_t lost)
{
	struct run_result r = { .strategy = strategy, .claim_mode = mode, .workers = workers, .jobs = 200 };

	r.metrics.throughput_jps = thru;
	r.metrics.makespan_s = 200.0 / thru;
	r.metrics.fairness.jain = jain;
	r.metrics.race_duplicates = duplicates;
	r.metrics.lost = lost;
	r.metrics.claim_latency_ms.p99 = 1.0;
	guarded_unknown(&r.metrics);
	return r;
}

/* Fills runs with REPEATS skip-locked/hold/10 runs of the throughputs thru, Jain jain, duplicates dups. */
static void fill(struct run_result *runs, const double *thru, double jain, const uint64_t *dups)
{
	for (int i = 0; i < REPEATS; i++)
		runs[i] = make_run("skip-locked", "hold", 10, thru[i], jain, dups ? dups[i] : 0, 0);
}

/* The row of metric in r for the first group, or NULL. */
static const struct compare_row *row_of(const struct compare_result *r, const char *metric)
{
	for (size_t i = 0; i < r->n_rows; i++)
		if (strcmp(r->rows[i].metric, metric) == 0)
			return &r->rows[i];
	return NULL;
}

/* The verdict on metric in r; -1 when there is no such row. */
static int verdict_of(const struct compare_result *r, const char *metric)
{
	const struct compare_row *row = row_of(r, metric);

	return row ? (int)row->verdict : -1;
}

/* A metric no run of either side knows gets no row; one a side knows does. */
static void test_unknown_on_both_sides(const struct compare_tolerance *tol)
{
	struct run_result base[REPEATS], cand[REPEATS];
	struct compare_result r;

	for (int i = 0; i < REPEATS; i++) {
		base[i] = make_run("skip-locked", "hold", 10, 100, 1.0, 0, 0);
		cand[i] = make_run("skip-locked", "hold", 10, 100, 1.0, 0, 0);
	}
	CHECK(compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r) == 0 && !row_of(&r, "guarded.violations"),
	      "queue runs: no row for a guarded-resource figure");
	compare_result_free(&r);
	cand[0].metrics.guarded.violations = 2;
	CHECK(compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r) == 0 && row_of(&r, "guarded.violations") &&
	      row_of(&r, "guarded.violations")->base.n == 0 && row_of(&r, "guarded.violations")->cand.n == 1,
	      "one candidate run knows its violations: the row is there, none on the baseline's side");
	compare_result_free(&r);
}

static const double base_thru[REPEATS] = { 100, 102, 98 };

/* Identical sides: every row ok, no regression. */
static void test_unchanged(const struct compare_tolerance *tol)
{
	struct run_result base[REPEATS], cand[REPEATS];
	struct compare_result r;
	size_t i, ok = 0;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, base_thru, 1.0, NULL);
	CHECK_EQ(compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r), 0, "unchanged: compared");
	for (i = 0; i < r.n_rows; i++)
		ok += r.rows[i].verdict == VERDICT_OK;
	CHECK(r.n_rows == 8 && ok == 8, "unchanged: eight metrics of one group, all ok (%zu of %zu)", ok, r.n_rows);
	CHECK(r.regressions == 0 && r.n_lone == 0, "unchanged: no regression, no one-sided group");
	CHECK(row_of(&r, "throughput_jps")->base.n == 3 && row_of(&r, "throughput_jps")->welch.valid,
	      "unchanged: three runs a side, so significance is known");
	compare_result_free(&r);
}

/* Throughput up 20 %: better, significant; makespan down: better. */
static void test_better(const struct compare_tolerance *tol)
{
	static const double thru[REPEATS] = { 120, 122, 118 };
	struct run_result base[REPEATS], cand[REPEATS];
	const struct compare_row *row;
	struct compare_result r;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, thru, 1.0, NULL);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	row = row_of(&r, "throughput_jps");
	CHECK(row && row->verdict == VERDICT_BETTER && row->welch.significant,
	      "throughput up 20 %%: better and significant");
	CHECK(row && row->change == 20.0 && fabs(row->change_pct - 20.0) < 1e-9, "change +20 jobs/s, +20 %%");
	CHECK_EQ(verdict_of(&r, "makespan_s"), VERDICT_BETTER, "makespan down: better (lower is better)");
	CHECK_EQ(r.regressions, 0, "better: no regression");
	compare_result_free(&r);
}

/* Throughput down 6 %, significant but within the 10 % tolerance: worse, no regression. */
static void test_worse_within_tolerance(const struct compare_tolerance *tol)
{
	static const double thru[REPEATS] = { 94, 96, 92 };
	struct run_result base[REPEATS], cand[REPEATS];
	const struct compare_row *row;
	struct compare_result r;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, thru, 1.0, NULL);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	row = row_of(&r, "throughput_jps");
	CHECK(row && row->verdict == VERDICT_WORSE && row->welch.significant && row->reason == NULL,
	      "throughput down 6 %%: worse, significant, no tolerance broken");
	CHECK_EQ(r.regressions, 0, "worse within tolerance: no regression");
	compare_result_free(&r);
}

/* Throughput down 20 %: a regression; 25 % allowed: only worse; exactly 10 % down: no regression. */
static void test_throughput_drop(const struct compare_tolerance *tol)
{
	static const double thru[REPEATS] = { 80, 82, 78 };
	static const double tenth[REPEATS] = { 90, 91.8, 88.2 };
	struct compare_tolerance relaxed = *tol;
	struct run_result base[REPEATS], cand[REPEATS];
	const struct compare_row *row;
	struct compare_result r;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, thru, 1.0, NULL);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	row = row_of(&r, "throughput_jps");
	CHECK(row && row->verdict == VERDICT_REGRESSION && r.regressions == 1,
	      "throughput down 20 %%: REGRESSION, the only one");
	CHECK(row && row->reason && strstr(row->reason, "--throughput-drop"), "the reason names --throughput-drop");
	compare_result_free(&r);

	relaxed.throughput_drop_pct = 25;
	compare_runs(base, REPEATS, cand, REPEATS, &relaxed, &everything, &r);
	CHECK(verdict_of(&r, "throughput_jps") == VERDICT_WORSE && r.regressions == 0,
	      "--throughput-drop 25 relaxes a 20 %% drop to worse");
	compare_result_free(&r);

	fill(cand, tenth, 1.0, NULL);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK_EQ(r.regressions, 0, "a drop of exactly 10 %% is within the tolerance");
	compare_result_free(&r);
}

/* Duplicates and losses appearing where the baseline had none. */
static void test_new_duplicates_and_losses(const struct compare_tolerance *tol)
{
	static const uint64_t dups[REPEATS] = { 0, 2, 0 };
	struct compare_tolerance relaxed = *tol;
	struct run_result base[REPEATS], cand[REPEATS];
	struct compare_result r;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, base_thru, 1.0, dups);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK(verdict_of(&r, "race_duplicates") == VERDICT_REGRESSION && r.regressions == 1,
	      "duplicates appearing (0 -> 0.67 a run, not significant): REGRESSION");
	compare_result_free(&r);

	relaxed.allow_duplicates = true;
	compare_runs(base, REPEATS, cand, REPEATS, &relaxed, &everything, &r);
	CHECK(verdict_of(&r, "race_duplicates") == VERDICT_OK && r.regressions == 0,
	      "--allow-duplicates: not significant, so ok");
	compare_result_free(&r);

	cand[1].metrics.race_duplicates = 0;
	cand[2].metrics.lost = 1;
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK(verdict_of(&r, "lost") == VERDICT_REGRESSION && r.regressions == 1, "a lost job appearing: REGRESSION");
	compare_result_free(&r);
	relaxed.allow_losses = true;
	compare_runs(base, REPEATS, cand, REPEATS, &relaxed, &everything, &r);
	CHECK_EQ(r.regressions, 0, "--allow-losses relaxes it");
	compare_result_free(&r);

	for (int i = 0; i < REPEATS; i++) {
		base[i].metrics.race_duplicates = 5;
		cand[i].metrics.race_duplicates = 9;
		cand[i].metrics.lost = 0;
	}
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK(verdict_of(&r, "race_duplicates") == VERDICT_WORSE && r.regressions == 0,
	      "more duplicates where the baseline had some already: worse, no regression");
	compare_result_free(&r);
}

/* Jain's index down 0.1: a regression; down 0.04: worse only; --jain-drop 0.2 relaxes 0.1. */
static void test_jain(const struct compare_tolerance *tol)
{
	struct compare_tolerance relaxed = *tol;
	struct run_result base[REPEATS], cand[REPEATS];
	const struct compare_row *row;
	struct compare_result r;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, base_thru, 0.9, NULL);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	row = row_of(&r, "fairness.jain");
	CHECK(row && row->verdict == VERDICT_REGRESSION && r.regressions == 1, "Jain down 0.1: REGRESSION");
	CHECK(row && isinf(row->welch.t) && row->welch.significant,
	      "no spread on either side and different means: infinite t, significant");
	compare_result_free(&r);

	relaxed.jain_drop = 0.2;
	compare_runs(base, REPEATS, cand, REPEATS, &relaxed, &everything, &r);
	CHECK(verdict_of(&r, "fairness.jain") == VERDICT_WORSE && r.regressions == 0, "--jain-drop 0.2 relaxes it");
	compare_result_free(&r);

	fill(cand, base_thru, 0.96, NULL);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK(verdict_of(&r, "fairness.jain") == VERDICT_WORSE && r.regressions == 0,
	      "Jain down 0.04: worse, within the 0.05 tolerance");
	compare_result_free(&r);
}

/* Welch's t on hand-worked samples. */
static void test_welch(void)
{
	static const double a[] = { 10, 12, 14 }, b[] = { 16, 18, 20 };
	static const double c[] = { 1, 2, 3, 4, 5 }, d[] = { 2, 4, 6 };
	struct stats_summary sa = stats_summarize(a, 3), sb = stats_summarize(b, 3);
	struct stats_summary sc = stats_summarize(c, 5), sd = stats_summarize(d, 3);
	struct welch_result w;

	/* Means 12 and 18, variances 4 and 4: se = sqrt(4/3 + 4/3), t = 6 / 1.63299 = 3.67423, df = 4. */
	w = compare_welch(&sa, &sb);
	CHECK(w.valid, "Welch: three values a side is enough");
	CHECK_NEAR(w.t, 3.674235, 1e-6, "Welch: t of {10,12,14} -> {16,18,20} is 3.6742 (got %.6f)", w.t);
	CHECK_NEAR(w.df, 4.0, 1e-9, "Welch: df is 4 (got %.6f)", w.df);
	CHECK(w.significant, "Welch: 3.674 > t(0.975, 4) = 2.776, significant");
	w = compare_welch(&sb, &sa);
	CHECK_NEAR(w.t, -3.674235, 1e-6, "Welch: swapping the sides flips the sign");

	/*
	 * Means 3 and 4, variances 2.5 (n 5) and 4 (n 3): se^2 = 0.5 + 1.33333 = 1.83333,
	 * t = 1 / 1.35401 = 0.738549, df = 1.83333^2 / (0.5^2 / 4 + 1.33333^2 / 2) = 3.532847.
	 */
	w = compare_welch(&sc, &sd);
	CHECK_NEAR(w.t, 0.738549, 1e-6, "Welch: unequal sizes and variances, t = 0.7385 (got %.6f)", w.t);
	CHECK_NEAR(w.df, 3.532847, 1e-6, "Welch: Welch-Satterthwaite df = 3.5328 (got %.6f)", w.df);
	CHECK(!w.significant, "Welch: 0.739 < t(0.975, 3) = 3.182, not significant");

	w = compare_welch(&sa, &sa);
	CHECK(w.valid && w.t == 0 && !w.significant, "Welch: a sample against itself, t = 0");
	sb = stats_summarize(b, 1);
	w = compare_welch(&sa, &sb);
	CHECK(!w.valid && !w.significant, "Welch: one value on a side, n/a");
}

/* One run a side: significance n/a, so only the tolerance decides. */
static void test_single_runs(const struct compare_tolerance *tol)
{
	struct run_result base = make_run("skip-locked", "hold", 10, 100, 1.0, 0, 0);
	struct run_result cand = make_run("skip-locked", "hold", 10, 95, 1.0, 0, 0);
	const struct compare_row *row;
	struct compare_result r;

	compare_runs(&base, 1, &cand, 1, tol, &everything, &r);
	row = row_of(&r, "throughput_jps");
	CHECK(row && !row->welch.valid && row->verdict == VERDICT_OK && r.untested,
	      "one run a side, throughput down 5 %%: significance n/a (untested), ok");
	compare_result_free(&r);
	cand = make_run("skip-locked", "hold", 10, 80, 1.0, 0, 0);
	compare_runs(&base, 1, &cand, 1, tol, &everything, &r);
	CHECK_EQ(verdict_of(&r, "throughput_jps"), VERDICT_REGRESSION, "one run a side, down 20 %%: REGRESSION");
	compare_result_free(&r);
}

/* Groups on one side only are listed, not compared; a metric with no value is no verdict. */
static void test_lone_groups(const struct compare_tolerance *tol)
{
	struct run_result base[3], cand[3];
	const struct compare_row *row;
	struct compare_result r;

	base[0] = make_run("skip-locked", "hold", 10, 100, 1.0, 0, 0);
	base[1] = make_run("naive", "flip", 4, 100, 1.0, 3, 0);
	base[2] = make_run("naive", "flip", 4, 100, 1.0, 3, 0);
	cand[0] = make_run("ticket", "hold", 2, 50, 1.0, 0, 0);
	cand[1] = make_run("skip-locked", "hold", 10, 100, 1.0, 0, 0);
	cand[2] = make_run("skip-locked", "flip", 10, 100, 1.0, 0, 0);
	base[0].metrics.claim_latency_ms.p99 = NAN;
	CHECK_EQ(compare_runs(base, 3, cand, 3, tol, &everything, &r), 0, "one-sided groups: compared");
	CHECK(r.n_rows == 8 && strcmp(r.rows[0].group.strategy, "skip-locked") == 0 &&
	      strcmp(r.rows[0].group.claim_mode, "hold") == 0, "only skip-locked/hold/10 is on both sides");
	CHECK_EQ(r.n_lone, 3, "three groups on one side only (got %zu)", r.n_lone);
	CHECK(r.n_lone == 3 && r.lone[0].side == SIDE_BASELINE && strcmp(r.lone[0].group.strategy, "naive") == 0 &&
	      r.lone[0].runs == 2, "naive/flip/4: baseline only, 2 runs");
	CHECK(r.n_lone == 3 && r.lone[1].side == SIDE_CANDIDATE && strcmp(r.lone[1].group.strategy, "ticket") == 0 &&
	      r.lone[1].runs == 1, "ticket/hold/2: candidate only, 1 run");
	CHECK(r.n_lone == 3 && r.lone[2].side == SIDE_CANDIDATE && strcmp(r.lone[2].group.claim_mode, "flip") == 0,
	      "skip-locked/flip/10: the claim mode is part of the group");
	CHECK_EQ(r.regressions, 0, "one-sided groups are no regression");
	row = row_of(&r, "claim_latency_ms.p99");
	CHECK(row && row->base.n == 0 && isnan(row->change) && row->verdict == VERDICT_OK,
	      "a metric with no value on a side: no change, ok");
	compare_result_free(&r);

	CHECK(compare_runs(base, 3, NULL, 0, tol, &everything, &r) == 0 && r.n_rows == 0 && r.n_lone == 2,
	      "an empty candidate: every baseline group alone");
	compare_result_free(&r);
}

/* A throughput drop beyond the tolerance but lost in the noise is worse, not a regression. */
static void test_beyond_tolerance_not_significant(const struct compare_tolerance *tol)
{
	static const double noisy[REPEATS] = { 50, 130, 80 };
	struct run_result base[REPEATS], cand[REPEATS];
	const struct compare_row *row;
	struct compare_result r;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, noisy, 1.0, NULL);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	row = row_of(&r, "throughput_jps");
	CHECK(row && row->beyond_tolerance && !row->welch.significant && row->verdict == VERDICT_WORSE,
	      "throughput down 13 %% with a spread of 40: beyond the tolerance, not significant, worse");
	CHECK(r.regressions == 0 && !r.untested, "so no regression; three runs a side were tested");
	compare_result_free(&r);
}

/* Means equal but for the order they were summed in: no change, not +4e-17. */
static void test_rounding_is_no_change(const struct compare_tolerance *tol)
{
	static const double up[REPEATS] = { 0.1, 0.2, 0.3 }, down[REPEATS] = { 0.3, 0.2, 0.1 };
	struct run_result base[REPEATS], cand[REPEATS];
	const struct compare_row *row;
	struct compare_result r;

	fill(base, up, 1.0, NULL);
	fill(cand, down, 1.0, NULL);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	row = row_of(&r, "throughput_jps");
	CHECK(row && row->change == 0 && row->change_pct == 0 && row->verdict == VERDICT_OK,
	      "0.1+0.2+0.3 against 0.3+0.2+0.1: change 0 (got %g)", row ? row->change : NAN);
	compare_result_free(&r);
}

/* --strategy keeps the runs it names, by NAME or NAME:MODE. */
static void test_scope_strategies(const struct compare_tolerance *tol)
{
	const struct compare_scope only_naive = { .strategies = "ticket,naive:flip" };
	const struct compare_scope nothing = { .strategies = "naive:hold" };
	struct run_result base[3], cand[3];
	struct compare_result r;

	base[0] = make_run("skip-locked", "hold", 10, 100, 1.0, 0, 0);
	base[1] = make_run("naive", "flip", 4, 100, 1.0, 3, 0);
	base[2] = make_run("ticket", "flip", 4, 100, 1.0, 0, 0);
	for (int i = 0; i < 3; i++)
		cand[i] = base[i];
	cand[0].metrics.throughput_jps = 10;
	compare_runs(base, 3, cand, 3, tol, &only_naive, &r);
	CHECK(r.runs_in_scope[0] == 2 && r.runs_in_scope[1] == 2 && r.n_rows == 16 && r.regressions == 0,
	      "--strategy ticket,naive:flip: two groups, skip-locked's collapse not looked at");
	compare_result_free(&r);
	compare_runs(base, 3, cand, 3, tol, &nothing, &r);
	CHECK(r.runs_in_scope[0] == 0 && r.n_rows == 0, "--strategy naive:hold: no run in scope");
	compare_result_free(&r);
}

/* An adapter's upgrade: its version differs, allowed and shown; the group carries its system and version. */
static void test_adapter_upgrade(const struct compare_tolerance *tol)
{
	static struct run_param old_version[] = { { "work-ms", "20" }, { "adapter-system", "pg-boss" },
						  { "adapter-version", "10.1.5" } };
	static struct run_param new_version[] = { { "work-ms", "20" }, { "adapter-system", "pg-boss" },
						  { "adapter-version", "10.1.6" } };
	struct run_result base[REPEATS], cand[REPEATS];
	struct compare_result r;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, base_thru, 1.0, NULL);
	for (int i = 0; i < REPEATS; i++) {
		base[i].params = old_version;
		cand[i].params = new_version;
		base[i].n_params = cand[i].n_params = 3;
	}
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK(r.n_diffs == 1 && r.refused_diffs == 0 && strcmp(r.diffs[0].name, "adapter-version") == 0 &&
	      r.diffs[0].allowed, "adapter-version 10.1.5 -> 10.1.6: one diff, allowed (%zu diffs, %zu refused)",
	      r.n_diffs, r.refused_diffs);
	CHECK(r.n_rows > 0 && r.rows[0].group.system && strcmp(r.rows[0].group.system, "pg-boss") == 0 &&
	      r.rows[0].group.version && strcmp(r.rows[0].group.version, "10.1.5") == 0,
	      "the group names the baseline's system and version (%s %s)",
	      r.n_rows && r.rows[0].group.system ? r.rows[0].group.system : "none",
	      r.n_rows && r.rows[0].group.version ? r.rows[0].group.version : "none");
	compare_result_free(&r);
}

/* Parameters that differ are found once, refused unless allowed; one missing on a side is not compared. */
static void test_workload_differences(const struct compare_tolerance *tol)
{
	static struct run_param p20[] = { { "work-ms", "20" }, { "seed", "1" } };
	static struct run_param p25[] = { { "work-ms", "25" }, { "seed", "1" } };
	static struct run_param p25_seed2[] = { { "work-ms", "25" }, { "seed", "2" }, { "lease-ms", "0" } };
	const struct compare_scope allow = { .allowed_diffs = "seed,work-ms" };
	struct run_result base[REPEATS], cand[REPEATS];
	struct compare_result r;

	fill(base, base_thru, 1.0, NULL);
	fill(cand, base_thru, 1.0, NULL);
	for (int i = 0; i < REPEATS; i++) {
		base[i].params = p20;
		base[i].n_params = 2;
		cand[i].params = i == 2 ? p25_seed2 : p25;
		cand[i].n_params = i == 2 ? 3 : 2;
	}
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK(r.n_diffs == 2 && r.refused_diffs == 2, "work-ms and seed differ, each named once (%zu)", r.n_diffs);
	CHECK(r.n_diffs == 2 && strcmp(r.diffs[0].name, "work-ms") == 0 && strcmp(r.diffs[0].base_value, "20") == 0 &&
	      strcmp(r.diffs[0].cand_value, "25") == 0 && !r.diffs[0].allowed, "work-ms 20 -> 25, not allowed");
	compare_result_free(&r);
	compare_runs(base, REPEATS, cand, REPEATS, tol, &allow, &r);
	CHECK(r.n_diffs == 2 && r.refused_diffs == 0 && r.diffs[1].allowed, "--allow-diff seed,work-ms allows both");
	compare_result_free(&r);
	for (int i = 0; i < REPEATS; i++) {
		cand[i].params = p20;
		cand[i].n_params = 2;
	}
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK_EQ(r.n_diffs, 0, "the same parameters: no difference");
	compare_result_free(&r);
}

/* Sweep points and scenario sections are groups of their own. */
static void test_sweep_points_are_groups(const struct compare_tolerance *tol)
{
	struct run_result base[2], cand[2];
	struct compare_result r;

	base[0] = make_run("skip-locked", "hold", 10, 100, 1.0, 0, 0);
	base[1] = make_run("skip-locked", "hold", 10, 50, 1.0, 0, 0);
	base[0].sweep = "jobs=100";
	base[1].sweep = "jobs=1000";
	cand[0] = base[1];
	cand[1] = base[0];
	cand[1].group = "drain";
	compare_runs(base, 2, cand, 2, tol, &everything, &r);
	CHECK(r.n_rows == 8 && strcmp(r.rows[0].group.sweep, "jobs=1000") == 0 && r.regressions == 0,
	      "jobs=1000 meets jobs=1000 only: one group, 50 against 50");
	CHECK_EQ(r.n_lone, 2, "jobs=100 outside a section and jobs=100 in [drain] are apart (%zu alone)", r.n_lone);
	compare_result_free(&r);
}

/* Sets the engine of the n runs to engine. */
static void set_engine(struct run_result *runs, size_t n, const char *engine)
{
	for (size_t i = 0; i < n; i++)
		snprintf(runs[i].engine, sizeof(runs[i].engine), "%s", engine);
}

/* Runs of two engines are two groups on a side, and across the sides a difference only --allow-diff backend allows. */
static void test_engines_apart(const struct compare_tolerance *tol)
{
	const double pg[] = { 100, 101, 102 }, lite[] = { 300, 310, 320 };
	const struct compare_scope backend = { .allowed_diffs = "backend" };
	struct run_result mixed[2 * REPEATS], base[REPEATS], cand[REPEATS];
	const struct compare_row *row;
	struct compare_result r;

	fill(mixed, pg, 1.0, NULL);
	fill(mixed + REPEATS, lite, 1.0, NULL);
	set_engine(mixed, REPEATS, "postgresql 16.4");
	set_engine(mixed + REPEATS, REPEATS, "sqlite 3.45.1");
	compare_runs(mixed, 2 * REPEATS, mixed, 2 * REPEATS, tol, &everything, &r);
	row = row_of(&r, "throughput_jps");
	CHECK(r.n_rows == 16 && r.refused_diffs == 0 && !r.across_engines && row && row->base.n == REPEATS &&
	      row->base.mean == 101 && strcmp(row->group.engine, "postgresql 16.4") == 0 &&
	      r.rows[8].base.n == REPEATS && strcmp(r.rows[8].group.engine, "sqlite 3.45.1") == 0,
	      "a side of two engines is two groups, never pooled (%zu rows; PostgreSQL's throughput %zu runs, mean %g)",
	      r.n_rows, row ? row->base.n : 0, row ? row->base.mean : NAN);
	compare_result_free(&r);

	memcpy(base, mixed, sizeof(base));
	memcpy(cand, mixed + REPEATS, sizeof(cand));
	compare_runs(base, REPEATS, cand, REPEATS, tol, &everything, &r);
	CHECK(r.n_rows == 0 && r.refused_diffs == 1 && r.n_diffs == 1 && strcmp(r.diffs[0].name, "backend") == 0 &&
	      strcmp(r.diffs[0].base_value, "postgresql 16.4") == 0 && strcmp(r.diffs[0].cand_value, "sqlite 3.45.1") == 0,
	      "PostgreSQL against SQLite is a refused difference of backend naming both (%zu rows, %zu refused: %s %s -> %s)",
	      r.n_rows, r.refused_diffs, r.n_diffs ? r.diffs[0].name : "-", r.n_diffs ? r.diffs[0].base_value : "-",
	      r.n_diffs ? r.diffs[0].cand_value : "-");
	compare_result_free(&r);

	compare_runs(base, REPEATS, cand, REPEATS, tol, &backend, &r);
	row = row_of(&r, "throughput_jps");
	CHECK(r.n_rows == 8 && r.refused_diffs == 0 && r.across_engines && r.n_lone == 0 && row &&
	      strcmp(row->group.engine, "postgresql 16.4") == 0 && strcmp(row->cand_engine, "sqlite 3.45.1") == 0 &&
	      row->base.mean == 101 && row->cand.mean == 310,
	      "--allow-diff backend compares them, each row naming both engines (%zu rows, %zu alone; %g -> %g)",
	      r.n_rows, r.n_lone, row ? row->base.mean : NAN, row ? row->cand.mean : NAN);
	compare_result_free(&r);
}

int main(void)
{
	struct compare_tolerance tol = { .throughput_drop_pct = COMPARE_THROUGHPUT_DROP_PCT,
					 .jain_drop = COMPARE_JAIN_DROP };

	CHECK(strcmp(compare_verdict_name(VERDICT_OK), "ok") == 0 &&
	      strcmp(compare_verdict_name(VERDICT_REGRESSION), "REGRESSION") == 0, "verdict names");
	test_unchanged(&tol);
	test_better(&tol);
	test_worse_within_tolerance(&tol);
	test_throughput_drop(&tol);
	test_new_duplicates_and_losses(&tol);
	test_jain(&tol);
	test_welch();
	test_single_runs(&tol);
	test_lone_groups(&tol);
	test_beyond_tolerance_not_significant(&tol);
	test_rounding_is_no_change(&tol);
	test_scope_strategies(&tol);
	test_workload_differences(&tol);
	test_adapter_upgrade(&tol);
	test_sweep_points_are_groups(&tol);
	test_unknown_on_both_sides(&tol);
	test_engines_apart(&tol);
	return check_exit_status();
}
