/*
 * The judgement of `claimbench ab`: a baseline's and a candidate's runs, made round by
 * round on one server, compared group by group (strategy, claim mode, workers, section,
 * sweep point) and metric by metric with the paired test of analysis/paired.h, each as its
 * nature in the metric table says: costs per job (work counted, which the machine's load
 * hardly moves) and timings (throughput, latency) are held to their tolerances (5 %, 10 %)
 * by their 95 % interval: a regression when it lies wholly beyond the tolerance the worse
 * way, no regression when it lies wholly within, undecided otherwise, with the rounds that
 * would decide it; outcomes by their guard (duplicates, losses: any where the baseline had
 * none). Pure computation, no I/O: cli/cmd_ab.c runs and prints.
 */
#ifndef CLAIMBENCH_AB_H
#define CLAIMBENCH_AB_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/paired.h"
#include "model/metric_table.h"
#include "model/result.h"

/* Defaults: costs 5 %, timings 10 % (compare's --throughput-drop). */
#define AB_COST_TOLERANCE_PCT 5.0
#define AB_TIMING_TOLERANCE_PCT COMPARE_THROUGHPUT_DROP_PCT

/* How far a metric may move the wrong way, in % of the baseline's mean. */
struct ab_tolerance {
	double cost_pct;	/* costs (--tolerance) */
	double timing_pct;	/* timings (--timing-tolerance) */
};

/* The verdict on one metric of one group. */
enum ab_verdict {
	AB_SAME,	/* no significant change: "~" */
	AB_BETTER,	/* significantly better */
	AB_WORSE,	/* significantly worse, not a regression: within its tolerance, undecided or not gated */
	AB_REGRESSION,	/* its gate's verdict is AB_GATE_REGRESSION */
};

/* What the gate decided on one metric of one group. */
enum ab_gate {
	AB_GATE_NONE,		/* not gated: an outcome no guard judges, or a cost or timing known in fewer than 2 rounds */
	AB_GATE_NO_REGRESSION,	/* its interval lies wholly within its tolerance; a guarded outcome with nothing new */
	AB_GATE_REGRESSION,	/* its interval lies wholly beyond its tolerance the worse way; new duplicates or losses */
	AB_GATE_UNDECIDED,	/* its interval holds its tolerance: more rounds would tell */
};

/* What a row's verdict rests on beyond the test, when it is not the plain one. */
enum ab_note {
	AB_NOTE_NONE,		/* judged as its nature says (an outcome no guard judges: shown, never gated) */
	AB_NOTE_TOO_FEW,	/* a cost or timing known in fewer than 2 rounds on both sides: not tested, not gated */
};

/* One metric of one group, its rounds paired. */
struct ab_row {
	struct compare_group group;	/* the group */
	const struct metric *metric;	/* the metric: its nature says how it is gated, its direction which way is better */
	struct paired_result paired;	/* the rounds' paired comparison, in the metric's unit */
	double change_pct;		/* paired.diff_mean in % of the baseline's mean; NaN when that is 0 */
	double ci_low_pct;		/* the interval's ends in % of the baseline's mean; NaN when unknown */
	double ci_high_pct;		/* ... its upper end */
	double mde_pct;			/* the minimum detectable effect in % of the baseline's mean; NaN when unknown */
	double base_cv_pct;		/* the baseline's variation over the rounds: sd in % of its mean */
	double cand_cv_pct;		/* the candidate's */
	double tolerance_pct;		/* the tolerance of its nature; NaN for an outcome */
	bool gated;			/* the gate judged it: gate is not AB_GATE_NONE */
	enum ab_note note;		/* why it was not gated */
	enum ab_verdict verdict;	/* what the change means */
	enum ab_gate gate;		/* what the gate decided */
	size_t family;			/* the costs and timings gated in its group, itself among them */
	double family_low;		/* a cost or timing: the lower end of the interval its regression is judged by,
					 * how much worse the candidate is (the worse way positive; in % of the
					 * baseline, or in the metric's unit from a baseline of 0): its 95 % interval
					 * widened by Bonferroni's correction for family metrics; NaN when unknown */
	double family_high;		/* ... its upper end */
	size_t rounds_to_decide;	/* AB_GATE_UNDECIDED: the fewest rounds whose interval, t95 of their
					 * count times the differences' spread as it is over their root, would
					 * leave out the tolerance (more than the rounds run); 0 when none would
					 * (the change is the tolerance) or decided */
};

/* One side's runs and the round each was made in. */
struct ab_side {
	const struct run_result *runs;	/* the runs, n of them */
	const size_t *round;		/* round[i]: the round of runs[i], from 0 */
	size_t n;			/* entries in runs and round */
};

/* Everything ab_compare found; release with ab_result_free. */
struct ab_result {
	struct ab_row *rows;			/* group x metric, groups in the baseline's order (owned) */
	size_t n_rows;				/* entries in rows */
	struct compare_lone_group *lone;	/* groups on one side only: the sides are not comparable (owned) */
	size_t n_lone;				/* entries in lone */
	size_t regressions;			/* rows whose gate is AB_GATE_REGRESSION */
	size_t undecided;			/* rows whose gate is AB_GATE_UNDECIDED */
	size_t ungated;				/* rows of a cost or timing not gated (note not AB_NOTE_NONE) */
	size_t dry_runs[2];			/* the baseline's and the candidate's runs that ran dry (timed runs out
						 * of jobs): their rates are over less than the run, not comparable */
};

/*
 * Compares candidate cand against baseline base over rounds rounds under tol into out
 * (zeroed first): in each group on both sides, each metric with a direction that a run knows,
 * the mean of the group's runs in a round against the other side's in that round. Groups
 * on one side only go to out->lone, the runs that ran dry are counted in out->dry_runs. out's names point into the runs, which must outlive
 * it. 0, or -1 when out of memory (out left empty).
 */
int ab_compare(const struct ab_side *base, const struct ab_side *cand, size_t rounds,
	       const struct ab_tolerance *tol, struct ab_result *out);

/*
 * What the gate decided on metric m over the groups of section (NULL or "" for none) in r:
 * AB_GATE_REGRESSION when a group's is (more rounds would not pass the section), else
 * AB_GATE_UNDECIDED when a group's is, else AB_GATE_NO_REGRESSION when a group's is, else
 * AB_GATE_NONE (no group gated it).
 */
enum ab_gate ab_section_gate(const struct ab_result *r, const char *section, const struct metric *m);

/* Whether r->rows[i] is the first row of its section. */
bool ab_first_of_section(const struct ab_result *r, size_t i);

/* Whether r fails the gate: a regression, or an undecided metric when fail_on_undecided (--fail-on-undecided). */
bool ab_gate_fails(const struct ab_result *r, bool fail_on_undecided);

/* Frees what ab_compare allocated in r and zeroes it; a zeroed r is fine. */
void ab_result_free(struct ab_result *r);

/* The verdict's mark: "~", "better", "worse" or "REGRESSION". */
const char *ab_verdict_name(enum ab_verdict v);

/* The gate's name in JSON: "regression", "no_regression", "undecided", or NULL when not gated. */
const char *ab_gate_name(enum ab_gate g);

/* The nature's name: "outcome", "timing" or "cost". */
const char *ab_nature_name(enum metric_nature n);

#endif
