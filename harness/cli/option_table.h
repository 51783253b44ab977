/*
 * The commands' options: one table of rows (model/option.h), each naming the commands
 * that take it. `run`'s rows land in a run_config (one per run group) and are scenario
 * keys; every strategy adds its own rows (strategy_ops.options). The getopt table, the
 * --help text, defaults, scenario keys, sweeps and a run's stored parameters are all read
 * from the rows.
 */
#ifndef CLAIMBENCH_OPTION_TABLE_H
#define CLAIMBENCH_OPTION_TABLE_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "cli/option_read.h"
#include "model/config.h"
#include "model/option.h"
#include "model/result.h"

/* The commands that take options from the table. */
enum command_id {
	COMMAND_RUN,		/* claimbench run */
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
	long limit;			/* --limit (history): runs to list, 0 for all */
	int export_format;		/* --format (export): an enum export_format, -1 when not given */
	int compare_format;		/* --format (compare): an enum compare_format */
	struct compare_tolerance tol;	/* compare's tolerances */
	struct compare_scope scope;	/* --strategy and --allow-diff (compare): the runs compared, the diffs allowed */
	const char *out;		/* --out (report): the output directory, or NULL */
	bool last;			/* --last (report, compare): the latest invocation */
	const char *db;			/* --db (cleanup): the database to look in, or NULL */
	bool dry_run;			/* --dry-run (cleanup): say what would be removed, remove nothing */
};

/* export's --format values. */
enum export_format { EXPORT_CSV, EXPORT_JSON };

/* compare's --format values. */
enum compare_format { COMPARE_TABLE, COMPARE_JSON };

/* The names of export's and compare's --format values, indexed by their enums, NULL-terminated. */
extern const char *const export_formats[];
extern const char *const compare_formats[];

/* Every command's options, NULL-name terminated. */
extern const struct option_def command_options[];

/* Rows one command line can hold at most: the command's and every strategy's. */
#define OPTION_SET_MAX 96

/* The options one command's line is read with: its rows and the getopt table made from them. */
/*
 * getopt_long's code of row i of an option set, and the row of a code: past every
 * character, so that no row's code is ever ':' or '?', which getopt returns for errors.
 */
#define OPTION_CODE_BASE 256
#define OPTION_CODE(i) (OPTION_CODE_BASE + (int)(i))
#define OPTION_ROW(code) ((size_t)((code) - OPTION_CODE_BASE))

struct option_set {
	const struct option_def *rows[OPTION_SET_MAX];	/* the command's rows in table order, then the strategies' */
	size_t n_rows;					/* entries used in rows */
	size_t n_command_rows;				/* of them, the command's own (the rest: strategies') */
	struct option longopts[OPTION_SET_MAX + 2];	/* getopt_long's table: val is OPTION_CODE(row), OPTION_CODE(n_rows) for --help */
};

/*
 * Fills set with table's rows for command, then, for run, the registered strategies'
 * rows (a name two strategies share once). 0, or -1 with err when they do not fit.
 */
int option_set_build(struct option_set *set, const struct option_def *table, enum command_id command, char *err,
		     size_t errlen);

/* The row of set called name, or NULL. */
const struct option_def *option_set_find(const struct option_set *set, const char *name);

/* Prints row o for --help: "  --name ARG", its help and its default, wrapped. */
void option_print(FILE *out, const struct option_def *o);

/* Prints set's options for --help: the command's rows, then each strategy's under its name. */
void option_set_print(const struct option_set *set, FILE *out);

/*
 * Reads the command line of command (argv[0] is its name) into settings with set, which
 * option_set_build made from table: every row of the command placed OPTION_IN_COMMAND,
 * defaults first. ARGS_OK with optind at the first operand, ARGS_HELP (nothing printed),
 * or ARGS_ERROR with err.
 */
enum args_outcome command_parse(const struct option_set *set, int argc, char **argv,
				struct command_settings *settings, char *err, size_t errlen);

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
