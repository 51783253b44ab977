/*
 * The printers of an invocation's results: a table for a person (results_table.c), CSV
 * for a spreadsheet (results_csv.c), the JSON object of the output contract
 * (results_json.c), the repetitions' summaries (summary_print.c) and the expectations'
 * verdicts (verdicts_print.c). Each walks the metric table. Write errors are the
 * stream's own, for the caller to check with ferror().
 */
#ifndef CLAIMBENCH_RESULTS_PRINT_H
#define CLAIMBENCH_RESULTS_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/expect.h"
#include "model/result.h"

/*
 * Prints one row per run with the key columns, a key of the columns' abbreviations, the
 * faults table when a run met faults, then the footer. 0, or -1 when out of memory
 * (nothing printed).
 */
int results_print_table(FILE *out, const struct invocation_result *r);

/* Prints what every column of the terminal tables means, from the metric table (for --help). */
void results_print_legend(FILE *out);

/* Prints a header line and one CSV row per run (per-worker rows are left out). 0 (it cannot run out of memory). */
int results_print_csv(FILE *out, const struct invocation_result *r);

/* Prints the JSON object of the output contract. 0, or -1 when out of memory (nothing printed). */
int results_print_json(FILE *out, const struct invocation_result *r);

/* Prints, after the runs' table, a table of the repetitions' summaries (nothing when no run was repeated). */
void summary_print_table(FILE *out, const struct invocation_result *r);

/*
 * Prints each expectation with its measured sides and PASS or FAIL; SKIP, with the reason,
 * for one that no run matches because it names one of the n_left_out strategies or guards
 * the backend could not run (left_out). true when none failed.
 */
bool verdicts_print(FILE *out, const struct expectation *expects, size_t n, const struct invocation_result *r,
		    const char *const *left_out, size_t n_left_out);

#endif
