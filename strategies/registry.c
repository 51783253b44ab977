/* The list of strategies: adding one means one file in strategies/ and one line here. */
#include <string.h>

#include "engine/strategy.h"

extern const struct strategy_ops strategy_advisory;
extern const struct strategy_ops strategy_batch;
extern const struct strategy_ops strategy_cas;
extern const struct strategy_ops strategy_delete_returning;
extern const struct strategy_ops strategy_move_table;
extern const struct strategy_ops strategy_naive;
extern const struct strategy_ops strategy_for_update;
extern const struct strategy_ops strategy_notify;
extern const struct strategy_ops strategy_nowait_backoff;
extern const struct strategy_ops strategy_skip_locked;
extern const struct strategy_ops strategy_skip_locked_cursor;
extern const struct strategy_ops strategy_ticket;
extern const struct strategy_ops strategy_update_returning;

const struct strategy_ops *const strategy_registry[] = {
	&strategy_naive,
	&strategy_for_update,
	&strategy_nowait_backoff,
	&strategy_skip_locked,
	&strategy_skip_locked_cursor,
	&strategy_ticket,
	&strategy_update_returning,
	&strategy_advisory,
	&strategy_cas,
	&strategy_delete_returning,
	&strategy_move_table,
	&strategy_notify,
	&strategy_batch,
};

const size_t strategy_registry_len = sizeof(strategy_registry) / sizeof(strategy_registry[0]);

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
	return (st->backends & BACKEND_BIT(db->kind)) && !(st->needs_caps[db->kind] & ~db->caps);
}
