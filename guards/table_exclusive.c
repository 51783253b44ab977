/*
 * table-exclusive (seed 003, step 2): a user takes the cache table IN EXCLUSIVE MODE for
 * its use (plain SELECTs of others still run); the refresher takes the same lock and so
 * waits for the user. SQLite: BEGIN IMMEDIATE, the database's write lock, for both.
 * MariaDB: LOCK TABLES ... WRITE (others' reads wait too: it has no EXCLUSIVE MODE that
 * lets them through), the refresher's with the status table it marks, since a session
 * under LOCK TABLES may touch no other table. LOCK TABLES commits whatever transaction is
 * open and is the session's, not a transaction's: it is the lock's begin, its statements
 * autocommit, and UNLOCK TABLES releases it (COMMIT would not).
 */
#include "plugin/guard.h"

const struct guard_ops guard_table_exclusive = {
	.name = "table-exclusive",
	.order = 50,
	.summary = "exclusive-use: users LOCK TABLE cache IN EXCLUSIVE MODE; the refresher waits for them (seed 003)",
	.workloads = WORKLOAD_BIT(WORKLOAD_EXCLUSIVE_USE),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.user = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN", [DIALECT_SQLITE] = "BEGIN IMMEDIATE",
			       [DIALECT_MARIADB] = "LOCK TABLES {cache} WRITE" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "LOCK TABLE {cache} IN EXCLUSIVE MODE" },
		.release_sql = { [DIALECT_MARIADB] = "UNLOCK TABLES" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
	.writer = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN", [DIALECT_SQLITE] = "BEGIN IMMEDIATE",
			       [DIALECT_MARIADB] = "LOCK TABLES {cache} WRITE, {control} WRITE" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "LOCK TABLE {cache} IN EXCLUSIVE MODE" },
		.release_sql = { [DIALECT_MARIADB] = "UNLOCK TABLES" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
};
