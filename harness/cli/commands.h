/*
 * The subcommands: one row each, read by main to dispatch and by --help and the man
 * page to describe them. Each returns the process's exit status (base/exit_status.h).
 */
#ifndef CLAIMBENCH_COMMANDS_H
#define CLAIMBENCH_COMMANDS_H

#include <stdio.h>

#include "cli/options.h"
#include "cli/option_table.h"

/* One subcommand. */
struct command {
	const char *name;			/* the word after "claimbench" */
	const char *summary;			/* one line for claimbench --help */
	const char *synopsis;			/* its usage line, after "usage: " */
	const char *about;			/* what it does: lines ending in \n */
	const char *tail;			/* what --help says after the options (operands, exit status), or NULL */
	void (*legend)(FILE *out);		/* prints what its output's columns mean, after the tail; or NULL */
	int options;				/* its enum command_id in the option table, or -1 when its file has its own */
	int (*run)(int argc, char **argv);	/* runs it (argv[0] is its name); the exit status */
};

/* Every subcommand, in the order --help lists them; NULL-name terminated. */
extern const struct command commands[];

/* The command called name, or NULL. */
const struct command *command_find(const char *name);

/*
 * Prints c's --help to out: its synopsis, what it does, the options of set (made from
 * the option table for c; NULL for a command that lists its own), then its tail.
 */
void command_print_usage(const struct command *c, const struct option_set *set, FILE *out);

/* What command_read found. */
enum command_start {
	COMMAND_GO,		/* the options are read; optind is at the first operand */
	COMMAND_HELP_SHOWN,	/* --help: the usage was printed, the command is done (exit 0) */
	COMMAND_BAD,		/* a usage error, said on stderr (exit 2) */
};

/*
 * Reads c's command line (argv[0] is its name) into settings with c's rows of the option
 * table; --help prints c's usage on stdout, a usage error is said on stderr.
 */
enum command_start command_read(const struct command *c, int argc, char **argv, struct command_settings *settings);

/* Says on stderr that c's command line is wrong, and why. Returns EXIT_USAGE. */
int command_usage_error(const struct command *c, const char *err);

/* `claimbench run [options]`. */
int cmd_run(int argc, char **argv);

/* `claimbench explore [options]`: every interleaving of the workers' statements (harness/explore/). */
int cmd_explore(int argc, char **argv);

/* `claimbench list [--help]`. */
int cmd_list(int argc, char **argv);

/* `claimbench history [--results PATH] [--limit N]`. */
int cmd_history(int argc, char **argv);

/* `claimbench show RUN [--results PATH]`. */
int cmd_show(int argc, char **argv);

/* `claimbench export RUN --format csv|json [--results PATH]`. */
int cmd_export(int argc, char **argv);

/* `claimbench compare BASELINE CANDIDATE [--results PATH] [tolerances] [--format table|json]`. */
int cmd_compare(int argc, char **argv);

/* `claimbench ab BASELINE.ini CANDIDATE.ini [--rounds N] [--tolerance PCT] [--db CONNINFO] [--format table|json]`. */
int cmd_ab(int argc, char **argv);

/* `claimbench report [RUN... | inv:N | --last] [--out DIR] [--results PATH]`. */
int cmd_report(int argc, char **argv);

/* `claimbench cleanup [--db CONNINFO] [--dry-run]`. */
int cmd_cleanup(int argc, char **argv);

/* `claimbench manpage`: claimbench(1) in roff. */
int cmd_manpage(int argc, char **argv);

#endif
