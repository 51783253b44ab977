/*
 * nowait-backoff (seed 000, Jonathan Lewis): FOR UPDATE NOWAIT on the first new row;
 * when it is locked (55P03) sleep and try again, giving up after the last try.
 * The seed flips the row to active and commits at once (flip is its default).
 *
 * On SQLite the lock is the database's write lock: the claim transaction begins
 * IMMEDIATE with the busy timeout set to 0 for the claim alone, so a held lock answers
 * SQLITE_BUSY at once, which plays the part of 55P03. The completion waits as usual.
 */
#include <stddef.h>

#include "queue/claim.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum { SLOT_SELECT = SLOT_STRATEGY };

/* Its settings: how often and how patiently it asks for the lock. */
struct nowait_config {
	int tries;		/* lock attempts per claim before giving up */
	int backoff_ms;		/* sleep between attempts */
};

static const struct option_def nowait_options[] = {
	{ .name = "tries", .type = OPTION_INT, .place = OPTION_IN_STRATEGY, .flags = OPTION_SWEEP,
	  .offset = offsetof(struct nowait_config, tries), .min = 1, .max = 1000000, .def = "5", .arg = "N",
	  .help = "lock attempts per claim before giving up" },
	{ .name = "backoff-ms", .type = OPTION_INT, .place = OPTION_IN_STRATEGY, .flags = OPTION_SWEEP,
	  .offset = offsetof(struct nowait_config, backoff_ms), .min = 0, .max = 3600000, .def = "1000", .arg = "MS",
	  .help = "sleep between attempts" },
	{ .name = NULL },
};

static const struct strategy_statement nowait_statements[] = {
	{ SLOT_SELECT, 1, {
		[DIALECT_POSTGRESQL] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				       "ORDER BY id LIMIT 1 FOR UPDATE NOWAIT",
		[DIALECT_SQLITE] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				   "ORDER BY id LIMIT 1",
		[DIALECT_MARIADB] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				    "ORDER BY id LIMIT 1 FOR UPDATE NOWAIT",
	} },
};

/* One claim transaction that does not wait for a lock. */
static enum claim_result claim_nowait(struct worker *w, int64_t *job_id)
{
	const struct backend_ops *db = w->shared->db;
	enum claim_result r;

	if (db->caps & CAP_NOWAIT)
		return claim_in_transaction(w, SLOT_SELECT, job_id);
	db->set_lock_wait(w->conn, 0);
	r = claim_in_transaction(w, SLOT_SELECT, job_id);
	db->set_lock_wait(w->conn, -1);
	return r;
}

/* Whether the last error on w's connection says the lock was held by another worker. */
static bool lock_was_held(struct worker *w)
{
	enum error_kind kind = w->shared->db->error_kind(w->conn);

	return kind == ERR_LOCK_NOT_AVAILABLE || kind == ERR_SQLITE_BUSY;
}

/* Tries up to tries times, sleeping backoff_ms after each lock conflict. */
static enum claim_result nowait_claim(struct worker *w, int64_t *job_id)
{
	const struct nowait_config *p = w->shared->strategy_config;

	for (int try = 1;; try++) {
		enum claim_result r = claim_nowait(w, job_id);

		if (r != CLAIM_ERROR || !lock_was_held(w))
			return r;
		if (try >= p->tries) {
			w->stats.give_ups++;
			return CLAIM_BUSY;
		}
		w->stats.retries++;
		worker_pause_ns(w, MS_TO_NS(p->backoff_ms));
	}
}

const struct strategy_ops strategy_nowait_backoff = {
	.name = "nowait-backoff",
	.order = 30,
	.summary = "FOR UPDATE NOWAIT (SQLite: BEGIN IMMEDIATE, no busy wait); on a lock back off, retry",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = {
		[DIALECT_POSTGRESQL] = CAP_ROW_LOCKS | CAP_NOWAIT,
		[DIALECT_MARIADB] = CAP_ROW_LOCKS | CAP_NOWAIT,
	},
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = nowait_statements,
	.n_statements = 1,
	.begin_sql = { [DIALECT_SQLITE] = "BEGIN IMMEDIATE" },
	.options = nowait_options,
	.config_size = sizeof(struct nowait_config),
	.claim = nowait_claim,
};
