/*
 * The comparison of ab.h. A group's value in a round is the mean of its runs in that
 * round (a scenario's repeat), unknown values left out; a round where a side has none is
 * left out of the pairs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ab.h"

/* Slack on the tolerances, so that a change of exactly the tolerance is not a regression through rounding. */
#define TOLERANCE_SLACK 1e-9

/*
 * The absolute floor, in the metric's unit, of a cost or timing whose baseline mean is 0
 * (no percentage of it exists): a candidate significantly worse by more than this is a
 * regression (docs/ci.md).
 */
#define ZERO_BASE_FLOOR 0.01

const char *ab_verdict_name(enum ab_verdict v)
{
	switch (v) {
	case AB_BETTER:
		return "better";
	case AB_WORSE:
		return "worse";
	case AB_REGRESSION:
		return "REGRESSION";
	case AB_SAME:
		break;
	}
	return "~";
}

const char *ab_nature_name(enum metric_nature n)
{
	switch (n) {
	case NATURE_COST:
		return "cost";
	case NATURE_TIMING:
		return "timing";
	case NATURE_OUTCOME:
		break;
	}
	return "outcome";
}

/* Whether outcome m's guard is a fact one run proves: duplicates, losses, a broken guard. */
static bool guards_a_fact(const struct metric *m)
{
	return m->guard == GUARD_DUPLICATES || m->guard == GUARD_LOSSES || m->guard == GUARD_EXCLUSION;
}

/* The mean of metric m over side's runs of group g in round k: NaN when none knows it. */
static double round_value(const struct ab_side *side, const struct compare_group *g, size_t k,
			  const struct metric *m)
{
	double sum = 0, v;
	size_t used = 0;

	for (size_t i = 0; i < side->n; i++) {
		if (side->round[i] != k || !compare_in_group(&side->runs[i], g))
			continue;
		v = metric_get(m, &side->runs[i].metrics);
		if (isfinite(v)) {
			sum += v;
			used++;
		}
	}
	return used ? sum / (double)used : NAN;
}

/* Whether side has a run of group g. */
static bool has_group(const struct ab_side *side, const struct compare_group *g)
{
	for (size_t i = 0; i < side->n; i++)
		if (compare_in_group(&side->runs[i], g))
			return true;
	return false;
}

/* The runs of side in group g. */
static size_t count_group(const struct ab_side *side, const struct compare_group *g)
{
	size_t count = 0;

	for (size_t i = 0; i < side->n; i++)
		count += compare_in_group(&side->runs[i], g);
	return count;
}

/* Whether side->runs[i] is the first of side's runs in its group. */
static bool first_of_group(const struct ab_side *side, size_t i)
{
	struct compare_group g = compare_group_of(&side->runs[i]);

	for (size_t j = 0; j < i; j++)
		if (compare_in_group(&side->runs[j], &g))
			return false;
	return true;
}

/* Whether a change of change_pct, signed, is the wrong way for direction, by more than tolerance_pct. */
static bool beyond(double change_pct, enum metric_direction direction, double tolerance_pct)
{
	double worse = direction == HIGHER_IS_BETTER ? -change_pct : change_pct;

	return isfinite(worse) && worse > tolerance_pct + TOLERANCE_SLACK;
}

/* Fills row's percentages, gate and verdict from its paired comparison under tol. */
static void judge(struct ab_row *row, const struct ab_tolerance *tol)
{
	const struct paired_result *p = &row->paired;
	enum metric_nature nature = row->metric->nature;
	enum metric_direction direction = row->metric->direction;
	bool up;

	row->change_pct = paired_pct(p->diff_mean, p->base_mean);
	row->ci_low_pct = paired_pct(p->ci_low, p->base_mean);
	row->ci_high_pct = paired_pct(p->ci_high, p->base_mean);
	row->mde_pct = paired_pct(p->mde, p->base_mean);
	row->base_cv_pct = paired_pct(p->base_sd, p->base_mean);
	row->cand_cv_pct = paired_pct(p->cand_sd, p->cand_mean);
	row->tolerance_pct = nature == NATURE_COST ? tol->cost_pct : nature == NATURE_TIMING ? tol->timing_pct : NAN;
	row->verdict = AB_SAME;
	if (nature == NATURE_OUTCOME) {
		row->gated = guards_a_fact(row->metric);
		if (row->gated && p->n && p->base_mean == 0 && p->cand_mean > 0)
			row->verdict = AB_REGRESSION;
		else if (p->significant)
			row->verdict = (p->diff_mean > 0) == (direction == HIGHER_IS_BETTER) ? AB_BETTER : AB_WORSE;
		return;
	}
	/* from a baseline of 0 any significant change is detected: the floor, not a percentage, gates it */
	row->note = !p->valid ? AB_NOTE_TOO_FEW :
		    p->base_mean != 0 && !(row->mde_pct <= row->tolerance_pct) ? AB_NOTE_UNDETECTABLE : AB_NOTE_NONE;
	row->gated = row->note == AB_NOTE_NONE;
	if (!p->significant)
		return;
	up = p->diff_mean > 0;
	row->verdict = up == (direction == HIGHER_IS_BETTER) ? AB_BETTER : AB_WORSE;
	if (row->verdict == AB_WORSE && row->gated &&
	    (p->base_mean == 0 ? fabs(p->diff_mean) > ZERO_BASE_FLOOR
			       : beyond(row->change_pct, direction, row->tolerance_pct)))
		row->verdict = AB_REGRESSION;
}

