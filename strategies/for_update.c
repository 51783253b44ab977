/*
 * for-update (seed 001 "NOSKIP", seed 003): a plain FOR UPDATE on the first new row.
 * Every other worker blocks behind the locked row; when it is released its row no
 * longer qualifies and the waiters come back empty and try again, so claims serialise.
 */
#include "claim.h"
#include "strategy.h"

enum { SLOT_SELECT = SLOT_STRATEGY };

static const struct strategy_statement for_update_statements[] = {
	{ SLOT_SELECT, 1, {
		[BACKEND_POSTGRESQL] = "SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' "
				       "ORDER BY id LIMIT 1 FOR UPDATE",
	} },
};

static enum claim_result for_update_claim(struct worker *w, int64_t *job_id)
{
	return claim_in_transaction(w, SLOT_SELECT, job_id);
}

const struct strategy_ops strategy_for_update = {
	.name = "for-update",
	.summary = "blocking FOR UPDATE on the first new row: waiters queue behind the lock",
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL),
	.needs_caps = CAP_ROW_LOCKS,
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_HOLD,
	.statements = for_update_statements,
	.n_statements = 1,
	.claim = for_update_claim,
};
