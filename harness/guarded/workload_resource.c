#include <stdio.h>

#include "base/clock.h"
#include "engine/workload.h"
#include "guarded/acquire.h"
#include "guarded/guarded_worker.h"

/* The stream of workload_draw for the resource workload's requests. */
#define DRAW_STREAM_REQUESTS 7

/* The draws of one request: which resource, whether a write, whether its holder walks away. */
enum request_draw {
	DRAW_RESOURCE,
	DRAW_WRITE,
	DRAW_ABANDON,
	DRAW_COUNT
};

/* A draw in [0, 1) of w's current request. */
static double draw(const struct guarded_worker *w, enum request_draw which)
{
	return workload_draw(w->g->cfg->seed, DRAW_STREAM_REQUESTS, (uint64_t)w->seat,
			     w->draws * DRAW_COUNT + which);
}

/*
 * Takes a's ticket: the insert, in the transaction of the guard's user lock when it has
 * one (which keeps tickets from committing out of their numbers' order), released once it
 * committed. 0, or -1.
 */
static int take_ticket(struct guarded_worker *w, struct acquisition *a, bool write)
{
	const struct guard_lock *l = &w->g->guard->user;
	enum sql_dialect k = w->g->db->dialect;
	char t_resource[16], t_seat[16], t_write[4], t_now[24];
	const char *params[4] = { t_resource, t_seat, t_write, t_now };

	snprintf(t_resource, sizeof(t_resource), "%d", a->resource);
	snprintf(t_seat, sizeof(t_seat), "%d", w->seat);
	snprintf(t_write, sizeof(t_write), "%d", write ? 1 : 0);
	snprintf(t_now, sizeof(t_now), "%lld", (long long)a->start_ns);
	if (l->begin_sql[k] && (guarded_exec(w, GSLOT_BEGIN_USER, NULL, 0, NULL, 0) < 0 ||
				(l->lock_sql[k] && guarded_exec(w, GSLOT_LOCK_USER, NULL, 0, NULL, 0) < 0)))
		return -1;
	if (guarded_exec(w, GSLOT_TAKE_TICKET, params, 4, &a->ticket, 1) != 1)
		return -1;
	return l->begin_sql[k] ? guarded_exec(w, guarded_release_slot(w, l), NULL, 0, NULL, 0) : 0;
}

/*
 * Takes a's ticket in the line and polls it until its turn, as seed 004's WHILE loop
 * does: ACQ_GRANTED, ACQ_WAITING (the run ended first: the ticket is deleted) or ACQ_ERROR.
 */
static enum acq_outcome wait_in_line(struct guarded_worker *w, struct acquisition *a, bool write)
{
	const struct guarded_plan *p = guarded_plan_of(w);
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
		snprintf(t_expiry, sizeof(t_expiry), "%lld", (long long)(guarded_now(w) - expiry_ns));
		if (p->ticket_expiry_ms && guarded_exec(w, GSLOT_EXPIRE_TICKETS, expiry_params, 1, NULL, 0) < 0)
			return ACQ_ERROR;
		if (guarded_exec(w, GSLOT_POLL_LINE, poll_params, 2, ahead, 2) != 1)
			return ACQ_ERROR;
		if (write ? ahead[0] == 0 : ahead[1] == 0 && ahead[0] < p->limit)
			break;
		if (!run_pause_ns(&w->g->gate, (int64_t)p->poll_ms * 1000000) || guarded_time_up(w)) {
			guarded_exec(w, GSLOT_DROP_TICKET, ticket_params, 1, NULL, 0);
			return ACQ_WAITING;
		}
	}
	a->grant_ns = guarded_now(w);
	return ACQ_GRANTED;
}

/*
 * One request of the resource workload (seed 004): draw the resource and read or write,
 * wait for the turn (ticket-line) or go at once (naive), hold it for --work-ms, release.
 */
int request_cycle(struct guarded_worker *w)
{
	const struct guarded_plan *p = guarded_plan_of(w);
	int resource = (int)(draw(w, DRAW_RESOURCE) * p->resources);
	bool write = draw(w, DRAW_WRITE) < p->write_share;
	bool walks_away = draw(w, DRAW_ABANDON) < p->abandon_share;
	enum acq_mode mode = write || p->limit == 1 ? ACQ_EXCLUSIVE : ACQ_LIMITED;
	struct acquisition a = guarded_asked(w, resource, mode, write ? ROLE_WRITER : ROLE_USER);
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
		return guarded_fail(w, &a, "taking its ticket");
	if (outcome != ACQ_GRANTED)
		return guarded_not_granted(w, &a, outcome);
	clock_sleep_ns((int64_t)(w->g->cfg->work_ms * 1e6));
	a.release_ns = guarded_now(w);
	a.outcome = ACQ_GRANTED;
	if (w->g->guard->ticket_line && walks_away) {
		a.outcome = ACQ_ABANDONED;
	} else if (w->g->guard->ticket_line) {
		snprintf(t_ticket, sizeof(t_ticket), "%lld", (long long)a.ticket);
		rows = guarded_exec(w, GSLOT_DROP_TICKET, ticket_params, 1, NULL, 0);
		if (rows < 0)
			return guarded_fail(w, &a, "deleting its ticket");
		if (rows == 0)
			a.outcome = ACQ_EXPIRED;
	}
	return guarded_record(w, &a);
}
