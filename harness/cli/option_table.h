/*
 * The commands' options: one table of rows (model/option.h), each naming the commands
 * that take it. `run`'s rows land in a run_config (one per run group) and are scenario
 * keys; every strategy adds its own rows (strategy_ops.options). The getopt table,
 * reading a command line, the --help text, defaults, scenario keys, sweeps and a run's
 * stored parameters are all read from the rows (cli/options.h).
 */
#ifndef CLAIMBENCH_OPTION_TABLE_H
#define CLAIMBENCH_OPTION_TABLE_H

#include <stdbool.h>

#include "analysis/compare.h"
#include "explore/explore_options.h"
#include "model/option.h"

/* The commands that take options from the table. */
enum command_id {
	COMMAND_RUN,		/* claimbench run */
	COMMAND_EXPLORE,	/* claimbench explore: run's rows and its own */
	COMMAND_HISTORY,	/* claimbench history */
	COMMAND_SHOW,		/* claimbench show */
	COMMAND_EXPORT,		/* claimbench export */
	COMMAND_COMPARE,	/* claimbench compare */
	COMMAND_REPORT,		/* claimbench report */
	COMMAND_CLEANUP,	/* claimbench cleanup */
	COMMAND_COUNT
};

#define COMMAND_BIT(id) (1u << (id))

/* What a command line says once, whatever the run groups: the rows placed OPTION_IN_COMMAND. */
struct command_settings {
	const char *results;		/* --results: the result store */
	const char *scenario;		/* --scenario (run): the scenario file, or NULL */
	bool trust_scenario;		/* --trust-scenario (run): the scenario file may run a shell command and any SQL */
	const char *sections;		/* --section (run, report): the scenario sections to run or report, comma-separated, or NULL */
	long limit;			/* --limit (history): runs to list, 0 for all */
	int export_format;		/* --format (export): an enum export_format, -1 when not given */
	int compare_format;		/* --format (compare): an enum compare_format */
	struct compare_tolerance tol;	/* compare's tolerances */
	struct compare_scope scope;	/* --strategy and --allow-diff (compare): the runs compared, the diffs allowed */
	const char *out;		/* --out (report): the output directory, or NULL */
	bool force;			/* --force (report): --out may be a non-empty folder claimbench did not make */
	bool last;			/* --last (report, compare): the latest invocation */
	const char *db;			/* --db (cleanup): the database to look in, or NULL */
	bool dry_run;			/* --dry-run (cleanup): say what would be removed, remove nothing */
	struct explore_options explore;	/* explore's own options */
};

/* export's --format values. */
enum export_format { EXPORT_CSV, EXPORT_JSON };

/* compare's and ab's --format values: a table, one JSON object, a pull request's comment, a JUnit XML document. */
enum compare_format { COMPARE_TABLE, COMPARE_JSON, COMPARE_MARKDOWN, COMPARE_JUNIT };

/* The names of export's and compare's --format values, indexed by their enums, NULL-terminated. */
extern const char *const export_formats[];
extern const char *const compare_formats[];

/* Every command's options, NULL-name terminated. */
extern const struct option_def command_options[];

#endif
