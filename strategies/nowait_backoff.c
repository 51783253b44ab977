/*
 * nowait-backoff (seed 000, Jonathan Lewis): FOR UPDATE NOWAIT on the first new row;
 * when it is locked (55P03) sleep and try again, giving up after the last try.
 * The seed flips the row to active and commits at once (flip is its default).
 */
#include "claim.h"
#include "strategy.h"
#include "worker.h"

enum { SLOT_SELECT = SLOT_STRATEGY };

static const struct strategy_statement nowait_statements[] = {
	{ SLOT_SELECT, 1, {
		[BACKEND_POSTGRESQL] = "SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' "
				       "ORDER BY id LIMIT 1 FOR UPDATE NOWAIT",
	} },
};

/* Tries up to params.tries times, sleeping params.backoff_ms after each lock conflict. */
static enum claim_result nowait_claim(struct worker *w, int64_t *job_id)
{
	const struct strategy_params *p = &w->shared->cfg->params;

	for (int try = 1;; try++) {
		enum claim_result r = claim_in_transaction(w, SLOT_SELECT, job_id);

		if (r != CLAIM_ERROR || w->shared->db->error_kind(w->conn) != ERR_LOCK_NOT_AVAILABLE)
			return r;
		if (try >= p->tries) {
			w->stats.give_ups++;
			return CLAIM_BUSY;
		}
		w->stats.retries++;
		worker_pause_ms(w, p->backoff_ms);
	}
}

const struct strategy_ops strategy_nowait_backoff = {
	.name = "nowait-backoff",
	.summary = "FOR UPDATE NOWAIT; on a locked row sleep and retry, give up after N tries",
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL),
	.needs_caps = CAP_ROW_LOCKS | CAP_NOWAIT,
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = nowait_statements,
	.n_statements = 1,
	.claim = nowait_claim,
};
