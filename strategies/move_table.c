/*
 * move-table (Solid Queue): claiming moves the job's row from the ready table ({jobs},
 * where the new jobs wait) to a claimed table ({tickets}) in one transaction: select the
 * first new job FOR UPDATE SKIP LOCKED, INSERT it into the claimed table as active with
 * its claimant, DELETE it from the ready table, commit (Solid Queue's ready and claimed
 * executions). The ready table only ever holds claimable rows, so the claim's scan never
 * passes over active or finished ones. Completion marks the row done or failed where it
 * is now, in the claimed table (checked against claimant and attempt); Solid Queue deletes
 * the claimed execution and marks the job finished, one more write this leaves out.
 *
 * The audit reads both tables (every job is in exactly one; the claimed table's primary
 * key refuses a second claim of a job), so the figures are the usual ones. A worker that
 * crashes leaves its job active in the claimed table: stuck, and lost. Solid Queue's
 * supervisor would release the claimed executions of a dead process back to the ready
 * table after its heartbeat expires; that is not modelled, and --lease-ms, --reaper-ms,
 * --rerun-stuck and --rerun-errors act on the ready table only: they change nothing here. A job in hand when
 * the run stops is given back as new where it is, in the claimed table (the run is ending:
 * nothing claims it again).
 *
 * flip only (the claim commits; the work runs outside any transaction). On SQLite, where
 * Solid Queue runs too, the transaction begins IMMEDIATE: the write lock makes the select,
 * the insert and the delete one step with no SKIP LOCKED needed. On MariaDB it runs as on
 * PostgreSQL (INSERT ... SELECT ... RETURNING is MariaDB's own).
 */
#include "engine/sql_template.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum {
	SLOT_PICK = SLOT_STRATEGY,	/* ($1 queue) the first new job, locked */
	SLOT_MOVE_IN,			/* ($1 id, $2 worker) copy it into the claimed table as active, RETURNING attempts */
	SLOT_MOVE_OUT,			/* ($1 id) delete it from the ready table */
	SLOT_DONE,			/* ($1 id, $2 worker, $3 attempt) mark the claim's job done */
	SLOT_FAILED,			/* ($1 id, $2 worker, $3 attempt) mark the claim's job failed */
};

static const struct strategy_statement move_table_statements[] = {
	{ SLOT_PICK, 1, {
		[DIALECT_POSTGRESQL] = "SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' "
				       "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
		[DIALECT_SQLITE] = "SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' ORDER BY id LIMIT 1",
		[DIALECT_MARIADB] = "SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' "
				    "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
	} },
	{ SLOT_MOVE_IN, 2, SQL_ANY("INSERT INTO {tickets} (id, queue, status, payload, claimed_by, claimed_at, "
				   "attempts, enqueued_at) SELECT id, queue, 'active', payload, $2, {now}, "
				   "attempts + 1, enqueued_at FROM {jobs} WHERE id = $1 RETURNING attempts") },
	{ SLOT_MOVE_OUT, 1, SQL_ANY("DELETE FROM {jobs} WHERE id = $1 RETURNING id") },
	{ SLOT_DONE, 3, SQL_ANY("UPDATE {tickets} SET status = 'done', done_at = {now} WHERE id = $1 "
				"AND status = 'active' AND claimed_by = $2 AND attempts = $3 RETURNING id") },
	{ SLOT_FAILED, 3, SQL_ANY("UPDATE {tickets} SET status = 'error', done_at = {now} WHERE id = $1 "
				  "AND status = 'active' AND claimed_by = $2 AND attempts = $3 RETURNING id") },
	/* the harness's questions about a claimed job, asked of the claimed table */
	{ SLOT_FREE, 2, SQL_ANY("UPDATE {tickets} SET status = 'new', claimed_by = NULL "
				"WHERE id = $1 AND status = 'active' AND claimed_by = $2") },
	{ SLOT_FINISHED_BY, 3, SQL_ANY("SELECT CASE status WHEN 'done' THEN 1 WHEN 'error' THEN 2 ELSE 0 END "
				       "FROM {tickets} WHERE id = $1 AND claimed_by = $2 AND attempts = $3") },
};

