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

/* getopt_long's code of refused row i of an option set, past every row's and --help's; and the refused row of a code. */
#define OPTION_REFUSED_CODE(i) OPTION_CODE(OPTION_SET_MAX + 1 + (int)(i))
#define OPTION_REFUSED_ROW(code) ((size_t)((code) - OPTION_REFUSED_CODE(0)))

/* The options one command's line is read with: its rows and the getopt table made from them. */
struct option_set {
	const struct option_def *rows[OPTION_SET_MAX];	/* the command's rows in table order, then the strategies' */
	size_t n_rows;					/* entries used in rows */
	size_t n_command_rows;				/* of them, the command's own (the rest: strategies') */
	const struct option_def *refused[OPTION_SET_MAX];	/* run's rows explore does not take (option_set_refuses) */
	size_t n_refused;				/* entries used in refused */
	struct option longopts[2 * OPTION_SET_MAX + 2];	/* getopt_long's table: val is OPTION_CODE(row), OPTION_CODE(n_rows)
							   for --help, then OPTION_REFUSED_CODE(refused row) */
};

/*
 * Fills set with table's rows for command, then, for run and explore, the registered strategies'
 * rows (a name two strategies share once), then, for explore, the rows it refuses. 0, or -1
 * with err when they do not fit.
 */
int option_set_build(struct option_set *set, const struct option_def *table, enum command_id command, char *err,
		     size_t errlen);

/* The row of set called name, or NULL. */
const struct option_def *option_set_find(const struct option_set *set, const char *name);

/*
 * The one rule by which explore refuses what it does not honour: explore reads run's rows
 * into the same run_config, and takes only those whose commands name it (RUN_ROW, not
 * RUN_ONLY_ROW, in cli/option_table.c). The row of set's refused ones called name, or NULL.
 */
const struct option_def *option_set_refuses(const struct option_set *set, const char *name);

/* Writes into err why refused row o, a command line's option or a scenario file's key, is refused. */
void option_set_refusal(const struct option_def *o, char *err, size_t errlen);

#endif
