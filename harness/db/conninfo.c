#include <string.h>

#include "db/conninfo.h"

/* Replaces the len bytes at p by "***", moving the rest of the string. */
static void mask(char *p, size_t len)
{
	memmove(p + 3, p + len, strlen(p + len) + 1);
	memcpy(p, "***", 3);
}

void conninfo_redact(char *text)
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
