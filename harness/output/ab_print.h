/*
 * The verdicts of `claimbench ab` printed: a table for a person (ab_table.c), one JSON
 * object (ab_json.c), a pull request's comment in markdown (ab_markdown.c) or a JUnit XML
 * file for a CI system (ab_junit.c).
 */
#ifndef CLAIMBENCH_AB_PRINT_H
#define CLAIMBENCH_AB_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/ab.h"

/* An A/B comparison as the printers show it. */
struct ab_report {
	const char *baseline;			/* the baseline's scenario file, as given */
	const char *candidate;			/* the candidate's scenario file, as given */
	size_t rounds;				/* rounds run: AB, BA, AB, ... */
	const char *backend;			/* the backend both ran on: its name (struct backend_ops.name) */
	long long invocations[2];		/* the baseline's and the candidate's invocation in the store; 0: not stored */
	const struct ab_tolerance *tol;		/* the tolerances applied */
	bool fail_on_undecided;			/* --fail-on-undecided: an undecided metric fails the gate */
	const struct ab_result *res;		/* what ab_compare found */
	const struct compare_param_diff *diffs;	/* the parameters that differ between the sides (compare_runs'),
						 * of which the markdown shows the changed SQL; NULL: none */
	size_t n_diffs;				/* entries in diffs */
};

/* Prints the table of the groups' metrics, what each section gates, a line per regression and undecided metric, the counts. */
void ab_print_table(FILE *out, const struct ab_report *r);

/* Prints the comparison as one JSON object. 0, or -1 when out of memory (nothing printed). */
int ab_print_json(FILE *out, const struct ab_report *r);

/*
 * Prints the comparison as markdown for a pull request's comment: a line with the gate's
 * outcome and the counts (regressions, undecided, no regression), a bullet per regression
 * and per undecided metric, the changed SQL of each strategy defined in SQL as a ```diff
 * block, then the whole table folded in <details>.
 */
void ab_print_markdown(FILE *out, const struct ab_report *r);

/*
 * Prints the comparison as a JUnit XML document: a <testcase> per gated metric per group
 * (classname the group in words, name the metric); a regression a <failure> with its
 * figures, an undecided metric a <skipped> with why (a <failure> with fail_on_undecided).
 */
void ab_print_junit(FILE *out, const struct ab_report *r);

#endif
