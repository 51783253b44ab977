/*
 * The comparison of compare.h. A metric a run does not have (NaN, stored as NULL) is
 * left out of its side's summary; a side with no value at all gets no change and no
 * verdict but ok.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "base/text.h"
#include "model/run_descriptor.h"
#include "plugin/sql_strategy.h"

/* Slack on the tolerances, so that a change of exactly the tolerance is not a regression through rounding. */
#define TOLERANCE_SLACK 1e-9

/* A change this small relative to the means is rounding in the means, and counts as none. */
#define CHANGE_ROUNDING 1e-9

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

/* True when optional texts a and b are equal, NULL equal to "". */
static bool same_optional(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

bool compare_in_group(const struct run_result *r, const struct compare_group *g)
{
	return r->workers == g->workers && same_name(r->strategy, g->strategy) &&
	       same_name(r->claim_mode, g->claim_mode) && same_optional(r->group, g->section) &&
	       same_optional(r->sweep, g->sweep) && (g->any_engine || same_optional(r->engine, g->engine));
}

struct compare_group compare_group_of(const struct run_result *r)
{
	return (struct compare_group){ .strategy = r->strategy, .claim_mode = r->claim_mode, .workers = r->workers,
				       .section = r->group, .sweep = r->sweep, .engine = r->engine,
				       .system = run_param_value(r, RUN_PARAM_ADAPTER_SYSTEM),
				       .version = run_param_value(r, RUN_PARAM_ADAPTER_VERSION) };
}

/* True when scope takes run r: its strategy, or its strategy:mode, is listed, or none is. */
static bool in_scope(const struct run_result *r, const struct compare_scope *scope)
{
	char both[128];

	if (!scope->strategies)
		return true;
	if (!r->strategy)
		return false;
	snprintf(both, sizeof(both), "%s:%s", r->strategy, r->claim_mode ? r->claim_mode : "");
	return text_list_has(scope->strategies, r->strategy) || text_list_has(scope->strategies, both);
}

/*
 * Shallow copies of the runs of runs (n of them) in scope into a new *out, and in a new
 * *origin the run each copy was made from (whose engine a group may point to: the copies
 * go); their count. (size_t)-1 when out of memory.
 */
static size_t select_scope(const struct run_result *runs, size_t n, const struct compare_scope *scope,
			   struct run_result **out, const struct run_result ***origin)
{
	size_t i, kept = 0;

	*out = malloc((n + 1) * sizeof(**out));
	*origin = malloc((n + 1) * sizeof(**origin));
	if (!*out || !*origin)
		return (size_t)-1;
	for (i = 0; i < n; i++) {
		if (!in_scope(&runs[i], scope))
			continue;
		(*origin)[kept] = &runs[i];
		(*out)[kept++] = runs[i];
	}
	return kept;
}


/* True when parameter name is the SQL of a strategy defined in SQL: "claim-sql", "complete-sql", "fail-sql". */
static bool defined_sql(const char *name)
{
	char key[32];

	for (int role = 0; role < SQL_ROLE_COUNT; role++) {
		snprintf(key, sizeof(key), "%s-sql", sql_role_key(role));
		if (strcmp(name, key) == 0)
			return true;
	}
	return false;
}

bool compare_run_ran_dry(const struct run_result *r)
{
	return r->metrics.dry.ran_dry == 1;
}

/* Counts the runs of each side (base, cand: n of each) that ran dry into out, and keeps the first. */
static void count_dry(const struct run_result *const *base, size_t n_base, const struct run_result *const *cand,
		      size_t n_cand, struct compare_result *out)
{
	const struct run_result *const *sides[2] = { base, cand };
	size_t n[2] = { n_base, n_cand };

	out->first_dry.side = -1;
	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < n[side]; i++) {
			const struct run_result *r = sides[side][i];

			if (!compare_run_ran_dry(r))
				continue;
			if (!out->dry_runs[0] && !out->dry_runs[1])
				out->first_dry = (struct compare_dry_run){
					.side = side, .group = compare_group_of(r), .repeat = r->repeat,
					.at_s = r->metrics.dry.at_s, .duration_s = r->duration_s,
				};
			out->dry_runs[side]++;
		}
	}
}

