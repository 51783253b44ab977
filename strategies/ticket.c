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
 *
 * On MariaDB the ticket is an AUTO_INCREMENT value, handed out at the insert as
 * PostgreSQL's identity is: the ticket is taken under a user lock named by the control
 * table (GET_LOCK), released once the insert has committed (autocommit), so that ticket
 * order is commit order there too. A take that failed before its release leaves the lock
 * with its session: the next take releases it first.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/sql_template.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum {
	SLOT_TAKE = SLOT_STRATEGY,	/* ($1 queue, $2 worker) take a ticket */
	SLOT_EXPIRE,			/* ($1 queue, $2 stale ms) delete abandoned tickets */
	SLOT_AHEAD,			/* ($1 queue, $2 ticket) tickets ahead of ours */
	SLOT_SELECT,			/* ($1 queue) the first new job */
	SLOT_RETURN,			/* ($1 ticket) hand the ticket back: the ticket, no row when it was gone */
	SLOT_RETURN_MINE,		/* ($1 queue, $2 worker) hand back every ticket the worker took */
};

/* Its settings: the line's width, how often it is polled, and when a ticket is abandoned. */
struct ticket_config {
	int poll_ms;		/* sleep between polls of the line */
	int ticket_limit;	/* how many tickets at the head of the line may claim at once (X) */
	int stale_ms;		/* tickets older than this are deleted as abandoned */
};

static const struct option_def ticket_options[] = {
	{ .name = "poll-ms", .type = OPTION_INT, .place = OPTION_IN_STRATEGY, .flags = OPTION_SWEEP,
	  .offset = offsetof(struct ticket_config, poll_ms), .min = 0, .max = 60000, .def = "5", .arg = "MS",
	  .help = "sleep between polls of the line" },
	{ .name = "ticket-limit", .type = OPTION_INT, .place = OPTION_IN_STRATEGY, .flags = OPTION_SWEEP,
	  .offset = offsetof(struct ticket_config, ticket_limit), .min = 1, .max = MAX_WORKERS, .def = "1",
	  .arg = "X", .help = "tickets at the head of the line that may claim at once (seed 004's top X)" },
	{ .name = "stale-ms", .type = OPTION_INT, .place = OPTION_IN_STRATEGY, .flags = OPTION_SWEEP,
	  .offset = offsetof(struct ticket_config, stale_ms), .min = 1, .max = 86400000, .def = "60000", .arg = "MS",
	  .help = "age at which a ticket counts as abandoned and is deleted by whoever polls" },
	{ .name = NULL },
};

/* A worker's place in the line. */
struct ticket_state {
	int64_t ticket;		/* the ticket it holds, or -1 */
	bool unsure;		/* a statement failed: it may hold a ticket it does not know of (a lost answer) */
};

static const struct strategy_statement ticket_statements[] = {
	{ SLOT_TAKE, 2, {
		[DIALECT_POSTGRESQL] = "WITH line AS MATERIALIZED "
				       "(SELECT pg_advisory_xact_lock('{tickets}'::regclass::oid::bigint)) "
				       "INSERT INTO {tickets} (resource, requester) SELECT $1, $2::integer FROM line "
				       "RETURNING ticket",
		[DIALECT_SQLITE] = "INSERT INTO {tickets} (resource, requester) VALUES ($1, $2) RETURNING ticket",
		[DIALECT_MARIADB] = "DO RELEASE_ALL_LOCKS(); DO GET_LOCK('{tickets}', 60); "
				    "INSERT INTO {tickets} (resource, requester) VALUES ($1, $2) RETURNING ticket; "
				    "DO RELEASE_ALL_LOCKS()",
	} },
	{ SLOT_EXPIRE, 2, {
		[DIALECT_POSTGRESQL] = "DELETE FROM {tickets} WHERE resource = $1 "
				       "AND taken_at < clock_timestamp() - $2::integer * interval '1 millisecond'",
		[DIALECT_SQLITE] = "DELETE FROM {tickets} WHERE resource = $1 "
				   "AND taken_at < julianday('now') - CAST($2 AS REAL) / 86400000.0",
		[DIALECT_MARIADB] = "DELETE FROM {tickets} WHERE resource = $1 "
				    "AND taken_at < NOW(6) - INTERVAL CAST($2 AS INTEGER) * 1000 MICROSECOND",
	} },
	{ SLOT_AHEAD, 2, {
		[DIALECT_POSTGRESQL] = "SELECT count(*) FROM {tickets} WHERE resource = $1 AND ticket < $2",
		[DIALECT_SQLITE] = "SELECT count(*) FROM {tickets} WHERE resource = $1 AND ticket < CAST($2 AS INTEGER)",
		[DIALECT_MARIADB] = "SELECT count(*) FROM {tickets} WHERE resource = $1 AND ticket < CAST($2 AS INTEGER)",
	} },
	{ SLOT_SELECT, 1, SQL_ANY("SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} ORDER BY id LIMIT 1") },
	{ SLOT_RETURN, 1, {
		[DIALECT_POSTGRESQL] = "DELETE FROM {tickets} WHERE ticket = $1 RETURNING ticket",
		[DIALECT_SQLITE] = "DELETE FROM {tickets} WHERE ticket = CAST($1 AS INTEGER) RETURNING ticket",
		[DIALECT_MARIADB] = "DELETE FROM {tickets} WHERE ticket = CAST($1 AS INTEGER) RETURNING ticket",
	} },
	{ SLOT_RETURN_MINE, 2, {
		[DIALECT_POSTGRESQL] = "DELETE FROM {tickets} WHERE resource = $1 AND requester = $2::integer",
		[DIALECT_SQLITE] = "DELETE FROM {tickets} WHERE resource = $1 AND requester = CAST($2 AS INTEGER)",
		[DIALECT_MARIADB] = "DELETE FROM {tickets} WHERE resource = $1 AND requester = CAST($2 AS INTEGER)",
	} },
};

