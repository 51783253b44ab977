/*
 * row-lock (seed 003, step 1): the check of the cache locks the status row FOR UPDATE in
 * its transaction; a second comer waits for the refresher's commit, then reads the fresh
 * status and skips. SQLite has no row locks: BEGIN IMMEDIATE takes the database's write
 * lock for the same purpose, and the second comer waits in the busy handler. MariaDB: the
 * same FOR UPDATE, InnoDB's record lock on the primary key; a locking read takes no read
 * view, so the status read after the grant sees the refresher's commit at REPEATABLE READ too.
 */
#include "plugin/guard.h"

const struct guard_ops guard_row_lock = {
	.name = "row-lock",
	.order = 10,
	.summary = "refresh: the status row locked FOR UPDATE; a second comer waits, then skips (seed 003)",
	.workloads = WORKLOAD_BIT(WORKLOAD_REFRESH),
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL) | BACKEND_BIT(BACKEND_SQLITE) | BACKEND_BIT(BACKEND_MARIADB),
	.needs_caps = { [BACKEND_POSTGRESQL] = CAP_ROW_LOCKS, [BACKEND_MARIADB] = CAP_ROW_LOCKS },
	.user = {
		.begin_sql = { [BACKEND_POSTGRESQL] = "BEGIN", [BACKEND_SQLITE] = "BEGIN IMMEDIATE",
			       [BACKEND_MARIADB] = "BEGIN" },
		.lock_sql = { [BACKEND_POSTGRESQL] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE",
			      [BACKEND_MARIADB] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
};
