/*
 * Baseline against candidate: runs grouped by (strategy, claim mode, workers, scenario
 * section, sweep point, engine), each group's metrics compared over its repetitions with Welch's
 * t-test, and the guarded metrics held to tolerances. The two sides' parameters are
 * compared first, so that a changed workload is not taken for a regression. Pure
 * computation, no I/O: `claimbench compare` loads and prints.
 */
#ifndef CLAIMBENCH_COMPARE_H
#define CLAIMBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/stats.h"
#include "model/metric_table.h"
#include "model/result.h"

/* How far a guarded metric may move the wrong way before it counts as a regression. */
struct compare_tolerance {
	double throughput_drop_pct;	/* largest allowed fall of mean throughput, in % of the baseline's */
	double jain_drop;		/* largest allowed fall of mean Jain's index, absolute */
	bool allow_duplicates;		/* duplicates, zombie completions appearing where the baseline had none are no regression */
	bool allow_losses;		/* lost jobs appearing where the baseline had none are no regression */
};

/* Which runs a comparison takes, and which parameters may differ between the sides. */
struct compare_scope {
	const char *strategies;		/* comma-separated NAME or NAME:MODE; only their runs are compared; NULL: all */
	const char *allowed_diffs;	/* comma-separated parameter names whose values may differ; NULL: none */
};

/* Defaults: 10 % throughput, 0.05 of Jain's index, no new duplicates, no new losses. */
#define COMPARE_THROUGHPUT_DROP_PCT 10.0
#define COMPARE_JAIN_DROP 0.05

/* The verdict on one metric of one group. */
enum compare_verdict {
	VERDICT_OK,		/* no significant change, or significance unknown and within tolerance */
	VERDICT_BETTER,		/* significantly better */
	VERDICT_WORSE,		/* significantly worse and not a regression, or beyond tolerance and not significant */
	VERDICT_REGRESSION,	/* a guarded metric beyond its tolerance: significantly, or untested with one run a side */
};

/* Welch's unequal-variances t-test of candidate against baseline. */
struct welch_result {
	bool valid;		/* both sides have at least 2 values; otherwise the rest is 0 */
	double t;		/* (candidate mean - baseline mean) / standard error; +-INFINITY when both sds are 0 */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	bool significant;	/* |t| beyond the two-sided 95 % critical value at floor(df) */
};

/* The grouping key of a run. */
struct compare_group {
	const char *strategy;	/* strategy name; may be NULL (points into the caller's runs) */
	const char *claim_mode;	/* "hold" or "flip"; may be NULL (points into the caller's runs) */
	int workers;		/* worker threads */
	const char *section;	/* the scenario section; NULL or "" for none (points into the caller's runs) */
	const char *sweep;	/* the sweep point's values; NULL or "" for none (points into the caller's runs) */
	const char *engine;	/* the runs' engine (run_result.engine; points into the caller's runs) */
	const char *system;	/* an adapter's run: the queue system of the run the group was made from
				 * ("pg-boss"; points into the caller's runs); NULL for a built-in strategy's */
	const char *version;	/* and that system's version ("10.1.6"); NULL with system */
	bool any_engine;	/* the group takes runs of any engine: the candidate's side of a comparison across
				 * engines (--allow-diff backend) */
};

/* One compared metric (a metric_table row with a direction) of one group present on both sides. */
struct compare_row {
	struct compare_group group;		/* the group, its engine the baseline's */
	const char *cand_engine;		/* the candidate's runs' engine (points into the caller's runs) */
	const char *metric;			/* the metric's path, as metric_table.h names it */
	enum metric_direction direction;	/* which way is better */
	struct stats_summary base;		/* the baseline's finite values */
	struct stats_summary cand;		/* the candidate's finite values */
	double change;				/* cand.mean - base.mean; NaN when a side has no value */
	double change_pct;			/* change in % of base.mean; NaN when base.mean is 0 or unknown */
	struct welch_result welch;		/* significance of the change */
	bool beyond_tolerance;			/* a guarded metric moved the wrong way beyond its tolerance */
	enum compare_verdict verdict;		/* what the change means */
	const char *reason;			/* the tolerance it broke when beyond_tolerance; NULL otherwise */
};

/* Which side a group was found on alone. */
enum compare_side {
	SIDE_BASELINE,	/* only in the baseline */
	SIDE_CANDIDATE,	/* only in the candidate */
};

