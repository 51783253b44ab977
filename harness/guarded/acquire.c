#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "engine/session.h"
#include "guarded/acquire.h"

/* The settings of w's run. */
const struct guarded_plan *guarded_plan_of(const struct guarded_worker *w)
{
	return &w->g->cfg->guarded;
}

/* Now, in ns after the start barrier. */
int64_t guarded_now(const struct guarded_worker *w)
{
	return clock_now_ns() - w->g->gate.start_ns;
}

/* Whether w should begin nothing new: the run is stopping or its time is up. */
bool guarded_time_up(const struct guarded_worker *w)
{
	const struct run_gate *s = &w->g->gate;

	return run_stopping(s) || (s->deadline_ns && clock_now_ns() >= s->deadline_ns);
}

/* Whether w is exclusive-use's refresher. */
bool guarded_is_refresher(const struct guarded_worker *w)
{
	return guarded_plan_of(w)->workload == WORKLOAD_EXCLUSIVE_USE && w->seat == 0;
}

/* The guard's lock that w takes: the writer's for exclusive-use's refresher, else the user's. */
const struct guard_lock *guarded_lock_of(const struct guarded_worker *w)
{
	return guarded_is_refresher(w) ? &w->g->guard->writer : &w->g->guard->user;
}

/* The stale period current at rel_ns: 1 from the start, one more every stale interval. */
int32_t guarded_period_at(const struct guarded_worker *w, int64_t rel_ns)
{
	return (int32_t)(rel_ns / ((int64_t)guarded_plan_of(w)->stale_ms * 1000000) + 1);
}

/* Marks w aborted, for reason. */
void guarded_abort(struct guarded_worker *w, const char *what)
{
	w->aborted = true;
	snprintf(w->abort_reason, sizeof(w->abort_reason), "worker %d: %s: %.300s", w->seat, what,
		 w->conn ? w->g->db->error_message(w->conn) : "not connected");
}

/*
 * Runs the prepared statement of slot with the n params (text); copies up to ncols columns
 * of its first row into out. Its rows, or -1.
 */
int guarded_exec(struct guarded_worker *w, enum guarded_slot slot, const char *const *params, int n,
		    int64_t *out, int ncols)
{
	int64_t none;

	return w->g->db->exec_rows(w->conn, (int)slot, n, params, out ? out : &none, out ? ncols : 0,
					out ? 1 : 0);
}

/* run_slot for the statements with two integer parameters. Rows, or -1. */
int guarded_exec2(struct guarded_worker *w, enum guarded_slot slot, int64_t a, int64_t b)
{
	char ta[24], tb[24];
	const char *params[2] = { ta, tb };

	snprintf(ta, sizeof(ta), "%lld", (long long)a);
	snprintf(tb, sizeof(tb), "%lld", (long long)b);
	return guarded_exec(w, slot, params, 2, NULL, 0);
}

/* Counts the error on w's connection; returns its kind. */
enum error_kind guarded_count_error(struct guarded_worker *w)
{
	return session_count_error(w->g->db, w->conn, w->errors);
}

/* Keeps a as w's; grows the array when full (rarely). 0, or -1 when out of memory (w aborted). */
int guarded_record(struct guarded_worker *w, const struct acquisition *a)
{
	if (w->n_acqs == w->cap_acqs) {
		size_t cap = w->cap_acqs ? 2 * w->cap_acqs : 1024;
		struct acquisition *more = realloc(w->acqs, cap * sizeof(*more));

		if (!more) {
			w->aborted = true;
			snprintf(w->abort_reason, sizeof(w->abort_reason), "worker %d: out of memory for its acquisitions",
				 w->seat);
			return -1;
		}
		w->acqs = more;
		w->cap_acqs = cap;
	}
	w->acqs[w->n_acqs++] = *a;
	return 0;
}

/* A new acquisition of resource by w, asked now. */
struct acquisition guarded_asked(const struct guarded_worker *w, int resource, enum acq_mode mode,
				  enum acq_role role)
{
	return (struct acquisition){
		.start_ns = guarded_now(w), .grant_ns = -1, .release_ns = -1, .worker = w->seat, .resource = resource,
		.mode = (uint8_t)mode, .role = (uint8_t)role, .outcome = ACQ_WAITING,
	};
}

/* The next cache version w writes: unique to the refresh, of the worker and its count. */
int64_t guarded_next_version(struct guarded_worker *w)
{
	return ((int64_t)(w->seat + 1) << 32) | (int64_t)++w->refreshes;
}

/* How long w's statements wait for a held lock while taking l, in set_lock_wait's terms. */
int guarded_lock_wait_ms(const struct guarded_worker *w, const struct guard_lock *l)
{
	switch (l->wait) {
	case GUARD_WAIT_LIMIT:
		return guarded_plan_of(w)->wait_limit_ms;
	case GUARD_RETRIES:
	case GUARD_REFUSES:
		return w->g->db->kind == BACKEND_SQLITE ? 0 : -1;
	default:
		return -1;
	}
}

/*
 * Tries l for a until it is granted or l gives up, as guarded_take() says; each try counted in
 * a->polls.
 */
