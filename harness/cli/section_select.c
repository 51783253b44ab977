/* `claimbench run --section`: the groups of some sections of a scenario file (section_select.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/section_select.h"

bool section_listed(const char *list, const char *name)
{
	size_t len = name ? strlen(name) : 0;

	for (const char *p = list; len && p; p = strchr(p, ',')) {
		p += *p == ',';
		if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return true;
	}
	return false;
}

int section_list_check(const char *list, char *err, size_t errlen)
{
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");

		if (len == 0) {
			snprintf(err, errlen, "--section: an empty section name in \"%s\"", list);
			return -1;
		}
		for (const char *q = list; q < p; q += strcspn(q, ",") + 1)
			if (strcspn(q, ",") == len && strncmp(q, p, len) == 0) {
				snprintf(err, errlen, "--section: \"%.*s\" is named twice in \"%s\"", (int)len, p, list);
				return -1;
			}
		p += len;
		if (!*p)
			return 0;
	}
}

/* Whether one of inv's groups is of section name. */
static bool runs_section(const struct run_invocation *inv, const char *name, size_t len)
{
	for (size_t g = 0; g < inv->n_groups; g++)
		if (strlen(inv->groups[g].group) == len && strncmp(inv->groups[g].group, name, len) == 0)
			return true;
	return false;
}

/* Writes into err that the item of length len at name is no section of inv's file, and which are. */
static void no_such_section(const struct run_invocation *inv, const char *name, size_t len, char *err, size_t errlen)
{
	size_t used = (size_t)snprintf(err, errlen, "--section: %s has no section \"%.*s\"; its sections are: ",
				       inv->scenario.path, (int)len, name);

	for (size_t g = 0; g < inv->n_groups && used < errlen; g++) {
		if (g && strcmp(inv->groups[g].group, inv->groups[g - 1].group) == 0)
			continue;
		used += (size_t)snprintf(err + used, errlen - used, "%s%s", g ? ", " : "", inv->groups[g].group);
	}
}

/* Checks that every item of list names a section among inv's groups. 0, or -1 with err. */
static int check_names(const struct run_invocation *inv, const char *list, char *err, size_t errlen)
{
	if (!inv->has_scenario || inv->n_groups == 0 || !inv->groups[0].group[0]) {
		snprintf(err, errlen, "--section names a section of a scenario file, and %s", inv->has_scenario ?
			 "this one has no group sections (only [global])" : "no scenario file was given");
		return -1;
	}
	if (section_list_check(list, err, errlen) < 0)
		return -1;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");

		if (!runs_section(inv, p, len)) {
			no_such_section(inv, p, len, err, errlen);
			return -1;
		}
		p += len;
		if (!*p)
			return 0;
	}
}

/* Keeps the expectations of inv that still name what its groups run; frees the others. Their number. */
static size_t keep_expectations(struct run_invocation *inv)
{
	static struct expect_target targets[MAX_STRATEGIES * MAX_RUN_GROUPS];
	size_t n_targets = 0, kept = 0, left_out = 0;
	char why[256];

	for (size_t g = 0; g < inv->n_groups; g++)
		invocation_add_targets(&inv->groups[g], targets, &n_targets);
	for (size_t i = 0; i < inv->n_expects; i++) {
		if (expect_check(&inv->expects[i], targets, n_targets, why, sizeof(why)) == 0) {
			inv->expects[kept++] = inv->expects[i];
			continue;
		}
		expect_free(&inv->expects[i]);
		left_out++;
	}
	inv->n_expects = kept;
	return left_out;
}

int section_select(struct run_invocation *inv, const char *list, size_t *left_out, char *err, size_t errlen)
{
	size_t kept = 0;

	*left_out = 0;
	if (check_names(inv, list, err, errlen) < 0)
		return -1;
	for (size_t g = 0; g < inv->n_groups; g++)
		if (section_listed(list, inv->groups[g].group))
			inv->groups[kept++] = inv->groups[g];
	inv->n_groups = kept;
	*left_out = keep_expectations(inv);
	return 0;
}
