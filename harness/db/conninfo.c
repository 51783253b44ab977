/*
 * Secrets in connection strings. A conninfo that is known to be one (--db's value, a
 * scenario's db key) is parsed with libpq's own parser, which reads every syntax libpq
 * accepts, and written anew with its passwords masked; any other text is searched for
 * what looks like a password and masked in place, as a second line of defence.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "db/backend.h"
#include "db/conninfo.h"

/* Whether a conninfo keyword names a secret. */
static bool is_secret(const char *keyword)
{
	return strcmp(keyword, "password") == 0 || strcmp(keyword, "sslpassword") == 0;
}

/* Appends value to out (room for it quoted), single-quoted with \ escapes when it needs quotes. */
static void append_value(char *out, const char *value)
{
	bool quote = !*value || strpbrk(value, " \t\n\r\f\v'\\") != NULL;
	char *p = out + strlen(out);

	if (quote)
		*p++ = '\'';
	for (; *value; value++) {
		if (*value == '\'' || *value == '\\')
			*p++ = '\\';
		*p++ = *value;
	}
	if (quote)
		*p++ = '\'';
	*p = '\0';
}

bool conninfo_parses(const char *conninfo)
{
	char *message = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &message);

	PQfreemem(message);
	PQconninfoFree(opts);
	return opts != NULL;
}

char *conninfo_masked(const char *conninfo)
{
	PQconninfoOption *opts, *o;
	char *message = NULL, *out;
	size_t room = strlen(CONNINFO_MASK) + 1;

	if (strncmp(conninfo, BACKEND_SQLITE_PREFIX, strlen(BACKEND_SQLITE_PREFIX)) == 0)
		return strdup(conninfo);
	opts = PQconninfoParse(conninfo, &message);
	PQfreemem(message);
	if (!opts)
		return strdup(CONNINFO_MASK);
	for (o = opts; o->keyword; o++)
		if (o->val)
			room += strlen(o->keyword) + 2 * strlen(o->val) + strlen(CONNINFO_MASK) + 4;
	out = malloc(room);
	if (out) {
		out[0] = '\0';
		for (o = opts; o->keyword; o++) {
			if (!o->val)
				continue;
			if (out[0])
				strcat(out, " ");
			strcat(out, o->keyword);
			strcat(out, "=");
			if (is_secret(o->keyword))
				strcat(out, CONNINFO_MASK);
			else
				append_value(out, o->val);
		}
	}
	PQconninfoFree(opts);
	return out;
}

/* Replaces every occurrence of secret in text by as many '*' as it has bytes. */
static void star_out(char *text, const char *secret)
{
	size_t n = strlen(secret);

	if (!n)
		return;
	for (char *p = text; (p = strstr(p, secret)); p += n)
		memset(p, '*', n);
}

void conninfo_scrub(char *text, const char *conninfo)
{
	PQconninfoOption *opts;
	char *message = NULL;

	opts = PQconninfoParse(conninfo, &message);
	PQfreemem(message);
	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (o->val && is_secret(o->keyword))
			star_out(text, o->val);
	PQconninfoFree(opts);
}

/* The value of hex digit c, or -1. */
static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * Whether the text at p spells word, each letter as itself in either case or
 * percent-encoded (%77 for w, as in a URI's query); *end is set past it.
 */
static bool spells(char *p, const char *word, char **end)
{
	for (; *word; word++) {
		if (p[0] == '%' && hex_value(p[1]) >= 0 && hex_value(p[2]) >= 0 &&
		    tolower(hex_value(p[1]) * 16 + hex_value(p[2])) == *word) {
			p += 3;
		} else if (tolower((unsigned char)*p) == *word) {
			p++;
		} else {
			return false;
		}
	}
	*end = p;
	return true;
}

/* Replaces the len bytes at p by CONNINFO_MASK, moving the rest of the string. */
static void mask(char *p, size_t len)
{
	memmove(p + strlen(CONNINFO_MASK), p + len, strlen(p + len) + 1);
	memcpy(p, CONNINFO_MASK, strlen(CONNINFO_MASK));
}

/* Whether the len bytes at p are CONNINFO_MASK already. */
static bool is_mask(const char *p, size_t len)
{
	return len == strlen(CONNINFO_MASK) && strncmp(p, CONNINFO_MASK, len) == 0;
}

/* Masks the value after "=" at p (blanks around it allowed): quoted, or up to a blank or '&'. Returns past it. */
static char *mask_value(char *p)
{
	char *value, *end;

	p += strspn(p, " \t");
	if (*p != '=')
		return p;
	value = p + 1 + strspn(p + 1, " \t");
	end = value;
	if (*value == '\'') {
		for (end = value + 1; *end && *end != '\''; end += *end == '\\' && end[1] ? 2 : 1)
			;
		end += *end == '\'';
	} else {
		end += strcspn(value, " \t\n&");
	}
	if (end > value && !is_mask(value, (size_t)(end - value))) {
		mask(value, (size_t)(end - value));
		end = value + strlen(CONNINFO_MASK);
	}
	return end;
}

void conninfo_redact(char *text)
{
	for (char *p = text; *p; ) {
		char *end;

		if (spells(p, "sslpassword", &end) || spells(p, "password", &end))
			p = mask_value(end);
		else
			p++;
	}
	for (char *p = text; (p = strstr(p, "://")); ) {
		char *user = p + 3, *at, *colon;
		size_t span = strcspn(user, "/?# \t\n");

		at = memchr(user, '@', span);
		colon = at ? memchr(user, ':', (size_t)(at - user)) : NULL;
		if (colon && at - colon > 1 && !is_mask(colon + 1, (size_t)(at - colon - 1)))
			mask(colon + 1, (size_t)(at - colon - 1));
		p = user;
	}
}