static enum acq_outcome try_lock(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	enum backend_kind k = w->g->db->kind;
	enum guarded_slot begin = l == &w->g->guard->writer ? GSLOT_BEGIN_WRITER : GSLOT_BEGIN_USER;
	enum guarded_slot lock = l == &w->g->guard->writer ? GSLOT_LOCK_WRITER : GSLOT_LOCK_USER;
	enum error_kind kind;

	for (;;) {
		a->polls++;
		if (!l->begin_sql[k] || (guarded_exec(w, begin, NULL, 0, NULL, 0) >= 0 &&
					 (!l->lock_sql[k] || guarded_exec(w, lock, NULL, 0, NULL, 0) >= 0)))
			return ACQ_GRANTED;
		kind = guarded_count_error(w);
		guarded_exec(w, GSLOT_ROLLBACK, NULL, 0, NULL, 0);
		if (run_stopping(&w->g->gate))
			return ACQ_WAITING;
		if (!error_kind_is_contention(kind))
			return ACQ_ERROR;
		if (l->wait == GUARD_REFUSES)
			return ACQ_REFUSED;
		if (l->wait != GUARD_RETRIES)
			return ACQ_TIMEOUT;
		if (!run_pause_ns(&w->g->gate, (int64_t)guarded_plan_of(w)->retry_ms * 1000000) || guarded_time_up(w))
			return ACQ_WAITING;
	}
}

/*
 * Takes lock l for a (its begin, then its lock statement), meeting a held lock as l
 * says: ACQ_GRANTED with a->grant_ns set, inside the lock's transaction when it has one;
 * ACQ_TIMEOUT, ACQ_REFUSED, ACQ_WAITING (the run ended while retrying) or ACQ_ERROR with
 * the transaction rolled back. On SQLite the busy wait l asks for holds while taking it
 * only (PostgreSQL's lock_timeout is the connection's, set once: its NOWAIT is in the SQL).
 */
enum acq_outcome guarded_take(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	const struct backend_ops *db = w->g->db;
	bool own_wait = db->kind == BACKEND_SQLITE && guarded_lock_wait_ms(w, l) >= 0;
	enum acq_outcome outcome;

	if (own_wait)
		db->set_lock_wait(w->conn, guarded_lock_wait_ms(w, l));
	outcome = try_lock(w, l, a);
	if (own_wait)
		db->set_lock_wait(w->conn, -1);
	if (outcome == ACQ_GRANTED)
		a->grant_ns = guarded_now(w);
	return outcome;
}

/*
 * Ends a's hold: notes the release instant and commits l's transaction. 0, or -1 when the
 * commit failed (rolled back, a recorded as an error, w aborted).
 */
int guarded_release(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	a->release_ns = guarded_now(w);
	a->outcome = ACQ_GRANTED;
	if (l->begin_sql[w->g->db->kind] && guarded_exec(w, GSLOT_COMMIT, NULL, 0, NULL, 0) < 0) {
		guarded_count_error(w);
		guarded_abort(w, "commit");
		guarded_exec(w, GSLOT_ROLLBACK, NULL, 0, NULL, 0);
		a->outcome = ACQ_ERROR;
		guarded_record(w, a);
		return -1;
	}
	return 0;
}

/* Fails a's cycle on a statement's error: rolls back, records it as an error and aborts w. -1. */
int guarded_fail(struct guarded_worker *w, struct acquisition *a, const char *what)
{
	guarded_count_error(w);
	guarded_abort(w, what);
	guarded_exec(w, GSLOT_ROLLBACK, NULL, 0, NULL, 0);
	a->outcome = ACQ_ERROR;
	a->release_ns = guarded_now(w);
	guarded_record(w, a);
	return -1;
}

/*
 * Ends a's cycle on the error of the use that followed its release: a keeps its outcome
 * (its hold was done), the error is counted and w aborted. -1.
 */
int guarded_use_failed(struct guarded_worker *w, struct acquisition *a)
{
	guarded_count_error(w);
	guarded_abort(w, "using the cache");
	guarded_record(w, a);
	return -1;
}

/* Reads the cache and judges what a use of it saw against the period its check saw. 0, or -1. */
int guarded_read_cache(struct guarded_worker *w, int64_t seen_period, uint8_t *seen)
{
	int64_t row[4];

	if (guarded_exec(w, GSLOT_READ_CACHE, NULL, 0, row, 4) != 1)
		return -1;
	if (row[3] != CACHE_SLOTS || row[0] != row[1])
		*seen = USE_TORN;
	else
		*seen = row[2] < seen_period ? USE_STALE : USE_FRESH;
	return 0;
}

/* Records a, ended as outcome, when the lock was not granted. 0, or -1 when that is the worker's end. */
int guarded_not_granted(struct guarded_worker *w, struct acquisition *a, enum acq_outcome outcome)
{
	a->outcome = (uint8_t)outcome;
	if (outcome != ACQ_WAITING)
		a->release_ns = guarded_now(w);
	if (outcome == ACQ_ERROR)
		guarded_abort(w, "taking the guard");
	return guarded_record(w, a) < 0 || outcome == ACQ_ERROR ? -1 : 0;
}