/*
 * True when out already holds a diff of parameter name; of a strategy's SQL, only one of
 * g's strategy, so that each strategy whose SQL changed has its change shown.
 */
static bool diff_known(const struct compare_result *out, const char *name, const struct compare_group *g)
{
	for (size_t i = 0; i < out->n_diffs; i++)
		if (strcmp(out->diffs[i].name, name) == 0 &&
		    (!out->diffs[i].sql || !out->diffs[i].group.strategy || !g->strategy ||
		     strcmp(out->diffs[i].group.strategy, g->strategy) == 0))
			return true;
	return false;
}

/*
 * Whether name is the system or version of an adapter's run: what an upgrade changes, the
 * thing compared rather than the workload, so a change of it is shown and allowed.
 */
static bool adapter_param(const char *name)
{
	return strcmp(name, RUN_PARAM_ADAPTER_SYSTEM) == 0 || strcmp(name, RUN_PARAM_ADAPTER_VERSION) == 0;
}

/*
 * Records in out, each once, the parameters that run c has with another value than run
 * b, found in group g. 0, or -1 when out of memory.
 */
static int find_diffs(const struct run_result *b, const struct run_result *c, const struct compare_group *g,
		      const struct compare_scope *scope, struct compare_result *out)
{
	struct compare_param_diff *grown, *d;
	const char *value;

	for (size_t i = 0; i < b->n_params; i++) {
		value = run_param_value(c, b->params[i].name);
		if (!value || strcmp(value, b->params[i].value) == 0 || diff_known(out, b->params[i].name, g))
			continue;
		grown = realloc(out->diffs, (out->n_diffs + 1) * sizeof(*grown));
		if (!grown)
			return -1;
		out->diffs = grown;
		d = &out->diffs[out->n_diffs++];
		*d = (struct compare_param_diff){ .group = *g, .name = b->params[i].name, .base_value = b->params[i].value,
						  .cand_value = value, .sql = defined_sql(b->params[i].name) };
		d->allowed = d->sql || adapter_param(b->params[i].name) ||
			     text_list_has(scope->allowed_diffs, b->params[i].name);
		out->refused_diffs += !d->allowed;
	}
	return 0;
}

/*
 * Records in out that group g's candidate runs are of engine cand_engine, the first
 * baseline run's of another: a diff of "backend", allowed by --allow-diff backend. 0, or -1
 * when out of memory.
 */
static int engine_diff(const struct compare_group *g, const char *cand_engine, const struct compare_scope *scope,
		       struct compare_result *out)
{
	struct compare_param_diff *grown, *d;

	if (diff_known(out, "backend", g))
		return 0;
	grown = realloc(out->diffs, (out->n_diffs + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	out->diffs = grown;
	d = &out->diffs[out->n_diffs++];
	*d = (struct compare_param_diff){ .group = *g, .name = "backend", .base_value = g->engine,
					  .cand_value = cand_engine,
					  .allowed = text_list_has(scope->allowed_diffs, "backend") };
	out->refused_diffs += !d->allowed;
	return 0;
}

/* Compares the parameters of every candidate run in group g with the first baseline run's. 0, or -1 when out of memory. */
static int group_diffs(const struct run_result *first_base, const struct run_result *cand, size_t n_cand,
		       const struct compare_group *g, const struct compare_scope *scope, struct compare_result *out)
{
	for (size_t i = 0; i < n_cand; i++)
		if (compare_in_group(&cand[i], g) && find_diffs(first_base, &cand[i], g, scope, out) < 0)
			return -1;
	return 0;
}

/* True when runs[i] is the first of runs in its group. */
static bool first_of_group(const struct run_result *runs, size_t i)
{
	struct compare_group g = compare_group_of(&runs[i]);
	size_t j;

	for (j = 0; j < i; j++)
		if (compare_in_group(&runs[j], &g))
			return false;
	return true;
}

/* The runs of runs (n of them) in group g. */
static size_t count_group(const struct run_result *runs, size_t n, const struct compare_group *g)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++)
		count += compare_in_group(&runs[i], g);
	return count;
}

