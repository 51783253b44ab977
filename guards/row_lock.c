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
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = { [DIALECT_POSTGRESQL] = CAP_ROW_LOCKS, [DIALECT_MARIADB] = CAP_ROW_LOCKS },
	.user = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN", [DIALECT_SQLITE] = "BEGIN IMMEDIATE",
			       [DIALECT_MARIADB] = "BEGIN" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE",
			      [DIALECT_MARIADB] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
};
