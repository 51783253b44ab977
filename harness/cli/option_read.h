/* Reading a command line: the option loop every command reads it with, and a command's rows read with it. */
#ifndef CLAIMBENCH_OPTION_READ_H
#define CLAIMBENCH_OPTION_READ_H

#include <stddef.h>

#include "cli/option_set.h"
#include "cli/option_table.h"

struct option;

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

#endif
