/*
 * The comparison of compare.h. A metric a run does not have (NaN, stored as NULL) is
 * left out of its side's summary; a side with no value at all gets no change and no
 * verdict but ok.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"

/* Slack on the tolerances, so that a change of exactly the tolerance is not a regression through rounding. */
#define TOLERANCE_SLACK 1e-9

void compare_default_tolerance(struct compare_tolerance *t)
{
	*t = (struct compare_tolerance){
		.throughput_drop_pct = COMPARE_THROUGHPUT_DROP_PCT,
		.jain_drop = COMPARE_JAIN_DROP,
	};
}

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_BETTER:
		return "better";
	case VERDICT_WORSE:
		return "worse";
	case VERDICT_REGRESSION:
		return "REGRESSION";
	case VERDICT_OK:
		break;
	}
	return "ok";
}

struct welch_result compare_welch(const struct stats_summary *base, const struct stats_summary *cand)
{
	struct welch_result w = { .valid = false };
	double vb, vc, se2, df_floor;

	if (base->n < 2 || cand->n < 2)
		return w;
	w.valid = true;
	vb = base->sd * base->sd / (double)base->n;
	vc = cand->sd * cand->sd / (double)cand->n;
	se2 = vb + vc;
	if (se2 == 0) {
		w.df = (double)(base->n + cand->n - 2);
		if (cand->mean != base->mean) {
			w.t = cand->mean > base->mean ? INFINITY : -INFINITY;
			w.significant = true;
		}
		return w;
	}
	w.t = (cand->mean - base->mean) / sqrt(se2);
	w.df = se2 * se2 / (vb * vb / (double)(base->n - 1) + vc * vc / (double)(cand->n - 1));
	/* Rounding df down widens the critical value: never significant by a fraction of a degree. */
	df_floor = floor(w.df);
	w.significant = fabs(w.t) > stats_t95(df_floor < 1 ? 1 : (size_t)df_floor);
	return w;
}

/* True when strings a and b are equal, NULL equal only to NULL. */
static bool same_name(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* True when run r belongs to group g. */
static bool in_group(const struct run_result *r, const struct compare_group *g)
{
	return r->workers == g->workers && same_name(r->strategy, g->strategy) &&
	       same_name(r->claim_mode, g->claim_mode);
}

/* The group of run r. */
static struct compare_group group_of(const struct run_result *r)
{
	return (struct compare_group){ .strategy = r->strategy, .claim_mode = r->claim_mode, .workers = r->workers };
}

/* True when runs[i] is the first of runs in its group. */
static bool first_of_group(const struct run_result *runs, size_t i)
{
	struct compare_group g = group_of(&runs[i]);
	size_t j;

	for (j = 0; j < i; j++)
		if (in_group(&runs[j], &g))
			return false;
	return true;
}

/* The runs of runs (n of them) in group g. */
static size_t count_group(const struct run_result *runs, size_t n, const struct compare_group *g)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++)
		count += in_group(&runs[i], g);
	return count;
}

/* Summarises metric m over the runs in group g, finite values only; buf holds n doubles. */
static struct stats_summary summarize_group(const struct run_result *runs, size_t n, const struct compare_group *g,
					    const struct metric *m, double *buf)
{
	size_t i, used = 0;
	double v;

	for (i = 0; i < n; i++) {
		v = metric_get(m, &runs[i].metrics);
		if (in_group(&runs[i], g) && isfinite(v))
			buf[used++] = v;
	}
	return stats_summarize(buf, used);
}

/* The tolerance row breaks under tol, as a phrase, or NULL when it holds. */
static const char *broken_tolerance(const struct metric *m, const struct compare_row *row,
				    const struct compare_tolerance *tol)
{
	switch (m->guard) {
	case GUARD_THROUGHPUT:
		if (isfinite(row->change_pct) && -row->change_pct > tol->throughput_drop_pct + TOLERANCE_SLACK)
			return "throughput dropped beyond --throughput-drop";
		break;
	case GUARD_JAIN:
		if (-row->change > tol->jain_drop + TOLERANCE_SLACK)
			return "Jain's index dropped beyond --jain-drop";
		break;
	case GUARD_DUPLICATES:
		if (!tol->allow_duplicates && row->base.mean == 0 && row->cand.mean > 0)
			return "repeated work (duplicates, zombie completions) where the baseline had none";
		break;
	case GUARD_LOSSES:
		if (!tol->allow_losses && row->base.mean == 0 && row->cand.mean > 0)
			return "lost jobs where the baseline had none";
		break;
	case GUARD_NONE:
		break;
	}
	return NULL;
}

