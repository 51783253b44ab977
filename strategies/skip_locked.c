/*
 * skip-locked (seeds 001 "SKIP" and 002): FOR UPDATE SKIP LOCKED LIMIT 1, so a
 * worker passes over rows other workers hold and takes the next free one.
 * hold keeps the lock through the work (seed 001); flip commits the status change (seed 002).
 * It has no SQLite form: with one writer at a time there is nothing to skip past, and
 * running something else under its name would be a lie, so it is refused there.
 */
#include "queue/claim.h"
#include "plugin/strategy.h"

enum { SLOT_SELECT = SLOT_STRATEGY };

static const struct strategy_statement skip_locked_statements[] = {
	{ SLOT_SELECT, 1, {
		[DIALECT_POSTGRESQL] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				       "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
		[DIALECT_MARIADB] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				    "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
	} },
};

static enum claim_result skip_locked_claim(struct worker *w, int64_t *job_id)
{
	return claim_in_transaction(w, SLOT_SELECT, job_id);
}

const struct strategy_ops strategy_skip_locked = {
	.name = "skip-locked",
	.order = 40,
	.summary = "FOR UPDATE SKIP LOCKED LIMIT 1: lockers pass over each other's rows",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = {
		[DIALECT_POSTGRESQL] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
		[DIALECT_MARIADB] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
		[DIALECT_SQLITE] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
	},
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_HOLD,
	.statements = skip_locked_statements,
	.n_statements = 1,
	.claim = skip_locked_claim,
};
