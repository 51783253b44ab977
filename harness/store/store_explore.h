/*
 * What `claimbench explore` found, in the result store (tables explores, explore_findings,
 * explore_events and explore_expects, store_schema.c 13): a record per strategy and mode
 * explored, appended under the invocation's row and read back for history and show. The
 * record is plain data; cli/explore_record.c makes it from an explore's result and back.
 */
#ifndef CLAIMBENCH_STORE_EXPLORE_H
#define CLAIMBENCH_STORE_EXPLORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/result.h"
#include "store/store.h"

/* The most kinds of finding a record holds. */
#define STORE_EXPLORE_FINDINGS 16

/* Room for an event's statement or result, as the scheduler keeps them. */
#define STORE_EXPLORE_TEXT 1024

/* The schedules with one kind of finding. */
struct store_explore_finding {
	char name[32];		/* its name: 'duplicate', 'lock-error', ... */
	bool violation;		/* a violation of a claim's safety */
	long schedules;		/* schedules with it */
	uint64_t in_shown;	/* how many in the schedule shown */
};

/* One event of the schedule shown. */
struct store_explore_event {
	int worker;				/* the worker, from 0; -1: the harness's */
	char kind[16];				/* 'step', 'folded', 'crash', 'expire' or 'check' */
	bool blocked;				/* seen blocked in the server before it returned */
	bool returned;				/* it returned: result says what */
	char statement[STORE_EXPLORE_TEXT];	/* the statement, shortened */
	char result[STORE_EXPLORE_TEXT];	/* what it returned */
};

/* One expectation's verdict. */
struct store_explore_expect {
	char source[288];	/* "--expect", or the scenario's "FILE:LINE" */
	char text[128];		/* as written */
	long value;		/* the number of schedules it compared */
	bool holds;		/* it held */
};

/* What an explore of one strategy and mode found; the names of its columns are the tables'. */
struct store_explore {
	long long id;					/* its row in explores (store_explore_append sets it) */
	long long invocation_id;			/* its invocation */
	char recorded_at[32];				/* when it was stored, UTC ISO 8601 (read back only) */
	char strategy[64];				/* the strategy */
	char mode[16];					/* its claim mode */
	int workers, claims, jobs;			/* K, C, J */
	bool crashes;					/* a worker's crash was a choice */
	bool lease_expiry;				/* the leases running out was a choice */
	int max_steps;					/* the bound on a worker's statements in a schedule */
	char search[16];				/* 'every', 'sample', 'limit', 'replay' or 'interrupted' */
	long schedules;					/* schedules run */
	double space;					/* of how many (NaN: not known) */
	bool sampled;					/* seed is the sample's */
	uint64_t seed;					/* the sample's seed */
	long bounded, blocked, violating;		/* schedules cut, with a blocked step, with a violation */
	long redelivered, fenced;			/* schedules with a redelivery, with a fenced completion */
	double seconds;					/* wall time */
	struct store_explore_finding findings[STORE_EXPLORE_FINDINGS]; /* per kind, in the table's order */
	int n_findings;					/* entries used in findings */
	char shown_trace[2048];				/* the schedule shown; "" when none */
	char shown_why[16];				/* why it was shown (explores.shown_why) */
	bool shown_blocked;				/* a step of it blocked */
	uint64_t shown_redeliveries, shown_fenced;	/* its redeliveries and fenced completions */
	struct store_explore_event *events;		/* the schedule shown, event by event (owned when read back) */
	size_t n_events;				/* entries in events */
	struct store_explore_expect *expects;		/* the expectations' verdicts (owned when read back) */
	size_t n_expects;				/* entries in expects */
};

/*
 * Appends x under the session's invocation, in one transaction: the invocation row first
 * when the session has none yet (ctx, and r's header: server, settings, start, seed), then
 * x with its findings, events and verdicts; x->id set. 0, or -1 with err and nothing written.
 */
int store_explore_append(struct store *s, struct store_session *session, const struct store_context *ctx,
			 const struct invocation_result *r, struct store_explore *x, char *err, size_t errlen);

/* An invocation's explores, read back. */
struct store_explore_list {
	struct store_explore *items;	/* in the order stored (owned, with their events and verdicts) */
	size_t n;			/* entries in items */
};

/*
 * Reads every explore of invocation invocation_id into out (emptied first), control
 * characters in its texts shown as '?' (what the file holds is not to reach a terminal
 * raw). 0 (out->n 0 when it holds none); 1 when there is no such invocation; -1 with err.
 */
int store_explore_load(struct store *s, long long invocation_id, struct store_explore_list *out, char *err,
		       size_t errlen);

/* Frees what store_explore_load allocated in list and empties it; an empty list is fine. */
void store_explore_list_free(struct store_explore_list *list);

#endif
