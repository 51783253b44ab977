#include <stdbool.h>
#include <string.h>

#include "engine/sql_template.h"

/* Appends n bytes of s at *pos in buf. 0, or -1 when they do not fit with the final NUL. */
static int append(char *buf, size_t len, size_t *pos, const char *s, size_t n)
{
	if (*pos + n + 1 > len)
		return -1;
	memcpy(buf + *pos, s, n);
	*pos += n;
	return 0;
}

/*
 * Appends the quoted name for the placeholder at *tmpl ("{key}" or "{key:suffix}") and moves
 * *tmpl past it. 0, or -1 when it does not fit or name cannot take a suffix.
 */
static int append_name(char *buf, size_t len, size_t *pos, const char **tmpl, size_t keylen, const char *name)
{
	const char *suffix = *tmpl + keylen, *end;
	size_t n = strlen(name);

	if (*suffix == '}') {
		*tmpl = suffix + 1;
		return append(buf, len, pos, name, n);
	}
	suffix++;
	end = strchr(suffix, '}');
	if (!end || n < 2 || name[n - 1] != '"')
		return -1;
	*tmpl = end + 1;
	if (append(buf, len, pos, name, n - 1) < 0 || append(buf, len, pos, "_", 1) < 0 ||
	    append(buf, len, pos, suffix, (size_t)(end - suffix)) < 0)
		return -1;
	return append(buf, len, pos, "\"", 1);
}

/* Whether the template at tmpl holds the placeholder word ("{word}" or, with suffix, "{word:"). */
static bool at(const char *tmpl, const char *word, bool suffix)
{
	size_t n = strlen(word);

	return tmpl[0] == '{' && strncmp(tmpl + 1, word, n) == 0 && (tmpl[n + 1] == '}' || (suffix && tmpl[n + 1] == ':'));
}

/* Appends text for the placeholder {word} at *tmpl and moves *tmpl past it. 0, or -1 when it does not fit. */
static int append_text(char *buf, size_t len, size_t *pos, const char **tmpl, const char *word, const char *text)
{
	*tmpl += strlen(word) + 2;
	return append(buf, len, pos, text, strlen(text));
}

int sql_expand(const char *tmpl, const struct sql_names *names, char *buf, size_t len)
{
	static const char *const now[BACKEND_COUNT] = {
		[BACKEND_POSTGRESQL] = "clock_timestamp()",
		[BACKEND_SQLITE] = "julianday('now')",
	};
	size_t pos = 0;

	while (*tmpl) {
		int rc;

		if (at(tmpl, "jobs", true))
			rc = append_name(buf, len, &pos, &tmpl, 5, names->jobs);
		else if (at(tmpl, "tickets", true))
			rc = append_name(buf, len, &pos, &tmpl, 8, names->tickets);
		else if (at(tmpl, "owner", false))
			rc = append_text(buf, len, &pos, &tmpl, "owner", names->owner);
		else if (at(tmpl, "now", false))
			rc = append_text(buf, len, &pos, &tmpl, "now", now[names->dialect]);
		else
			rc = append(buf, len, &pos, tmpl++, 1);
		if (rc < 0)
			return -1;
	}
	if (len == 0)
		return -1;
	buf[pos] = '\0';
	return 0;
}
