/*
 * ticket (seed 004): take a number in a control table with an identity column,
 * poll until at most X-1 tickets are ahead, claim the first new job under that
 * exclusion, and hand the ticket back. Tickets older than the stale limit are
 * deleted by whoever polls, so a worker that died does not block the line.
 * flip returns the ticket with the claim; hold keeps it through the work.
 * With X > 1 several workers claim at once with no lock: duplicates are possible.
 *
 * The seed trusts the identity column to order the line, but PostgreSQL hands out an
 * identity value when a row is inserted, not when it commits: a ticket can become
 * visible after a higher one, whose holder then finds nobody ahead and claims beside
 * it. The zero-work ramp showed it (one duplicate at 2 workers and one at 32). So on
 * PostgreSQL a ticket is taken under a transaction-scoped advisory lock keyed on the
 * control table: ticket order is commit order, and X = 1 excludes.
 *
 * On SQLite the control table's ticket is an INTEGER PRIMARY KEY AUTOINCREMENT (never
 * reused, as an identity), taken_at is a julianday so that stale tickets can expire,
 * and the claim transaction begins IMMEDIATE: a deferred one would read a snapshot
 * that every other worker's ticket insert makes stale.
 */
#include <stdio.h>

#include "engine/strategy.h"
#include "engine/worker.h"

enum {
	SLOT_TAKE = SLOT_STRATEGY,	/* ($1 queue, $2 worker) take a ticket */
	SLOT_EXPIRE,			/* ($1 queue, $2 stale ms) delete abandoned tickets */
	SLOT_AHEAD,			/* ($1 queue, $2 ticket) tickets ahead of ours */
	SLOT_SELECT,			/* ($1 queue) the first new job */
	SLOT_RETURN,			/* ($1 ticket) hand the ticket back */
};

static const struct strategy_statement ticket_statements[] = {
	{ SLOT_TAKE, 2, {
		[BACKEND_POSTGRESQL] = "WITH line AS MATERIALIZED "
				       "(SELECT pg_advisory_xact_lock('{tickets}'::regclass::oid::bigint)) "
				       "INSERT INTO {tickets} (resource, requester) SELECT $1, $2::integer FROM line "
				       "RETURNING ticket",
		[BACKEND_SQLITE] = "INSERT INTO {tickets} (resource, requester) VALUES ($1, $2) RETURNING ticket",
	} },
	{ SLOT_EXPIRE, 2, {
		[BACKEND_POSTGRESQL] = "DELETE FROM {tickets} WHERE resource = $1 "
				       "AND taken_at < clock_timestamp() - $2::integer * interval '1 millisecond'",
		[BACKEND_SQLITE] = "DELETE FROM {tickets} WHERE resource = $1 "
				   "AND taken_at < julianday('now') - CAST($2 AS REAL) / 86400000.0",
	} },
	{ SLOT_AHEAD, 2, {
		[BACKEND_POSTGRESQL] = "SELECT count(*) FROM {tickets} WHERE resource = $1 AND ticket < $2",
		[BACKEND_SQLITE] = "SELECT count(*) FROM {tickets} WHERE resource = $1 AND ticket < CAST($2 AS INTEGER)",
	} },
	{ SLOT_SELECT, 1, {
		[BACKEND_POSTGRESQL] = "SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' ORDER BY id LIMIT 1",
		[BACKEND_SQLITE] = "SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' ORDER BY id LIMIT 1",
	} },
	{ SLOT_RETURN, 1, {
		[BACKEND_POSTGRESQL] = "DELETE FROM {tickets} WHERE ticket = $1",
		[BACKEND_SQLITE] = "DELETE FROM {tickets} WHERE ticket = CAST($1 AS INTEGER)",
	} },
};

/* Deletes w's ticket, if it holds one. 0 or -1. */
static int return_ticket(struct worker *w)
{
	char ticket[24];
	const char *params[] = { worker_id_text(ticket, w->ticket) };

	if (w->ticket < 0)
		return 0;
	if (worker_exec(w, SLOT_RETURN, 1, params, NULL, 0) < 0)
		return -1;
	w->ticket = -1;
	return 0;
}

/* Polls until w's ticket is among the first X of the line: CLAIM_OK, CLAIM_ERROR, or CLAIM_BUSY on a stop. */
static enum claim_result wait_turn(struct worker *w)
{
	const struct strategy_params *p = &w->shared->cfg->params;
	char ticket[24], stale[24];
	const char *expire_params[] = { w->queue, worker_id_text(stale, p->stale_ms) };
	const char *ahead_params[] = { w->queue, worker_id_text(ticket, w->ticket) };
	int64_t ahead;

