/*
 * A worker's connection and what goes through it: connecting and preparing, statements
 * and transactions, the claim's attempt and outcome, reconnecting, and a crash's respawn.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "engine/session.h"
#include "engine/sql_template.h"
#include "queue/reconnect.h"
#include "queue/worker.h"

/* The statements every worker prepares whatever its strategy, but the completions. */
static const struct strategy_statement harness_statements[] = {
	{ SLOT_COUNT_UNFINISHED, 1, SQL_ANY("SELECT count(*) FROM {jobs} WHERE queue = $1 AND {unfinished}") },
	{ SLOT_MARK_ACTIVE, 2, SQL_ANY("UPDATE {jobs} SET status = 'active', claimed_by = $2, claimed_at = {now}, "
				       "lease_until = {lease_until}, attempts = attempts + 1 WHERE id = $1 "
				       "RETURNING attempts") },
	{ SLOT_FREE, 2, SQL_ANY("UPDATE {jobs} SET status = 'new', claimed_by = NULL "
				"WHERE id = $1 AND status = 'active' AND claimed_by = $2") },
	{ SLOT_HEARTBEAT, 2, SQL_ANY("UPDATE {jobs} SET lease_until = {lease_until} "
				     "WHERE id = $1 AND status = 'active' AND claimed_by = $2") },
	{ SLOT_FINISHED_BY, 3, SQL_ANY("SELECT CASE status WHEN 'done' THEN 1 WHEN 'error' THEN 2 ELSE 0 END "
				       "FROM {jobs} WHERE id = $1 AND claimed_by = $2 AND attempts = $3") },
	{ SLOT_COMMIT, 0, SQL_ANY("COMMIT") },
	{ SLOT_ROLLBACK, 0, SQL_ANY("ROLLBACK") },
};

/*
 * The completions, per fence mode: what they check of the job before they mark it done
 * (SLOT_COMPLETE) or failed (SLOT_FAIL), with $1 the job, $2 the worker, $3 the attempt.
 * Without a fence nothing is checked: a late completion overwrites whatever is there.
 */
static const struct strategy_statement outcome_statements[][2] = {
	[FENCE_NONE] = {
		{ SLOT_COMPLETE, 1, SQL_ANY("UPDATE {jobs} SET status = 'done', done_at = {now} WHERE id = $1 "
					    "RETURNING id") },
		{ SLOT_FAIL, 1, SQL_ANY("UPDATE {jobs} SET status = 'error', done_at = {now} WHERE id = $1 "
					"RETURNING id") },
	},
	[FENCE_OWNER] = {
		{ SLOT_COMPLETE, 2, SQL_ANY("UPDATE {jobs} SET status = 'done', done_at = {now} "
					    "WHERE id = $1 AND status = 'active' AND claimed_by = $2 RETURNING id") },
		{ SLOT_FAIL, 2, SQL_ANY("UPDATE {jobs} SET status = 'error', done_at = {now} "
					"WHERE id = $1 AND status = 'active' AND claimed_by = $2 RETURNING id") },
	},
	[FENCE_ATTEMPT] = {
		{ SLOT_COMPLETE, 3, SQL_ANY("UPDATE {jobs} SET status = 'done', done_at = {now} WHERE id = $1 AND "
					    "status = 'active' AND claimed_by = $2 AND attempts = $3 RETURNING id") },
		{ SLOT_FAIL, 3, SQL_ANY("UPDATE {jobs} SET status = 'error', done_at = {now} WHERE id = $1 AND "
					"status = 'active' AND claimed_by = $2 AND attempts = $3 RETURNING id") },
	},
};

/* Whether strategy st has a statement of its own in slot, which replaces the harness's there. */
static bool replaced_by(const struct strategy_ops *st, int slot)
{
	for (size_t i = 0; i < st->n_statements; i++)
		if (st->statements[i].slot == slot)
			return true;
	return false;
}

/*
 * Prepares n statements on conn in s's dialect, but those in a slot that replacer (NULL:
 * none) has a statement of its own in; origins (NULL: none) says where each was written,
 * for the message. 0, or -1 with err.
 */
static int prepare_all(const struct run_shared *s, struct db_conn *conn, const struct strategy_statement *st,
		       size_t n, const char *const *origins, const struct strategy_ops *replacer, char *err,
		       size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		const char *tmpl = st[i].sql[s->db->dialect];

		if (replacer && replaced_by(replacer, st[i].slot))
			continue;
		if (!tmpl) {
			snprintf(err, errlen, "statement %d has no %s form", st[i].slot, s->db->name);
			return -1;
		}
		if (statement_prepare(s->db, conn, &s->names, st[i].slot, tmpl, st[i].nparams, origins ? origins[i] : NULL,
				      err, errlen) < 0)
			return -1;
	}
	return 0;
}

