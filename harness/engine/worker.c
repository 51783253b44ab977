/* The worker thread: connect, prepare, wait at the barrier, then claim -> work -> complete. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "engine/signals.h"
#include "engine/sql_template.h"
#include "engine/workload.h"
#include "engine/worker.h"

/* Longest expanded statement. */
#define SQL_MAX 2048

/* The statements every worker prepares whatever its strategy. */
static const struct strategy_statement harness_statements[] = {
	{ SLOT_COUNT_NEW, 1, SQL_ANY("SELECT count(*) FROM {jobs} WHERE queue = $1 AND status = 'new'") },
	{ SLOT_MARK_ACTIVE, 2, SQL_ANY("UPDATE {jobs} SET status = 'active', claimed_by = $2, "
				"claimed_at = {now}, attempts = attempts + 1 WHERE id = $1") },
	{ SLOT_COMPLETE, 2, SQL_ANY("UPDATE {jobs} SET status = 'done', done_at = {now} "
				"WHERE id = $1 AND status = 'active' AND claimed_by = $2 RETURNING id") },
	{ SLOT_FREE, 2, SQL_ANY("UPDATE {jobs} SET status = 'new', claimed_by = NULL "
				"WHERE id = $1 AND status = 'active' AND claimed_by = $2") },
	{ SLOT_FAIL, 2, SQL_ANY("UPDATE {jobs} SET status = 'error', done_at = {now} "
				"WHERE id = $1 AND status = 'active' AND claimed_by = $2 RETURNING id") },
};

/* Prepares n statements on w's connection in the backend's dialect. 0, or -1 with err. */
static int prepare_all(struct worker *w, const struct strategy_statement *st, size_t n, char *err, size_t errlen)
{
	const struct run_shared *s = w->shared;
	char sql[SQL_MAX];

	for (size_t i = 0; i < n; i++) {
		const char *tmpl = st[i].sql[s->db->kind];

		if (!tmpl) {
			snprintf(err, errlen, "statement %d has no %s form", st[i].slot, s->db->name);
			return -1;
		}
		if (sql_expand(tmpl, &s->names, sql, sizeof(sql)) < 0) {
			snprintf(err, errlen, "statement %d is too long", st[i].slot);
			return -1;
		}
		if (s->db->prepare(w->conn, st[i].slot, sql, st[i].nparams) < 0) {
			snprintf(err, errlen, "preparing statement %d: %s", st[i].slot, s->db->error_message(w->conn));
			return -1;
		}
	}
	return 0;
}

int worker_open(struct worker *w, struct run_shared *shared, int index, const char *target,
		size_t expected_execs, size_t expected_empties, char *err, size_t errlen)
{
	const struct strategy_ops *st = shared->strategy;

	memset(w, 0, sizeof(*w));
	w->index = index;
	w->queue = shared->cfg->queues[index % shared->cfg->n_queues];
	w->shared = shared;
	snprintf(w->index_text, sizeof(w->index_text), "%d", index);
	hist_init(&w->stats.claim_latency);
	atomic_init(&w->progress, 0);
	atomic_init(&w->finished, false);
	atomic_init(&w->saw_stop, false);
	if (ledger_init(&w->ledger, expected_execs, expected_empties, 64) < 0) {
		snprintf(err, errlen, "out of memory for the ledger");
		return -1;
	}
	if (shared->db->connect(target, &shared->cfg->db_opts, &w->conn, err, errlen) < 0)
		goto fail;
	if (signals_watch(shared->db, w->conn) < 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (prepare_all(w, harness_statements, sizeof(harness_statements) / sizeof(harness_statements[0]),
			err, errlen) < 0)
		goto fail;
	if (prepare_all(w, st->statements, st->n_statements, err, errlen) < 0)
		goto fail;
	if (st->worker_init) {
		if (st->worker_init(w, err, errlen) < 0)
			goto fail;
		w->strategy_ready = true;
	}
	return 0;
fail:
	worker_close(w);
	return -1;
}

void worker_close(struct worker *w)
{
	if (w->strategy_ready && w->shared->strategy->worker_cleanup)
		w->shared->strategy->worker_cleanup(w);
	w->strategy_ready = false;
	if (w->conn) {
		signals_unwatch(w->conn);
		w->shared->db->disconnect(w->conn);
	}
	w->conn = NULL;
	ledger_free(&w->ledger);
}

bool run_stopping(const struct run_shared *s)
{
	return atomic_load_explicit(&s->stop, memory_order_relaxed) || signals_interrupted();
}

/*
 * Counts the error just met on w's connection by kind and notes its instant in w's
 * ledger; an error met once the run is stopping (a cancelled statement) is not counted.
 */
static void count_error(struct worker *w)
{
	if (run_stopping(w->shared))
		return;
	w->stats.errors[w->shared->db->error_kind(w->conn)]++;
	if (ledger_add_error(&w->ledger, clock_now_ns() - w->shared->start_ns) < 0)
		w->ledger_full = true;
}

int worker_exec(struct worker *w, int slot, int nparams, const char *const *params, int64_t *out, int nout)
{
	int rows = w->shared->db->exec_prepared(w->conn, slot, nparams, params, out, nout);

	if (rows < 0)
		count_error(w);
	return rows;
}

int worker_sql(struct worker *w, const char *sql)
{
	if (w->shared->db->exec(w->conn, sql) < 0) {
		count_error(w);
		return -1;
	}
	return 0;
}

int worker_begin(struct worker *w)
{
	const char *begin = w->shared->strategy->begin_sql[w->shared->db->kind];

	return worker_sql(w, begin ? begin : "BEGIN");
}

int worker_commit(struct worker *w)
{
	if (worker_sql(w, "COMMIT") == 0)
		return 0;
	worker_sql(w, "ROLLBACK");
	return -1;
}

const char *worker_id_text(char *buf, int64_t id)
{
	snprintf(buf, 24, "%" PRId64, id);
	return buf;
}

bool worker_pause_ns(struct worker *w, int64_t duration_ns)
{
	int64_t until = clock_now_ns() + duration_ns;

	for (;;) {
		int64_t left = until - clock_now_ns();

		if (run_stopping(w->shared))
			return false;
		if (left <= 0)
			return true;
		clock_sleep_ns(left < WORKER_WAKE_NS ? left : WORKER_WAKE_NS);
	}
}

int worker_finish(struct worker *w, int64_t job_id, int slot)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->index_text };
	int rows = worker_exec(w, slot, 2, params, NULL, 0);

	if (w->shared->mode == MODE_HOLD) {
		if (rows == 1)
			return worker_commit(w);
		worker_sql(w, "ROLLBACK");
	}
	return rows == 1 ? 0 : -1;
}