/* Fills the change, significance and verdict of row, whose summaries are set. */
static void judge(const struct metric *m, struct compare_row *row, const struct compare_tolerance *tol)
{
	bool up;

	row->verdict = VERDICT_OK;
	row->change = NAN;
	row->change_pct = NAN;
	row->welch = compare_welch(&row->base, &row->cand);
	if (!row->base.n || !row->cand.n)
		return;
	row->change = row->cand.mean - row->base.mean;
	if (row->base.mean != 0)
		row->change_pct = 100.0 * row->change / fabs(row->base.mean);
	row->reason = broken_tolerance(m, row, tol);
	if (row->reason) {
		row->verdict = VERDICT_REGRESSION;
		return;
	}
	if (!row->welch.valid || !row->welch.significant || row->change == 0)
		return;
	up = row->change > 0;
	row->verdict = up == (m->direction == HIGHER_IS_BETTER) ? VERDICT_BETTER : VERDICT_WORSE;
}

/*
 * Appends one row per compared metric of group g, present on both sides, to out. buf holds
 * max(n_base, n_cand) doubles.
 */
static void compare_one_group(const struct run_result *base, size_t n_base, const struct run_result *cand,
			  size_t n_cand, const struct compare_group *g, const struct compare_tolerance *tol,
			  double *buf, struct compare_result *out)
{
	const struct metric *m;
	struct compare_row *row;

	for (m = metric_table; m < metric_table + metric_table_len; m++) {
		if (m->direction == NOT_COMPARED)
			continue;
		row = &out->rows[out->n_rows++];
		row->group = *g;
		row->metric = m->path;
		row->direction = m->direction;
		row->base = summarize_group(base, n_base, g, m, buf);
		row->cand = summarize_group(cand, n_cand, g, m, buf);
		judge(m, row, tol);
		out->regressions += row->verdict == VERDICT_REGRESSION;
	}
}

/* Records group g, with runs runs on side only, in out. */
static void add_lone(struct compare_result *out, const struct compare_group *g, enum compare_side side,
		     size_t runs)
{
	out->lone[out->n_lone++] = (struct compare_lone_group){ .group = *g, .side = side, .runs = runs };
}

int compare_runs(const struct run_result *base, size_t n_base, const struct run_result *cand, size_t n_cand,
		 const struct compare_tolerance *tol, struct compare_result *out)
{
	struct compare_group g;
	double *buf;
	size_t i, matched;

	memset(out, 0, sizeof(*out));
	/* Upper bounds (+ 1: no allocation of size 0): every baseline run its own group, every run alone. */
	buf = malloc(((n_base > n_cand ? n_base : n_cand) + 1) * sizeof(*buf));
	out->rows = calloc(n_base * metric_table_len + 1, sizeof(*out->rows));
	out->lone = calloc(n_base + n_cand + 1, sizeof(*out->lone));
	if (!buf || !out->rows || !out->lone)
		goto fail;
	for (i = 0; i < n_base; i++) {
		if (!first_of_group(base, i))
			continue;
		g = group_of(&base[i]);
		matched = count_group(cand, n_cand, &g);
		if (matched)
			compare_one_group(base, n_base, cand, n_cand, &g, tol, buf, out);
		else
			add_lone(out, &g, SIDE_BASELINE, count_group(base, n_base, &g));
	}
	for (i = 0; i < n_cand; i++) {
		g = group_of(&cand[i]);
		if (first_of_group(cand, i) && !count_group(base, n_base, &g))
			add_lone(out, &g, SIDE_CANDIDATE, count_group(cand, n_cand, &g));
	}
	free(buf);
	return 0;
fail:
	free(buf);
	compare_result_free(out);
	return -1;
}

void compare_result_free(struct compare_result *r)
{
	free(r->rows);
	free(r->lone);
	memset(r, 0, sizeof(*r));
}