/* Moves the first free new job to the claimed table and commits. */
static enum claim_result move_table_claim(struct worker *w, int64_t *job_id)
{
	const char *pick_params[] = { w->queue };
	char id[24];
	const char *move_params[] = { id, w->identity_text };
	int64_t attempt = 0;
	int rows;

	if (worker_begin(w) < 0)
		return CLAIM_ERROR;
	rows = worker_exec(w, SLOT_PICK, 1, pick_params, job_id, 1);
	if (rows < 0)
		goto rollback;
	if (rows == 0)
		return worker_commit(w) < 0 ? CLAIM_ERROR : CLAIM_EMPTY;
	worker_id_text(id, *job_id);
	if (worker_exec(w, SLOT_MOVE_IN, 2, move_params, &attempt, 1) != 1 ||
	    worker_exec(w, SLOT_MOVE_OUT, 1, move_params, NULL, 0) != 1)
		goto rollback;
	if (worker_commit(w) < 0)
		return CLAIM_ERROR;
	worker_note_attempt(w, attempt);
	return CLAIM_OK;
rollback:
	worker_rollback(w);
	return CLAIM_ERROR;
}

/* Marks the job done or failed in the claimed table if this claim still holds it. 0, 1 refused, -1. */
static int move_table_finish(struct worker *w, int64_t job_id, int slot)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->identity_text, w->attempt_text };
	int rows = worker_exec(w, slot == SLOT_COMPLETE ? SLOT_DONE : SLOT_FAILED, 3, params, NULL, 0);

	return rows == 1 ? 0 : rows == 0 ? 1 : -1;
}

const struct strategy_ops strategy_move_table = {
	.name = "move-table",
	.order = 110,
	.summary = "move the first unlocked new row to a claimed table in one transaction (Solid Queue)",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = {
		[DIALECT_POSTGRESQL] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
		[DIALECT_MARIADB] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
	},
	.modes = MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = move_table_statements,
	.n_statements = sizeof(move_table_statements) / sizeof(move_table_statements[0]),
	.setup_sql = {
		[DIALECT_POSTGRESQL] = "CREATE TABLE {tickets} (LIKE {jobs} INCLUDING DEFAULTS INCLUDING CONSTRAINTS, "
				       "PRIMARY KEY (id));{mark:tickets}",
		[DIALECT_SQLITE] =
			"CREATE TABLE {tickets} {mark:tickets} ("
			" id INTEGER PRIMARY KEY,"
			" queue TEXT NOT NULL,"
			" status TEXT NOT NULL CHECK (status IN ('new', 'active', 'done', 'error')),"
			" payload TEXT,"
			" claimed_by INTEGER,"
			" claimed_at REAL,"
			" lease_until REAL,"
			" attempts INTEGER NOT NULL,"
			" enqueued_at REAL NOT NULL,"
			" done_at REAL)",
		/* its columns written out: CREATE TABLE ... LIKE would copy the ready table's owner note too */
		[DIALECT_MARIADB] =
			"CREATE TABLE {tickets} ("
			" id bigint PRIMARY KEY,"
			" queue varchar(64) NOT NULL,"
			" status varchar(8) NOT NULL CHECK (status IN ('new', 'active', 'done', 'error')),"
			" payload text,"
			" claimed_by integer,"
			" claimed_at datetime(6),"
			" lease_until datetime(6),"
			" attempts integer NOT NULL,"
			" enqueued_at datetime(6) NOT NULL,"
			" done_at datetime(6)) ENGINE = InnoDB {mark:tickets}",
	},
	.begin_sql = { [DIALECT_SQLITE] = "BEGIN IMMEDIATE" },
	.final_state_sql = SQL_ANY(
		"SELECT id, CASE status WHEN 'new' THEN 0 WHEN 'active' THEN 1 WHEN 'done' THEN 2 ELSE 3 END,"
		" coalesce(claimed_by, -1) FROM {jobs} "
		"UNION ALL SELECT id, CASE status WHEN 'new' THEN 0 WHEN 'active' THEN 1 WHEN 'done' THEN 2 ELSE 3 END,"
		" coalesce(claimed_by, -1) FROM {tickets}"),
	.claim = move_table_claim,
	.finish = move_table_finish,
};
