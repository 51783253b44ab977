/*
 * A schedule as the choices made at its settled points, and its text, the trace that
 * --schedule replays: choices joined by '.', each a worker's number (its next statement),
 * 'c' and a worker's number (that worker crashes), or 'e' (the leases expire).
 */
#ifndef CLAIMBENCH_TRACE_H
#define CLAIMBENCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>

/* The most choices one schedule makes. */
#define TRACE_MAX 512

/* What a choice is. */
enum choice_kind {
	CHOICE_STEP,	/* the worker's next statement goes */
	CHOICE_CRASH,	/* the worker crashes before its next statement */
	CHOICE_EXPIRE,	/* every active lease expires (and a reaper gives the jobs back) */
};

/* One choice at a settled point. */
struct choice {
	enum choice_kind kind;	/* what it is */
	int worker;		/* whose, -1 for CHOICE_EXPIRE */
};

/* A schedule's choices, and at each the number of choices there were (for depth-first search). */
struct trace {
	struct choice at[TRACE_MAX];	/* the choices, in order */
	int options[TRACE_MAX];		/* how many choices each point offered */
	int taken[TRACE_MAX];		/* which of them was taken */
	int n;				/* choices made */
};

/* Whether a and b are the same choice. */
bool choice_equal(struct choice a, struct choice b);

/* Writes t's trace text into buf. */
void trace_format(const struct trace *t, char *buf, size_t len);

/* Parses text into t's choices (options and taken left 0). 0, or -1 with err naming the bad token. */
int trace_parse(const char *text, struct trace *t, char *err, size_t errlen);

#endif
