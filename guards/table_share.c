/*
 * table-share: seed 003's step 2 with readers that overlap: users take the cache table IN
 * SHARE MODE, which other SHARE holders do not conflict with; the refresher's EXCLUSIVE
 * MODE waits for all of them, and they for it. SQLite has no shared lock that keeps its
 * writer out. MariaDB: users LOCK TABLES ... READ, which others' READ locks share; the
 * refresher LOCK TABLES ... WRITE (with the status table it marks), which waits for them,
 * and a WRITE request waiting goes before READ requests made after it; UNLOCK TABLES
 * releases either (table_exclusive.c says why not COMMIT).
 */
#include "plugin/guard.h"

const struct guard_ops guard_table_share = {
	.name = "table-share",
	.order = 60,
	.summary = "exclusive-use: users LOCK TABLE cache IN SHARE MODE and overlap; the refresher's EXCLUSIVE waits",
	.workloads = WORKLOAD_BIT(WORKLOAD_EXCLUSIVE_USE),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_MARIADB),
	.no_form = { [DIALECT_SQLITE] = "SQLite has no shared lock that keeps its writer out: in WAL mode "
					"readers never block the writer" },
	.user = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN", [DIALECT_MARIADB] = "LOCK TABLES {cache} READ" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "LOCK TABLE {cache} IN SHARE MODE" },
		.release_sql = { [DIALECT_MARIADB] = "UNLOCK TABLES" },
		.wait = GUARD_WAITS,
		.mode = ACQ_SHARED,
	},
	.writer = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN",
			       [DIALECT_MARIADB] = "LOCK TABLES {cache} WRITE, {control} WRITE" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "LOCK TABLE {cache} IN EXCLUSIVE MODE" },
		.release_sql = { [DIALECT_MARIADB] = "UNLOCK TABLES" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
};
