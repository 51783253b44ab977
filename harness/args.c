#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

int args_long(const char *option, const char *text, long min, long max, long *out, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max) {
		snprintf(err, errlen, "--%s: expected a whole number from %ld to %ld, got \"%s\"", option, min, max,
			 text);
		return -1;
	}
	*out = v;
	return 0;
}

int args_double(const char *option, const char *text, double min, double max, double *out, char *err,
		size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || v < min || v > max) {
		snprintf(err, errlen, "--%s: expected a number from %g to %g, got \"%s\"", option, min, max, text);
		return -1;
	}
	*out = v;
	return 0;
}

int args_word(const char *option, const char *text, const char *const *names, char *err, size_t errlen)
{
	size_t used;

	for (int i = 0; names[i]; i++)
		if (strcmp(text, names[i]) == 0)
			return i;
	used = (size_t)snprintf(err, errlen, "--%s: expected one of", option);
	for (int i = 0; names[i] && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "", names[i]);
	if (used < errlen)
		snprintf(err + used, errlen - used, ", got \"%s\"", text);
	return -1;
}

enum args_outcome args_options(int argc, char **argv, const struct option *options, int help_code,
			       const char *usage, args_apply_fn apply, void *ctx, char *err, size_t errlen)
{
	int code;

	opterr = 0;
	optind = 1;
	while ((code = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		if (code == help_code) {
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

/* Replaces the len bytes at p by "***", moving the rest of the string. */
static void mask(char *p, size_t len)
{
	memmove(p + 3, p + len, strlen(p + len) + 1);
	memcpy(p, "***", 3);
}

void args_redact_passwords(char *text)
{
	for (char *p = text; (p = strcasestr(p, "password=")); ) {
		char *value = p + strlen("password="), *end = value;

		if (*value == '\'') {
			for (end = value + 1; *end && *end != '\''; end += *end == '\\' && end[1] ? 2 : 1)
				;
			end += *end == '\'';
		} else {
			end += strcspn(value, " \t\n&");
		}
		if (end > value)
			mask(value, (size_t)(end - value));
		p = value + 3;
	}
	for (char *p = text; (p = strstr(p, "://")); ) {
		char *user = p + 3, *at, *colon;
		size_t span = strcspn(user, "/?# \t\n");

		at = memchr(user, '@', span);
		colon = at ? memchr(user, ':', (size_t)(at - user)) : NULL;
		if (colon && at - colon > 1)
			mask(colon + 1, (size_t)(at - colon - 1));
		p = user;
	}
}

bool args_id(const char *text, long long *id)
{
	char *end;

	if (!*text || strspn(text, "0123456789") != strlen(text))
		return false;
	errno = 0;
	*id = strtoll(text, &end, 10);
	return !errno && *id >= 1;
}