int worker_prepare_strategy(const struct run_shared *s, struct db_conn *conn, char *err, size_t errlen)
{
	const struct strategy_ops *st = s->strategy;

	return prepare_all(s, conn, st->statements, st->n_statements, st->origins, NULL, err, errlen);
}

/*
 * Prepares statement st of a scenario file (written at origin) in its slot as a check: its
 * result's columns against contract and, when confined, what it touches. 0; 1 with err (a
 * refusal, or the server's message); -1 with err when the connection was lost.
 */
static int check_written(const struct run_shared *s, struct db_conn *conn, const struct strategy_statement *st,
			 const char *origin, const struct result_contract *contract, bool confined, char *err,
			 size_t errlen)
{
	struct db_result_shape shape = { .columns = 0 };
	char sql[STATEMENT_SQL_MAX], why[256];
	int rc;

	if (sql_expand(st->sql[s->db->dialect], &s->names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "%s: the statement is too long once its placeholders are filled", origin);
		return 1;
	}
	rc = s->db->prepare_checked(conn, st->slot, sql, st->nparams, confined ? s->jobs_name : NULL, &shape, why,
				    sizeof(why));
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", origin, s->db->error_message(conn));
		return s->db->error_kind(conn) == ERR_CONNECTION_LOST ? -1 : 1;
	}
	if (rc > 0) {
		snprintf(err, errlen, "%s %s: without --trust-scenario, a scenario file's SQL may only read and write "
			 "the run's queue table {jobs} (here %s)%s", origin, why, s->jobs_name,
			 s->db->account_create ? "" : ", in one SELECT, INSERT, UPDATE or DELETE");
		return 1;
	}
	if (shape.columns < contract->columns) {
		snprintf(err, errlen, "%s: returns %d column%s; the harness reads %s", origin, shape.columns,
			 shape.columns == 1 ? "" : "s", contract->returns);
		return 1;
	}
	if (shape.integers < contract->integers) {
		snprintf(err, errlen, "%s: its column %d, %s, is no integer; the harness reads %s", origin,
			 shape.integers + 1, shape.first_other, contract->returns);
		return 1;
	}
	return 0;
}

