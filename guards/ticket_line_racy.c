/*
 * ticket-line-racy: seed 004's line exactly as written: the ticket is an autocommit
 * INSERT whose identity orders the line. On PostgreSQL two inserts may commit in the
 * other order than their numbers: the later ticket polls, sees nothing ahead and goes,
 * then the earlier one commits and goes too. The figures count those overlaps
 * (violations) and the out-of-order grants (FIFO inversions); so may InnoDB's, whose
 * AUTO_INCREMENT is drawn at the insert. SQLite serialises its inserts.
 */
#include "plugin/guard.h"

const struct guard_ops guard_ticket_line_racy = {
	.name = "ticket-line-racy",
	.order = 90,
	.summary = "resource: seed 004's line as written, tickets by autocommit INSERT (commit order may differ)",
	.workloads = WORKLOAD_BIT(WORKLOAD_RESOURCE),
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.user = { .wait = GUARD_WAITS, .mode = ACQ_EXCLUSIVE },
	.ticket_line = true,
};
