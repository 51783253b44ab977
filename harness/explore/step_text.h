/*
 * The words of a counterexample's step: a statement's bound values after its text, and
 * what it returned with each value labelled by its column's name, read from the
 * statement's RETURNING list or, without one, its SELECT list.
 */
#ifndef CLAIMBENCH_STEP_TEXT_H
#define CLAIMBENCH_STEP_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Appends to text (len bytes, holding a string) " with $1 = 'v1', $2 = 'v2'" for the nparams params; nothing for none. */
void step_text_bound(char *text, size_t len, int nparams, const char *const *params);

/*
 * Writes into out (len bytes) what the statement sql returned: rc rows (-1: not written),
 * the first row's ncols values from values labelled by sql's column names, "1 row: id=2,
 * attempts=1" (a column whose name cannot be read is "column N"), "2 rows: id=1, ... (first)"
 * for several; "0 rows" for none, or with no values.
 */
void step_text_result(char *out, size_t len, const char *sql, int rc, const int64_t *values, int ncols);

#endif