/* Stops w with reason; the run will be marked incomplete. */
static void worker_abort(struct worker *w, const char *reason)
{
	w->aborted = true;
	snprintf(w->abort_reason, sizeof(w->abort_reason), "worker %d: %.200s", w->index, reason);
}

/* Gives the job in hand back, its work cut short by a stop: rolled back in hold mode, freed in flip mode. */
static void give_back(struct worker *w, int64_t job_id)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->index_text };

	atomic_store(&w->saw_stop, true);
	if (w->shared->mode == MODE_HOLD)
		worker_sql(w, "ROLLBACK");
	else
		worker_exec(w, SLOT_FREE, 2, params, NULL, 0);
}

/*
 * Executes the job in hand: work, complete, note it in the ledger; or, when the run
 * stops during the work, give the job back. 0, or -1 when the ledger cannot grow.
 */
static int execute(struct worker *w, int64_t job_id, int64_t claim_start, int64_t in_hand)
{
	const struct run_shared *s = w->shared;
	const struct strategy_ops *st = s->strategy;
	struct execution e = {
		.job_id = job_id,
		.claim_start_ns = claim_start - s->start_ns,
		.start_ns = in_hand - s->start_ns,
		.worker = w->index,
	};
	bool fails = s->pass == 1 && workload_fails(s->cfg->seed, job_id, s->cfg->fail_rate);
	int slot = fails ? SLOT_FAIL : SLOT_COMPLETE;
	int64_t end;
	int rc;

	if (job_id >= 1 && job_id <= s->backlog + s->arrivals && !worker_pause_ns(w, s->work_ns[job_id - 1])) {
		give_back(w, job_id);
		end = clock_now_ns();
		e.end_ns = end - s->start_ns;
		e.outcome = EXEC_INTERRUPTED;
		w->stats.busy_ns += end - in_hand;
		return ledger_add_execution(&w->ledger, &e);
	}
	rc = st->finish ? st->finish(w, job_id, slot) : worker_finish(w, job_id, slot);
	end = clock_now_ns();
	e.end_ns = end - s->start_ns;
	e.outcome = rc < 0 ? EXEC_UNCOMMITTED : fails ? EXEC_FAILED : EXEC_DONE;
	w->stats.busy_ns += end - in_hand;
	if (rc == 0 && !fails) {
		w->stats.completed++;
		atomic_store_explicit(&w->progress, w->stats.completed, memory_order_relaxed);
	}
	return ledger_add_execution(&w->ledger, &e);
}

/*
 * After an empty claim in a drain run: true when the producers are done and the table
 * holds no job in state new. The producers' flag is read first, with acquire order, so
 * that the count sees every insert they committed.
 */
static bool drained(struct worker *w, bool *failed)
{
	const char *params[] = { w->queue };
	int64_t remaining = -1;

	*failed = false;
	if (atomic_load_explicit(&w->shared->producers_running, memory_order_acquire) > 0)
		return false;
	*failed = worker_exec(w, SLOT_COUNT_NEW, 1, params, &remaining, 1) != 1;
	return !*failed && remaining == 0;
}

