/*
 * ticket-line (seed 004): a request inserts its ticket (resource, read or write, when)
 * into the control table, whose identity orders the line, and polls every --line-poll-ms how
 * many tickets of its resource are ahead of it: a write goes when first, a read when no
 * write is ahead and fewer than --limit are; the release deletes the ticket. With
 * --ticket-expiry-ms each poll first deletes tickets older than that (a crashed holder's,
 * and a slow live one's). No lock is held while waiting.
 *
 * On PostgreSQL the insert takes the control table IN SHARE ROW EXCLUSIVE MODE first, which
 * conflicts with itself: tickets then commit in the order of their numbers. Without it (the
 * seed as written: ticket-line-racy) a ticket numbered earlier may commit after a later one
 * has polled and gone ahead. SQLite's inserts are serialised by its write lock already.
 * MariaDB: the insert takes a user lock first (GET_LOCK on the control table's name),
 * released once it committed, as the queue strategy ticket does: ticket order is commit
 * order there too.
 */
#include "plugin/guard.h"

const struct guard_ops guard_ticket_line = {
	.name = "ticket-line",
	.order = 80,
	.summary = "resource: a ticket in a control table, polled until first (writes) or in the top X (reads) (seed 004)",
	.workloads = WORKLOAD_BIT(WORKLOAD_RESOURCE),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.user = {
		.begin_sql = { [DIALECT_POSTGRESQL] = "BEGIN", [DIALECT_MARIADB] = "BEGIN" },
		.lock_sql = { [DIALECT_POSTGRESQL] = "LOCK TABLE {control} IN SHARE ROW EXCLUSIVE MODE",
			      [DIALECT_MARIADB] = "SELECT GET_LOCK('{control}', " GUARD_MARIADB_GET_LOCK_WAIT_S ")" },
		.release_sql = { [DIALECT_MARIADB] = "COMMIT; DO RELEASE_LOCK('{control}')" },
		.wait = GUARD_WAITS,
		.mode = ACQ_EXCLUSIVE,
	},
	.ticket_line = true,
};
