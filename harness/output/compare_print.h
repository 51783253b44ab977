/*
 * The verdicts of `claimbench compare` printed: a table for a person (compare_table.c)
 * or one JSON object (compare_json.c).
 */
#ifndef CLAIMBENCH_COMPARE_PRINT_H
#define CLAIMBENCH_COMPARE_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "analysis/compare.h"

/* A comparison as the printers show it: the two sides as given, the tolerances, the verdicts. */
struct compare_report {
	const char *baseline;			/* the baseline's argument as given */
	size_t baseline_runs;			/* runs loaded for it */
	const char *candidate;			/* the candidate's argument as given */
	size_t candidate_runs;			/* runs loaded for it */
	const struct compare_tolerance *tol;	/* the tolerances applied */
	const struct compare_result *res;	/* what compare_runs found */
};

/* Prints the table of verdicts, the groups on one side only and a line per regression. */
void compare_print_table(FILE *out, const struct compare_report *c);

/* Prints group g in words: "strategy mode N workers", then its section and sweep point when it has them. */
void compare_print_group_words(FILE *out, const struct compare_group *g);

/* Adds the members of group g to obj: strategy, claim_mode, group, sweep, workers. 0, or -1 when out of memory. */
int compare_json_put_group(json_object *obj, const struct compare_group *g);

/* Prints the verdicts as one JSON object. 0, or -1 when out of memory (nothing printed). */
int compare_print_json(FILE *out, const struct compare_report *c);

#endif
