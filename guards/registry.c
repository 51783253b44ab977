/*
 * The list of guards: every file of guards/ that defines one, as the build found them
 * (generated/plugins.h, which lists them by order, then name), so that adding one is adding
 * its file.
 */
#include <stdio.h>
#include <string.h>

#include "db/backend.h"
#include "plugin/guard.h"
#include "generated/plugins.h"

#define DECLARE(name) extern const struct guard_ops guard_##name;
GUARD_FILES(DECLARE)
#undef DECLARE

#define ENTRY(name) &guard_##name,
const struct guard_ops *const guard_registry[] = { GUARD_FILES(ENTRY) };
#undef ENTRY

const size_t guard_registry_len = sizeof(guard_registry) / sizeof(guard_registry[0]);

_Static_assert(sizeof(guard_registry) / sizeof(guard_registry[0]) == GUARD_COUNT, "GUARD_COUNT counts the registry");

const struct guard_ops *guard_find(const char *name)
{
	for (size_t i = 0; i < guard_registry_len; i++)
		if (strcmp(guard_registry[i]->name, name) == 0)
			return guard_registry[i];
	return NULL;
}

size_t guard_index(const struct guard_ops *g)
{
	for (size_t i = 0; i < guard_registry_len; i++)
		if (guard_registry[i] == g)
			return i;
	return 0;
}

bool guard_runs_on(const struct guard_ops *g, const struct backend_ops *db)
{
	return plugin_runs_on(g->dialects, g->needs_caps, db);
}

void guard_refusal(const struct guard_ops *g, const struct backend_ops *db, char *buf, size_t len)
{
	if (g->no_form[db->dialect])
		snprintf(buf, len, "%s", g->no_form[db->dialect]);
	else
		snprintf(buf, len, "it relies on what %s cannot do: %s", db->name, db->locking);
}

bool guard_refuses_wait_limit(const struct guard_ops *g, const struct backend_ops *db, int wait_limit_ms, char *buf,
			      size_t len)
{
	const struct guard_wait_unit *unit = &g->wait_limit_unit[db->dialect];

	if (g->user.wait != GUARD_WAIT_LIMIT || unit->ms <= 0 || wait_limit_ms % unit->ms == 0)
		return false;
	snprintf(buf, len, "%s: --wait-limit-ms %d is not a multiple of %d", unit->why, wait_limit_ms, unit->ms);
	return true;
}
