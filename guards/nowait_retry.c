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
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL) | BACKEND_BIT(BACKEND_SQLITE) | BACKEND_BIT(BACKEND_MARIADB),
	.needs_caps = { [BACKEND_POSTGRESQL] = CAP_ROW_LOCKS | CAP_NOWAIT,
			[BACKEND_MARIADB] = CAP_ROW_LOCKS | CAP_NOWAIT },
	.user = {
		.begin_sql = { [BACKEND_POSTGRESQL] = "BEGIN", [BACKEND_SQLITE] = "BEGIN IMMEDIATE",
			       [BACKEND_MARIADB] = "BEGIN" },
		.lock_sql = { [BACKEND_POSTGRESQL] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE NOWAIT",
			      [BACKEND_MARIADB] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE NOWAIT" },
		.wait = GUARD_RETRIES,
		.mode = ACQ_EXCLUSIVE,
	},
};
