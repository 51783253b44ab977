/* The command line of `claimbench run`: options into a validated run_config. */
#ifndef CLAIMBENCH_CLI_H
#define CLAIMBENCH_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "config.h"

/* Exit statuses, as the README documents them. */
enum exit_status {
	EXIT_DONE = 0,		/* every run finished */
	EXIT_EXPECTATION = 1,	/* an expectation failed (reserved) */
	EXIT_USAGE = 2,		/* bad command line or scenario */
	EXIT_ENVIRONMENT = 3,	/* database or environment error */
	EXIT_INCOMPLETE = 4,	/* a worker aborted or the run was interrupted */
};

/* What cli_parse_run found. */
enum cli_outcome {
	CLI_RUN,	/* cfg is ready to run */
	CLI_HELP,	/* --help was asked for and printed */
	CLI_ERROR,	/* a usage error, described in err */
};

/* Fills cfg with the classic scenario's defaults (seed 001). */
void cli_defaults(struct run_config *cfg);

/* Parses `run`'s options (argv[0] is "run") into cfg and checks them. */
enum cli_outcome cli_parse_run(int argc, char **argv, struct run_config *cfg, char *err, size_t errlen);

/* Prints `run`'s usage to out. */
void cli_print_run_usage(FILE *out);

#endif
