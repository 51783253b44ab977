/*
 * The verdicts of `claimbench ab` printed: a table for a person (ab_table.c) or one JSON
 * object (ab_json.c).
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
	const char *backend;			/* "postgresql" or "sqlite" */
	long long invocations[2];		/* the baseline's and the candidate's invocation in the store; 0: not stored */
	const struct ab_tolerance *tol;		/* the tolerances applied */
	bool fail_on_undecided;			/* --fail-on-undecided: an undecided metric fails the gate */
	const struct ab_result *res;		/* what ab_compare found */
};

/* Prints the table of the groups' metrics, what each section gates, a line per regression and undecided metric, the counts. */
void ab_print_table(FILE *out, const struct ab_report *r);

/* Prints the comparison as one JSON object. 0, or -1 when out of memory (nothing printed). */
int ab_print_json(FILE *out, const struct ab_report *r);

#endif
