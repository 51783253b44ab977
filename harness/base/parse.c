#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

/*
 * Whether text is made only of chars: strtol and strtod alone would take leading spaces,
 * and strtod hexadecimal, "inf" and "nan", none of which is a decimal number.
 */
static bool only(const char *text, const char *chars)
{
	return strspn(text, chars) == strlen(text);
}

int parse_long(const char *option, const char *text, long min, long max, long *out, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (!only(text, "+-0123456789") || errno || end == text || *end || v < min || v > max) {
		snprintf(err, errlen, "--%s: expected a whole number from %ld to %ld, got \"%s\"", option, min, max,
			 text);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_double(const char *option, const char *text, double min, double max, double *out, char *err,
		size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!only(text, "+-.0123456789eE") || errno || end == text || *end || !isfinite(v) || v < min ||
	    v > max) {
		snprintf(err, errlen, "--%s: expected a number from %g to %g, got \"%s\"", option, min, max, text);
		return -1;
	}
	*out = v == 0 ? 0.0 : v;	/* "-0" is 0: printed as 0, never "-0" */
	return 0;
}

int parse_word(const char *option, const char *text, const char *const *names, char *err, size_t errlen)
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

bool parse_id(const char *text, long long *id)
{
	char *end;

	if (!*text || strspn(text, "0123456789") != strlen(text))
		return false;
	errno = 0;
	*id = strtoll(text, &end, 10);
	return !errno && *id >= 1;
}
