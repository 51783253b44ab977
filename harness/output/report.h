/* The formats that print an invocation's results: a table, CSV and JSON. */
#ifndef CLAIMBENCH_REPORT_H
#define CLAIMBENCH_REPORT_H

#include <stdio.h>

#include "analysis/expect.h"
#include "model/result.h"

/* Prints one row per run with the key columns, for a person at a terminal. */
void report_print_table(FILE *out, const struct report *r);

/* Prints a header line and one CSV row per run (per-worker rows are left out). */
void report_print_csv(FILE *out, const struct report *r);

/* Prints the JSON object of DESIGN.md's output contract. */
void report_print_json(FILE *out, const struct report *r);

/* Prints, after the runs' table, a table of the repetitions' summaries (nothing when no run was repeated). */
void summary_print_table(FILE *out, const struct report *r);

/* Prints each expectation with its measured sides and PASS or FAIL. true when every one passed. */
bool verdicts_print(FILE *out, const struct expectation *expects, size_t n, const struct report *r);

#endif
