/*
 * The command line of `claimbench run`: options and a scenario file into run groups, checked
 * before anything runs, alone (invocation_parse) and against the driver they will run on
 * (invocation_check_on), by the rules of group_checks.h.
 */
#ifndef CLAIMBENCH_INVOCATION_H
#define CLAIMBENCH_INVOCATION_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/expect.h"
#include "db/backend.h"
#include "cli/option_table.h"
#include "cli/scenario.h"
#include "cli/scenario_strategies.h"
#include "model/config.h"
#include "store/store.h"

/* Run groups one invocation may expand into (scenario sections x sweep points). */
#define MAX_RUN_GROUPS 256

/* Everything `claimbench run` was asked to do: the run groups and what to check after. */
struct run_invocation {
	struct run_config groups[MAX_RUN_GROUPS];	/* one per scenario section and sweep point, in order */
	size_t n_groups;				/* groups used */
	struct command_settings settings;		/* what the command line says once: --scenario, --results */
	struct scenario scenario;			/* the scenario file, when one was given (its text's passwords masked) */
	bool has_scenario;				/* --scenario was given */
	struct scenario_strategies strategies;		/* the strategies the scenario defines in SQL */
	struct expectation *expects;			/* the scenario's [expect] assertions */
	size_t n_expects;				/* entries in expects */
	char *command_line;				/* the options as typed, passwords masked, kept with the results (owned) */
};

/*
 * A value one of run's rows starts from under a command other than run, below the scenario
 * file and the command line (explore's 2 workers on 2 jobs).
 */
struct invocation_default {
	const char *name;	/* the row's name; NULL ends a list */
	const char *value;	/* its value, as a scenario key would give it */
};

/* What invocation_parse found. */
enum invocation_outcome {
	INVOCATION_RUN,		/* the groups are ready to run */
	INVOCATION_HELP,	/* --help was asked for and printed */
	INVOCATION_ERROR,	/* a usage error, described in err */
};

/*
 * Parses the options of command (run or explore; argv[0] is its name), as the rows of table
 * and of every strategy describe them, and the scenario file they name into inv: defaults
 * (NULL-name terminated, or NULL), then the file's [global] keys, then each group section's,
 * then the command line, each overriding the one before; a sweeping key with a
 * comma-separated list expands into sweep points. Every group is checked, and every
 * expectation parsed and checked, before anything runs. Free inv with invocation_free.
 */
enum invocation_outcome invocation_parse(const struct option_def *table, enum command_id command,
					 const struct invocation_default *defaults, int argc, char **argv,
					 struct run_invocation *inv, char *err, size_t errlen);

/*
 * The driver inv runs on: --db's, else a throwaway PostgreSQL when its server programs are
 * found, else a throwaway SQLite file. NULL with err when $CLAIMBENCH_PG_BINDIR names a
 * directory without them.
 */
const struct backend_ops *invocation_backend(const struct run_invocation *inv, char *err, size_t errlen);

/*
 * Checks every group of inv against driver db (group_check_on), before anything runs:
 * keeps what db can run of each, refuses the rest, and more than one run with a
 * --failover-command. 0, or -1 with err.
 */
int invocation_check_on(struct run_invocation *inv, const struct backend_ops *db, char *err, size_t errlen);

/* The sessions inv's runs open on a server at once, at most: the largest group_connections of its groups. */
int invocation_connections(const struct run_invocation *inv);

/*
 * Appends to targets what group cfg runs: its strategies, or in a guarded workload its
 * guards (with --guard all, every guard of the workload). At most MAX_STRATEGIES.
 */
void invocation_add_targets(const struct run_config *cfg, struct expect_target *targets, size_t *n);

/*
 * Appends to res the parameters it ran under: the stored options of run's table with their
 * values in cfg, then st's own (NULL: a guarded run) (run_params_fill over command_options;
 * struct run_session's params_fill). 0, or -1 when out of memory.
 */
int invocation_params_fill(struct run_result *res, const struct run_config *cfg, const struct strategy_ops *st);

/* Frees what inv holds. */
void invocation_free(struct run_invocation *inv);

/* Room for the machine's name that invocation_store_context writes. */
#define INVOCATION_HOST_MAX 256

/*
 * What the result store keeps of inv as command ("run", "ab", "explore") made it: the
 * machine's name, written into host (INVOCATION_HOST_MAX bytes; "unknown" when it has none),
 * which the context points at, claimbench's version and revision, and the scenario's text
 * or the command line.
 */
struct store_context invocation_store_context(const struct run_invocation *inv, const char *command, char *host);

#endif
