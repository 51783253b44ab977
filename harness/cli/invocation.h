/* The command line of `claimbench run`: options into a validated run_config. */
#ifndef CLAIMBENCH_CLI_H
#define CLAIMBENCH_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "model/config.h"
#include "analysis/expect.h"
#include "cli/scenario.h"

/* Run groups one invocation may expand into (scenario sections x sweep points). */
#define MAX_RUN_GROUPS 256

/* Everything `claimbench run` was asked to do: the run groups and what to check after. */
struct run_invocation {
	struct run_config groups[MAX_RUN_GROUPS];	/* one per scenario section and sweep point, in order */
	size_t n_groups;				/* groups used */
	struct scenario scenario;			/* the scenario file, when one was given (its text's passwords masked) */
	bool has_scenario;				/* --scenario was given */
	struct expectation *expects;			/* the scenario's [expect] assertions */
	size_t n_expects;				/* entries in expects */
	const char *results_path;			/* the result store (--results) */
	char command_line[1024];			/* the options as typed, passwords masked, kept with the results */
};

/* What cli_parse_run found. */
enum cli_outcome {
	CLI_RUN,	/* cfg is ready to run */
	CLI_HELP,	/* --help was asked for and printed */
	CLI_ERROR,	/* a usage error, described in err */
};

/* Fills cfg with the classic scenario's defaults (seed 001). */
void cli_defaults(struct run_config *cfg);

/*
 * Parses `run`'s options (argv[0] is "run") and the scenario file they name into inv:
 * the file's [global] keys, then each group section's, then the command line, each
 * overriding the one before; keys with a comma-separated list expand into sweep points.
 * Every group is checked, and every expectation parsed and checked, before anything runs.
 */
enum cli_outcome cli_parse_run(int argc, char **argv, struct run_invocation *inv, char *err, size_t errlen);

/* Frees what inv holds. */
void cli_invocation_free(struct run_invocation *inv);

/* Prints `run`'s usage to out. */
void cli_print_run_usage(FILE *out);

#endif
