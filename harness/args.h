/* Option values every command parses the same way, with the same messages. */
#ifndef CLAIMBENCH_ARGS_H
#define CLAIMBENCH_ARGS_H

#include <stdbool.h>
#include <stddef.h>

/* Parses a whole decimal number in [min, max] for --option into *out. 0, or -1 with err. */
int args_long(const char *option, const char *text, long min, long max, long *out, char *err, size_t errlen);

/* Parses a finite decimal number in [min, max] for --option into *out. 0, or -1 with err. */
int args_double(const char *option, const char *text, double min, double max, double *out, char *err,
		size_t errlen);

/* The index of text in the NULL-terminated names, or -1 with err listing them for --option. */
int args_word(const char *option, const char *text, const char *const *names, char *err, size_t errlen);

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
 * Reads argv's options (argv[0] is the command) with getopt_long: help_code prints usage,
 * an unknown option or a missing value is an error, every other option goes to apply.
 */
enum args_outcome args_options(int argc, char **argv, const struct option *options, int help_code,
			       const char *usage, args_apply_fn apply, void *ctx, char *err, size_t errlen);

/*
 * Masks, in place, the passwords a text may carry in a connection string: the value of
 * password=... (conninfo) and the password of a URI's user:password@. Text that is kept
 * or printed (the command line, a scenario file) goes through it first.
 */
void args_redact_passwords(char *text);

/* Reads a result-store id (one or more digits, no sign or space, from 1) into *id. true when text is one. */
bool args_id(const char *text, long long *id);

#endif