/*
 * Appends to out a row per metric with a direction of group g that a run of either side
 * knows. base_v and cand_v hold rounds doubles each.
 */
static void compare_group(const struct ab_side *base, const struct ab_side *cand, size_t rounds,
			  const struct compare_group *g, const struct ab_tolerance *tol, double *base_v,
			  double *cand_v, struct ab_result *out)
{
	const struct metric *m;
	struct ab_row *row;
	bool known;

	for (m = metric_table; m < metric_table + metric_table_len; m++) {
		if (m->direction == NOT_COMPARED)
			continue;
		known = false;
		for (size_t k = 0; k < rounds; k++) {
			base_v[k] = round_value(base, g, k, m);
			cand_v[k] = round_value(cand, g, k, m);
			known |= isfinite(base_v[k]) || isfinite(cand_v[k]);
		}
		if (!known)
			continue;
		row = &out->rows[out->n_rows++];
		*row = (struct ab_row){ .group = *g, .metric = m, .paired = paired_compare(base_v, cand_v, rounds) };
		judge(row, tol);
		out->regressions += row->verdict == AB_REGRESSION;
		out->ungated += row->note != AB_NOTE_NONE;
	}
}

/* The runs of side that ran dry. */
static size_t count_dry(const struct ab_side *side)
{
	size_t dry = 0;

	for (size_t i = 0; i < side->n; i++)
		dry += side->runs[i].metrics.dry.ran_dry == 1;
	return dry;
}

int ab_compare(const struct ab_side *base, const struct ab_side *cand, size_t rounds,
	       const struct ab_tolerance *tol, struct ab_result *out)
{
	double *base_v = NULL, *cand_v = NULL;
	struct compare_group g;
	size_t i;

	memset(out, 0, sizeof(*out));
	base_v = malloc((rounds + 1) * sizeof(*base_v));
	cand_v = malloc((rounds + 1) * sizeof(*cand_v));
	/* Upper bounds (+ 1: no allocation of size 0): every baseline run its own group, every run alone. */
	out->rows = calloc(base->n * metric_table_len + 1, sizeof(*out->rows));
	out->lone = calloc(base->n + cand->n + 1, sizeof(*out->lone));
	if (!base_v || !cand_v || !out->rows || !out->lone)
		goto fail;
	out->dry_runs[0] = count_dry(base);
	out->dry_runs[1] = count_dry(cand);
	for (i = 0; i < base->n; i++) {
		if (!first_of_group(base, i))
			continue;
		g = compare_group_of(&base->runs[i]);
		if (has_group(cand, &g))
			compare_group(base, cand, rounds, &g, tol, base_v, cand_v, out);
		else
			out->lone[out->n_lone++] = (struct compare_lone_group){ .group = g, .side = SIDE_BASELINE,
										.runs = count_group(base, &g) };
	}
	for (i = 0; i < cand->n; i++) {
		g = compare_group_of(&cand->runs[i]);
		if (first_of_group(cand, i) && !has_group(base, &g))
			out->lone[out->n_lone++] = (struct compare_lone_group){ .group = g, .side = SIDE_CANDIDATE,
										.runs = count_group(cand, &g) };
	}
	free(base_v);
	free(cand_v);
	return 0;
fail:
	free(base_v);
	free(cand_v);
	ab_result_free(out);
	return -1;
}

void ab_result_free(struct ab_result *r)
{
	free(r->rows);
	free(r->lone);
	memset(r, 0, sizeof(*r));
}
