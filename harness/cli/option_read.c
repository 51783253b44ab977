/* Reading a command line (option_read.h): the getopt loop, and a command's rows read with it. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/option_read.h"

enum args_outcome args_options(int argc, char **argv, const struct option *options, int help_code,
			       const char *usage, args_apply_fn apply, void *ctx, char *err, size_t errlen)
{
	int code;

	opterr = 0;
	optind = 1;
	while ((code = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		if (code == help_code) {
			if (usage)
				fputs(usage, stdout);
			return ARGS_HELP;
		}
		if (code == ':' || code == '?') {
			snprintf(err, errlen, code == ':' ? "option %s needs a value" : "unknown option %s",
				 argv[optind - 1]);
			return ARGS_ERROR;
		}
		if (apply(code, optarg, ctx, err, errlen) < 0)
			return ARGS_ERROR;
	}
	return ARGS_OK;
}

/* What command_parse's option loop applies a value with. */
struct command_line_context {
	const struct option_set *set;		/* the rows, by getopt code */
	struct command_settings *settings;	/* where the values land */
};

/* args_apply_fn of command_parse. */
static int apply_command_option(int code, const char *value, void *ctx, char *err, size_t errlen)
{
	struct command_line_context *c = ctx;

	return option_apply(c->set->rows[OPTION_ROW(code)], value, c->settings, err, errlen);
}

enum args_outcome command_parse(const struct option_set *set, int argc, char **argv,
				struct command_settings *settings, char *err, size_t errlen)
{
	struct command_line_context ctx = { .set = set, .settings = settings };

	memset(settings, 0, sizeof(*settings));
	for (size_t i = 0; i < set->n_command_rows; i++)
		if (set->rows[i]->place == OPTION_IN_COMMAND && option_apply_default(set->rows[i], settings, err, errlen) < 0)
			return ARGS_ERROR;
	return args_options(argc, argv, set->longopts, OPTION_CODE(set->n_rows), NULL, apply_command_option, &ctx, err,
			    errlen);
}