/* A group present on one side only. */
struct compare_lone_group {
	struct compare_group group;	/* the group */
	enum compare_side side;		/* where it was found */
	size_t runs;			/* its runs there */
};

/* A parameter whose value differs between the sides in a group present on both. */
struct compare_param_diff {
	struct compare_group group;	/* the first group it differs in */
	const char *name;		/* the parameter, e.g. "work-ms" (points into the caller's runs) */
	const char *base_value;		/* its value in the baseline (points into the caller's runs) */
	const char *cand_value;		/* its value in the candidate (points into the caller's runs) */
	bool allowed;			/* named in the scope's allowed_diffs, the SQL of a strategy defined in SQL,
					 * or an adapter's system or version (an upgrade compared) */
	bool sql;			/* the SQL a strategy defined in SQL ran ("claim-sql" ...): the very change
					 * compared, shown and allowed */
};

/* A run that ran dry, as compare says it. */
struct compare_dry_run {
	int side;			/* 0 the baseline, 1 the candidate, -1 none */
	struct compare_group group;	/* its group */
	int repeat;			/* its repetition */
	double at_s;			/* when it ran out of jobs, s after its start */
	double duration_s;		/* its duration */
};

/* Everything compare_runs found; release with compare_result_free. */
struct compare_result {
	struct compare_row *rows;		/* group x compared metric, groups in baseline order (owned) */
	size_t n_rows;				/* entries in rows */
	struct compare_lone_group *lone;	/* groups on one side only: baseline's, then candidate's (owned) */
	size_t n_lone;				/* entries in lone */
	size_t regressions;			/* rows whose verdict is VERDICT_REGRESSION */
	struct compare_param_diff *diffs;	/* each differing parameter once, in order found (owned) */
	size_t n_diffs;				/* entries in diffs */
	size_t refused_diffs;			/* diffs not allowed: the workloads differ, the verdicts mean nothing */
	bool across_engines;			/* a group was compared with the candidate's runs of another engine
						 * (--allow-diff backend): every row names both engines */
	size_t runs_in_scope[2];		/* the baseline's and the candidate's runs the scope took */
	bool untested;				/* a compared group has fewer than 2 runs on a side: no significance */
	size_t dry_runs[2];			/* the baseline's and the candidate's runs in scope that ran dry
						 * (dry.ran_dry): their throughput is not the strategy's, no gate */
	struct compare_dry_run first_dry;	/* the first of them, the baseline's first; side -1 when none */
};

/* Whether run r ran out of jobs before its end (dry.ran_dry): a comparison must not gate on it. */
bool compare_run_ran_dry(const struct run_result *r);

/*
 * Welch's t-test on two summaries. Invalid (valid false) when either has fewer than 2
 * values. With both standard deviations 0, t is 0 for equal means (not significant) and
 * infinite otherwise (significant).
 */
struct welch_result compare_welch(const struct stats_summary *base, const struct stats_summary *cand);

/* True when run r belongs to group g. */
bool compare_in_group(const struct run_result *r, const struct compare_group *g);

/* The group of run r; its names point into r. */
struct compare_group compare_group_of(const struct run_result *r);

/*
 * Compares the n_cand runs cand against the n_base runs base, those in scope, under
 * tolerance tol, into out (zeroed first). A parameter that both sides' runs of a group
 * have with different values is a diff; one that a side's runs lack (stored before it
 * existed) is not compared. A guarded metric beyond its tolerance is a regression when
 * the change is significant, or when significance cannot be tested (a side with one run);
 * duplicates and losses where the baseline had none are a regression at once: they are
 * facts, not noise. A group whose runs the candidate has of another engine only (backend
 * or server version) is a diff of "backend", allowed only by --allow-diff backend, and
 * then compared with the candidate's first such engine (across_engines). A strategy defined in SQL is compared by name: its SQL's difference
 * ("claim-sql" ...) is allowed and shown, as is an adapter's system or version ("adapter-version"). Runs that ran dry are counted in dry_runs. out's names point into base and cand, which must outlive it.
 * 0, or -1 when out of memory (out left empty).
 */
int compare_runs(const struct run_result *base, size_t n_base, const struct run_result *cand, size_t n_cand,
		 const struct compare_tolerance *tol, const struct compare_scope *scope, struct compare_result *out);

/* Frees what compare_runs allocated in r and zeroes it; a zeroed r is fine. */
void compare_result_free(struct compare_result *r);

/* The verdict's name: "ok", "better", "worse" or "REGRESSION". */
const char *compare_verdict_name(enum compare_verdict v);

#endif
