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

int sql_expand(const char *tmpl, const char *jobs, const char *tickets, char *buf, size_t len)
{
	size_t pos = 0;

	while (*tmpl) {
		int rc;

		if (strncmp(tmpl, "{jobs}", 6) == 0 || strncmp(tmpl, "{jobs:", 6) == 0)
			rc = append_name(buf, len, &pos, &tmpl, 5, jobs);
		else if (strncmp(tmpl, "{tickets}", 9) == 0 || strncmp(tmpl, "{tickets:", 9) == 0)
			rc = append_name(buf, len, &pos, &tmpl, 8, tickets);
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
