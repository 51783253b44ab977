/*
 * nowait-retry: the check locks the status row FOR UPDATE NOWAIT; a held lock fails at
 * once (55P03), the worker rolls back, pauses --retry-ms and tries again, each try a
 * poll. SQLite: BEGIN IMMEDIATE with no busy wait, SQLITE_BUSY being the refusal. MariaDB:
 * the same NOWAIT, refused with error 1205 (a lock wait timeout of no wait at all).
 */
#include "plugin/guard.h"

const struct guard_ops guard_nowait_retry = {
	.name = "nowait-retry",
	.order = 30,
	.summary = "refresh: the status row locked FOR UPDATE NOWAIT, retried after --retry-ms while held",
	.workloads = WORKLOAD_BIT(WORKLOAD_REFRESH),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = { [DIALECT_POSTGRESQL] = CAP_ROW_LOCKS | CAP_NOWAIT,
			[DIALECT_MARIADB] = CAP_ROW_LOCKS | CAP_NOWAIT },
	.user = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN", [DIALECT_SQLITE] = "BEGIN IMMEDIATE",
			       [DIALECT_MARIADB] = "BEGIN" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE NOWAIT",
			      [DIALECT_MARIADB] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE NOWAIT" },
		.wait = GUARD_RETRIES,
		.mode = ACQ_EXCLUSIVE,
	},
};
