/*
 * The option machinery, read from the rows (model/option.h) of the commands' table
 * (cli/option_table.h) and of the strategies: a row's value read into its place and
 * written back as text; the rows one command line is read with (an option set) and the
 * getopt table made from them; reading a command line; the --help text (and the man
 * page's); `run`'s rows applied to a run group's struct run_config (the defaults, a value in
 * the config itself or in the settings of every strategy that has the option) and the
 * parameters a stored run keeps.
 */
#ifndef CLAIMBENCH_OPTIONS_H
#define CLAIMBENCH_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/option_table.h"
#include "model/config.h"
#include "model/option.h"
#include "model/result.h"

struct strategy_ops;

/*
 * Parses text as row o's value into the struct at base. A flag takes NULL (given on the
 * command line), "true" or "false". 0, or -1 with err.
 */
int option_apply(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/*
 * Sets row o's value in the struct at base to its default: o->def parsed, else zero (-1
 * for a word, a custom row's parse given NULL). 0, or -1 with err.
 */
int option_apply_default(const struct option_def *o, void *base, char *err, size_t errlen);

/* Writes row o's value in the struct at base as text, as it would be given, into buf ("" for none). */
void option_format(const struct option_def *o, const void *base, char *buf, size_t len);

/* The row called name in the NULL-terminated table, or NULL. */
const struct option_def *option_find(const struct option_def *table, const char *name);

/* Rows one command line can hold at most: the command's and every strategy's. */
#define OPTION_SET_MAX 128

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

/* What args_options found. */
enum args_outcome {
	ARGS_OK,	/* every option applied; optind is at the first operand */
	ARGS_HELP,	/* --help: the usage was printed on stdout */
	ARGS_ERROR,	/* an unknown option, a missing value or a bad one, described in err */
};

/* Applies one option (its getopt code and value, NULL for a flag) to ctx. 0, or -1 with err. */
typedef int (*args_apply_fn)(int code, const char *value, void *ctx, char *err, size_t errlen);

/*
 * Reads argv's options (argv[0] is the command) with getopt_long: help_code prints usage
 * (unless it is NULL: the caller prints it), an unknown option or a missing value is an
 * error, every other option goes to apply.
 */
enum args_outcome args_options(int argc, char **argv, const struct option *options, int help_code,
			       const char *usage, args_apply_fn apply, void *ctx, char *err, size_t errlen);

/*
 * Reads the command line of command (argv[0] is its name) into settings with set, which
 * option_set_build made from table: every row of the command placed OPTION_IN_COMMAND,
 * defaults first. ARGS_OK with optind at the first operand, ARGS_HELP (nothing printed),
 * or ARGS_ERROR with err.
 */
enum args_outcome command_parse(const struct option_set *set, int argc, char **argv,
				struct command_settings *settings, char *err, size_t errlen);

/* Prints row o for --help: "  --name ARG", its help and its default, wrapped. */
void option_print(FILE *out, const struct option_def *o);

/* Prints set's options for --help: the command's rows, then each strategy's under its name. */
void option_set_print(const struct option_set *set, FILE *out);

/*
 * Sets every run row of table and every registered strategy's rows in cfg to their
 * defaults. 0, or -1 with err (a default a row cannot parse: a bug in the table).
 */
int run_config_defaults(struct run_config *cfg, const struct option_def *table, char *err, size_t errlen);

/*
 * Applies value to the run option row o in cfg: in cfg itself, or, for a strategy's row,
 * in the settings of every registered strategy that has an option of that name. 0, or -1 with err.
 */
int run_config_apply(struct run_config *cfg, const struct option_def *o, const char *value, char *err,
		     size_t errlen);

/*
 * Appends to r's parameters every stored run option of table (OPTION_IN_RUN, not
 * OPTION_NOT_STORED) with its value in cfg, then the options of r's strategy st (NULL: a guarded
 * run, whose guards have none) with their values for it: what the run measured under, as text. 0,
 * or -1 when out of memory.
 */
int run_params_fill(struct run_result *r, const struct option_def *table, const struct run_config *cfg,
		    const struct strategy_ops *st);

#endif
