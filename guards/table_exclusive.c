/*
 * table-exclusive (seed 003, step 2): a user takes the cache table IN EXCLUSIVE MODE for
 * its use (plain SELECTs of others still run); the refresher takes the same lock and so
 * waits for the user. SQLite: BEGIN IMMEDIATE, the database's write lock, for both.
 */
#include "plugin/guard.h"

const struct guard_ops guard_table_exclusive = {
	.name = "table-exclusive",
	.order = 50,
	.summary = "exclusive-use: users LOCK TABLE cache IN EXCLUSIVE MODE; the refresher waits for them (seed 003)",
	.workloads = WORKLOAD_BIT(WORKLOAD_EXCLUSIVE_USE),
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL) | BACKEND_BIT(BACKEND_SQLITE),
	.user = {
		.begin_sql = { [BACKEND_POSTGRESQL] = "BEGIN", [BACKEND_SQLITE] = "BEGIN IMMEDIATE" },
		.lock_sql = { [BACKEND_POSTGRESQL] = "LOCK TABLE {cache} IN EXCLUSIVE MODE" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
	.writer = {
		.begin_sql = { [BACKEND_POSTGRESQL] = "BEGIN", [BACKEND_SQLITE] = "BEGIN IMMEDIATE" },
		.lock_sql = { [BACKEND_POSTGRESQL] = "LOCK TABLE {cache} IN EXCLUSIVE MODE" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
};