/*
 * After an error: whether w must stop (and why, in its abort reason). Lock contention is
 * what strategies are measured on, so it is retried for as long as WORKER_STALL_NS passes
 * with no success; other errors end the worker after WORKER_MAX_CONSECUTIVE_ERRORS in a
 * row, a lost connection at once.
 */
static bool gives_up(struct worker *w, int *consecutive_errors, int64_t last_success)
{
	const struct run_shared *s = w->shared;
	enum error_kind kind = s->db->error_kind(w->conn);
	char reason[sizeof(w->abort_reason)];

	if (kind == ERR_CONNECTION_LOST) {
		worker_abort(w, s->db->error_message(w->conn));
		return true;
	}
	if (error_kind_is_contention(kind)) {
		if (clock_now_ns() - last_success < WORKER_STALL_NS)
			return false;
		snprintf(reason, sizeof(reason), "no success for %lld s of lock contention, the last: %s",
			 WORKER_STALL_NS / 1000000000LL, s->db->error_message(w->conn));
		worker_abort(w, reason);
		return true;
	}
	if (++*consecutive_errors < WORKER_MAX_CONSECUTIVE_ERRORS)
		return false;
	snprintf(reason, sizeof(reason), "%d errors in a row, the last: %s", *consecutive_errors,
		 s->db->error_message(w->conn));
	worker_abort(w, reason);
	return true;
}

/* The thread: the claim loop from the start barrier to the end of the run. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run_shared *s = w->shared;
	int consecutive_errors = 0, empty_streak = 0;
	int64_t last_success;

	worker_wait_gate(s);
	last_success = clock_now_ns();
	while (!run_stopping(w->shared)) {
		int64_t job_id = 0, claim_start = clock_now_ns(), claim_end;
		enum claim_result r;
		bool failed = false;

		if (s->deadline_ns && claim_start >= s->deadline_ns)
			break;
		r = s->strategy->claim(w, &job_id);
		claim_end = clock_now_ns();
		w->stats.claims++;
		if (r != CLAIM_EMPTY)
			empty_streak = 0;
		if (r == CLAIM_OK) {
			if (!run_stopping(s))
				hist_record(&w->stats.claim_latency, claim_end - claim_start);
			if (execute(w, job_id, claim_start, claim_end) < 0) {
				worker_abort(w, "out of memory for the ledger");
				break;
			}
		} else if (r == CLAIM_EMPTY) {
			struct empty_claim e = {
				.start_ns = claim_start - s->start_ns,
				.end_ns = claim_end - s->start_ns,
				.worker = w->index,
			};

			w->stats.empty++;
			if (ledger_add_empty(&w->ledger, &e) < 0) {
				worker_abort(w, "out of memory for the ledger");
				break;
			}
			if (empty_streak < s->cfg->empty_retries) {
				empty_streak++;
				w->stats.retries++;
				continue;
			}
			empty_streak = 0;
			if (!s->deadline_ns && drained(w, &failed))
				break;
			if (!failed)
				worker_pause_ns(w, MS_TO_NS(s->cfg->empty_wait_ms));
		} else if (r == CLAIM_ERROR) {
			failed = true;
		} else if (r == CLAIM_BUSY) {
			worker_pause_ns(w, MS_TO_NS(s->cfg->empty_wait_ms));
			continue;
		}
		if (w->ledger_full) {
			worker_abort(w, "out of memory for the ledger");
			break;
		}
		if (!failed) {
			consecutive_errors = 0;
			last_success = clock_now_ns();
			continue;
		}
		if (gives_up(w, &consecutive_errors, last_success))
			break;
		if (error_kind_is_contention(s->db->error_kind(w->conn)))
			worker_pause_ns(w, MS_TO_NS(s->cfg->empty_wait_ms));
	}
	atomic_store(&w->saw_stop, true);
	atomic_store(&w->finished, true);
	return NULL;
}

int worker_start(struct worker *w)
{
	return pthread_create(&w->thread, NULL, worker_main, w) == 0 ? 0 : -1;
}

void worker_wait_gate(struct run_shared *s)
{
	pthread_mutex_lock(&s->gate_lock);
	while (!s->gate_open)
		pthread_cond_wait(&s->gate_opened, &s->gate_lock);
	pthread_mutex_unlock(&s->gate_lock);
}

void worker_open_gate(struct run_shared *s, int64_t duration_ns)
{
	pthread_mutex_lock(&s->gate_lock);
	s->start_ns = clock_now_ns();
	s->deadline_ns = duration_ns > 0 ? s->start_ns + duration_ns : 0;
	s->gate_open = true;
	pthread_cond_broadcast(&s->gate_opened);
	pthread_mutex_unlock(&s->gate_lock);
}
