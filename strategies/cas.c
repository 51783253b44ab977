/*
 * cas: optimistic compare-and-set, the claim of queues that lock nothing while they
 * choose (Hangfire's PostgreSQL storage in its optimistic fetch, pg-boss without SKIP
 * LOCKED). A worker reads the first new job, then flips it to active with an UPDATE
 * whose WHERE repeats the condition it read (`id = $1 AND status = 'new'`); both run in
 * autocommit. Zero rows updated means another worker took the job in between: the race
 * is lost, counted as a retry, and the worker reads again at once. Under contention the
 * workers read the same first job and all but one lose, so claims cost a read and a
 * failed write per loser.
 *
 * On PostgreSQL the loser's UPDATE waits for the winner's row lock and, once the winner
 * commits, re-checks the WHERE against the new row version: never two owners. On SQLite
 * each statement takes the write lock for itself, so the UPDATE's check runs with the row
 * as the last writer left it: the same guarantee. flip only: in hold mode the losers would
 * wait on the winner's row lock for the whole work.
 */
#include "engine/sql_template.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum {
	SLOT_READ = SLOT_STRATEGY,	/* ($1 queue) the first claimable job */
	SLOT_SWAP,			/* ($1 id, $2 worker) take it if still claimable, RETURNING attempts */
};

static const struct strategy_statement cas_statements[] = {
	{ SLOT_READ, 1, SQL_ANY("SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} ORDER BY id LIMIT 1") },
	{ SLOT_SWAP, 2, SQL_ANY("UPDATE {jobs} SET status = 'active', claimed_by = $2, claimed_at = {now}, "
				"lease_until = {lease_until}, attempts = attempts + 1 "
				"WHERE id = $1 AND {claimable} RETURNING attempts") },
};

/* Reads the first job and compares-and-sets it, reading again after each lost race. */
static enum claim_result cas_claim(struct worker *w, int64_t *job_id)
{
	const char *read_params[] = { w->queue };

	for (;;) {
		char id[24];
		const char *swap_params[] = { id, w->identity_text };
		int64_t attempt = 0;
		int rows = worker_exec(w, SLOT_READ, 1, read_params, job_id, 1);

		if (rows <= 0)
			return rows < 0 ? CLAIM_ERROR : CLAIM_EMPTY;
		worker_id_text(id, *job_id);
		rows = worker_exec(w, SLOT_SWAP, 2, swap_params, &attempt, 1);
		if (rows < 0)
			return CLAIM_ERROR;
		if (rows == 1) {
			worker_note_attempt(w, attempt);
			return CLAIM_OK;
		}
		w->stats.retries++;
		if (run_stopping(&w->shared->gate))
			return CLAIM_BUSY;
	}
}

const struct strategy_ops strategy_cas = {
	.name = "cas",
	.order = 90,
	.summary = "read the first new job, UPDATE ... WHERE id = $1 AND status = 'new'; 0 rows: lost, retry",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.modes = MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = cas_statements,
	.n_statements = sizeof(cas_statements) / sizeof(cas_statements[0]),
	.claim = cas_claim,
};
