/* The rows one command line is read with (an option set), and the getopt table made from them. */
#ifndef CLAIMBENCH_OPTION_SET_H
#define CLAIMBENCH_OPTION_SET_H

#include <getopt.h>
#include <stddef.h>

#include "cli/option_table.h"
#include "model/option.h"

/* Rows one command line can hold at most: the command's and every strategy's. */
#define OPTION_SET_MAX 96

/*
 * getopt_long's code of row i of an option set, and the row of a code: past every
 * character, so that no row's code is ever ':' or '?', which getopt returns for errors.
 */
#define OPTION_CODE_BASE 256
#define OPTION_CODE(i) (OPTION_CODE_BASE + (int)(i))
#define OPTION_ROW(code) ((size_t)((code) - OPTION_CODE_BASE))

/* The options one command's line is read with: its rows and the getopt table made from them. */
struct option_set {
	const struct option_def *rows[OPTION_SET_MAX];	/* the command's rows in table order, then the strategies' */
	size_t n_rows;					/* entries used in rows */
	size_t n_command_rows;				/* of them, the command's own (the rest: strategies') */
	struct option longopts[OPTION_SET_MAX + 2];	/* getopt_long's table: val is OPTION_CODE(row), OPTION_CODE(n_rows) for --help */
};

/*
 * Fills set with table's rows for command, then, for run and explore, the registered strategies'
 * rows (a name two strategies share once). 0, or -1 with err when they do not fit.
 */
int option_set_build(struct option_set *set, const struct option_def *table, enum command_id command, char *err,
		     size_t errlen);

/* The row of set called name, or NULL. */
const struct option_def *option_set_find(const struct option_set *set, const char *name);

#endif
