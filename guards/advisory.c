/*
 * advisory: the check takes a transaction-scoped advisory lock keyed on the run's control
 * table, released by the commit; no row is locked. SQLite has no advisory locks.
 */
#include "plugin/guard.h"

const struct guard_ops guard_advisory = {
	.name = "advisory",
	.order = 40,
	.summary = "refresh: pg_advisory_xact_lock on a key of the run's own, released at the commit",
	.workloads = WORKLOAD_BIT(WORKLOAD_REFRESH),
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL),
	.needs_caps = { [BACKEND_POSTGRESQL] = CAP_ADVISORY_LOCKS, [BACKEND_SQLITE] = CAP_ADVISORY_LOCKS },
	.no_form = { [BACKEND_SQLITE] = "SQLite has no advisory locks" },
	.user = {
		.begin_sql = { [BACKEND_POSTGRESQL] = "BEGIN" },
		.lock_sql = { [BACKEND_POSTGRESQL] = "SELECT pg_advisory_xact_lock(hashtext('{control}'))" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
};
