#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "engine/session.h"
#include "guarded/acquire.h"

int64_t guarded_now(const struct guarded_worker *w)
{
	return clock_now_ns() - w->g->gate.start_ns;
}

bool guarded_time_up(const struct guarded_worker *w)
{
	const struct run_gate *s = &w->g->gate;

	return run_stopping(s) || (s->deadline_ns && clock_now_ns() >= s->deadline_ns);
}

int32_t guarded_period_at(const struct guarded_worker *w, int64_t rel_ns)
{
	return (int32_t)(rel_ns / ((int64_t)guarded_plan_of(w)->stale_ms * 1000000) + 1);
}

void guarded_abort(struct guarded_worker *w, const char *what)
{
	w->aborted = true;
	snprintf(w->abort_reason, sizeof(w->abort_reason), "worker %d: %s: %.300s", w->seat, what,
		 w->conn ? w->g->db->error_message(w->conn) : "not connected");
}

int guarded_exec(struct guarded_worker *w, enum guarded_slot slot, const char *const *params, int n,
		    int64_t *out, int ncols)
{
	int64_t none;

	return w->g->db->exec_rows(w->conn, (int)slot, n, params, out ? out : &none, out ? ncols : 0,
					out ? 1 : 0);
}

int guarded_exec2(struct guarded_worker *w, enum guarded_slot slot, int64_t a, int64_t b)
{
	char ta[24], tb[24];
	const char *params[2] = { ta, tb };

	snprintf(ta, sizeof(ta), "%lld", (long long)a);
	snprintf(tb, sizeof(tb), "%lld", (long long)b);
	return guarded_exec(w, slot, params, 2, NULL, 0);
}

enum error_kind guarded_count_error(struct guarded_worker *w)
{
	return session_count_error(w->g->db, w->conn, w->errors);
}

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

struct acquisition guarded_asked(const struct guarded_worker *w, int resource, enum acq_mode mode,
				  enum acq_role role)
{
	return (struct acquisition){
		.start_ns = guarded_now(w), .grant_ns = -1, .release_ns = -1, .worker = w->seat, .resource = resource,
		.mode = (uint8_t)mode, .role = (uint8_t)role, .outcome = ACQ_WAITING,
	};
}

int64_t guarded_next_version(struct guarded_worker *w)
{
	return ((int64_t)(w->seat + 1) << 32) | (int64_t)++w->refreshes;
}

/*
 * Tries l for a until it is granted or l gives up, as guarded_take() says; each try counted in
 * a->polls.
 */
static enum acq_outcome try_lock(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	enum sql_dialect k = w->g->db->dialect;
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

enum acq_outcome guarded_take(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	const struct backend_ops *db = w->g->db;
	bool own_wait = db->sql->guard_wait == GUARD_WAIT_EACH_TAKE && guarded_lock_wait_ms(w, l) >= 0;
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

enum guarded_slot guarded_release_slot(const struct guarded_worker *w, const struct guard_lock *l)
{
	bool writer = l == &w->g->guard->writer;

	if (!l->release_sql[w->g->db->dialect])
		return GSLOT_COMMIT;
	return writer ? GSLOT_RELEASE_WRITER : GSLOT_RELEASE_USER;
}

int guarded_release(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	a->release_ns = guarded_now(w);
	a->outcome = ACQ_GRANTED;
	if (l->begin_sql[w->g->db->dialect] && guarded_exec(w, guarded_release_slot(w, l), NULL, 0, NULL, 0) < 0) {
		guarded_count_error(w);
		guarded_abort(w, "commit");
		guarded_exec(w, GSLOT_ROLLBACK, NULL, 0, NULL, 0);
		a->outcome = ACQ_ERROR;
		guarded_record(w, a);
		return -1;
	}
	return 0;
}

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

int guarded_use_failed(struct guarded_worker *w, struct acquisition *a)
{
	guarded_count_error(w);
	guarded_abort(w, "using the cache");
	guarded_record(w, a);
	return -1;
}

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

int guarded_not_granted(struct guarded_worker *w, struct acquisition *a, enum acq_outcome outcome)
{
	a->outcome = (uint8_t)outcome;
	if (outcome != ACQ_WAITING)
		a->release_ns = guarded_now(w);
	if (outcome == ACQ_ERROR)
		guarded_abort(w, "taking the guard");
	return guarded_record(w, a) < 0 || outcome == ACQ_ERROR ? -1 : 0;
}

int guarded_end_refresh(struct guarded_worker *w, struct acquisition *a, enum guarded_slot slot, int64_t version,
			const char *what)
{
	clock_sleep_ns((int64_t)guarded_plan_of(w)->refresh_ms * 1000000);
	if (guarded_exec2(w, slot, version, a->period) < 0 ||
	    guarded_exec2(w, GSLOT_MARK_STATUS, a->period, guarded_now(w)) < 0)
		return guarded_fail(w, a, what);
	a->refreshed = 1;
	return 0;
}
