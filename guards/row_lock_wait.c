/*
 * row-lock-wait (seed 003's FOR UPDATE WAIT n): row-lock with a wait limit. PostgreSQL has
 * no WAIT n clause; lock_timeout set to --wait-limit-ms on the worker's connection comes
 * nearest, failing with 55P03, though it bounds each lock wait rather than the statement
 * (a FOR UPDATE may wait for the tuple lock, then for its holder's transaction). SQLite:
 * the busy timeout while taking the lock. A timeout is counted and the worker uses the
 * cache unchecked.
 */
#include "plugin/guard.h"

const struct guard_ops guard_row_lock_wait = {
	.name = "row-lock-wait",
	.order = 20,
	.summary = "refresh: row-lock with a wait limit (lock_timeout for Oracle's FOR UPDATE WAIT n); timeouts counted",
	.workloads = WORKLOAD_BIT(WORKLOAD_REFRESH),
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL) | BACKEND_BIT(BACKEND_SQLITE),
	.needs_caps = { [BACKEND_POSTGRESQL] = CAP_ROW_LOCKS },
	.user = {
		.begin_sql = { [BACKEND_POSTGRESQL] = "BEGIN", [BACKEND_SQLITE] = "BEGIN IMMEDIATE" },
		.lock_sql = { [BACKEND_POSTGRESQL] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE" },
		.wait = GUARD_WAIT_LIMIT,
		.mode = ACQ_EXCLUSIVE,
	},
};
