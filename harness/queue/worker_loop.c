/*
 * The worker thread: waits at the start gate, then claim -> work -> complete until the
 * queue is drained, the time is up or the run stops; errors are retried, a lost
 * connection made anew, and a worker that cannot go on stops with its reason.
 */
#include <stdio.h>

#include "base/clock.h"
#include "queue/job.h"
#include "queue/worker_loop.h"

/*
 * After an empty claim in a drain run: true when the producers are done and the table
 * holds no unfinished job of w's class (new, or with leases active too: one may come
 * back). The producers' flag is read first, with acquire order, so that the count sees
 * every insert they committed.
 */
static bool drained(struct worker *w, bool *failed)
{
	const char *params[] = { w->queue };
	int64_t remaining = -1;

	*failed = false;
	if (atomic_load_explicit(&w->shared->producers_running, memory_order_acquire) > 0)
		return false;
	*failed = worker_exec(w, SLOT_COUNT_UNFINISHED, 1, params, &remaining, 1) != 1;
	return !*failed && remaining == 0;
}

/*
 * After an error: whether w must stop (and why, in its abort reason). A lost connection
 * is made anew; lock contention is what strategies are measured on, so it is retried for
 * as long as WORKER_STALL_NS passes with no success; other errors end the worker after
 * WORKER_MAX_CONSECUTIVE_ERRORS in a row. Either of those two ends is the strategy's own
 * (worker_abort_strategy); a connection that cannot be made again is its environment's.
 */
static bool gives_up(struct worker *w, int *consecutive_errors, int64_t last_success)
{
	const struct run_shared *s = w->shared;
	enum error_kind kind = s->db->error_kind(w->conn);
	char reason[sizeof(w->abort_reason)];

	if (kind == ERR_CONNECTION_LOST)
		return worker_reconnect(w) < 0;
	if (error_kind_is_contention(kind)) {
		if (clock_now_ns() - last_success < WORKER_STALL_NS)
			return false;
		snprintf(reason, sizeof(reason), "no success for %lld s of lock contention, the last: %s",
			 WORKER_STALL_NS / 1000000000LL, s->db->error_message(w->conn));
		worker_abort_strategy(w, reason);
		return true;
	}
	if (++*consecutive_errors < WORKER_MAX_CONSECUTIVE_ERRORS)
		return false;
	snprintf(reason, sizeof(reason), "%d errors in a row, the last: %s", *consecutive_errors,
		 s->db->error_message(w->conn));
	worker_abort_strategy(w, reason);
	return true;
}

/*
 * Notes an empty claim made from claim_start to claim_end, begun after the critical
 * instants were as before, into w's ledger, grouped with those before it as it may be.
 * 0, or -1 when the ledger cannot grow.
 */
static int note_empty(struct worker *w, int64_t claim_start, int64_t claim_end, struct instants_snapshot before)
{
	struct run_shared *s = w->shared;
	struct empty_claim e = {
		.start_ns = claim_start - s->gate.start_ns,
		.end_ns = claim_end - s->gate.start_ns,
		.worker = w->index,
		.count = 1,
	};

	w->stats.empty++;
	live_add(&w->live.empty, 1);
	return empty_groups_add(&w->empty_groups, &w->ledger, &e, before, &s->instants, w->index, s->gate.start_ns);
}

/*
 * After an empty claim: waits for new work the strategy's way (idle_wait) or sleeps the
 * poll interval. 0, or -1 with the error counted on w's connection.
 */
static int wait_for_work(struct worker *w)
{
	const struct run_shared *s = w->shared;

	if (s->strategy->idle_wait)
		return s->strategy->idle_wait(w);
	worker_pause_ns(w, MS_TO_NS(s->cfg->empty_wait_ms));
	return 0;
}

/* The thread: the claim loop from the start barrier to the end of the run. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run_shared *s = w->shared;
	int consecutive_errors = 0, empty_streak = 0;
	int64_t last_success, cpu_start;

	run_wait_gate(&s->gate);
	empty_groups_reset(&w->empty_groups);
	cpu_start = clock_thread_cpu_ns();
	last_success = clock_now_ns();
	while (!run_stopping(&s->gate)) {
		int64_t job_id = 0, claim_start = clock_now_ns(), claim_end;
		enum claim_result r;
		bool failed = false;
		int n = 1;

		struct instants_snapshot before;

		if (s->gate.deadline_ns && claim_start >= s->gate.deadline_ns)
			break;
		w->held_flags = 0;
		before = instants_snapshot(&s->instants);
		claim_start = instants_claim_begin(&s->instants, w->index);
		r = s->strategy->claim_batch ? s->strategy->claim_batch(w, w->batch, w->batch_max, &n)
					     : s->strategy->claim(w, &job_id);
		claim_end = instants_claim_end(&s->instants, w->index, r == CLAIM_OK);
		w->stats.claims++;
		if (r != CLAIM_EMPTY)
			empty_streak = 0;
		if (r == CLAIM_OK) {
			empty_groups_reset(&w->empty_groups);
			if (!run_stopping(&s->gate) && claim_start >= s->gate.measured_from_ns)
				hist_record(&w->stats.claim_latency, claim_end - claim_start);
			live_add(&w->live.claimed, 1);
			live_add(&w->live.claim_ns, (uint64_t)(claim_end - claim_start));
			if ((s->strategy->claim_batch ? worker_execute_batch(w, n, claim_start, claim_end)
						      : worker_execute(w, job_id, claim_start, claim_end)) < 0)
				break;
		} else if (r == CLAIM_EMPTY) {
			if (note_empty(w, claim_start, claim_end, before) < 0) {
				worker_abort(w, "out of memory for the ledger");
				break;
			}
			if (empty_streak < s->cfg->empty_retries) {
				empty_streak++;
				w->stats.retries++;
				continue;
			}
			empty_streak = 0;
			if (!s->gate.deadline_ns && drained(w, &failed))
				break;
			if (!failed)
				failed = wait_for_work(w) < 0;
		} else if (r == CLAIM_ERROR) {
			if (w->aborted)	/* the claim broke its contract with the harness */
				break;
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
		if (w->conn && error_kind_is_contention(s->db->error_kind(w->conn)))
			worker_pause_ns(w, MS_TO_NS(s->cfg->empty_wait_ms));
	}
	w->stats.cpu_ns += clock_thread_cpu_ns() - cpu_start;
	worker_count_waits(w);
	server_costs_flush(s, w->conn);
	atomic_store(&w->saw_stop, true);
	atomic_store(&w->finished, true);
	return NULL;
}

int worker_start(struct worker *w)
{
	return pthread_create(&w->thread, NULL, worker_main, w) == 0 ? 0 : -1;
}
