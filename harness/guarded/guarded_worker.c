/*
 * The worker of a guarded-resource run: one loop per workload (refresh, exclusive-use's
 * users and refresher, resource), each built on take(), which takes the guard's lock the
 * way the guard says, and on record(), which keeps the acquisition. Statements are
 * prepared; nothing is allocated on the way but the rare growth of the acquisitions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "guarded/guarded_worker.h"
#include "engine/signals.h"
#include "engine/workload.h"

/* Longest expanded statement. */
#define SQL_MAX 1024

/* The stream of workload_draw for the resource workload's requests. */
#define DRAW_STREAM_REQUESTS 7

/* The draws of one request: which resource, whether a write, whether its holder walks away. */
enum request_draw {
	DRAW_RESOURCE,
	DRAW_WRITE,
	DRAW_ABANDON,
	DRAW_COUNT
};

/* The settings of w's run. */
static const struct guarded_plan *plan_of(const struct guarded_worker *w)
{
	return &w->g->run->cfg->guarded;
}

/* Now, in ns after the start barrier. */
static int64_t now_rel(const struct guarded_worker *w)
{
	return clock_now_ns() - w->g->run->start_ns;
}

/* Whether w should begin nothing new: the run is stopping or its time is up. */
static bool time_up(const struct guarded_worker *w)
{
	const struct run_shared *s = w->g->run;

	return run_stopping(s) || (s->deadline_ns && clock_now_ns() >= s->deadline_ns);
}

/* Whether w is exclusive-use's refresher. */
static bool is_refresher(const struct guarded_worker *w)
{
	return plan_of(w)->workload == WORKLOAD_EXCLUSIVE_USE && w->seat == 0;
}

/* The guard's lock that w takes: the writer's for exclusive-use's refresher, else the user's. */
static const struct guard_lock *lock_of(const struct guarded_worker *w)
{
	return is_refresher(w) ? &w->g->guard->writer : &w->g->guard->user;
}

/* The stale period current at rel_ns: 1 from the start, one more every stale interval. */
static int32_t period_at(const struct guarded_worker *w, int64_t rel_ns)
{
	return (int32_t)(rel_ns / ((int64_t)plan_of(w)->stale_ms * 1000000) + 1);
}

/* Marks w aborted, for reason. */
static void abort_worker(struct guarded_worker *w, const char *what)
{
	w->aborted = true;
	snprintf(w->abort_reason, sizeof(w->abort_reason), "worker %d: %s: %.300s", w->seat, what,
		 w->conn ? w->g->run->db->error_message(w->conn) : "not connected");
}

/*
 * Runs the prepared statement of slot with the n params (text); copies up to ncols columns
 * of its first row into out. Its rows, or -1.
 */
static int run_slot(struct guarded_worker *w, enum guarded_slot slot, const char *const *params, int n,
		    int64_t *out, int ncols)
{
	int64_t none;

	return w->g->run->db->exec_rows(w->conn, (int)slot, n, params, out ? out : &none, out ? ncols : 0,
					out ? 1 : 0);
}

/* run_slot for the statements with two integer parameters. Rows, or -1. */
static int run_slot2(struct guarded_worker *w, enum guarded_slot slot, int64_t a, int64_t b)
{
	char ta[24], tb[24];
	const char *params[2] = { ta, tb };

	snprintf(ta, sizeof(ta), "%lld", (long long)a);
	snprintf(tb, sizeof(tb), "%lld", (long long)b);
	return run_slot(w, slot, params, 2, NULL, 0);
}

/* Counts the error on w's connection; returns its kind. */
static enum error_kind count_error(struct guarded_worker *w)
{
	enum error_kind kind = w->g->run->db->error_kind(w->conn);

	w->errors[kind]++;
	return kind;
}

/* Keeps a as w's; grows the array when full (rarely). 0, or -1 when out of memory (w aborted). */
static int record(struct guarded_worker *w, const struct acquisition *a)
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
static struct acquisition asked(const struct guarded_worker *w, int resource, enum acq_mode mode, enum acq_role role)
{
	return (struct acquisition){
		.start_ns = now_rel(w), .grant_ns = -1, .release_ns = -1, .worker = w->seat, .resource = resource,
		.mode = (uint8_t)mode, .role = (uint8_t)role, .outcome = ACQ_WAITING,
	};
}

