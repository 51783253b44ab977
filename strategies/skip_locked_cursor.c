/*
 * skip-locked-cursor (seed 001's Oracle procedure, getmynext): the claim opens a cursor
 * over the claimable jobs in id order FOR UPDATE SKIP LOCKED in its transaction, fetches
 * one row and closes the cursor: DECLARE, FETCH NEXT, CLOSE, three statements where
 * skip-locked sends one (LIMIT 1). PostgreSQL locks a cursor's rows as FETCH returns
 * them, so the one fetched row is the only one locked, as in Oracle with SKIP LOCKED.
 * The seed's second statement, a SELECT ... FOR UPDATE of the fetched id, is left out:
 * the row is already locked by this transaction, so it would only add a round trip.
 *
 * DECLARE takes the queue as $1: PostgreSQL refuses DECLARE in SQL's PREPARE, but
 * libpq's PQprepare (the protocol's Parse) takes it with its parameter, so the queue is
 * passed as every other claim passes it, with no SQL built at claim time. The planner
 * plans a cursor for fetching cursor_tuple_fraction (0.1) of its rows, not one row: its
 * plan may differ from LIMIT 1's (docs/strategies.md).
 *
 * hold keeps the row lock through the work, flip commits the status change. No SQLite
 * form, as skip-locked: with one writer at a time there is nothing to skip past.
 */
#include "queue/claim.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum {
	SLOT_DECLARE = SLOT_STRATEGY,	/* ($1 queue) open the claim's cursor over the claimable jobs */
	SLOT_FETCH,			/* the cursor's next row: the job, locked as it is fetched */
	SLOT_CLOSE,			/* close the cursor (its row lock stays with the transaction) */
};

static const struct strategy_statement cursor_statements[] = {
	{ SLOT_DECLARE, 1, {
		[DIALECT_POSTGRESQL] = "DECLARE claim_cursor CURSOR FOR SELECT id FROM {jobs} "
				       "WHERE queue = $1 AND {claimable} ORDER BY id FOR UPDATE SKIP LOCKED",
	} },
	{ SLOT_FETCH, 0, { [DIALECT_POSTGRESQL] = "FETCH NEXT FROM claim_cursor" } },
	{ SLOT_CLOSE, 0, { [DIALECT_POSTGRESQL] = "CLOSE claim_cursor" } },
};

/* In a new transaction, opens the cursor, fetches (and so locks) one job, closes it, then claims the job. */
static enum claim_result cursor_claim(struct worker *w, int64_t *job_id)
{
	const char *declare_params[] = { w->queue };
	int rows;

	if (worker_begin(w) < 0)
		return CLAIM_ERROR;
	rows = worker_exec(w, SLOT_DECLARE, 1, declare_params, NULL, 0);
	if (rows >= 0)
		rows = worker_exec(w, SLOT_FETCH, 0, NULL, job_id, 1);
	if (rows >= 0 && worker_exec(w, SLOT_CLOSE, 0, NULL, NULL, 0) < 0)
		rows = -1;
	return claim_picked(w, rows, job_id);
}

const struct strategy_ops strategy_skip_locked_cursor = {
	.name = "skip-locked-cursor",
	.order = 50,
	.summary = "a cursor FOR UPDATE SKIP LOCKED, one FETCH, as seed 001's Oracle procedure",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL),
	.needs_caps = {
		[DIALECT_POSTGRESQL] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
		[DIALECT_SQLITE] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
	},
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.no_sql_reason = { [DIALECT_MARIADB] = "MariaDB declares cursors only inside stored programs, not as a "
			   "client's statement (skip-locked is the same claim without the cursor)" },
	.default_mode = MODE_HOLD,
	.statements = cursor_statements,
	.n_statements = sizeof(cursor_statements) / sizeof(cursor_statements[0]),
	.claim = cursor_claim,
};
