/*
 * update-returning: the claim is one statement, an UPDATE of the first new row that
 * returns its id. It is the native claim of SQLite, where the transaction begins
 * IMMEDIATE: the database write lock is taken first, so the subquery and the update
 * see the same state and two workers can never pick the same row.
 *
 * On PostgreSQL it runs in a plain transaction with no explicit row lock. Two workers
 * may pick the same row in the subquery; the second one's update then waits for the
 * first's row lock and, once the first commits, re-checks the outer `status = 'new'`
 * against the new row version, which no longer qualifies: the loser comes back empty
 * (and tries again) instead of taking the job a second time.
 *
 * MariaDB 10.11 has no UPDATE ... RETURNING: the one statement cannot hand back the row
 * its subquery chose, so it is refused there (cas is the nearest claim that runs on it).
 */
#include "engine/sql_template.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum { SLOT_CLAIM = SLOT_STRATEGY };

static const struct strategy_statement update_returning_statements[] = {
	{ SLOT_CLAIM, 2, SQL_ANY("UPDATE {jobs} SET status = 'active', claimed_by = $2, "
				"claimed_at = {now}, lease_until = {lease_until}, attempts = attempts + 1 "
				"WHERE id = (SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				"ORDER BY id LIMIT 1) AND {claimable} RETURNING id, attempts") },
};

/* Claims in one statement; commits in flip mode, keeps the transaction open in hold mode. */
static enum claim_result update_returning_claim(struct worker *w, int64_t *job_id)
{
	const char *params[] = { w->queue, w->identity_text };
	int64_t claimed[2];	/* the job and its attempt number */
	int rows;

	if (worker_begin(w) < 0)
		return CLAIM_ERROR;
	if (w->shared->mode == MODE_FLIP) {
		rows = worker_exec_commit(w, SLOT_CLAIM, 2, params, claimed, 2);
	} else if ((rows = worker_exec(w, SLOT_CLAIM, 2, params, claimed, 2)) == 0) {
		rows = worker_commit(w) < 0 ? -1 : 0;
	} else if (rows < 0) {
		worker_rollback(w);
	}
	if (rows <= 0)
		return rows < 0 ? CLAIM_ERROR : CLAIM_EMPTY;
	*job_id = claimed[0];
	worker_note_attempt(w, claimed[1]);
	return CLAIM_OK;
}

const struct strategy_ops strategy_update_returning = {
	.name = "update-returning",
	.order = 70,
	.summary = "one UPDATE ... WHERE id = (first new) AND status = 'new' RETURNING id",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE),
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.no_sql_reason = { [DIALECT_MARIADB] = "MariaDB 10.11 has no UPDATE ... RETURNING: the one statement cannot "
			   "hand back the row its subquery chose (cas is the nearest claim there)" },
	.default_mode = MODE_FLIP,
	.statements = update_returning_statements,
	.n_statements = 1,
	.begin_sql = { [DIALECT_SQLITE] = "BEGIN IMMEDIATE" },
	.claim = update_returning_claim,
};
