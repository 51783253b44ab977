#include <getopt.h>
#include <stdio.h>

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