/* The next cache version w writes: unique to the refresh, of the worker and its count. */
static int64_t next_version(struct guarded_worker *w)
{
	return ((int64_t)(w->seat + 1) << 32) | (int64_t)++w->refreshes;
}

/* How long w's statements wait for a held lock while taking l, in set_lock_wait's terms. */
static int lock_wait_ms(const struct guarded_worker *w, const struct guard_lock *l)
{
	switch (l->wait) {
	case GUARD_WAIT_LIMIT:
		return plan_of(w)->wait_limit_ms;
	case GUARD_RETRIES:
	case GUARD_REFUSES:
		return w->g->run->db->kind == BACKEND_SQLITE ? 0 : -1;
	default:
		return -1;
	}
}

/*
 * Tries l for a until it is granted or l gives up, as take() says; each try counted in
 * a->polls.
 */
static enum acq_outcome try_lock(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	enum backend_kind k = w->g->run->db->kind;
	enum guarded_slot begin = l == &w->g->guard->writer ? GSLOT_BEGIN_WRITER : GSLOT_BEGIN_USER;
	enum guarded_slot lock = l == &w->g->guard->writer ? GSLOT_LOCK_WRITER : GSLOT_LOCK_USER;
	enum error_kind kind;

	for (;;) {
		a->polls++;
		if (!l->begin_sql[k] || (run_slot(w, begin, NULL, 0, NULL, 0) >= 0 &&
					 (!l->lock_sql[k] || run_slot(w, lock, NULL, 0, NULL, 0) >= 0)))
			return ACQ_GRANTED;
		kind = count_error(w);
		run_slot(w, GSLOT_ROLLBACK, NULL, 0, NULL, 0);
		if (run_stopping(w->g->run))
			return ACQ_WAITING;
		if (!error_kind_is_contention(kind))
			return ACQ_ERROR;
		if (l->wait == GUARD_REFUSES)
			return ACQ_REFUSED;
		if (l->wait != GUARD_RETRIES)
			return ACQ_TIMEOUT;
		if (!run_pause_ns(w->g->run, (int64_t)plan_of(w)->retry_ms * 1000000) || time_up(w))
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
static enum acq_outcome take(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	const struct backend_ops *db = w->g->run->db;
	bool own_wait = db->kind == BACKEND_SQLITE && lock_wait_ms(w, l) >= 0;
	enum acq_outcome outcome;

	if (own_wait)
		db->set_lock_wait(w->conn, lock_wait_ms(w, l));
	outcome = try_lock(w, l, a);
	if (own_wait)
		db->set_lock_wait(w->conn, -1);
	if (outcome == ACQ_GRANTED)
		a->grant_ns = now_rel(w);
	return outcome;
}

/*
 * Ends a's hold: notes the release instant and commits l's transaction. 0, or -1 when the
 * commit failed (rolled back, a recorded as an error, w aborted).
 */
static int release(struct guarded_worker *w, const struct guard_lock *l, struct acquisition *a)
{
	a->release_ns = now_rel(w);
	a->outcome = ACQ_GRANTED;
	if (l->begin_sql[w->g->run->db->kind] && run_slot(w, GSLOT_COMMIT, NULL, 0, NULL, 0) < 0) {
		count_error(w);
		abort_worker(w, "commit");
		run_slot(w, GSLOT_ROLLBACK, NULL, 0, NULL, 0);
		a->outcome = ACQ_ERROR;
		record(w, a);
		return -1;
	}
	return 0;
}

/* Fails a's cycle on a statement's error: rolls back, records it as an error and aborts w. -1. */
static int fail(struct guarded_worker *w, struct acquisition *a, const char *what)
{
	count_error(w);
	abort_worker(w, what);
	run_slot(w, GSLOT_ROLLBACK, NULL, 0, NULL, 0);
	a->outcome = ACQ_ERROR;
	a->release_ns = now_rel(w);
	record(w, a);
	return -1;
}

/*
 * Ends a's cycle on the error of the use that followed its release: a keeps its outcome
 * (its hold was done), the error is counted and w aborted. -1.
 */
static int use_failed(struct guarded_worker *w, struct acquisition *a)
{
	count_error(w);
	abort_worker(w, "using the cache");
	record(w, a);
	return -1;
}

/* Reads the cache and judges what a use of it saw against the period its check saw. 0, or -1. */
static int read_cache(struct guarded_worker *w, int64_t seen_period, uint8_t *seen)
{
	int64_t row[4];

	if (run_slot(w, GSLOT_READ_CACHE, NULL, 0, row, 4) != 1)
		return -1;
	if (row[3] != CACHE_SLOTS || row[0] != row[1])
		*seen = USE_TORN;
	else
		*seen = row[2] < seen_period ? USE_STALE : USE_FRESH;
	return 0;
}

/* Records a, ended as outcome, when the lock was not granted. 0, or -1 when that is the worker's end. */
static int not_granted(struct guarded_worker *w, struct acquisition *a, enum acq_outcome outcome)
{
	a->outcome = (uint8_t)outcome;
	if (outcome != ACQ_WAITING)
		a->release_ns = now_rel(w);
	if (outcome == ACQ_ERROR)
		abort_worker(w, "taking the guard");
	return record(w, a) < 0 || outcome == ACQ_ERROR ? -1 : 0;
}

/*
 * After a check that timed out: records it, then uses the cache unchecked, as a job that
 * gave up waiting goes on with what there is, judged against the period current then. 0, or -1.
 */
static int use_unchecked(struct guarded_worker *w, struct acquisition *a)
{
	a->outcome = ACQ_TIMEOUT;
	a->release_ns = now_rel(w);
	if (read_cache(w, period_at(w, a->release_ns), &a->seen) < 0)
		return use_failed(w, a);
	if (record(w, a) < 0)
		return -1;
	run_pause_ns(w->g->run, (int64_t)(w->g->run->cfg->work_ms * 1e6));
	return 0;
}

/*
 * One cycle of the refresh workload (seed 003, step 1): take the guard, read the status,
 * refresh the cache in two halves when it is of an earlier period, release, then use it.
 */
static int refresh_cycle(struct guarded_worker *w)
{
	const struct guard_lock *l = lock_of(w);
	struct acquisition a = asked(w, 0, l->mode, ROLE_USER);
	enum acq_outcome outcome = take(w, l, &a);
	int64_t status[2], seen_period, version;

	if (outcome == ACQ_TIMEOUT)
		return use_unchecked(w, &a);
	if (outcome != ACQ_GRANTED)
		return not_granted(w, &a, outcome);
	a.period = period_at(w, a.grant_ns);
	if (run_slot(w, GSLOT_READ_STATUS, NULL, 0, status, 2) != 1)
		return fail(w, &a, "reading the status row");
	if (status[0] < a.period) {
		version = next_version(w);
		if (run_slot2(w, GSLOT_WRITE_HALF_1, version, a.period) < 0)
			return fail(w, &a, "refreshing the cache");
		clock_sleep_ns((int64_t)plan_of(w)->refresh_ms * 1000000);
		if (run_slot2(w, GSLOT_WRITE_HALF_2, version, a.period) < 0 ||
		    run_slot2(w, GSLOT_MARK_STATUS, a.period, now_rel(w)) < 0)
			return fail(w, &a, "refreshing the cache");
		a.refreshed = 1;
		seen_period = a.period;
	} else {
		seen_period = status[0];
		a.waited = status[1] > a.start_ns;
	}
	if (release(w, l, &a) < 0)
		return -1;
	if (read_cache(w, seen_period, &a.seen) < 0)
		return use_failed(w, &a);
	if (record(w, &a) < 0)
		return -1;
	run_pause_ns(w->g->run, (int64_t)(w->g->run->cfg->work_ms * 1e6));
	return 0;
}

/*
 * One use of exclusive-use's cache: take the guard, read the cache (stale when of an
 * earlier period than the one current at the grant: the refresher is behind), use it for
 * --work-ms, release.
 */
static int use_cycle(struct guarded_worker *w)
{
	const struct guard_lock *l = lock_of(w);
	struct acquisition a = asked(w, 0, l->mode, ROLE_USER);
	enum acq_outcome outcome = take(w, l, &a);

	if (outcome != ACQ_GRANTED)
		return not_granted(w, &a, outcome);
	a.period = period_at(w, a.grant_ns);
	if (read_cache(w, a.period, &a.seen) < 0)
		return fail(w, &a, "using the cache");
	clock_sleep_ns((int64_t)(w->g->run->cfg->work_ms * 1e6));
	if (release(w, l, &a) < 0)
		return -1;
	return record(w, &a);
}

/*
 * exclusive-use's refresher: at the start of every stale period, empty and refill the
 * cache under the writer's lock, trying again after --retry-ms while the lock is refused;
 * then sleep to the next period's start (or the run's end), however late the grant came.
 */
static int refresher_cycle(struct guarded_worker *w)
{
	const struct guard_lock *l = lock_of(w);
	const struct run_shared *s = w->g->run;
	int64_t stale_ns = (int64_t)plan_of(w)->stale_ms * 1000000;
	int64_t version, next;

	for (;;) {
		struct acquisition a = asked(w, 0, l->mode, ROLE_WRITER);
		enum acq_outcome outcome = take(w, l, &a);

		if (outcome == ACQ_REFUSED) {
			if (not_granted(w, &a, outcome) < 0)
				return -1;
			if (!run_pause_ns(s, (int64_t)plan_of(w)->retry_ms * 1000000) || time_up(w))
				return 0;
			continue;
		}
		if (outcome != ACQ_GRANTED)
			return not_granted(w, &a, outcome);
		a.period = period_at(w, a.grant_ns);
		version = next_version(w);
		if (run_slot(w, GSLOT_EMPTY_CACHE, NULL, 0, NULL, 0) < 0)
			return fail(w, &a, "emptying the cache");
		clock_sleep_ns((int64_t)plan_of(w)->refresh_ms * 1000000);
		if (run_slot2(w, GSLOT_FILL_CACHE, version, a.period) < 0 ||
		    run_slot2(w, GSLOT_MARK_STATUS, a.period, now_rel(w)) < 0)
			return fail(w, &a, "filling the cache");
		a.refreshed = 1;
		if (release(w, l, &a) < 0 || record(w, &a) < 0)
			return -1;
		break;
	}
	next = s->start_ns + (int64_t)period_at(w, now_rel(w)) * stale_ns;
	run_sleep_until(s, s->deadline_ns && s->deadline_ns < next ? s->deadline_ns : next, NULL);
	return 0;
}

/* A draw in [0, 1) of w's current request. */
static double draw(const struct guarded_worker *w, enum request_draw which)
{
	return workload_draw(w->g->run->cfg->seed, DRAW_STREAM_REQUESTS, (uint64_t)w->seat,
			     w->draws * DRAW_COUNT + which);
}

/*
 * Takes a's ticket: the insert, in the transaction of the guard's user lock when it has
 * one (which keeps tickets from committing out of their numbers' order). 0, or -1.
 */
static int take_ticket(struct guarded_worker *w, struct acquisition *a, bool write)
{
	const struct guard_lock *l = &w->g->guard->user;
	enum backend_kind k = w->g->run->db->kind;
	char t_resource[16], t_seat[16], t_write[4], t_now[24];
	const char *params[4] = { t_resource, t_seat, t_write, t_now };

	snprintf(t_resource, sizeof(t_resource), "%d", a->resource);
	snprintf(t_seat, sizeof(t_seat), "%d", w->seat);
	snprintf(t_write, sizeof(t_write), "%d", write ? 1 : 0);
	snprintf(t_now, sizeof(t_now), "%lld", (long long)a->start_ns);
	if (l->begin_sql[k] && (run_slot(w, GSLOT_BEGIN_USER, NULL, 0, NULL, 0) < 0 ||
				(l->lock_sql[k] && run_slot(w, GSLOT_LOCK_USER, NULL, 0, NULL, 0) < 0)))
		return -1;
	if (run_slot(w, GSLOT_TAKE_TICKET, params, 4, &a->ticket, 1) != 1)
		return -1;
	return l->begin_sql[k] ? run_slot(w, GSLOT_COMMIT, NULL, 0, NULL, 0) : 0;
}

/*
 * Takes a's ticket in the line and polls it until its turn, as seed 004's WHILE loop
 * does: ACQ_GRANTED, ACQ_WAITING (the run ended first: the ticket is deleted) or ACQ_ERROR.
 */
static enum acq_outcome wait_in_line(struct guarded_worker *w, struct acquisition *a, bool write)
{
	const struct guarded_plan *p = plan_of(w);
	char t_resource[16], t_ticket[24], t_expiry[24];
	const char *poll_params[2] = { t_resource, t_ticket };
	const char *ticket_params[1] = { t_ticket };
	const char *expiry_params[1] = { t_expiry };
	int64_t ahead[2], expiry_ns = (int64_t)p->ticket_expiry_ms * 1000000;

	if (take_ticket(w, a, write) < 0)
		return ACQ_ERROR;
	snprintf(t_resource, sizeof(t_resource), "%d", a->resource);
	snprintf(t_ticket, sizeof(t_ticket), "%lld", (long long)a->ticket);
	for (;;) {
		a->polls++;
		snprintf(t_expiry, sizeof(t_expiry), "%lld", (long long)(now_rel(w) - expiry_ns));
		if (p->ticket_expiry_ms && run_slot(w, GSLOT_EXPIRE_TICKETS, expiry_params, 1, NULL, 0) < 0)
			return ACQ_ERROR;
		if (run_slot(w, GSLOT_POLL_LINE, poll_params, 2, ahead, 2) != 1)
			return ACQ_ERROR;
		if (write ? ahead[0] == 0 : ahead[1] == 0 && ahead[0] < p->limit)
			break;
		if (!run_pause_ns(w->g->run, (int64_t)p->poll_ms * 1000000) || time_up(w)) {
			run_slot(w, GSLOT_DROP_TICKET, ticket_params, 1, NULL, 0);
			return ACQ_WAITING;
		}
	}
	a->grant_ns = now_rel(w);
	return ACQ_GRANTED;
}

/*
 * One request of the resource workload (seed 004): draw the resource and read or write,
 * wait for the turn (ticket-line) or go at once (naive), hold it for --work-ms, release.
 */
static int request_cycle(struct guarded_worker *w)
{
	const struct guarded_plan *p = plan_of(w);
	int resource = (int)(draw(w, DRAW_RESOURCE) * p->resources);
	bool write = draw(w, DRAW_WRITE) < p->write_share;
	bool walks_away = draw(w, DRAW_ABANDON) < p->abandon_share;
	enum acq_mode mode = write || p->limit == 1 ? ACQ_EXCLUSIVE : ACQ_LIMITED;
	struct acquisition a = asked(w, resource, mode, write ? ROLE_WRITER : ROLE_USER);
	char t_ticket[24];
	const char *ticket_params[1] = { t_ticket };
	enum acq_outcome outcome = ACQ_GRANTED;
	int rows;

	w->draws++;
	if (w->g->guard->ticket_line) {
		outcome = wait_in_line(w, &a, write);
	} else {
		a.polls = 1;
		a.grant_ns = a.start_ns;
	}
	if (outcome == ACQ_ERROR)
		return fail(w, &a, "taking its ticket");
	if (outcome != ACQ_GRANTED)
		return not_granted(w, &a, outcome);
	clock_sleep_ns((int64_t)(w->g->run->cfg->work_ms * 1e6));
	a.release_ns = now_rel(w);
	a.outcome = ACQ_GRANTED;
	if (w->g->guard->ticket_line && walks_away) {
		a.outcome = ACQ_ABANDONED;
	} else if (w->g->guard->ticket_line) {
		snprintf(t_ticket, sizeof(t_ticket), "%lld", (long long)a.ticket);
		rows = run_slot(w, GSLOT_DROP_TICKET, ticket_params, 1, NULL, 0);
		if (rows < 0)
			return fail(w, &a, "deleting its ticket");
		if (rows == 0)
			a.outcome = ACQ_EXPIRED;
	}
	return record(w, &a);
}

/* The thread: waits for the gate, then runs its workload's cycles until the time is up. */
static void *guarded_worker_main(void *arg)
{
	struct guarded_worker *w = arg;
	enum workload workload = plan_of(w)->workload;
	int rc = 0;

	run_wait_gate(w->g->run);
	while (rc == 0 && !time_up(w)) {
		if (workload == WORKLOAD_REFRESH)
			rc = refresh_cycle(w);
		else if (workload == WORKLOAD_RESOURCE)
			rc = request_cycle(w);
		else
			rc = is_refresher(w) ? refresher_cycle(w) : use_cycle(w);
	}
	w->finished_ns = now_rel(w);
	return NULL;
}

/* The slots w prepares for its workload, besides the guard's begin and lock. */
static bool slot_used(enum workload workload, enum guarded_slot slot)
{
	switch (slot) {
	case GSLOT_COMMIT:
	case GSLOT_ROLLBACK:
		return true;
	case GSLOT_READ_STATUS:
	case GSLOT_WRITE_HALF_1:
	case GSLOT_WRITE_HALF_2:
		return workload == WORKLOAD_REFRESH;
	case GSLOT_MARK_STATUS:
	case GSLOT_READ_CACHE:
		return workload != WORKLOAD_RESOURCE;
	case GSLOT_EMPTY_CACHE:
	case GSLOT_FILL_CACHE:
		return workload == WORKLOAD_EXCLUSIVE_USE;
	default:
		return workload == WORKLOAD_RESOURCE;
	}
}

/* Expands and prepares tmpl in slot on w's connection. 0, or -1 with err. */
static int prepare(struct guarded_worker *w, enum guarded_slot slot, const char *tmpl, int nparams, char *err,
		   size_t errlen)
{
	const struct backend_ops *db = w->g->run->db;
	char sql[SQL_MAX];

	if (guarded_sql_expand(w->g->tables, tmpl, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "statement %d too long", (int)slot);
		return -1;
	}
	if (db->prepare(w->conn, (int)slot, sql, nparams) < 0) {
		snprintf(err, errlen, "preparing \"%s\": %s", sql, db->error_message(w->conn));
		return -1;
	}
	return 0;
}

/* Prepares the guard's statements and the workload's. 0, or -1 with err. */
static int prepare_all(struct guarded_worker *w, char *err, size_t errlen)
{
	const struct guard_ops *guard = w->g->guard;
	enum backend_kind k = w->g->run->db->kind;
	enum workload workload = plan_of(w)->workload;
	const char *own[GSLOT_COMMIT] = {
		[GSLOT_BEGIN_USER] = guard->user.begin_sql[k], [GSLOT_LOCK_USER] = guard->user.lock_sql[k],
		[GSLOT_BEGIN_WRITER] = guard->writer.begin_sql[k], [GSLOT_LOCK_WRITER] = guard->writer.lock_sql[k],
	};

	for (int slot = 0; slot < GSLOT_COMMIT; slot++)
		if (own[slot] && prepare(w, (enum guarded_slot)slot, own[slot], 0, err, errlen) < 0)
			return -1;
	for (int slot = GSLOT_COMMIT; slot < GSLOT_COUNT; slot++)
		if (slot_used(workload, (enum guarded_slot)slot) &&
		    prepare(w, (enum guarded_slot)slot, guarded_statement((enum guarded_slot)slot, k, guard->truncates),
			    guarded_statement_params((enum guarded_slot)slot), err, errlen) < 0)
			return -1;
	return 0;
}

int guarded_worker_open(struct guarded_worker *w, const struct guarded_shared *g, int seat, size_t expected,
			char *err, size_t errlen)
{
	const struct backend_ops *db = g->run->db;

	memset(w, 0, sizeof(*w));
	w->g = g;
	w->seat = seat;
	w->cap_acqs = expected;
	w->acqs = malloc(expected * sizeof(*w->acqs));
	if (!w->acqs) {
		snprintf(err, errlen, "out of memory for its acquisitions");
		return -1;
	}
	if (db->connect(g->run->target, &g->run->cfg->db_opts, &w->conn, err, errlen) < 0)
		goto fail;
	if (signals_watch(db, w->conn, NULL) < 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (db->kind == BACKEND_POSTGRESQL && db->set_lock_wait(w->conn, lock_wait_ms(w, lock_of(w))) < 0) {
		snprintf(err, errlen, "setting its lock wait: %s", db->error_message(w->conn));
		goto fail;
	}
	if (prepare_all(w, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	guarded_worker_close(w);
	return -1;
}

int guarded_worker_start(struct guarded_worker *w)
{
	return pthread_create(&w->thread, NULL, guarded_worker_main, w) == 0 ? 0 : -1;
}

void guarded_worker_close(struct guarded_worker *w)
{
	if (w->conn) {
		signals_unwatch(w->conn);
		w->g->run->db->disconnect(w->conn);
	}
	w->conn = NULL;
	free(w->acqs);
	w->acqs = NULL;
}
