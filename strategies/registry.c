/*
 * The list of strategies: every file of strategies/ that defines one, as the build found
 * them (generated/plugins.h, which lists them by order, then name), so that adding one is
 * adding its file.
 */
#include <string.h>

#include "db/backend.h"
#include "plugin/strategy.h"
#include "generated/plugins.h"

#define DECLARE(name) extern const struct strategy_ops strategy_##name;
STRATEGY_FILES(DECLARE)
#undef DECLARE

#define ENTRY(name) &strategy_##name,
const struct strategy_ops *const strategy_registry[] = { STRATEGY_FILES(ENTRY) };
#undef ENTRY

const size_t strategy_registry_len = sizeof(strategy_registry) / sizeof(strategy_registry[0]);

_Static_assert(sizeof(strategy_registry) / sizeof(strategy_registry[0]) == STRATEGY_COUNT,
	       "STRATEGY_COUNT counts the registry");

const struct strategy_ops *strategy_find(const char *name)
{
	for (size_t i = 0; i < strategy_registry_len; i++)
		if (strcmp(strategy_registry[i]->name, name) == 0)
			return strategy_registry[i];
	return NULL;
}

size_t strategy_index(const struct strategy_ops *st)
{
	for (size_t i = 0; i < strategy_registry_len; i++)
		if (strategy_registry[i] == st)
			return i;
	return 0;
}

const void *strategy_config(const struct run_config *cfg, const struct strategy_ops *st)
{
	return cfg->strategy_configs[strategy_index(st)].bytes;
}

bool strategy_runs_on(const struct strategy_ops *st, const struct backend_ops *db)
{
	return plugin_runs_on(st->dialects, st->needs_caps, db);
}
