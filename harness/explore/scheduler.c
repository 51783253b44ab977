/* The grants and the settling of explore's schedules; see scheduler.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/clock.h"
#include "explore/scheduler.h"

/* How long the scheduler waits for a change before it asks the server who is blocked. */
#define SETTLE_POLL_NS 1000000LL

int scheduler_init(struct scheduler *s, int n_seats, int max_steps)
{
	memset(s, 0, sizeof(*s));
	s->n_seats = n_seats;
	s->max_steps = max_steps;
	s->cap_events = 64;
	s->events = calloc(s->cap_events, sizeof(*s->events));
	if (!s->events)
		return -1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	return 0;
}

void scheduler_free(struct scheduler *s)
{
	pthread_cond_destroy(&s->changed);
	pthread_mutex_destroy(&s->lock);
	free(s->events);
	s->events = NULL;
}

void scheduler_begin(struct scheduler *s)
{
	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < s->n_seats; i++) {
		s->seats[i].state = SEAT_RUNNING;
		s->seats[i].granted = false;
		s->seats[i].in_server = false;
		s->seats[i].probing = false;
		s->seats[i].event = -1;
		s->seats[i].steps = 0;
		s->seats[i].next[0] = '\0';
	}
	s->n_events = 0;
	s->bounded = false;
	s->released = false;
	s->armed = true;
	pthread_mutex_unlock(&s->lock);
}

