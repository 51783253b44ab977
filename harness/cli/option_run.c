/* `run`'s rows applied to a run group's config, and the parameters a stored run keeps (option_run.h). */
#include <stdio.h>

#include "cli/option_run.h"
#include "plugin/sql_strategy.h"
#include "plugin/strategy.h"
#include "model/run_param.h"

int run_config_defaults(struct run_config *cfg, const struct option_def *table, char *err, size_t errlen)
{
	for (const struct option_def *o = table; o->name; o++)
		if (o->place == OPTION_IN_RUN && option_apply_default(o, cfg, err, errlen) < 0)
			return -1;
	for (size_t i = 0; i < strategy_registry_len; i++)
		for (const struct option_def *o = strategy_registry[i]->options; o && o->name; o++)
			if (option_apply_default(o, cfg->strategy_configs[i].bytes, err, errlen) < 0)
				return -1;
	return 0;
}

int run_config_apply(struct run_config *cfg, const struct option_def *o, const char *value, char *err,
		     size_t errlen)
{
	if (o->place != OPTION_IN_STRATEGY)
		return option_apply(o, value, cfg, err, errlen);
	for (size_t i = 0; i < strategy_registry_len; i++) {
		const struct option_def *own = option_find(strategy_registry[i]->options, o->name);

		if (own && option_apply(own, value, cfg->strategy_configs[i].bytes, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/*
 * Adds, for a strategy defined in SQL (def; NULL: none), its statements as the scenario
 * wrote them ("claim-sql" ...), so that a stored run says which SQL ran. 0, or -1 when
 * out of memory.
 */
static int add_defined_sql(struct run_result *r, const struct sql_strategy *def)
{
	char name[32];

	for (int role = 0; def && role < SQL_ROLE_COUNT; role++) {
		if (!def->roles[role].given)
			continue;
		snprintf(name, sizeof(name), "%s-sql", sql_role_key(role));
		if (run_param_add(r, name, def->roles[role].written) < 0)
			return -1;
	}
	return 0;
}

int run_params_fill(struct run_result *r, const struct option_def *table, const struct run_config *cfg,
		    const struct strategy_ops *st)
{
	char value[1024];

	for (const struct option_def *o = table; o->name; o++) {
		if (o->place != OPTION_IN_RUN || (o->flags & OPTION_NOT_STORED))
			continue;
		option_format(o, cfg, value, sizeof(value));
		if (run_param_add(r, o->name, value) < 0)
			return -1;
	}
	if (!st)
		return 0;
	for (const struct option_def *o = st->options; o && o->name; o++) {
		if (o->flags & OPTION_NOT_STORED)
			continue;
		option_format(o, strategy_config(cfg, st), value, sizeof(value));
		if (run_param_add(r, o->name, value) < 0)
			return -1;
	}
	return add_defined_sql(r, sql_strategy_of(st));
}
