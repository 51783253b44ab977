/*
 * An option, described by one row of a table (as fio's struct fio_option): its name on
 * the command line and as a scenario key, the kind of value it takes, where that value
 * lands, its bounds, default and help, and whether a list of values is a sweep. Parsing,
 * --help, defaults, scenario keys, sweeps and a run's stored parameters all come from the
 * rows, so that adding an option is adding a row. The tables themselves live with what
 * owns the values: the commands' in cli/option_table.c, a strategy's in its own file. The
 * row is here, below the plugins that declare rows; what reads and writes its values, and
 * a command line with them, is cli/options.c.
 */
#ifndef CLAIMBENCH_OPTION_H
#define CLAIMBENCH_OPTION_H

#include <stdbool.h>
#include <stddef.h>

/* The kind of value an option takes, and the C type it is stored as. */
enum option_type {
	OPTION_INT,	/* int: a whole number in [min, max] */
	OPTION_LONG,	/* long: a whole number in [min, max] */
	OPTION_U64,	/* uint64_t: a whole number in [min, max] */
	OPTION_DOUBLE,	/* double: a finite number in [min, max] */
	OPTION_WORD,	/* int: the index of the value in words; -1 when not given and the row has no default */
	OPTION_FLAG,	/* bool: true when given; "true" or "false" as a scenario key */
	OPTION_TEXT,	/* const char *: the text itself, which must outlive the value */
	OPTION_CUSTOM,	/* whatever the row's parse function writes, at its offset or anywhere in the struct */
};

/* Which struct an option's offset is in. */
enum option_place {
	OPTION_IN_RUN,		/* struct run_config: one value per run group; a scenario key */
	OPTION_IN_COMMAND,	/* struct command_settings (cli/option_table.h): once per command line */
	OPTION_IN_STRATEGY,	/* a strategy's own settings struct (strategy_ops.config_size); a scenario key */
};

/* option_def.flags */
#define OPTION_SWEEP (1u << 0)		/* a comma-separated list of values is a sweep, one run group each */
#define OPTION_NOT_STORED (1u << 1)	/* says how to run or print, not what is measured: not a stored parameter */

struct option_def;

/*
 * Parses text into the struct at base for row o (OPTION_CUSTOM); text NULL sets the
 * option's default when the row has no def. 0, or -1 with err in the words every option's
 * errors use ("--name: expected ..., got \"text\"").
 */
typedef int (*option_parse_fn)(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* Writes the value row o holds in the struct at base as text into buf (OPTION_CUSTOM). */
typedef void (*option_format_fn)(const struct option_def *o, const void *base, char *buf, size_t len);

struct option_def {
	const char *name;		/* long option and scenario key, e.g. "work-ms"; NULL ends a table */
	enum option_type type;		/* the kind of value */
	enum option_place place;	/* the struct offset is in */
	size_t offset;			/* where the value lands in that struct */
	unsigned commands;		/* which commands take it: COMMAND_BIT()s of cli/option_table.h (commands' rows only) */
	unsigned flags;			/* OPTION_SWEEP, OPTION_NOT_STORED */
	double min;			/* smallest value of a number */
	double max;			/* largest value of a number */
	const char *const *words;	/* OPTION_WORD: the values, NULL-terminated */
	const char *def;		/* the default, as a value would be written; NULL: zero, false or none */
	const char *arg;		/* what --help calls the value ("MS", "LIST"); NULL for a flag */
	const char *help;		/* what it does, for --help and the man page */
	option_parse_fn parse;		/* OPTION_CUSTOM: reads a value */
	option_format_fn format;	/* OPTION_CUSTOM: writes the value back as text */
};

#endif