void scheduler_release(struct scheduler *s)
{
	pthread_mutex_lock(&s->lock);
	s->released = true;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

/* Appends an event to s (locked); its index, or -1 when out of memory (the event is not noted). */
static int add_event(struct scheduler *s, enum event_kind kind, int worker, const char *statement)
{
	if (s->n_events == s->cap_events) {
		struct step_event *grown = realloc(s->events, 2 * s->cap_events * sizeof(*grown));

		if (!grown)
			return -1;
		s->events = grown;
		s->cap_events *= 2;
	}
	s->events[s->n_events] = (struct step_event){ .kind = kind, .worker = worker };
	snprintf(s->events[s->n_events].statement, EXPLORE_TEXT, "%s", statement ? statement : "");
	return (int)s->n_events++;
}

void scheduler_note(struct scheduler *s, enum event_kind kind, int worker, const char *statement, const char *result)
{
	int e;

	pthread_mutex_lock(&s->lock);
	e = add_event(s, kind, worker, statement);
	if (e >= 0) {
		s->events[e].returned = true;
		snprintf(s->events[e].result, EXPLORE_TEXT, "%s", result ? result : "");
	}
	pthread_mutex_unlock(&s->lock);
}

/*
 * Whether statement is one no other session can tell the place of: a plain BEGIN, which
 * takes no snapshot and no lock (the statement after it does), or a CLOSE of a cursor, which
 * drops the session's own portal and keeps the locks its FETCHes took.
 */
static bool session_local(const char *statement)
{
	return strcasecmp(statement, "BEGIN") == 0 || strncasecmp(statement, "CLOSE ", 6) == 0;
}

enum step_go scheduler_step_begin(struct scheduler *s, int seat, const char *statement)
{
	struct seat *t;

	if (seat < 0)
		return STEP_SEND;
	pthread_mutex_lock(&s->lock);
	t = &s->seats[seat];
	if (!s->armed || (s->released && t->state != SEAT_CRASHED)) {
		pthread_mutex_unlock(&s->lock);
		return STEP_SEND;
	}
	if (t->state != SEAT_CRASHED && session_local(statement)) {
		int e = add_event(s, EVENT_FOLDED, seat, statement);

		if (e >= 0) {
			s->events[e].returned = true;
			snprintf(s->events[e].result, EXPLORE_TEXT, "sent at once: no other session sees its place");
		}
		pthread_mutex_unlock(&s->lock);
		return STEP_SEND;
	}
	if (t->state != SEAT_CRASHED && t->steps >= s->max_steps) {
		s->bounded = true;
		s->released = true;
		pthread_cond_broadcast(&s->changed);
		pthread_mutex_unlock(&s->lock);
		return STEP_SEND;
	}
	if (t->state != SEAT_CRASHED) {
		t->state = SEAT_WAITING;
		snprintf(t->next, sizeof(t->next), "%s", statement);
		pthread_cond_broadcast(&s->changed);
	}
	while (!t->granted && !s->released && t->state != SEAT_CRASHED)
		pthread_cond_wait(&s->changed, &s->lock);
	if (t->state == SEAT_CRASHED) {
		while (!s->released)
			pthread_cond_wait(&s->changed, &s->lock);
		pthread_mutex_unlock(&s->lock);
		return STEP_CRASHED;
	}
	t->state = SEAT_RUNNING;
	if (t->granted) {
		t->granted = false;
		t->in_server = true;
		t->steps++;
		t->event = add_event(s, EVENT_STEP, seat, statement);
	}
	pthread_mutex_unlock(&s->lock);
	return STEP_SEND;
}

void scheduler_step_end(struct scheduler *s, int seat, const char *result)
{
	struct seat *t;

	if (seat < 0)
		return;
	pthread_mutex_lock(&s->lock);
	t = &s->seats[seat];
	if (t->event >= 0) {
		s->events[t->event].returned = true;
		snprintf(s->events[t->event].result, EXPLORE_TEXT, "%s", result);
	}
	t->event = -1;
	t->in_server = false;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

void scheduler_seat_finished(struct scheduler *s, int seat)
{
	pthread_mutex_lock(&s->lock);
	if (s->seats[seat].state != SEAT_CRASHED)
		s->seats[seat].state = SEAT_FINISHED;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

/* Waits on s's condition (locked) until a change or ns have passed. */
static void wait_change(struct scheduler *s, long long ns)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += ns;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_cond_timedwait(&s->changed, &s->lock, &until);
}

/*
 * Whether s is settled (locked) but for seat except (-1: none), where, when except is one,
 * a probing seat counts as settled: -1 when a seat runs its own code; else the number of
 * seats in the server, whose pids go to pids and whose seats go to which.
 */
static int seats_in_server(const struct scheduler *s, int except, int *pids, int *which)
{
	int n = 0;

	for (int i = 0; i < s->n_seats; i++) {
		const struct seat *t = &s->seats[i];

		if (i == except || (except >= 0 && t->probing))
			continue;
		if (t->state == SEAT_WAITING && t->granted)
			return -1;
		if (t->state != SEAT_RUNNING)
			continue;
		if (!t->in_server)
			return -1;
		pids[n] = t->pid;
		which[n++] = i;
	}
	return n;
}

/* scheduler_settle, with seat except (-1: none) and, when except is one, probing seats counted settled. */
static int settle_but(struct scheduler *s, int except, scheduler_blocked_fn blocked, void *ctx, long long timeout_ns)
{
	int64_t give_up = clock_now_ns() + timeout_ns;
	int rc = -1;

	pthread_mutex_lock(&s->lock);
	while (!s->released && clock_now_ns() < give_up) {
		int pids[EXPLORE_MAX_WORKERS], which[EXPLORE_MAX_WORKERS];
		int n = seats_in_server(s, except, pids, which), seen = 0;
		size_t events_before = s->n_events;

		if (n == 0) {
			rc = 0;
			break;
		}
		wait_change(s, SETTLE_POLL_NS);
		if (n < 0 || seats_in_server(s, except, pids, which) != n || s->n_events != events_before)
			continue;
		pthread_mutex_unlock(&s->lock);
		for (int i = 0; i < n; i++) {
			int b = blocked(ctx, pids[i]);

			if (b < 0) {
				pthread_mutex_lock(&s->lock);
				goto out;
			}
			seen += b;
		}
		pthread_mutex_lock(&s->lock);
		if (seen < n || seats_in_server(s, except, pids, which) != n)
			continue;
		for (int i = 0; i < n; i++)
			if (s->seats[which[i]].event >= 0)
				s->events[s->seats[which[i]].event].blocked = true;
		rc = 0;
		break;
	}
	if (s->released)
		rc = 0;
out:
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int scheduler_settle(struct scheduler *s, scheduler_blocked_fn blocked, void *ctx, long long timeout_ns)
{
	return settle_but(s, -1, blocked, ctx, timeout_ns);
}

int scheduler_settle_others(struct scheduler *s, int seat, scheduler_blocked_fn blocked, void *ctx,
			    long long timeout_ns)
{
	int rc;

	pthread_mutex_lock(&s->lock);
	s->seats[seat].probing = true;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	rc = settle_but(s, seat, blocked, ctx, timeout_ns);
	if (rc < 0)
		scheduler_probe_done(s, seat);
	return rc;
}

void scheduler_probe_done(struct scheduler *s, int seat)
{
	pthread_mutex_lock(&s->lock);
	s->seats[seat].probing = false;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

void scheduler_grant(struct scheduler *s, int seat)
{
	pthread_mutex_lock(&s->lock);
	s->seats[seat].granted = true;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

void scheduler_crash(struct scheduler *s, int seat, void (*abandon)(void *ctx, int seat), void *ctx)
{
	pthread_mutex_lock(&s->lock);
	s->seats[seat].state = SEAT_CRASHED;
	int e = add_event(s, EVENT_CRASH, seat, s->seats[seat].next);

	if (e >= 0) {
		s->events[e].returned = true;
		snprintf(s->events[e].result, EXPLORE_TEXT, "crashed before sending it");
	}
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	abandon(ctx, seat);
}

int scheduler_await_return(struct scheduler *s, long long timeout_ns)
{
	int64_t give_up = clock_now_ns() + timeout_ns;
	int pids[EXPLORE_MAX_WORKERS], which[EXPLORE_MAX_WORKERS];
	int rc = -1, before;

	pthread_mutex_lock(&s->lock);
	before = seats_in_server(s, -1, pids, which);
	while (!s->released && clock_now_ns() < give_up) {
		if (seats_in_server(s, -1, pids, which) != before) {
			rc = 0;
			break;
		}
		wait_change(s, SETTLE_POLL_NS * 10);
	}
	if (s->released)
		rc = 0;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

bool scheduler_seats_running(struct scheduler *s, int n, long long wait_ns, bool *running)
{
	int64_t give_up = clock_now_ns() + wait_ns, now;
	int left;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		left = 0;
		for (int i = 0; i < n; i++) {
			running[i] = s->seats[i].state == SEAT_RUNNING || s->seats[i].state == SEAT_WAITING;
			left += running[i];
		}
		now = clock_now_ns();
		if (!left || now >= give_up)
			break;
		wait_change(s, give_up - now);
	}
	pthread_mutex_unlock(&s->lock);
	return left > 0;
}
