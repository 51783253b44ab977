/*
 * row-lock-wait (seed 003's FOR UPDATE WAIT n): row-lock with a wait limit. PostgreSQL has
 * no WAIT n clause; lock_timeout set to --wait-limit-ms on the worker's connection comes
 * nearest, failing with 55P03, though it bounds each lock wait rather than the statement
 * (a FOR UPDATE may wait for the tuple lock, then for its holder's transaction). SQLite:
 * the busy timeout while taking the lock. MariaDB has the clause itself, FOR UPDATE WAIT n,
 * which bounds the statement's lock waits in whole seconds (error 1205): a fraction is cut,
 * WAIT 0.5 being NOWAIT, so a --wait-limit-ms that is no multiple of 1000 is refused there.
 * A timeout is counted and the worker uses the cache unchecked.
 */
#include "plugin/guard.h"

const struct guard_ops guard_row_lock_wait = {
	.name = "row-lock-wait",
	.order = 20,
	.summary = "refresh: row-lock with a wait limit (Oracle's FOR UPDATE WAIT n; lock_timeout on PostgreSQL); "
		   "timeouts counted",
	.workloads = WORKLOAD_BIT(WORKLOAD_REFRESH),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = { [DIALECT_POSTGRESQL] = CAP_ROW_LOCKS, [DIALECT_MARIADB] = CAP_ROW_LOCKS },
	.wait_limit_unit = { [DIALECT_MARIADB] = { 1000, "InnoDB's FOR UPDATE WAIT n counts whole seconds (a fraction "
							"is cut: WAIT 0.5 is NOWAIT)" } },
	.user = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN", [DIALECT_SQLITE] = "BEGIN IMMEDIATE",
			       [DIALECT_MARIADB] = "BEGIN" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "SELECT slot FROM {control} WHERE slot = 0 FOR UPDATE",
			      [DIALECT_MARIADB] = "SELECT slot FROM {control} WHERE slot = 0 "
						  "FOR UPDATE WAIT {wait_limit_s}" },
		.wait = GUARD_WAIT_LIMIT,
		.mode = ACQ_EXCLUSIVE,
	},
};
