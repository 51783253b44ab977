/* The settings of a report's runs side by side (report_settings.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/report_settings.h"

/* What a run without a setting shows for it. */
#define NOT_SET "(not set)"

/* The facts of an invocation a report compares, by name. */
static const char *const invocation_facts[] = { "backend", "server version", "host", "claimbench version",
						"git revision", "scenario" };

/* Fact i of s's invocation (invocation_facts[i]); "" when unknown. */
static const char *fact_value(const struct store_run *s, size_t i)
{
	const char *v[] = { s->report.backend, s->report.server_version, s->ctx.host, s->ctx.version,
			    s->ctx.git_revision, s->report.scenario };

	return v[i] ? v[i] : "";
}

/* Run s's value of parameter name, or NULL when it has none. */
static const char *param_value(const struct store_run *s, const char *name)
{
	for (size_t i = 0; i < s->run.n_params; i++)
		if (strcmp(s->run.params[i].name, name) == 0)
			return s->run.params[i].value;
	return NULL;
}

/* Whether value is among the ", "-separated values of sp. */
static bool has_value(const struct setting_spread *sp, const char *value)
{
	const char *p = sp->values;
	size_t len = strlen(value);

	for (size_t i = 0; i < sp->n_values; i++) {
		if (strncmp(p, value, len) == 0 && (p[len] == '\0' || strncmp(p + len, ", ", 2) == 0))
			return true;
		p = strstr(p, ", ");
		if (!p)
			return false;
		p += 2;
	}
	return false;
}

/* Adds value to sp's values when new; cut with "..." once they fill the room. */
static void add_value(struct setting_spread *sp, const char *value)
{
	size_t len = strlen(sp->values);

	if (has_value(sp, value))
		return;
	sp->n_values++;
	if (len + strlen(value) + sizeof(", ...") >= sizeof(sp->values)) {
		if (!strstr(sp->values, "..."))
			snprintf(sp->values + len, sizeof(sp->values) - len, ", ...");
		return;
	}
	snprintf(sp->values + len, sizeof(sp->values) - len, "%s%s", sp->n_values > 1 ? ", " : "", value);
}

/* Whether a setting called name is among the first n of out. */
static bool listed(const struct setting_spread *out, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(out[i].name, name) == 0)
			return true;
	return false;
}

size_t report_settings(const struct store_run *runs, size_t n, struct setting_spread *out, size_t max)
{
	const size_t n_facts = sizeof(invocation_facts) / sizeof(invocation_facts[0]);
	size_t count = 0, i, r, p;
	const char *v;

	for (i = 0; i < n_facts && count < max && n; i++) {
		out[count] = (struct setting_spread){ .name = invocation_facts[i] };
		for (r = 0; r < n; r++)
			add_value(&out[count], fact_value(&runs[r], i));
		count++;
	}
	for (r = 0; r < n; r++) {
		for (p = 0; p < runs[r].run.n_params && count < max; p++) {
			if (listed(out, count, runs[r].run.params[p].name))
				continue;
			out[count] = (struct setting_spread){ .name = runs[r].run.params[p].name };
			for (i = 0; i < n; i++) {
				v = param_value(&runs[i], out[count].name);
				add_value(&out[count], v ? v : NOT_SET);
			}
			count++;
		}
	}
	return count;
}
