/* The list of guards: adding one means one file in guards/ and one line here. */
#include <stdio.h>
#include <string.h>

#include "engine/guard.h"

extern const struct guard_ops guard_advisory;
extern const struct guard_ops guard_naive;
extern const struct guard_ops guard_nowait_retry;
extern const struct guard_ops guard_row_lock;
extern const struct guard_ops guard_row_lock_wait;
extern const struct guard_ops guard_table_exclusive;
extern const struct guard_ops guard_table_share;
extern const struct guard_ops guard_ticket_line;
extern const struct guard_ops guard_ticket_line_racy;
extern const struct guard_ops guard_truncate_nowait;

const struct guard_ops *const guard_registry[] = {
	&guard_row_lock,
	&guard_row_lock_wait,
	&guard_nowait_retry,
	&guard_advisory,
	&guard_table_exclusive,
	&guard_table_share,
	&guard_truncate_nowait,
	&guard_ticket_line,
	&guard_ticket_line_racy,
	&guard_naive,
};

const size_t guard_registry_len = sizeof(guard_registry) / sizeof(guard_registry[0]);

const struct guard_ops *guard_find(const char *name)
{
	for (size_t i = 0; i < guard_registry_len; i++)
		if (strcmp(guard_registry[i]->name, name) == 0)
			return guard_registry[i];
	return NULL;
}

bool guard_runs_on(const struct guard_ops *g, const struct backend_ops *db)
{
	return (g->backends & BACKEND_BIT(db->kind)) && !(g->needs_caps[db->kind] & ~db->caps);
}

void guard_refusal(const struct guard_ops *g, const struct backend_ops *db, char *buf, size_t len)
{
	if (g->no_form[db->kind])
		snprintf(buf, len, "%s", g->no_form[db->kind]);
	else
		snprintf(buf, len, "it relies on what %s cannot do: %s", db->name, db->locking);
}