	for (;;) {
		if (worker_exec(w, SLOT_EXPIRE, 2, expire_params, NULL, 0) < 0 ||
		    worker_exec(w, SLOT_AHEAD, 2, ahead_params, &ahead, 1) != 1)
			return CLAIM_ERROR;
		if (ahead < p->ticket_limit)
			return CLAIM_OK;
		if (atomic_load_explicit(&w->shared->stop, memory_order_relaxed))
			return CLAIM_BUSY;
		w->stats.retries++;
		worker_pause_ms(w, p->poll_ms);
	}
}

/* Claims the first new job under the exclusion the ticket gives; the transaction stays open in hold mode. */
static enum claim_result claim_in_turn(struct worker *w, int64_t *job_id)
{
	const char *select_params[] = { w->queue };
	char id[24];
	const char *mark_params[] = { id, w->index_text };
	int64_t ticket = w->ticket;	/* held again if the transaction that returns it rolls back */
	int rows;

	if (worker_begin(w) < 0)
		return CLAIM_ERROR;
	rows = worker_exec(w, SLOT_SELECT, 1, select_params, job_id, 1);
	if (rows < 0)
		goto rollback;
	if (rows > 0) {
		worker_id_text(id, *job_id);
		if (worker_exec(w, SLOT_MARK_ACTIVE, 2, mark_params, NULL, 0) < 0)
			goto rollback;
		if (w->shared->mode == MODE_HOLD)
			return CLAIM_OK;
	}
	if (return_ticket(w) < 0)
		goto rollback;
	if (worker_commit(w) < 0) {
		w->ticket = ticket;
		return CLAIM_ERROR;
	}
	return rows > 0 ? CLAIM_OK : CLAIM_EMPTY;
rollback:
	worker_sql(w, "ROLLBACK");
	return CLAIM_ERROR;
}

static enum claim_result ticket_claim(struct worker *w, int64_t *job_id)
{
	const char *take_params[] = { w->queue, w->index_text };
	enum claim_result r;

	if (worker_exec(w, SLOT_TAKE, 2, take_params, &w->ticket, 1) != 1) {
		w->ticket = -1;
		return CLAIM_ERROR;
	}
	r = wait_turn(w);
	if (r == CLAIM_OK)
		r = claim_in_turn(w, job_id);
	if (r != CLAIM_OK || w->shared->mode == MODE_FLIP)
		return_ticket(w);
	return r;
}

/* hold mode: the job's outcome (slot) and the ticket's return commit together. */
static int ticket_finish(struct worker *w, int64_t job_id, int slot)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->index_text };
	int64_t ticket = w->ticket;	/* held again if the transaction that returns it rolls back */

	if (w->shared->mode == MODE_FLIP)
		return worker_finish(w, job_id, slot);
	if (worker_exec(w, slot, 2, params, NULL, 0) != 1 || return_ticket(w) < 0) {
		worker_sql(w, "ROLLBACK");
		return_ticket(w);
		return -1;
	}
	if (worker_commit(w) == 0)
		return 0;
	w->ticket = ticket;
	return_ticket(w);
	return -1;
}

const struct strategy_ops strategy_ticket = {
	.name = "ticket",
	.summary = "take a number in a control table, poll until first X in line, claim, return it",
	.backends = BACKEND_BIT(BACKEND_POSTGRESQL) | BACKEND_BIT(BACKEND_SQLITE),
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = ticket_statements,
	.n_statements = sizeof(ticket_statements) / sizeof(ticket_statements[0]),
	.setup_sql = {
		[BACKEND_POSTGRESQL] =
			"CREATE TABLE {tickets} ("
			" ticket bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
			" resource text NOT NULL,"
			" requester integer NOT NULL,"
			" taken_at timestamptz NOT NULL DEFAULT clock_timestamp());"
			"CREATE INDEX ON {tickets} (resource, ticket)",
		[BACKEND_SQLITE] =
			"CREATE TABLE {tickets} ("
			" ticket INTEGER PRIMARY KEY AUTOINCREMENT,"
			" resource TEXT NOT NULL,"
			" requester INTEGER NOT NULL,"
			" taken_at REAL NOT NULL DEFAULT (julianday('now')));"
			"CREATE INDEX {tickets:resource} ON {tickets} (resource, ticket)",
	},
	.begin_sql = { [BACKEND_SQLITE] = "BEGIN IMMEDIATE" },
	.claim = ticket_claim,
	.finish = ticket_finish,
};
