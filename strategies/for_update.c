/*
 * for-update (seed 001 "NOSKIP", seed 003): a plain FOR UPDATE on the first new row.
 * Every other worker blocks behind the locked row; when it is released its row no
 * longer qualifies and the waiters come back empty and try again, so claims serialise.
 *
 * SQLite has no row locks: the nearest blocking lock is the database's write lock,
 * taken by BEGIN IMMEDIATE, which the others wait for up to the busy timeout. The
 * select then needs no FOR UPDATE, and in hold mode the whole database is held
 * through the work.
 */
#include "queue/claim.h"
#include "plugin/strategy.h"

enum { SLOT_SELECT = SLOT_STRATEGY };

static const struct strategy_statement for_update_statements[] = {
	{ SLOT_SELECT, 1, {
		[DIALECT_POSTGRESQL] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				       "ORDER BY id LIMIT 1 FOR UPDATE",
		[DIALECT_SQLITE] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				   "ORDER BY id LIMIT 1",
		[DIALECT_MARIADB] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				    "ORDER BY id LIMIT 1 FOR UPDATE",
	} },
};

static enum claim_result for_update_claim(struct worker *w, int64_t *job_id)
{
	return claim_in_transaction(w, SLOT_SELECT, job_id);
}

const struct strategy_ops strategy_for_update = {
	.name = "for-update",
	.order = 20,
	.summary = "blocking FOR UPDATE on the first new row (SQLite: BEGIN IMMEDIATE): waiters queue",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = { [DIALECT_POSTGRESQL] = CAP_ROW_LOCKS, [DIALECT_MARIADB] = CAP_ROW_LOCKS },
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_HOLD,
	.statements = for_update_statements,
	.n_statements = 1,
	.begin_sql = { [DIALECT_SQLITE] = "BEGIN IMMEDIATE" },
	.claim = for_update_claim,
};
