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
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL) | BACKEND_BIT(BACKEND_MARIADB),
	.needs_caps = { [BACKEND_POSTGRESQL] = CAP_ADVISORY_LOCKS, [BACKEND_SQLITE] = CAP_ADVISORY_LOCKS,
			[BACKEND_MARIADB] = CAP_ADVISORY_LOCKS },
	.no_form = { [BACKEND_SQLITE] = "SQLite has no advisory locks" },
	.user = {
		.begin_sql = { [BACKEND_POSTGRESQL] = "BEGIN", [BACKEND_MARIADB] = "BEGIN" },
		.lock_sql = { [BACKEND_POSTGRESQL] = "SELECT pg_advisory_xact_lock(hashtext('{control}'))",
			      [BACKEND_MARIADB] = "SELECT GET_LOCK('{control}', " GUARD_MARIADB_GET_LOCK_WAIT_S ")" },
		.release_sql = { [BACKEND_MARIADB] = "COMMIT; DO RELEASE_LOCK('{control}')" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
};
