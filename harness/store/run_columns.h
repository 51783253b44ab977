/*
 * Inside the result store only: the columns of the runs table that hold a run's
 * descriptors and metrics, taken from model/run_descriptor.h and the metric table, so
 * that the insert and the select are built, bound and read from the same lists.
 */
#ifndef CLAIMBENCH_RUN_COLUMNS_H
#define CLAIMBENCH_RUN_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store_sql.h"

/* Room for run_columns_sql's text, NUL included. */
#define RUN_COLUMNS_SQL 4096

/*
 * Writes the columns into buf, comma-separated and quoted, each after prefix ("r." or "");
 * with placeholders true, a "?" for each instead. 0, or -1 when buf is too small.
 */
int run_columns_sql(char *buf, size_t size, const char *prefix, bool placeholders);

/* Binds run's descriptors and metrics in the columns' order; optional text as "" when unset. */
void run_columns_bind(struct binder *b, const struct run_result *run);

/*
 * Reads the columns, in their order, into s->run: text copied into strings s owns.
 * 0, or -1 when out of memory.
 */
int run_columns_read(struct reader *c, struct store_run *s);

#endif