/* The first of runs (n of them, each the copy of origin's) in group g, as its origin; NULL when none. */
static const struct run_result *first_in_group(const struct run_result *runs, const struct run_result *const *origin,
					       size_t n, const struct compare_group *g)
{
	for (size_t i = 0; i < n; i++)
		if (compare_in_group(&runs[i], g))
			return origin[i];
	return NULL;
}

/* Summarises metric m over the runs in group g, finite values only; buf holds n doubles. */
static struct stats_summary summarize_group(const struct run_result *runs, size_t n, const struct compare_group *g,
					    const struct metric *m, double *buf)
{
	size_t i, used = 0;
	double v;

	for (i = 0; i < n; i++) {
		v = metric_get(m, &runs[i].metrics);
		if (compare_in_group(&runs[i], g) && isfinite(v))
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
	case GUARD_EXCLUSION:
		if (row->base.mean == 0 && row->cand.mean > 0)
			return "the guard broke (grants beside a conflicting holder, duplicate refreshes, half-written reads) "
			       "where the baseline had none";
		break;
	case GUARD_NONE:
		break;
	}
	return NULL;
}

/* True when metric m's guard is a fact that one run proves (duplicates, losses), not a figure that noise moves. */
static bool guards_a_fact(const struct metric *m)
{
	return m->guard == GUARD_DUPLICATES || m->guard == GUARD_LOSSES || m->guard == GUARD_EXCLUSION;
}

/*
 * Fills the change, significance and verdict of row, whose summaries are set: beyond
 * tolerance is a regression when significant, when untestable, or when a fact; beyond
 * tolerance and not significant is worse.
 */
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
	if (fabs(row->change) <= CHANGE_ROUNDING * fmax(fabs(row->base.mean), fabs(row->cand.mean)))
		row->change = 0;
	if (row->base.mean != 0)
		row->change_pct = 100.0 * row->change / fabs(row->base.mean);
	row->reason = broken_tolerance(m, row, tol);
	row->beyond_tolerance = row->reason != NULL;
	if (row->beyond_tolerance && (guards_a_fact(m) || !row->welch.valid || row->welch.significant)) {
		row->verdict = VERDICT_REGRESSION;
		return;
	}
	if (row->beyond_tolerance) {
		row->verdict = VERDICT_WORSE;
		return;
	}
	if (!row->welch.valid || !row->welch.significant || row->change == 0)
		return;
	up = row->change > 0;
	row->verdict = up == (m->direction == HIGHER_IS_BETTER) ? VERDICT_BETTER : VERDICT_WORSE;
}

/*
 * Appends one row per compared metric of group g, present on both sides (the candidate's
 * runs those of group cg), to out, but for a metric no run of either side knows (a
 * guarded-resource figure of queue runs). buf holds max(n_base, n_cand) doubles.
 */
static void compare_one_group(const struct run_result *base, size_t n_base, const struct run_result *cand,
			  size_t n_cand, const struct compare_group *g, const struct compare_group *cg,
			  const struct compare_tolerance *tol, double *buf, struct compare_result *out)
{
	const struct metric *m;
	struct compare_row *row;

	for (m = metric_table; m < metric_table + metric_table_len; m++) {
		if (m->direction == NOT_COMPARED)
			continue;
		row = &out->rows[out->n_rows++];
		row->group = *g;
		row->cand_engine = cg->engine;
		row->metric = m->path;
		row->direction = m->direction;
		row->base = summarize_group(base, n_base, g, m, buf);
		row->cand = summarize_group(cand, n_cand, cg, m, buf);
		if (!row->base.n && !row->cand.n) {
			out->n_rows--;
			continue;
		}
		judge(m, row, tol);
		out->regressions += row->verdict == VERDICT_REGRESSION;
		out->untested |= row->base.n && row->cand.n && !row->welch.valid;
	}
}

/* Records group g, with runs runs on side only, in out. */
static void add_lone(struct compare_result *out, const struct compare_group *g, enum compare_side side,
		     size_t runs)
{
	out->lone[out->n_lone++] = (struct compare_lone_group){ .group = *g, .side = side, .runs = runs };
}

