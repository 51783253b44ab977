/*
 * The run's critical instants, as the workers grouping their empty claims need them
 * (queue/empty_groups.h): the instants the metrics of empty claims compare them with —
 * each job's enqueue time, and the start and end of each claim that returned a job (its
 * executions' claim_start_ns and start_ns). Each is read between two counters, begun and
 * done, and each worker's claim in flight is shown by its start, so that another thread
 * can tell that none of them fell within a span of time it saw pass.
 */
#ifndef CLAIMBENCH_INSTANTS_H
#define CLAIMBENCH_INSTANTS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/config.h"

/* A seat's claim_start when it has no claim in flight. */
#define INSTANT_NO_CLAIM INT64_MAX

/* A seat's claim_start while its claim begins: its start is not read yet. */
#define INSTANT_CLAIM_BEGINNING INT64_MIN

/* The critical instants of one run, shared by its threads. */
struct critical_instants {
	atomic_uint_least64_t begun;		/* critical instants whose reading began */
	atomic_uint_least64_t done;		/* critical instants read (done <= begun; equal: none being read) */
	_Atomic int64_t claim_start[MAX_WORKERS];	/* per seat, the start of its claim in flight (clock_now_ns),
						 * INSTANT_NO_CLAIM or INSTANT_CLAIM_BEGINNING */
	int seats;				/* seats of the run: claim_start[0..seats-1] are used */
};

/* Where the critical instants were before a claim began (instants_snapshot). */
struct instants_snapshot {
	uint64_t begun;		/* begun then */
	bool quiet;		/* none was being read then: every one begun was done */
};

/* Prepares ci for a run of seats workers, none with a claim in flight. */
void instants_init(struct critical_instants *ci, int seats);

/* Reads the clock (clock_now_ns) as a critical instant: an enqueue time. */
int64_t instants_clock(struct critical_instants *ci);

/* Where ci is now, taken before a claim begins. */
struct instants_snapshot instants_snapshot(struct critical_instants *ci);

/* Begins a claim of seat: its start (clock_now_ns), shown as in flight. */
int64_t instants_claim_begin(struct critical_instants *ci, int seat);

/*
 * Ends the claim of seat: its end (clock_now_ns), read as a critical instant when the
 * claim returned a job (returned), and the seat shown with no claim in flight.
 */
int64_t instants_claim_end(struct critical_instants *ci, int seat, bool returned);

/*
 * Whether no critical instant other than seat's own can lie in (from_ns, to_ns]
 * (clock_now_ns instants) for a span whose start came after snapshot: 1 none can; 0 none
 * has yet, but another seat's claim in flight began within the span (or is beginning),
 * so it may (ask again later); -1 one may have (one was read since snapshot, or snapshot
 * was not quiet): the span is no longer known free of them.
 */
int instants_none_within(struct critical_instants *ci, struct instants_snapshot snapshot, int seat,
			 int64_t from_ns, int64_t to_ns);

#endif
