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
 * The metrics that count work per job rather than time it: what the server did for a
 * claim. Until the metric table marks costs itself, this list does.
 */
static const char *const cost_metrics[] = {
	"server.blocks_per_claim_start",
	"server.blocks_per_claim_end",
};

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

const char *ab_kind_name(enum ab_kind k)
{
	switch (k) {
	case AB_COST:
		return "cost";
	case AB_FACT:
		return "fact";
	case AB_TIMING:
		break;
	}
	return "timing";
}

enum ab_kind ab_kind_of(const struct metric *m)
{
	for (size_t i = 0; i < sizeof(cost_metrics) / sizeof(cost_metrics[0]); i++)
		if (strcmp(m->path, cost_metrics[i]) == 0)
			return AB_COST;
	if (m->guard == GUARD_DUPLICATES || m->guard == GUARD_LOSSES || m->guard == GUARD_EXCLUSION)
		return AB_FACT;
	return AB_TIMING;
}

enum metric_direction ab_direction(const struct metric *m)
{
	if (ab_kind_of(m) == AB_COST)
		return LOWER_IS_BETTER;
	return m->direction;
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
	bool up;

	row->change_pct = paired_pct(p->diff_mean, p->base_mean);
	row->ci_low_pct = paired_pct(p->ci_low, p->base_mean);
	row->ci_high_pct = paired_pct(p->ci_high, p->base_mean);
	row->mde_pct = paired_pct(p->mde, p->base_mean);
	row->base_cv_pct = paired_pct(p->base_sd, p->base_mean);
	row->cand_cv_pct = paired_pct(p->cand_sd, p->cand_mean);
	row->tolerance_pct = row->kind == AB_COST ? tol->cost_pct : row->kind == AB_TIMING ? tol->timing_pct : NAN;
	row->verdict = AB_SAME;
	if (row->kind == AB_FACT) {
		row->gated = true;
		if (p->n && p->base_mean == 0 && p->cand_mean > 0)
			row->verdict = AB_REGRESSION;
		return;
	}
	row->note = !p->valid ? AB_NOTE_TOO_FEW :
		    row->kind == AB_TIMING && !(row->mde_pct <= row->tolerance_pct) ? AB_NOTE_UNDETECTABLE : AB_NOTE_NONE;
	row->gated = row->note == AB_NOTE_NONE;
	if (!p->significant)
		return;
	up = p->diff_mean > 0;
	row->verdict = up == (row->direction == HIGHER_IS_BETTER) ? AB_BETTER : AB_WORSE;
	if (row->verdict == AB_WORSE && row->gated && beyond(row->change_pct, row->direction, row->tolerance_pct))
		row->verdict = AB_REGRESSION;
}

/*
 * Appends to out a row per metric ab compares of group g that a run of either side
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
		if (ab_direction(m) == NOT_COMPARED)
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
		*row = (struct ab_row){ .group = *g, .metric = m, .kind = ab_kind_of(m), .direction = ab_direction(m),
					.paired = paired_compare(base_v, cand_v, rounds) };
		judge(row, tol);
		out->regressions += row->verdict == AB_REGRESSION;
		out->ungated += row->note != AB_NOTE_NONE;
	}
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