/*
 * Deletes the ticket t holds for w, if any. When it was gone, deleted as stale by whoever
 * polled (nobody else deletes another's ticket), marks the claim in hand EXEC_TICKET_EXPIRED:
 * the exclusion it gave has failed, and another claim may have taken the job. 0 or -1.
 */
static int return_ticket(struct worker *w, struct ticket_state *t)
{
	char ticket[24];
	const char *params[] = { worker_id_text(ticket, t->ticket) };
	int rows;

	if (t->ticket < 0)
		return 0;
	rows = worker_exec(w, SLOT_RETURN, 1, params, NULL, 0);
	if (rows < 0)
		return -1;
	if (rows == 0)
		w->held_flags |= EXEC_TICKET_EXPIRED;
	t->ticket = -1;
	return 0;
}

/* Polls until ticket t is among the first X of the line: CLAIM_OK, CLAIM_ERROR, or CLAIM_BUSY on a stop. */
static enum claim_result wait_turn(struct worker *w, const struct ticket_state *t)
{
	const struct ticket_config *p = w->shared->strategy_config;
	char ticket[24], stale[24];
	const char *expire_params[] = { w->queue, worker_id_text(stale, p->stale_ms) };
	const char *ahead_params[] = { w->queue, worker_id_text(ticket, t->ticket) };
	int64_t ahead;

	for (;;) {
		if (worker_exec(w, SLOT_EXPIRE, 2, expire_params, NULL, 0) < 0 ||
		    worker_exec(w, SLOT_AHEAD, 2, ahead_params, &ahead, 1) != 1)
			return CLAIM_ERROR;
		if (ahead < p->ticket_limit)
			return CLAIM_OK;
		if (run_stopping(&w->shared->gate))
			return CLAIM_BUSY;
		w->stats.retries++;
		worker_pause_ns(w, MS_TO_NS(p->poll_ms));
	}
}

/* Claims the first new job under the exclusion the ticket gives; the transaction stays open in hold mode. */
static enum claim_result claim_in_turn(struct worker *w, struct ticket_state *t, int64_t *job_id)
{
	const char *select_params[] = { w->queue };
	int64_t ticket = t->ticket;	/* held again if the transaction that returns it rolls back */
	int rows;

	if (worker_begin(w) < 0)
		return CLAIM_ERROR;
	rows = worker_exec(w, SLOT_SELECT, 1, select_params, job_id, 1);
	if (rows < 0)
		goto rollback;
	if (rows > 0) {
		if (worker_mark_active(w, *job_id, false) < 0)
			goto rollback;
		if (w->shared->mode == MODE_HOLD)
			return CLAIM_OK;
	}
	if (return_ticket(w, t) < 0)
		goto rollback;
	if (worker_commit(w) < 0) {
		t->ticket = ticket;
		return CLAIM_ERROR;
	}
	return rows > 0 ? CLAIM_OK : CLAIM_EMPTY;
rollback:
	worker_rollback(w);
	return CLAIM_ERROR;
}

