/*
 * naive: no guard at all, check-then-act in autocommit statements, as seed 003 warns
 * against: two workers that both find the cache stale both refresh it, a use may read it
 * half-written, holders overlap. It runs every guarded workload, as the control the
 * figures of the others are read against.
 */
#include "plugin/guard.h"

const struct guard_ops guard_naive = {
	.name = "naive",
	.order = 100,
	.summary = "every guarded workload: no lock, check-then-act in autocommit statements (the race seed 003 warns of)",
	.workloads = WORKLOAD_BIT(WORKLOAD_REFRESH) | WORKLOAD_BIT(WORKLOAD_EXCLUSIVE_USE) |
		     WORKLOAD_BIT(WORKLOAD_RESOURCE),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.user = { .wait = GUARD_WAITS, .mode = ACQ_EXCLUSIVE },
	.writer = { .wait = GUARD_WAITS, .mode = ACQ_EXCLUSIVE },
};
