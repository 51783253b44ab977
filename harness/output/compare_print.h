/*
 * The verdicts of `claimbench compare` printed: a table for a person (compare_table.c),
 * one JSON object (compare_json.c), a pull request's comment in markdown
 * (compare_markdown.c) or a JUnit XML document for a CI system (compare_junit.c).
 */
#ifndef CLAIMBENCH_COMPARE_PRINT_H
#define CLAIMBENCH_COMPARE_PRINT_H

#include <stdbool.h>
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

/* Prints what makes row a regression, no newline: "group, metric base -> cand: the tolerance it broke (significant)". */
void compare_print_regression(FILE *out, const struct compare_row *row);

/*
 * Prints the verdicts as markdown for a pull request's comment: a line with the outcome
 * and the counts of the guarded metrics (regressions, no regression), a bullet per
 * regression, the changed SQL of each strategy defined in SQL as a ```diff block
 * (output/sql_diff.h), the other allowed differences, then the whole table folded in <details>.
 */
void compare_print_markdown(FILE *out, const struct compare_report *c);

/*
 * Prints the verdicts as a JUnit XML document: a <testcase> per guarded metric (one a
 * tolerance judges: metric_table's guard) per group, classname the group in words, name
 * the metric; a regression a <failure> with its figures.
 */
void compare_print_junit(FILE *out, const struct compare_report *c);

/*
 * Formats v at the precision of compare's and ab's tables: whole numbers from 1000, then
 * one, two or three decimals as it gets smaller; sign when signed; "-" when not finite.
 */
void compare_number_text(char *buf, size_t size, double v, bool sign);

/* True when row's metric is one of compare's tolerances judges (metric_table's guard): a row its gate rests on. */
bool compare_row_gated(const struct compare_row *row);

/* Writes group g in words (compare_print_group_words) into buf (size bytes, cut to fit); "" when it cannot. */
void compare_group_text(char *buf, size_t size, const struct compare_group *g);

/* Adds the members of group g to obj: strategy, claim_mode, group, sweep, workers. 0, or -1 when out of memory. */
int compare_json_put_group(json_object *obj, const struct compare_group *g);

/* Prints the verdicts as one JSON object. 0, or -1 when out of memory (nothing printed). */
int compare_print_json(FILE *out, const struct compare_report *c);

#endif
