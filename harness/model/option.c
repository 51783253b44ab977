/* The generic half of an option row: reading a value into its place, and writing it back as text. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "model/option.h"

/* Where row o's value is in the struct at base. */
static void *place_of(const struct option_def *o, void *base)
{
	return (char *)base + o->offset;
}

/* A bound of a row as a long, clamped to what a long holds (a double bound may lie past LONG_MAX). */
static long bound(double v)
{
	if (v >= (double)LONG_MAX)
		return LONG_MAX;
	if (v <= (double)LONG_MIN)
		return LONG_MIN;
	return (long)v;
}

/* A flag's value: NULL (given) or "true" is true, "false" false. 0, or -1 with err. */
static int parse_flag(const struct option_def *o, const char *text, bool *out, char *err, size_t errlen)
{
	if (!text || strcmp(text, "true") == 0) {
		*out = true;
		return 0;
	}
	if (strcmp(text, "false") == 0) {
		*out = false;
		return 0;
	}
	snprintf(err, errlen, "--%s: expected true or false, got \"%s\"", o->name, text);
	return -1;
}

int option_apply(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	void *dst = place_of(o, base);
	long v;
	int word;

	if (o->type == OPTION_FLAG)
		return parse_flag(o, text, dst, err, errlen);
	if (!text) {
		snprintf(err, errlen, "option --%s needs a value", o->name);
		return -1;
	}
	switch (o->type) {
	case OPTION_INT:
		if (parse_long(o->name, text, bound(o->min), bound(o->max), &v, err, errlen) < 0)
			return -1;
		*(int *)dst = (int)v;
		return 0;
	case OPTION_LONG:
		return parse_long(o->name, text, bound(o->min), bound(o->max), dst, err, errlen);
	case OPTION_U64:
		if (parse_long(o->name, text, bound(o->min), bound(o->max), &v, err, errlen) < 0)
			return -1;
		*(uint64_t *)dst = (uint64_t)v;
		return 0;
	case OPTION_DOUBLE:
		return parse_double(o->name, text, o->min, o->max, dst, err, errlen);
	case OPTION_WORD:
		word = parse_word(o->name, text, o->words, err, errlen);
		if (word < 0)
			return -1;
		*(int *)dst = word;
		return 0;
	case OPTION_TEXT:
		*(const char **)dst = text;
		return 0;
	case OPTION_CUSTOM:
		return o->parse(o, text, base, err, errlen);
	case OPTION_FLAG:
		break;
	}
	snprintf(err, errlen, "--%s: an option of no known type", o->name);
	return -1;
}

int option_apply_default(const struct option_def *o, void *base, char *err, size_t errlen)
{
	void *dst = place_of(o, base);

	if (o->def)
		return option_apply(o, o->def, base, err, errlen);
	switch (o->type) {
	case OPTION_INT:
		*(int *)dst = 0;
		return 0;
	case OPTION_WORD:
		*(int *)dst = -1;
		return 0;
	case OPTION_LONG:
		*(long *)dst = 0;
		return 0;
	case OPTION_U64:
		*(uint64_t *)dst = 0;
		return 0;
	case OPTION_DOUBLE:
		*(double *)dst = 0;
		return 0;
	case OPTION_FLAG:
		*(bool *)dst = false;
		return 0;
	case OPTION_TEXT:
		*(const char **)dst = NULL;
		return 0;
	case OPTION_CUSTOM:
		return o->parse(o, NULL, base, err, errlen);
	}
	snprintf(err, errlen, "--%s: an option of no known type", o->name);
	return -1;
}

void option_format(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const void *src = (const char *)base + o->offset;
	const char *text;

	switch (o->type) {
	case OPTION_INT:
		snprintf(buf, len, "%d", *(const int *)src);
		return;
	case OPTION_LONG:
		snprintf(buf, len, "%ld", *(const long *)src);
		return;
	case OPTION_U64:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)src);
		return;
	case OPTION_DOUBLE:
		snprintf(buf, len, "%.15g", *(const double *)src);
		return;
	case OPTION_WORD:
		snprintf(buf, len, "%s", *(const int *)src < 0 ? "" : o->words[*(const int *)src]);
		return;
	case OPTION_FLAG:
		snprintf(buf, len, "%s", *(const bool *)src ? "true" : "false");
		return;
	case OPTION_TEXT:
		text = *(const char *const *)src;
		snprintf(buf, len, "%s", text ? text : "");
		return;
	case OPTION_CUSTOM:
		o->format(o, base, buf, len);
		return;
	}
	snprintf(buf, len, "?");
}

const struct option_def *option_find(const struct option_def *table, const char *name)
{
	for (; table && table->name; table++)
		if (strcmp(table->name, name) == 0)
			return table;
	return NULL;
}