int worker_check_strategy(const struct run_shared *s, struct db_conn *conn, bool confined, char *err, size_t errlen)
{
	const struct strategy_ops *st = s->strategy;

	if (!st->origins)
		return prepare_all(s, conn, st->statements, st->n_statements, NULL, NULL, err, errlen) < 0 ? 1 : 0;
	for (size_t i = 0; i < st->n_statements; i++) {
		int rc = check_written(s, conn, &st->statements[i], st->origins[i], &st->contracts[i], confined, err,
				       errlen);

		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Takes identity as w's: the value it writes to claimed_by. */
static void take_identity(struct worker *w, int identity)
{
	w->identity = identity;
	snprintf(w->identity_text, sizeof(w->identity_text), "%d", identity);
}

/* Sets up the strategy's own state for w (worker_init). 0, or -1 with err. */
static int start_strategy(struct worker *w, char *err, size_t errlen)
{
	const struct strategy_ops *st = w->shared->strategy;

	if (!st->worker_init)
		return 0;
	if (st->worker_init(w, err, errlen) < 0)
		return -1;
	w->strategy_ready = true;
	return 0;
}

/* Releases the strategy's own state for w, if set up. */
static void stop_strategy(struct worker *w)
{
	if (w->strategy_ready && w->shared->strategy->worker_cleanup)
		w->shared->strategy->worker_cleanup(w);
	w->strategy_ready = false;
}

void worker_count_waits(struct worker *w)
{
	const struct backend_ops *db = w->shared->db;
	struct db_waits now;

	if (!w->conn || !db->waits)
		return;
	db->waits(w->conn, &now);
	w->stats.waits_counted = true;
	w->stats.lock_wait_ns += now.lock_wait_ns - w->waits_seen.lock_wait_ns;
	w->stats.checkpoints += now.checkpoints - w->waits_seen.checkpoints;
	w->stats.checkpoints_partial += now.checkpoints_partial - w->waits_seen.checkpoints_partial;
	w->stats.pages_hit += db_page_delta(now.pages_hit, w->waits_seen.pages_hit);
	w->stats.pages_read += db_page_delta(now.pages_read, w->waits_seen.pages_read);
	w->stats.pages_written += db_page_delta(now.pages_written, w->waits_seen.pages_written);
	w->waits_seen = now;
}

/* Closes w's connection, if any: abruptly (abandon) or not, its waits counted first. */
static void drop_connection(struct worker *w, bool abandon)
{
	const struct backend_ops *db = w->shared->db;

	atomic_store(&w->server_pid, -1);
	w->begin_pending = false;
	if (!w->conn)
		return;
	worker_count_waits(w);
	w->waits_seen = (struct db_waits){ 0 };
	session_close(db, &w->conn, abandon);
}

/* Runs the strategy's connect_sql template tmpl on w's new connection. 0, or -1 with err. */
static int run_connect_sql(struct worker *w, const char *tmpl, char *err, size_t errlen)
{
	const struct run_shared *s = w->shared;
	char sql[STATEMENT_SQL_MAX];

	if (sql_expand(tmpl, &s->names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "the strategy's connection statement is too long");
		return -1;
	}
	if (s->db->exec(w->conn, sql) < 0) {
		snprintf(err, errlen, "the strategy's connection statement: %s", s->db->error_message(w->conn));
		return -1;
	}
	return 0;
}

/* --verify: names w's session as its identity's in what the audit triggers record. 0, or -1 with err. */
static int name_session(struct worker *w, char *err, size_t errlen)
{
	const struct backend_ops *db = w->shared->db;

	if (db->name_session(w->conn, w->identity) < 0) {
		snprintf(err, errlen, "naming the session for the audit: %s", db->error_message(w->conn));
		return -1;
	}
	return 0;
}

/*
 * Connects w (a struct worker), prepares every statement and runs the strategy's
 * connect_sql (with --verify its session is named first: SQLite's triggers call the
 * function that names it, which the statements' preparation needs). 0, or -1 with err (nothing left open).
 */
static int connect_worker(void *arg, char *err, size_t errlen)
{
	struct worker *w = arg;
	const struct run_shared *s = w->shared;
	const struct strategy_ops *st = s->strategy;
	const struct strategy_statement *outcomes = outcome_statements[s->cfg->recovery.fence];
	struct strategy_statement begin = { .slot = SLOT_BEGIN };

	begin.sql[s->db->dialect] = st->begin_sql[s->db->dialect] ? st->begin_sql[s->db->dialect] : "BEGIN";
	if (session_open(s->db, s->target, &s->cfg->db_opts, &w->saw_stop, &w->conn, err, errlen) < 0)
		return -1;
	w->connected_ns = clock_now_ns();
	if (s->created_audit && name_session(w, err, errlen) < 0)
		goto fail;
	if (prepare_all(s, w->conn, harness_statements, sizeof(harness_statements) / sizeof(harness_statements[0]),
			NULL, st, err, errlen) < 0 ||
	    prepare_all(s, w->conn, outcomes, 2, NULL, NULL, err, errlen) < 0 ||
	    prepare_all(s, w->conn, &begin, 1, NULL, st, err, errlen) < 0 ||
	    worker_prepare_strategy(s, w->conn, err, errlen) < 0)
		goto fail;
	if (st->connect_sql[s->db->dialect] && run_connect_sql(w, st->connect_sql[s->db->dialect], err, errlen) < 0)
		goto fail;
	if (s->costs.worker_sql && s->db->exec(w->conn, s->costs.worker_sql) < 0) {
		snprintf(err, errlen, "tracking the worker's statements (server costs): %s", s->db->error_message(w->conn));
		goto fail;
	}
	atomic_store(&w->server_pid, s->db->server_pid(w->conn));
	return 0;
fail:
	drop_connection(w, false);
	return -1;
}

/* Sizes w's batch for its strategy's largest claim, when its claims take batches. 0, or -1 out of memory. */
static int alloc_batch(struct worker *w)
{
	const struct strategy_ops *st = w->shared->strategy;

	if (!st->claim_batch)
		return 0;
	w->batch_max = st->batch_max(w->shared->strategy_config);
	w->batch = calloc((size_t)w->batch_max, sizeof(*w->batch));
	w->batch_execs = calloc((size_t)w->batch_max, sizeof(*w->batch_execs));
	return w->batch && w->batch_execs ? 0 : -1;
}

/* Frees what alloc_batch allocated. */
static void free_batch(struct worker *w)
{
	free(w->batch);
	free(w->batch_execs);
	w->batch = NULL;
	w->batch_execs = NULL;
}

int worker_open(struct worker *w, struct run_shared *shared, int index, size_t expected_execs,
		size_t expected_empties, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->index = index;
	w->queue = shared->cfg->queues[index % shared->cfg->n_queues];
	w->shared = shared;
	take_identity(w, index);
	hist_init(&w->stats.claim_latency);
	live_counters_init(&w->live);
	atomic_init(&w->finished, false);
	atomic_init(&w->saw_stop, false);
	atomic_init(&w->pending_fault, 0);
	atomic_init(&w->kill_requested, false);
	atomic_init(&w->server_pid, -1);
	atomic_init(&w->killed_pid, -1);
	atomic_init(&w->job_in_hand, 0);
	if (ledger_init(&w->ledger, expected_execs, expected_empties, 64) < 0) {
		snprintf(err, errlen, "out of memory for the ledger");
		return -1;
	}
	if (alloc_batch(w) < 0) {
		snprintf(err, errlen, "out of memory for the batch");
		goto fail_batch;
	}
	if (connect_worker(w, err, errlen) < 0)
		goto fail_batch;
	if (start_strategy(w, err, errlen) < 0)
		goto fail_connection;
	return 0;
fail_connection:
	drop_connection(w, false);
fail_batch:
	free_batch(w);
	ledger_free(&w->ledger);
	return -1;
}

void worker_close(struct worker *w)
{
	stop_strategy(w);
	drop_connection(w, false);
	free_batch(w);
	ledger_free(&w->ledger);
}

void worker_abort(struct worker *w, const char *reason)
{
	w->aborted = true;
	snprintf(w->abort_reason, sizeof(w->abort_reason), "worker %d: %.200s", w->index, reason);
}

void worker_abort_strategy(struct worker *w, const char *reason)
{
	worker_abort(w, reason);
	w->aborted_by_strategy = true;
}

bool worker_lost_connection(const struct worker *w)
{
	return !w->conn || w->shared->db->error_kind(w->conn) == ERR_CONNECTION_LOST;
}

bool worker_session_killed(const struct worker *w)
{
	int pid = atomic_load(&w->server_pid);

	return pid > 0 && atomic_load(&w->killed_pid) == pid;
}

int worker_reconnect(struct worker *w)
{
	char err[512];

	run_note_loss(w->shared, w->conn ? w->shared->db->error_message(w->conn) : "the worker crashed");
	drop_connection(w, false);
	if (run_reconnect(w->shared, connect_worker, w, err, sizeof(err)) < 0) {
		if (*err)
			worker_abort(w, err);
		return -1;
	}
	w->stats.reconnects++;
	return 0;
}

int worker_respawn(struct worker *w)
{
	char err[256];

	drop_connection(w, true);
	stop_strategy(w);
	if (!worker_pause_ns(w, MS_TO_NS(w->shared->cfg->faults.respawn_ms)))
		return -1;
	take_identity(w, atomic_fetch_add(&w->shared->next_identity, 1));
	if (start_strategy(w, err, sizeof(err)) < 0) {
		worker_abort(w, err);
		return -1;
	}
	return worker_reconnect(w);
}

/*
 * Counts the error just met on w's connection by kind and notes its instant in w's
 * ledger; an error met once the run is stopping (a cancelled statement) is not counted.
 */
static void count_error(struct worker *w)
{
	if (run_stopping(&w->shared->gate))
		return;
	session_count_error(w->shared->db, w->conn, w->stats.errors);
	live_add(&w->live.errors, 1);
	if (ledger_add_error(&w->ledger, clock_now_ns() - w->shared->gate.start_ns) < 0)
		w->ledger_full = true;
}

/* Whether w sends its transactions' statements in pipelines (--pipeline, where the driver has them). */
static bool pipelined(const struct worker *w)
{
	return w->shared->cfg->db_opts.pipeline && w->shared->db->exec_pipeline;
}

int worker_exec(struct worker *w, int slot, int nparams, const char *const *params, int64_t *out, int nout)
{
	return worker_exec_rows(w, slot, nparams, params, out, nout, 1);
}

int worker_exec_rows(struct worker *w, int slot, int nparams, const char *const *params, int64_t *out, int ncols,
		     int maxrows)
{
	const struct backend_ops *db = w->shared->db;
	int rows;

	w->stats.round_trips++;
	if (w->begin_pending) {
		const struct db_step steps[] = { { SLOT_BEGIN, 0, NULL }, { slot, nparams, params } };

		w->begin_pending = false;
		w->stats.statements += 2;
		rows = db->exec_pipeline(w->conn, steps, 2, 1, out, ncols, maxrows);
	} else {
		w->stats.statements++;
		rows = db->exec_rows(w->conn, slot, nparams, params, out, ncols, maxrows);
	}
	if (rows < 0)
		count_error(w);
	return rows;
}

int worker_wait_notification(struct worker *w, int64_t timeout_ns)
{
	int rc = w->shared->db->wait_notification(w->conn, timeout_ns);

	if (rc < 0)
		count_error(w);
	return rc;
}

int worker_begin(struct worker *w)
{
	if (pipelined(w)) {
		w->begin_pending = true;
		return 0;
	}
	return worker_exec(w, SLOT_BEGIN, 0, NULL, NULL, 0) < 0 ? -1 : 0;
}

int worker_commit(struct worker *w)
{
	int64_t sent;

	if (w->begin_pending) {
		w->begin_pending = false;
		return 0;
	}
	sent = clock_now_ns();
	w->settle_sent_ns = sent;
	if (worker_exec(w, SLOT_COMMIT, 0, NULL, NULL, 0) >= 0)
		return 0;
	worker_rollback(w);
	/* a COMMIT that failed may have ended the transaction itself (PostgreSQL) */
	w->settle_sent_ns = sent;
	return -1;
}

int worker_rollback(struct worker *w)
{
	if (w->begin_pending) {
		w->begin_pending = false;
		return 0;
	}
	w->settle_sent_ns = clock_now_ns();
	return worker_exec(w, SLOT_ROLLBACK, 0, NULL, NULL, 0) < 0 ? -1 : 0;
}

int worker_exec_commit(struct worker *w, int slot, int nparams, const char *const *params, int64_t *out, int nout)
{
	struct db_step steps[3];
	int n = 0, result, rows;
	int64_t sent;

	if (!pipelined(w)) {
		rows = worker_exec(w, slot, nparams, params, out, nout);
		if (rows < 0) {
			worker_rollback(w);
			return -1;
		}
		return worker_commit(w) < 0 ? -1 : rows;
	}
	if (w->begin_pending)
		steps[n++] = (struct db_step){ SLOT_BEGIN, 0, NULL };
	result = n;
	steps[n++] = (struct db_step){ slot, nparams, params };
	steps[n++] = (struct db_step){ SLOT_COMMIT, 0, NULL };
	w->begin_pending = false;
	w->stats.statements += (uint64_t)n;
	w->stats.round_trips++;
	sent = clock_now_ns();
	w->settle_sent_ns = sent;
	rows = w->shared->db->exec_pipeline(w->conn, steps, n, result, out, nout, 1);
	if (rows >= 0)
		return rows;
	count_error(w);
	worker_rollback(w);
	w->settle_sent_ns = sent;
	return -1;
}

const char *worker_id_text(char *buf, int64_t id)
{
	snprintf(buf, 24, "%" PRId64, id);
	return buf;
}

bool worker_pause_ns(struct worker *w, int64_t duration_ns)
{
	return run_pause_ns(&w->shared->gate, duration_ns);
}

void worker_note_attempt(struct worker *w, int64_t attempt)
{
	w->attempt = attempt;
	worker_id_text(w->attempt_text, attempt);
}

int worker_mark_active(struct worker *w, int64_t job_id, bool commit)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->identity_text };
	int64_t attempt = 0;
	int rows = commit ? worker_exec_commit(w, SLOT_MARK_ACTIVE, 2, params, &attempt, 1)
			  : worker_exec(w, SLOT_MARK_ACTIVE, 2, params, &attempt, 1);

	if (rows == 1)
		worker_note_attempt(w, attempt);
	return rows;
}

int worker_outcome(struct worker *w, int slot, int64_t job_id)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->identity_text, w->attempt_text };
	int fence = w->shared->cfg->recovery.fence;

	return worker_exec(w, slot, outcome_statements[fence][0].nparams, params, NULL, 0);
}

int worker_finished_by_claim(struct worker *w, int slot, int64_t job_id)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->identity_text, w->attempt_text };
	int64_t finished = 0;
	int rows = worker_exec(w, SLOT_FINISHED_BY, 3, params, &finished, 1);

	if (rows < 0)
		return -1;
	return rows == 1 && finished == (slot == SLOT_COMPLETE ? 1 : 2);
}

int worker_finish(struct worker *w, int64_t job_id, int slot)
{
	return worker_settle(w, worker_outcome(w, slot, job_id));
}

int worker_settle(struct worker *w, int rows)
{
	if (w->shared->mode == MODE_HOLD) {
		if (rows == 1)
			return worker_commit(w);
		worker_rollback(w);
	}
	return rows == 1 ? 0 : rows == 0 ? 1 : -1;
}

