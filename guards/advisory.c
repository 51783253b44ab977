/*
 * advisory: the check takes a transaction-scoped advisory lock keyed on the run's control
 * table, released by the commit; no row is locked. SQLite has no advisory locks. MariaDB's
 * are the session's, not the transaction's: GET_LOCK on the control table's name (waiting
 * a year, for a negative timeout is refused), released by RELEASE_LOCK after the commit.
 */
#include "plugin/guard.h"

const struct guard_ops guard_advisory = {
	.name = "advisory",
	.order = 40,
	.summary = "refresh: an advisory lock on a key of the run's own (pg_advisory_xact_lock, GET_LOCK), released "
		   "at the commit",
	.workloads = WORKLOAD_BIT(WORKLOAD_REFRESH),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = { [DIALECT_POSTGRESQL] = CAP_ADVISORY_LOCKS, [DIALECT_SQLITE] = CAP_ADVISORY_LOCKS,
			[DIALECT_MARIADB] = CAP_ADVISORY_LOCKS },
	.no_form = { [DIALECT_SQLITE] = "SQLite has no advisory locks" },
	.user = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN", [DIALECT_MARIADB] = "BEGIN" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "SELECT pg_advisory_xact_lock(hashtext('{control}'))",
			      [DIALECT_MARIADB] = "SELECT GET_LOCK('{control}', " GUARD_MARIADB_GET_LOCK_WAIT_S ")" },
		.release_sql = { [DIALECT_MARIADB] = "COMMIT; DO RELEASE_LOCK('{control}')" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
};
