/* A schedule's trace text, written and read; see trace.h. */
#include <stdio.h>
#include <string.h>

#include "explore/trace.h"

bool choice_equal(struct choice a, struct choice b)
{
	return a.kind == b.kind && a.worker == b.worker;
}

void trace_format(const struct trace *t, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < t->n && used < len; i++) {
		const struct choice *c = &t->at[i];
		const char *sep = i ? "." : "";
		int w;

		if (c->kind == CHOICE_EXPIRE)
			w = snprintf(buf + used, len - used, "%se", sep);
		else
			w = snprintf(buf + used, len - used, "%s%s%d", sep, c->kind == CHOICE_CRASH ? "c" : "", c->worker);
		if (w < 0)
			return;
		used += (size_t)w;
	}
}

int trace_parse(const char *text, struct trace *t, char *err, size_t errlen)
{
	const char *p = text;

	memset(t, 0, sizeof(*t));
	while (*p) {
		struct choice c = { CHOICE_STEP, -1 };
		const char *start = p;

		if (t->n == TRACE_MAX) {
			snprintf(err, errlen, "more than %d choices", TRACE_MAX);
			return -1;
		}
		if (*p == 'e') {
			c.kind = CHOICE_EXPIRE;
			p++;
		} else {
			if (*p == 'c') {
				c.kind = CHOICE_CRASH;
				p++;
			}
			if (*p < '0' || *p > '9') {
				snprintf(err, errlen, "choice %d (\"%.*s\"): expected a worker number, cN or e", t->n + 1,
					 (int)strcspn(start, "."), start);
				return -1;
			}
			c.worker = *p++ - '0';
		}
		if (*p && *p != '.') {
			snprintf(err, errlen, "choice %d (\"%.*s\"): expected a worker number, cN or e", t->n + 1,
				 (int)strcspn(start, "."), start);
			return -1;
		}
		t->at[t->n++] = c;
		if (*p == '.' && !*++p) {
			snprintf(err, errlen, "the trace ends with '.'");
			return -1;
		}
	}
	if (!t->n) {
		snprintf(err, errlen, "the trace is empty");
		return -1;
	}
	return 0;
}
