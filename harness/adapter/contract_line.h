/*
 * One line an adapter writes on its standard output (contract version 1, docs/adapters.md):
 * parsed in place, allocating nothing, so that reading a replica's lines costs no more than
 * the bytes.
 */
#ifndef CLAIMBENCH_ADAPTER_CONTRACT_LINE_H
#define CLAIMBENCH_ADAPTER_CONTRACT_LINE_H

#include <stddef.h>
#include <stdint.h>

/* What a line says. */
enum adapter_line_kind {
	LINE_READY,	/* "ready": connected, its tables made; it waits for enqueues or start */
	LINE_ENQUEUED,	/* "enqueued N": the N enqueues sent so far are committed */
	LINE_CLAIMED,	/* "claimed JOB ATTEMPT WORKER [US]": worker holds job, in its attempt */
	LINE_STARTED,	/* "started JOB ATTEMPT WORKER [US]": its work began */
	LINE_FINISHED,	/* "finished JOB ATTEMPT WORKER [US]": its completion committed */
	LINE_FAILED,	/* "failed JOB ATTEMPT WORKER [US]": its failure committed */
	LINE_LOST,	/* "lost JOB ATTEMPT WORKER [US]": its connection was lost with the job in hand, whether its
			 * completion committed unknown; the worker holds it no more */
	LINE_ERROR,	/* "error WORKER TEXT": a worker met an error and goes on */
	LINE_STOPPED,	/* "stopped": every worker has ended; it exits next */
};

/* A parsed line; only the fields its kind has are set. */
struct adapter_line {
	enum adapter_line_kind kind;	/* what it says */
	int64_t job;			/* claimbench's job id (an execution's line) */
	int64_t attempt;		/* the library's attempt number, from 1 (an execution's line) */
	int32_t worker;			/* the replica's worker, 0 to W-1 (an execution's or an error's line) */
	int64_t adapter_us;		/* the adapter's own clock (Unix time, microseconds), -1 when not given */
	int64_t count;			/* enqueued's N */
	const char *text;		/* error's text, pointing into the line */
};

/*
 * Parses the NUL-terminated line (no newline) into out. 0, or -1 with what was expected
 * written into expected (the line itself is the caller's to quote).
 */
int adapter_line_parse(const char *line, struct adapter_line *out, char *expected, size_t explen);

#endif
