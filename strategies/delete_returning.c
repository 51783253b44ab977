/*
 * delete-returning (pgmq's pop): the claim deletes the job's row, the first new one that
 * no other worker has locked (DELETE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED
 * LIMIT 1) RETURNING), in autocommit. The job is out of the queue once the claim commits:
 * completion is implicit and writes nothing. A worker that crashes, is stopped, or loses
 * its connection while it holds a job LOSES THE JOB: nothing is left to give back or to
 * redeliver. A job that fails is gone as well (a pop has no failure path). The strategy
 * is at-most-once by construction; it is here to put a price on that.
 *
 * The audit: with the row gone, the table alone could not tell a job consumed from a job
 * that never existed. So the pop's statement also writes the id and the popping worker
 * into an archive table ({tickets}, pgmq's archive() does the same in its own statement),
 * one insert per claim that a bare pop does not pay: the figures carry that cost. At the
 * end an archived job's status is "consumed": done when the ledger shows an execution of
 * it that committed, lost when none did (a crash, a stop, a lost answer); a consumed job
 * the ledger never saw in hand is a ledger mismatch. docs/metrics.md, "Lost jobs".
 *
 * flip only (the pop commits at once). Not on SQLite: it needs SKIP LOCKED, as
 * skip-locked does. On MariaDB, whose DELETE ... RETURNING cannot take its row from a
 * SKIP LOCKED subquery of its own table, the pop is one transaction of four statements:
 * the first free new row FOR UPDATE SKIP LOCKED into session variables, its DELETE, and
 * the archive's INSERT ... RETURNING (MariaDB's own), then the COMMIT. --lease-ms, --reaper-ms, --fence, --rerun-stuck and --rerun-errors
 * change nothing: there is no row left for them to act on.
 */
#include "plugin/strategy.h"
#include "queue/worker.h"

enum { SLOT_POP = SLOT_STRATEGY };	/* ($1 queue, $2 worker) pop and archive a job, RETURNING id, attempt */

static const struct strategy_statement delete_returning_statements[] = {
	{ SLOT_POP, 2, { [DIALECT_POSTGRESQL] =
		"WITH popped AS (DELETE FROM {jobs} WHERE id = (SELECT id FROM {jobs} WHERE queue = $1 "
		"AND status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, attempts) "
		"INSERT INTO {tickets} (id, consumed_by, attempt) SELECT id, $2::integer, attempts + 1 FROM popped "
		"RETURNING id, attempt",
	  [DIALECT_MARIADB] =
		"START TRANSACTION; SET @claimbench_pop_id = NULL, @claimbench_pop_attempts = NULL; "
		"SELECT id, attempts INTO @claimbench_pop_id, @claimbench_pop_attempts FROM {jobs} WHERE queue = $1 "
		"AND status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED; "
		"DELETE FROM {jobs} WHERE id = @claimbench_pop_id; "
		"INSERT INTO {tickets} (id, consumed_by, attempt) SELECT @claimbench_pop_id, $2, "
		"@claimbench_pop_attempts + 1 FROM DUAL WHERE @claimbench_pop_id IS NOT NULL RETURNING id, attempt; "
		"COMMIT" } },
};

/* Pops the first free new job. */
static enum claim_result delete_returning_claim(struct worker *w, int64_t *job_id)
{
	const char *params[] = { w->queue, w->identity_text };
	int64_t popped[2];	/* the job and its attempt number */
	int rows = worker_exec(w, SLOT_POP, 2, params, popped, 2);

	if (rows <= 0)
		return rows < 0 ? CLAIM_ERROR : CLAIM_EMPTY;
	*job_id = popped[0];
	worker_note_attempt(w, popped[1]);
	return CLAIM_OK;
}

/* The pop was the completion: nothing is written, whatever the outcome. */
static int delete_returning_finish(struct worker *w, int64_t job_id, int slot)
{
	(void)w;
	(void)job_id;
	(void)slot;
	return 0;
}

const struct strategy_ops strategy_delete_returning = {
	.name = "delete-returning",
	.order = 100,
	.summary = "DELETE the first unlocked new row RETURNING id (pgmq pop): done at claim; a crash loses it",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = {
		[DIALECT_POSTGRESQL] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
		[DIALECT_SQLITE] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
		[DIALECT_MARIADB] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
	},
	.modes = MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = delete_returning_statements,
	.n_statements = 1,
	.setup_sql = { [DIALECT_POSTGRESQL] =
		"CREATE TABLE {tickets} ("
		" id bigint NOT NULL,"
		" consumed_by integer NOT NULL,"
		" attempt integer NOT NULL,"
		" consumed_at timestamptz NOT NULL DEFAULT clock_timestamp());"
		"{mark:tickets}",
		       [DIALECT_MARIADB] =
		"CREATE TABLE {tickets} ("
		" id bigint NOT NULL,"
		" consumed_by integer NOT NULL,"
		" attempt integer NOT NULL,"
		" consumed_at datetime(6) NOT NULL DEFAULT NOW(6)) ENGINE = InnoDB {mark:tickets}" },
	.final_state_sql = { [DIALECT_POSTGRESQL] =
		"SELECT id, CASE status WHEN 'new' THEN 0 WHEN 'active' THEN 1 WHEN 'done' THEN 2 ELSE 3 END,"
		" coalesce(claimed_by, -1) FROM {jobs} "
		"UNION ALL SELECT id, 5, consumed_by FROM {tickets}",
			     [DIALECT_MARIADB] =
		"SELECT id, CASE status WHEN 'new' THEN 0 WHEN 'active' THEN 1 WHEN 'done' THEN 2 ELSE 3 END,"
		" coalesce(claimed_by, -1) FROM {jobs} "
		"UNION ALL SELECT id, 5, consumed_by FROM {tickets}" },
	.claim = delete_returning_claim,
	.finish = delete_returning_finish,
};
