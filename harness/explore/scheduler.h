/*
 * The scheduler of `claimbench explore`: the workers' connections (explore/step_driver.c)
 * stop before each statement they send, a step, until the scheduler grants it; the
 * scheduler grants one step at a time and waits until the system is settled: every worker
 * waiting at its next step, finished, crashed, or blocked in the server on a lock another
 * holds. Every step, with what it returned or that it blocked, is noted as an event.
 */
#ifndef CLAIMBENCH_SCHEDULER_H
#define CLAIMBENCH_SCHEDULER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"

/* The most workers a schedule has. */
#define EXPLORE_MAX_WORKERS 3

/* Room for a statement's or a result's text in an event. */
#define EXPLORE_TEXT 1024

/* Where a worker (a seat) is in a schedule. */
enum seat_state {
	SEAT_RUNNING,	/* running its own code, or its granted statement in the server */
	SEAT_WAITING,	/* stopped before its next statement, waiting for the grant */
	SEAT_FINISHED,	/* its claims are made */
	SEAT_CRASHED,	/* its connection was abandoned: it sends nothing more */
};

/* What an event of a schedule is. */
enum event_kind {
	EVENT_STEP,	/* a worker's statement, granted by the scheduler */
	EVENT_FOLDED,	/* a plain BEGIN or a CLOSE, sent without a grant (no other session sees its place) */
	EVENT_CRASH,	/* a worker crashed: its connection dropped, no COMMIT, no ROLLBACK */
	EVENT_EXPIRE,	/* every active lease ran out (and, with a reaper, the reaper gave the jobs back) */
	EVENT_CHECK,	/* what the harness saw between steps (an empty claim while a job was claimable) */
	EVENT_KINDS	/* the number of event kinds: no event's */
};

/* One event of a schedule, in the order they happened. */
struct step_event {
	enum event_kind kind;		/* what it is */
	int worker;			/* the worker it is of; -1 for the harness's */
	bool blocked;			/* its statement was seen blocked in the server before it returned */
	bool returned;			/* its statement has returned (result says what) */
	char statement[EXPLORE_TEXT];	/* the statement, shortened */
	char result[EXPLORE_TEXT];	/* what it returned: rows and the first value, or the error */
};

/* One worker's place in the schedule. */
struct seat {
	enum seat_state state;		/* where it is */
	bool granted;			/* its next statement may go */
	bool in_server;			/* its granted statement has not returned yet */
	bool probing;			/* it waits to look at the queue, or looks (scheduler_settle_others) */
	int event;			/* the event of the statement it runs, -1 when none */
	int steps;			/* the steps it made in this schedule */
	int pid;			/* its connection's server process, -1 when none */
	char next[EXPLORE_TEXT];	/* the statement it waits to send */
};

/* What the scheduler of one schedule holds; guarded by lock but for the fields said. */
struct scheduler {
	pthread_mutex_t lock;		/* guards everything below */
	pthread_cond_t changed;		/* broadcast on every change of a seat or of released */
	int n_seats;			/* workers in the schedule */
	struct seat seats[EXPLORE_MAX_WORKERS];	/* one per worker */
	bool armed;			/* a schedule runs: workers' statements wait for grants */
	bool released;			/* the schedule is over or bounded: statements pass without grants */
	bool bounded;			/* a worker reached max_steps: the schedule was cut there */
	int max_steps;			/* the most steps one worker makes in a schedule */
	struct step_event *events;	/* the schedule's events (owned) */
	size_t n_events;		/* entries used in events */
	size_t cap_events;		/* entries allocated in events */
};

/* What scheduler_step_begin tells the statement's caller. */
enum step_go {
	STEP_SEND,	/* send it */
	STEP_CRASHED,	/* the worker crashed: send nothing, fail as a lost connection */
};

/* Sets s up for n_seats workers, each making at most max_steps steps. 0, or -1 out of memory. */
int scheduler_init(struct scheduler *s, int n_seats, int max_steps);

/* Frees what s holds. */
void scheduler_free(struct scheduler *s);

/* Makes s ready for a new schedule: every seat running, no event, armed. */
void scheduler_begin(struct scheduler *s);

/* Ends the schedule: every statement passes from now on, a crashed worker's too (it then fails). */
void scheduler_release(struct scheduler *s);

/*
 * Called by seat's worker before it sends statement: stops it until the scheduler grants
 * it (noting the step as an event), or lets it pass at once when s is not armed, when the
 * schedule is released, or when it is a plain BEGIN or a cursor's CLOSE (noted folded). A worker that reaches
 * max_steps bounds the schedule (releases it). STEP_CRASHED when the scheduler crashed it
 * meanwhile: then it returns only once the schedule is released.
 */
enum step_go scheduler_step_begin(struct scheduler *s, int seat, const char *statement);

/* Called by seat's worker when its statement returned: what it returned, for its event. */
void scheduler_step_end(struct scheduler *s, int seat, const char *result);

/* Called by seat's worker when its claims are made. */
void scheduler_seat_finished(struct scheduler *s, int seat);

/* Notes an event of the harness's (kind, worker -1 or one) with its texts. */
void scheduler_note(struct scheduler *s, enum event_kind kind, int worker, const char *statement, const char *result);

/*
 * Whether the server process pid (a worker's) waits on a lock another worker's session
 * holds, as the harness's own connection asks the server. 1, 0, or -1 on an error.
 */
typedef int (*scheduler_blocked_fn)(void *ctx, int pid);

/*
 * Waits until s is settled: every seat waiting, finished, crashed, or in the server and
 * seen blocked there by blocked(ctx, pid). Marks the events of the blocked statements.
 * 0 settled; -1 when it did not settle within timeout_ns (a hang) or blocked failed.
 */
int scheduler_settle(struct scheduler *s, scheduler_blocked_fn blocked, void *ctx, long long timeout_ns);

/*
 * Called by seat's worker, running its own code, before it looks at the queue: marks it
 * probing and waits until every other seat is settled as scheduler_settle says (a probing
 * seat counts as settled), so that no statement of another worker runs in the server while
 * it looks. 0 settled (the seat stays probing until scheduler_probe_done); -1 when the
 * others did not settle within timeout_ns or blocked failed (the seat is not probing then).
 */
int scheduler_settle_others(struct scheduler *s, int seat, scheduler_blocked_fn blocked, void *ctx,
			    long long timeout_ns);

/* Called by seat's worker when its look at the queue is over. */
void scheduler_probe_done(struct scheduler *s, int seat);

/*
 * When s is settled with no worker waiting and some blocked in the server (they wait on
 * each other: the server's deadlock detector will end one): waits until one returns. 0, or
 * -1 when none did within timeout_ns.
 */
int scheduler_await_return(struct scheduler *s, long long timeout_ns);

/*
 * Waits up to wait_ns until none of seats 0..n-1 runs (every one finished, or crashed: a
 * crashed seat sends nothing more), marking in running[] those that still do. Whether any does.
 */
bool scheduler_seats_running(struct scheduler *s, int n, long long wait_ns, bool *running);

/* Lets seat's waiting worker send its statement (it must be waiting). */
void scheduler_grant(struct scheduler *s, int seat);

/*
 * Crashes seat's waiting worker: abandons its connection's server side through
 * abandon(ctx, seat) and notes the crash; the worker sends nothing more.
 */
void scheduler_crash(struct scheduler *s, int seat, void (*abandon)(void *ctx, int seat), void *ctx);

#endif
