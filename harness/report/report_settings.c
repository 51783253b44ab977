/* The settings of a report's runs side by side (report_settings.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_settings.h"

/* The facts of an invocation a report compares, by name. */
static const char *const invocation_facts[] = { "backend", "server version", "host", "claimbench version",
						"git revision", "scenario" };

/* Fact i of s's invocation (invocation_facts[i]); NULL when unknown. */
static const char *fact_value(const struct store_run *s, size_t i)
{
	const char *v[] = { s->report.backend, s->report.server_version, s->ctx.host, s->ctx.version,
			    s->ctx.git_revision, s->report.scenario };

	return v[i] && *v[i] ? v[i] : NULL;
}

/* Run s's value of parameter name, or NULL when it has none or an empty one. */
static const char *param_value(const struct store_run *s, const char *name)
{
	for (size_t i = 0; i < s->run.n_params; i++)
		if (strcmp(s->run.params[i].name, name) == 0)
			return *s->run.params[i].value ? s->run.params[i].value : NULL;
	return NULL;
}

bool setting_same(const struct setting_spread *s, size_t a, size_t b)
{
	const char *x = s->value_of[a], *y = s->value_of[b];

	return x == y || (x && y && strcmp(x, y) == 0);
}

/* Counts the distinct values of s over n runs into s->n_values. */
static void count_values(struct setting_spread *s, size_t n)
{
	s->n_values = 0;
	for (size_t r = 0; r < n; r++) {
		size_t e = 0;

		while (e < r && !setting_same(s, e, r))
			e++;
		s->n_values += e == r;
	}
}

/* Whether a setting called name is among the first n of out. */
static bool listed(const struct setting_spread *out, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(out[i].name, name) == 0)
			return true;
	return false;
}

int report_settings(const struct store_run *runs, size_t n, struct setting_spread *out, size_t max, size_t *count)
{
	const size_t n_facts = sizeof(invocation_facts) / sizeof(invocation_facts[0]);
	size_t i, r, p;

	*count = 0;
	for (i = 0; i < n_facts && *count < max && n; i++) {
		out[*count] = (struct setting_spread){ .name = invocation_facts[i], .value_of = calloc(n, sizeof(char *)) };
		if (!out[*count].value_of)
			goto fail;
		for (r = 0; r < n; r++)
			out[*count].value_of[r] = fact_value(&runs[r], i);
		count_values(&out[(*count)++], n);
	}
	for (r = 0; r < n; r++) {
		for (p = 0; p < runs[r].run.n_params && *count < max; p++) {
			if (listed(out, *count, runs[r].run.params[p].name))
				continue;
			out[*count] = (struct setting_spread){ .name = runs[r].run.params[p].name,
							       .value_of = calloc(n, sizeof(char *)) };
			if (!out[*count].value_of)
				goto fail;
			for (i = 0; i < n; i++)
				out[*count].value_of[i] = param_value(&runs[i], out[*count].name);
			count_values(&out[(*count)++], n);
		}
	}
	return 0;
fail:
	report_settings_free(out, *count);
	*count = 0;
	return -1;
}

void report_settings_free(struct setting_spread *out, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free(out[i].value_of);
		out[i].value_of = NULL;
	}
}

/* Appends printf's text of format to buf at *used (its length so far), never past len. */
__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t len, size_t *used, const char *format, ...)
{
	va_list ap;
	int w;

	if (*used >= len)
		return;
	va_start(ap, format);
	w = vsnprintf(buf + *used, len - *used, format, ap);
	va_end(ap);
	*used = w < 0 ? len : *used + (size_t)w;
}

/* Whether run i's field (its section when by_section, else its strategy) equals run j's. */
static bool same_field(const struct store_run *runs, size_t i, size_t j, bool by_section)
{
	const char *x = by_section ? runs[i].run.group : runs[i].run.strategy;
	const char *y = by_section ? runs[j].run.group : runs[j].run.strategy;

	return x && y && *x && strcmp(x, y) == 0;
}

/*
 * Whether the runs with run k's value of s are exactly every run of the sections (by_section)
 * or the strategies they are of: no run of theirs has another value, and each has one.
 */
static bool whole(const struct store_run *runs, size_t n, const struct setting_spread *s, size_t k, bool by_section)
{
	bool all = true;

	for (size_t i = 0; i < n && all; i++) {
		bool in = setting_same(s, i, k), kin = false;

		for (size_t j = 0; j < n && !kin; j++)
			kin = setting_same(s, j, k) && same_field(runs, i, j, by_section);
		if (in && !(by_section ? runs[i].run.group && *runs[i].run.group : runs[i].run.strategy != NULL))
			all = false;
		if (!in && kin)
			all = false;
	}
	return all;
}

/*
 * Appends to buf the distinct sections (by_section) or strategies of the runs with run k's
 * value of s, comma-separated. Their number.
 */
static size_t name_fields(const struct store_run *runs, size_t n, const struct setting_spread *s, size_t k,
			  bool by_section, char *buf, size_t len, size_t *used)
{
	size_t named = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		if (!setting_same(s, i, k))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = setting_same(s, j, k) && same_field(runs, i, j, by_section);
		if (!seen)
			append(buf, len, used, "%s%s", named++ ? ", " : "",
			       by_section ? runs[i].run.group : runs[i].run.strategy);
	}
	return named;
}

void setting_runs_text(const struct store_run *runs, size_t n, const struct setting_spread *s, size_t k, char *buf,
		       size_t len)
{
	size_t used = 0, shown = 0, runs_in = 0, named_used = 0, named;
	bool sections = false, strategies = false;
	char names[256] = "";

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		if (!setting_same(s, i, k))
			continue;
		while (j + 1 < n && setting_same(s, j + 1, k) && runs[j + 1].run.run_id == runs[j].run.run_id + 1)
			j++;
		runs_in += j - i + 1;
		if (j > i + 1)
			append(buf, len, &used, "%s%lld-%lld", shown++ ? ", " : "", runs[i].run.run_id, runs[j].run.run_id);
		else
			append(buf, len, &used, "%s%lld", shown++ ? ", " : "", runs[i].run.run_id);
		if (j == i + 1)
			append(buf, len, &used, ", %lld", runs[j].run.run_id);
		i = j;
	}
	if (runs_in == n || runs_in == 1)
		return;
	sections = whole(runs, n, s, k, true);
	strategies = !sections && whole(runs, n, s, k, false);
	if (!sections && !strategies)
		return;
	named = name_fields(runs, n, s, k, sections, names, sizeof(names), &named_used);
	append(buf, len, &used, ": every run of %s%s", sections ? (named > 1 ? "sections " : "section ") : "", names);
}
