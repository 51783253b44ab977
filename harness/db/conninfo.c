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

/*
 * The backend conninfo (a --db text) selects, in *db, and its prefix (or ""); whether
 * libpq's parser reads what follows the prefix: false for a target that is no conninfo (a
 * file path) and for the prefix alone (a throwaway).
 */
static bool read_by_libpq(const char *conninfo, const struct backend_ops **db, const char **prefix)
{
	const char *rest;

	*db = backend_of_target(conninfo, &rest);
	*prefix = *db && (*db)->target_prefix ? (*db)->target_prefix : "";
	return *db && (*db)->target_libpq_form && !(**prefix && !*rest);
}

/* libpq's parse of conninfo (what follows its backend's prefix, in the backend's libpq form), or NULL. */
static PQconninfoOption *parse(const char *conninfo)
{
	const struct backend_ops *db;
	const char *prefix;
	char *form, *message = NULL;
	PQconninfoOption *opts;

	if (!read_by_libpq(conninfo, &db, &prefix))
		return NULL;
	form = db->target_libpq_form(conninfo + strlen(prefix));
	opts = form ? PQconninfoParse(form, &message) : NULL;
	PQfreemem(message);
	free(form);
	return opts;
}

bool conninfo_parses(const char *conninfo)
{
	const struct backend_ops *db;
	const char *prefix;
	PQconninfoOption *opts;

	if (!read_by_libpq(conninfo, &db, &prefix))
		return true;
	opts = parse(conninfo);
	PQconninfoFree(opts);
	return opts != NULL;
}

char *conninfo_masked(const char *conninfo)
{
	PQconninfoOption *opts, *o;
	const struct backend_ops *db;
	const char *prefix;
	size_t room;
	char *out;

	if (!read_by_libpq(conninfo, &db, &prefix))
		return strdup(conninfo);
	room = strlen(CONNINFO_MASK) + strlen(prefix) + 1;
	opts = parse(conninfo);
	if (!opts) {
		out = malloc(room);
		if (out)
			sprintf(out, "%s%s", prefix, CONNINFO_MASK);
		return out;
	}
	for (o = opts; o->keyword; o++)
		if (o->val)
			room += strlen(o->keyword) + 2 * strlen(o->val) + strlen(CONNINFO_MASK) + 4;
	out = malloc(room);
	if (out) {
		strcpy(out, prefix);
		for (o = opts; o->keyword; o++) {
			if (!o->val)
				continue;
			if (strlen(out) > strlen(prefix))
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
	PQconninfoOption *opts = parse(conninfo);

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
static bool spells(const char *p, const char *word, const char **end)
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

/* Whether the len bytes at p are CONNINFO_MASK already. */
static bool is_mask(const char *p, size_t len)
{
	return len == strlen(CONNINFO_MASK) && strncmp(p, CONNINFO_MASK, len) == 0;
}

/*
 * A copy of text being written with secrets masked. Each secret masked is at least one
 * byte and becomes strlen(CONNINFO_MASK) bytes, so the copy needs at most that many bytes
 * for each byte of text.
 */
struct masked_copy {
	char *out;	/* the copy, allocated for the worst case */
	size_t len;	/* bytes written */
};

/* Starts c, with room for text masked at worst. 0, or -1 when out of memory. */
static int copy_start(struct masked_copy *c, const char *text)
{
	c->out = malloc(strlen(text) * strlen(CONNINFO_MASK) + 1);
	c->len = 0;
	if (c->out)
		c->out[0] = '\0';
	return c->out ? 0 : -1;
}

/* Appends the len bytes at p to the copy. */
static void copy_bytes(struct masked_copy *c, const char *p, size_t len)
{
	memcpy(c->out + c->len, p, len);
	c->len += len;
	c->out[c->len] = '\0';
}

/* Appends the len bytes at value to the copy, or CONNINFO_MASK in their place when they are a secret not masked yet. */
static void copy_secret(struct masked_copy *c, const char *value, size_t len)
{
	if (len && !is_mask(value, len))
		copy_bytes(c, CONNINFO_MASK, strlen(CONNINFO_MASK));
	else
		copy_bytes(c, value, len);
}

/*
 * Copies the value after "=" at p (blanks around it allowed) masked: quoted, or up to a
 * blank or '&'; text at p that is no "=" is left for the caller. Returns past what it copied.
 */
static const char *copy_value(struct masked_copy *c, const char *p)
{
	const char *eq = p + strspn(p, " \t"), *value, *end;

	if (*eq != '=')
		return p;
	value = eq + 1 + strspn(eq + 1, " \t");
	copy_bytes(c, p, (size_t)(value - p));
	if (*value == '\'') {
		for (end = value + 1; *end && *end != '\''; end += *end == '\\' && end[1] ? 2 : 1)
			;
		end += *end == '\'';
	} else {
		end = value + strcspn(value, " \t\n&");
	}
	copy_secret(c, value, (size_t)(end - value));
	return end;
}

/* text with the value of every password= and sslpassword= masked, as a new string; NULL when out of memory. */
static char *mask_keywords(const char *text)
{
	struct masked_copy c;

	if (copy_start(&c, text) < 0)
		return NULL;
	for (const char *p = text; *p; ) {
		const char *end;

		if (spells(p, "sslpassword", &end) || spells(p, "password", &end)) {
			copy_bytes(&c, p, (size_t)(end - p));
			p = copy_value(&c, end);
		} else {
			copy_bytes(&c, p++, 1);
		}
	}
	return c.out;
}

/* text with the password of every URI's user:password@ masked, as a new string; NULL when out of memory. */
static char *mask_uris(const char *text)
{
	struct masked_copy c;
	const char *p = text, *scheme;

	if (copy_start(&c, text) < 0)
		return NULL;
	while ((scheme = strstr(p, "://"))) {
		const char *user = scheme + 3, *at, *colon;
		size_t span = strcspn(user, "/?# \t\n");

		at = memchr(user, '@', span);
		colon = at ? memchr(user, ':', (size_t)(at - user)) : NULL;
		if (colon && at - colon > 1) {
			copy_bytes(&c, p, (size_t)(colon + 1 - p));
			copy_secret(&c, colon + 1, (size_t)(at - colon - 1));
			p = at;
		} else {
			copy_bytes(&c, p, (size_t)(user - p));
			p = user;
		}
	}
	copy_bytes(&c, p, strlen(p));
	return c.out;
}

char *conninfo_redacted(const char *text)
{
	char *keywords = mask_keywords(text), *out;

	if (!keywords)
		return NULL;
	out = mask_uris(keywords);
	free(keywords);
	return out;
}
