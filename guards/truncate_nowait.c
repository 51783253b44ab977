/*
 * truncate-nowait (seed 003's TRUNCATE): users hold the cache table IN EXCLUSIVE MODE; the
 * refresher empties it with TRUNCATE, whose ACCESS EXCLUSIVE lock it asks for NOWAIT, as
 * Oracle's TRUNCATE does: meeting a user's lock it fails at once (ORA-00054 there, 55P03
 * here), is counted as a refusal and tries again after --retry-ms. SQLite: BEGIN IMMEDIATE
 * with no busy wait, and DELETE without WHERE, its truncate. MariaDB: users LOCK TABLES
 * ... WRITE (table_exclusive.c); the refresher asks its LOCK TABLES NOWAIT, refused with
 * error 1205 while a user holds the table, and empties the cache with DELETE under it:
 * TRUNCATE TABLE would make the table anew, with an InnoDB table id other than the one its
 * owner note names, which cleanup would then leave alone as a copy.
 */
#include "plugin/guard.h"

const struct guard_ops guard_truncate_nowait = {
	.name = "truncate-nowait",
	.order = 70,
	.summary = "exclusive-use: the refresher's TRUNCATE asks its lock NOWAIT and fails at once while a user holds",
	.workloads = WORKLOAD_BIT(WORKLOAD_EXCLUSIVE_USE),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = { [DIALECT_POSTGRESQL] = CAP_NOWAIT, [DIALECT_MARIADB] = CAP_NOWAIT },
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
			       [DIALECT_MARIADB] = "LOCK TABLES {cache} WRITE, {control} WRITE NOWAIT" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "LOCK TABLE {cache} IN ACCESS EXCLUSIVE MODE NOWAIT" },
		.release_sql = { [DIALECT_MARIADB] = "UNLOCK TABLES" },
		.wait = GUARD_REFUSES,
		.mode = ACQ_EXCLUSIVE,
	},
	.truncates = true,
};