/*
 * After a failed statement, hands back every ticket w took: a ticket whose taking
 * committed but whose answer a lost connection swallowed would block the line until it
 * went stale. 0 or -1.
 */
static int return_unsure(struct worker *w, struct ticket_state *t)
{
	const char *params[] = { w->queue, w->identity_text };

	if (!t->unsure)
		return 0;
	if (worker_exec(w, SLOT_RETURN_MINE, 2, params, NULL, 0) < 0)
		return -1;
	t->ticket = -1;
	t->unsure = false;
	return 0;
}

/* Takes a ticket, waits for its turn and claims, after handing back what an earlier failure may have left. */
static enum claim_result ticket_claim(struct worker *w, int64_t *job_id)
{
	struct ticket_state *t = w->strategy_data;
	const char *take_params[] = { w->queue, w->identity_text };
	enum claim_result r = CLAIM_ERROR;

	if (return_unsure(w, t) < 0)
		goto out;
	if (worker_exec(w, SLOT_TAKE, 2, take_params, &t->ticket, 1) != 1) {
		t->ticket = -1;
		goto out;
	}
	r = wait_turn(w, t);
	if (r == CLAIM_OK)
		r = claim_in_turn(w, t, job_id);
	if (r != CLAIM_OK || w->shared->mode == MODE_FLIP)
		return_ticket(w, t);
out:
	t->unsure |= r == CLAIM_ERROR;
	return r;
}

/* hold mode: the job's outcome (slot) and the ticket's return commit together. */
static int ticket_finish(struct worker *w, int64_t job_id, int slot)
{
	struct ticket_state *t = w->strategy_data;
	int64_t ticket = t->ticket;	/* held again if the transaction that returns it rolls back */

	if (w->shared->mode == MODE_FLIP)
		return worker_finish(w, job_id, slot);
	if (worker_outcome(w, slot, job_id) != 1 || return_ticket(w, t) < 0) {
		worker_rollback(w);
		return_ticket(w, t);
		t->unsure = true;
		return -1;
	}
	if (worker_commit(w) == 0)
		return 0;
	t->ticket = ticket;
	return_ticket(w, t);
	t->unsure = true;
	return -1;
}

/* Gives w a place in the line, holding no ticket yet. */
static int ticket_worker_init(struct worker *w, char *err, size_t errlen)
{
	struct ticket_state *t = malloc(sizeof(*t));

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	t->ticket = -1;
	t->unsure = false;
	w->strategy_data = t;
	return 0;
}

/* Frees w's place in the line. */
static void ticket_worker_cleanup(struct worker *w)
{
	free(w->strategy_data);
	w->strategy_data = NULL;
}

const struct strategy_ops strategy_ticket = {
	.name = "ticket",
	.order = 60,
	.summary = "take a number in a control table, poll until first X in line, claim, return it",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = ticket_statements,
	.n_statements = sizeof(ticket_statements) / sizeof(ticket_statements[0]),
	.setup_sql = {
		[DIALECT_POSTGRESQL] =
			"CREATE TABLE {tickets} ("
			" ticket bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
			" resource text NOT NULL,"
			" requester integer NOT NULL,"
			" taken_at timestamptz NOT NULL DEFAULT clock_timestamp());"
			"{mark:tickets};"
			"CREATE INDEX ON {tickets} (resource, ticket)",
		[DIALECT_SQLITE] =
			"CREATE TABLE {tickets} {mark:tickets} ("
			" ticket INTEGER PRIMARY KEY AUTOINCREMENT,"
			" resource TEXT NOT NULL,"
			" requester INTEGER NOT NULL,"
			" taken_at REAL NOT NULL DEFAULT (julianday('now')));"
			"CREATE INDEX {tickets:resource} ON {tickets} (resource, ticket)",
		[DIALECT_MARIADB] =
			"CREATE TABLE {tickets} ("
			" ticket bigint AUTO_INCREMENT PRIMARY KEY,"
			" resource varchar(64) NOT NULL,"
			" requester integer NOT NULL,"
			" taken_at datetime(6) NOT NULL DEFAULT NOW(6),"
			" INDEX line (resource, ticket)) ENGINE = InnoDB {mark:tickets}",
	},
	.begin_sql = { [DIALECT_SQLITE] = "BEGIN IMMEDIATE" },
	.options = ticket_options,
	.config_size = sizeof(struct ticket_config),
	.worker_init = ticket_worker_init,
	.worker_cleanup = ticket_worker_cleanup,
	.claim = ticket_claim,
	.finish = ticket_finish,
};
