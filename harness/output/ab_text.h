/*
 * The words and figures ab's printers share (ab_table.c, ab_markdown.c, ab_junit.c): a
 * figure at the table's precision, a change's interval, why a row regressed or is undecided.
 */
#ifndef CLAIMBENCH_AB_TEXT_H
#define CLAIMBENCH_AB_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/ab.h"

/* Formats pct as "+1.2%" (sign when signed); "-" when not finite. */
void ab_pct_text(char *buf, size_t size, double pct, bool sign);

/* The 95 % interval of row's change, "[-1.0%, +2.0%]", or "-" when unknown. */
void ab_interval_text(char *buf, size_t size, const struct ab_row *row);

/* Prints "about N rounds would decide it", or why no count would, for an undecided row. */
void ab_print_rounds_to_decide(FILE *out, const struct ab_row *row);

/*
 * Prints what makes row a regression, no newline: "costs.x 1406 -> 30501 (+2070.0%, 95%
 * interval [...]): a cost beyond its 5% tolerance", or ": where the baseline had none".
 */
void ab_print_regression_figures(FILE *out, const struct ab_row *row);

/* Prints what leaves row undecided and what would decide it, no newline, as ab_print_regression_figures does. */
void ab_print_undecided_figures(FILE *out, const struct ab_row *row);

/* Writes what fn prints of row into buf (size bytes, cut to fit); "" when it cannot. */
void ab_row_text(char *buf, size_t size, void (*fn)(FILE *, const struct ab_row *), const struct ab_row *row);

#endif
