/*
 * The SQL of a strategy defined in SQL, baseline against candidate, as a unified-style
 * line diff ("-" a baseline line, "+" a candidate line, " " a line both hold), for a
 * fenced ```diff block in compare's and ab's markdown.
 */
#ifndef CLAIMBENCH_SQL_DIFF_H
#define CLAIMBENCH_SQL_DIFF_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare.h"

/* Lines a side may have for a line-by-line diff; a longer text is shown whole, removed then added. */
#define SQL_DIFF_MAX_LINES 128

/*
 * Prints "--- baseline", "+++ candidate" and the lines of base and cand, each prefixed by
 * "-", "+" or " " along their longest common run of lines; control characters but tabs
 * shown as '?'. NULL is an empty text.
 */
void sql_diff_print(FILE *out, const char *base, const char *cand);

/*
 * Prints, for each of the n diffs that is a strategy's SQL, a line naming the statement and
 * the strategy (its name cleaned) and its sql_diff_print in a fenced ```diff block.
 */
void sql_diff_print_blocks(FILE *out, const struct compare_param_diff *diffs, size_t n);

#endif