/* True when a row of out compared the candidate's runs of group cg (of another engine than its baseline's). */
static bool compared_across(const struct compare_result *out, const struct compare_group *cg)
{
	for (size_t i = 0; i < out->n_rows; i++) {
		const struct compare_group *g = &out->rows[i].group;

		if (g->workers == cg->workers && same_name(g->strategy, cg->strategy) &&
		    same_name(g->claim_mode, cg->claim_mode) && same_optional(g->section, cg->section) &&
		    same_optional(g->sweep, cg->sweep) && same_optional(out->rows[i].cand_engine, cg->engine))
			return true;
	}
	return false;
}

/*
 * The candidate's group that baseline group g is compared with, into *cg: g itself when
 * the candidate has runs of it; else, when it has some of another engine, a diff of
 * "backend" and (allowed) their group. 1 with *cg set, 0 when g is the baseline's alone
 * (or its engine diff refused), -1 when out of memory.
 */
static int candidate_group(const struct run_result *cand, const struct run_result *const *origin, size_t n_cand,
			   const struct compare_group *g, const struct compare_scope *scope, struct compare_group *cg,
			   struct compare_result *out)
{
	struct compare_group any = *g;
	const struct run_result *other;

	*cg = *g;
	if (count_group(cand, n_cand, g))
		return 1;
	any.any_engine = true;
	other = first_in_group(cand, origin, n_cand, &any);
	if (!other)
		return 0;
	if (engine_diff(g, other->engine, scope, out) < 0)
		return -1;
	if (!text_list_has(scope->allowed_diffs, "backend"))
		return 0;
	*cg = compare_group_of(other);
	out->across_engines = true;
	return 1;
}

int compare_runs(const struct run_result *all_base, size_t n_all_base, const struct run_result *all_cand,
		 size_t n_all_cand, const struct compare_tolerance *tol, const struct compare_scope *scope,
		 struct compare_result *out)
{
	struct run_result *base = NULL, *cand = NULL;
	const struct run_result **base_origin = NULL, **cand_origin = NULL;
	size_t i, n_base, n_cand;
	struct compare_group g, cg;
	double *buf = NULL;
	int paired;

	memset(out, 0, sizeof(*out));
	n_base = select_scope(all_base, n_all_base, scope, &base, &base_origin);
	n_cand = select_scope(all_cand, n_all_cand, scope, &cand, &cand_origin);
	if (n_base == (size_t)-1 || n_cand == (size_t)-1)
		goto fail;
	out->runs_in_scope[0] = n_base;
	out->runs_in_scope[1] = n_cand;
	count_dry(base_origin, n_base, cand_origin, n_cand, out);
	/* Upper bounds (+ 1: no allocation of size 0): every baseline run its own group, every run alone. */
	buf = malloc(((n_base > n_cand ? n_base : n_cand) + 1) * sizeof(*buf));
	out->rows = calloc(n_base * metric_table_len + 1, sizeof(*out->rows));
	out->lone = calloc(n_base + n_cand + 1, sizeof(*out->lone));
	if (!buf || !out->rows || !out->lone)
		goto fail;
	for (i = 0; i < n_base; i++) {
		if (!first_of_group(base, i))
			continue;
		g = compare_group_of(base_origin[i]);
		paired = candidate_group(cand, cand_origin, n_cand, &g, scope, &cg, out);
		if (paired < 0)
			goto fail;
		if (!paired) {
			add_lone(out, &g, SIDE_BASELINE, count_group(base, n_base, &g));
			continue;
		}
		if (group_diffs(&base[i], cand, n_cand, &cg, scope, out) < 0)
			goto fail;
		compare_one_group(base, n_base, cand, n_cand, &g, &cg, tol, buf, out);
	}
	for (i = 0; i < n_cand; i++) {
		g = compare_group_of(cand_origin[i]);
		if (first_of_group(cand, i) && !count_group(base, n_base, &g) && !compared_across(out, &g))
			add_lone(out, &g, SIDE_CANDIDATE, count_group(cand, n_cand, &g));
	}
	free(buf);
	free(base);
	free(cand);
	free(base_origin);
	free(cand_origin);
	return 0;
fail:
	free(buf);
	free(base);
	free(cand);
	free(base_origin);
	free(cand_origin);
	compare_result_free(out);
	return -1;
}

void compare_result_free(struct compare_result *r)
{
	free(r->rows);
	free(r->lone);
	free(r->diffs);
	memset(r, 0, sizeof(*r));
}
