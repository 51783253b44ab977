/*
 * The comparison of ab.h. A group's value in a round is the mean of its runs in that
 * round (a scenario's repeat), unknown values left out; a round where a side has none is
 * left out of the pairs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ab.h"
#include "base/stats.h"

/* Slack on the tolerances, so that a change of exactly the tolerance is not a regression through rounding. */
#define TOLERANCE_SLACK 1e-9

/*
 * The absolute floor, in the metric's unit, of a cost or timing whose baseline mean is 0
 * (no percentage of it exists), held as a tolerance: a candidate whose interval lies wholly
 * beyond it is a regression (docs/ci.md).
 */
#define ZERO_BASE_FLOOR 0.01

/* The most rounds an undecided metric's estimate names; beyond, it says none in reach (0). */
#define AB_DECIDE_ROUNDS_MAX 1e6

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

const char *ab_gate_name(enum ab_gate g)
{
	switch (g) {
	case AB_GATE_NO_REGRESSION:
		return "no_regression";
	case AB_GATE_REGRESSION:
		return "regression";
	case AB_GATE_UNDECIDED:
		return "undecided";
	case AB_GATE_NONE:
		break;
	}
	return NULL;
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

/*
 * The rounds that would decide an undecided metric: its interval, centre worse (how much
 * worse, the worse way positive) and half-width half over rounds rounds, is Student's t95
 * of rounds - 1 times the differences' spread over sqrt(rounds); with the spread and the
 * centre as they are, r rounds leave out limit once t95(r - 1) x spread / sqrt(r) < |worse -
 * limit|, which falls with r (the t quantile as well as the root: at 3 rounds t95 is 4.30,
 * at 30 2.05), so the least such r is searched for. 0 when the centre is the limit, or so
 * near it that no count of rounds in reach would.
 */
static size_t rounds_to_decide(double worse, double half, double limit, size_t rounds)
{
	double distance = fabs(worse - limit), spread;
	size_t low = rounds, high = (size_t)AB_DECIDE_ROUNDS_MAX, mid;

	if (!(distance > TOLERANCE_SLACK) || rounds < 2 || !isfinite(half))
		return 0;
	spread = half * sqrt((double)rounds) / stats_t95(rounds - 1);
	if (!(stats_t95(high - 1) * spread / sqrt((double)high) < distance))
		return 0;
	/* low never decides it (it is undecided at rounds), high does */
	while (high - low > 1) {
		mid = low + (high - low) / 2;
		if (stats_t95(mid - 1) * spread / sqrt((double)mid) < distance)
			high = mid;
		else
			low = mid;
	}
	return high;
}

/*
 * Decides row's gate from the 95 % interval of how much worse the candidate is, [worse_low,
 * worse_high] (the worse way positive), and the lower end of its family-wise interval,
 * family_low, against limit: a regression when the whole family-wise interval is beyond it,
 * no regression when the whole 95 % interval is within it, undecided otherwise.
 */
static void decide(struct ab_row *row, double worse_low, double worse_high, double family_low, double limit)
{
	if (family_low > limit + TOLERANCE_SLACK) {
		row->gate = AB_GATE_REGRESSION;
	} else if (worse_high <= limit + TOLERANCE_SLACK) {
		row->gate = AB_GATE_NO_REGRESSION;
	} else {
		row->gate = AB_GATE_UNDECIDED;
		row->rounds_to_decide = rounds_to_decide((worse_low + worse_high) / 2, (worse_high - worse_low) / 2,
							 limit, row->paired.n);
	}
}

/*
 * How much wider than its 95 % interval a metric's regression interval is when family
 * metrics of its group are gated at once: t(1 - 0.025 / family) over t(0.975), Bonferroni's
 * correction, so that an unchanged candidate fails a group's gate in at most 5 % of ab's
 * invocations rather than in 5 % of each metric's (docs/ci.md). 1 for a family of one.
 */
static double family_widening(size_t family, size_t pairs)
{
	if (family <= 1 || pairs < 2)
		return 1;
	return stats_t_quantile(1 - 0.025 / (double)family, pairs - 1) / stats_t_quantile(0.975, pairs - 1);
}

/* Fills row's percentages, gate and verdict from its paired comparison under tol, family its group's gated costs and timings. */
static void judge(struct ab_row *row, const struct ab_tolerance *tol, size_t family)
{
	const struct paired_result *p = &row->paired;
	enum metric_nature nature = row->metric->nature;
	bool higher_better = row->metric->direction == HIGHER_IS_BETTER;
	double low, high, centre, widen = family_widening(family, p->n);

	row->family_low = row->family_high = NAN;

	row->change_pct = paired_pct(p->diff_mean, p->base_mean);
	row->ci_low_pct = paired_pct(p->ci_low, p->base_mean);
	row->ci_high_pct = paired_pct(p->ci_high, p->base_mean);
	row->mde_pct = paired_pct(p->mde, p->base_mean);
	row->base_cv_pct = paired_pct(p->base_sd, p->base_mean);
	row->cand_cv_pct = paired_pct(p->cand_sd, p->cand_mean);
	row->tolerance_pct = nature == NATURE_COST ? tol->cost_pct : nature == NATURE_TIMING ? tol->timing_pct : NAN;
	row->verdict = AB_SAME;
	if (p->significant)
		row->verdict = (p->diff_mean > 0) == higher_better ? AB_BETTER : AB_WORSE;
	if (nature == NATURE_OUTCOME) {
		if (guards_a_fact(row->metric) && p->n)
			row->gate = p->base_mean == 0 && p->cand_mean > 0 ? AB_GATE_REGRESSION : AB_GATE_NO_REGRESSION;
	} else if (!p->valid) {
		row->note = AB_NOTE_TOO_FEW;
	} else if (p->base_mean == 0) {
		/* no percentage of a baseline of 0: the interval in the metric's unit against the floor */
		low = higher_better ? -p->ci_high : p->ci_low;
		high = higher_better ? -p->ci_low : p->ci_high;
		centre = (low + high) / 2;
		row->family_low = centre - (centre - low) * widen;
		row->family_high = centre + (high - centre) * widen;
		decide(row, low, high, row->family_low, ZERO_BASE_FLOOR);
	} else {
		low = higher_better ? -row->ci_high_pct : row->ci_low_pct;
		high = higher_better ? -row->ci_low_pct : row->ci_high_pct;
		centre = (low + high) / 2;
		row->family_low = centre - (centre - low) * widen;
		row->family_high = centre + (high - centre) * widen;
		decide(row, low, high, row->family_low, row->tolerance_pct);
	}
	row->family = family;
	row->gated = row->gate != AB_GATE_NONE;
	if (row->gate == AB_GATE_REGRESSION)
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
	size_t first = out->n_rows, family = 0;
	bool known;

	/* the group's rows first, so that each cost and timing is judged knowing how many are gated beside it */
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
		family += m->nature != NATURE_OUTCOME && row->paired.valid;
	}
	for (row = out->rows + first; row < out->rows + out->n_rows; row++) {
		judge(row, tol, family);
		out->regressions += row->gate == AB_GATE_REGRESSION;
		out->undecided += row->gate == AB_GATE_UNDECIDED;
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

/* Whether section names a and b (NULL or "" for none) are the same. */
static bool same_section(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

enum ab_gate ab_section_gate(const struct ab_result *r, const char *section, const struct metric *m)
{
	enum ab_gate gate = AB_GATE_NONE;

	for (size_t i = 0; i < r->n_rows; i++) {
		const struct ab_row *row = &r->rows[i];

		if (row->metric != m || row->gate == AB_GATE_NONE || !same_section(row->group.section, section))
			continue;
		if (row->gate == AB_GATE_REGRESSION)
			return AB_GATE_REGRESSION;
		if (gate != AB_GATE_UNDECIDED)
			gate = row->gate;
	}
	return gate;
}

bool ab_first_of_section(const struct ab_result *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_section(r->rows[j].group.section, r->rows[i].group.section))
			return false;
	return true;
}

bool ab_gate_fails(const struct ab_result *r, bool fail_on_undecided)
{
	return r->regressions || (fail_on_undecided && r->undecided);
}

void ab_result_free(struct ab_result *r)
{
	free(r->rows);
	free(r->lone);
	memset(r, 0, sizeof(*r));
}
