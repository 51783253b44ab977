/*
 * naive (the bug seed 002 fixed): select the first new row, then flip it to active,
 * with no lock and no status check in between. Workers that select at the same
 * moment take the same job: this strategy exists to show the duplicates.
 *
 * The two statements run in autocommit on every backend, as the applications this
 * stands for run them: on SQLite too, where each takes the write lock for itself alone,
 * so two workers that select before either updates take the same job there as well.
 */
#include "engine/sql_template.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum { SLOT_SELECT = SLOT_STRATEGY, SLOT_DONE };

static const struct strategy_statement naive_statements[] = {
	{ SLOT_SELECT, 1, SQL_ANY("SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				"ORDER BY id LIMIT 1") },
	{ SLOT_DONE, 1, SQL_ANY("UPDATE {jobs} SET status = 'done', done_at = {now} "
				"WHERE id = $1 RETURNING id") },
};

/* Two statements with nothing between them: the race between them is the point. */
static enum claim_result naive_claim(struct worker *w, int64_t *job_id)
{
	const char *select_params[] = { w->queue };
	int rows;

	rows = worker_exec(w, SLOT_SELECT, 1, select_params, job_id, 1);
	if (rows <= 0)
		return rows < 0 ? CLAIM_ERROR : CLAIM_EMPTY;
	return worker_mark_active(w, *job_id, false) < 0 ? CLAIM_ERROR : CLAIM_OK;
}

/*
 * Marks the job done whoever else claimed it and whatever its state, whatever --fence
 * says: that is the bug. A failure is marked as any strategy's.
 */
static int naive_finish(struct worker *w, int64_t job_id, int slot)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id) };

	if (slot != SLOT_COMPLETE)
		return worker_finish(w, job_id, slot);
	return worker_exec(w, SLOT_DONE, 1, params, NULL, 0) == 1 ? 0 : -1;
}

const struct strategy_ops strategy_naive = {
	.name = "naive",
	.order = 10,
	.summary = "SELECT the first new row, then UPDATE it, no lock: duplicates under contention",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.modes = MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = naive_statements,
	.n_statements = 2,
	.claim = naive_claim,
	.finish = naive_finish,
};
