#include <string.h>

#include "sql_template.h"

/* Appends n bytes of s at *pos in buf. 0, or -1 when they do not fit with the final NUL. */
static int append(char *buf, size_t len, size_t *pos, const char *s, size_t n)
{
	if (*pos + n + 1 > len)
		return -1;
	memcpy(buf + *pos, s, n);
	*pos += n;
	return 0;
}

int sql_expand(const char *tmpl, const char *jobs, const char *tickets, char *buf, size_t len)
{
	size_t pos = 0;

	while (*tmpl) {
		const char *name = NULL;
		size_t skip = 1;

		if (strncmp(tmpl, "{jobs}", 6) == 0) {
			name = jobs;
			skip = 6;
		} else if (strncmp(tmpl, "{tickets}", 9) == 0) {
			name = tickets;
			skip = 9;
		}
		if (append(buf, len, &pos, name ? name : tmpl, name ? strlen(name) : 1) < 0)
			return -1;
		tmpl += skip;
	}
	if (len == 0)
		return -1;
	buf[pos] = '\0';
	return 0;
}
