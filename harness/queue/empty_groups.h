/*
 * A worker's empty claims grouped as they come, so that a run polling an empty queue for
 * hours keeps no entry per claim: consecutive empty claims of one worker are one entry of
 * its ledger (struct empty_claim, count) when no critical instant (queue/instants.h: an
 * enqueue, the start or end of a claim that returned a job) falls between the first's
 * start and the last's end, and the last ends in the first's 100 ms series bucket. Every
 * metric of empty claims compares them with critical instants only, so it judges each
 * claim of such a group as it judges the group from its first start to its last end:
 * every figure stays exact. A claim whose span cannot be told free of them yet (another
 * worker's claim in flight began within it) waits in a short tail of single entries.
 */
#ifndef CLAIMBENCH_EMPTY_GROUPS_H
#define CLAIMBENCH_EMPTY_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/ledger.h"
#include "queue/instants.h"

/* The most empty claims waiting in the tail: past it the oldest stays a single entry. */
#define EMPTY_TAIL_MAX 64

/* One worker's grouping of its empty claims into its ledger. */
struct empty_groups {
	bool open;					/* the ledger's entry before the tail is a group that may grow */
	struct instants_snapshot group_since;		/* the instants before that group's first claim began */
	struct instants_snapshot tail[EMPTY_TAIL_MAX];	/* per tail entry (the ledger's last n_tail), the
							 * instants before its claim began */
	size_t n_tail;					/* empty claims in the tail */
};

/*
 * Starts g anew: no group open, the tail empty (its entries stay single in the ledger).
 * At a worker's start, and when its own claim returned a job (a critical instant after
 * every claim before it).
 */
void empty_groups_reset(struct empty_groups *g);

/*
 * Adds to l the empty claim e (count 1) of seat, whose claim began after before, and
 * folds into the open group every tail entry that can be told to belong to it. start_ns
 * is the gate's start: e's times plus it are clock_now_ns instants. 0, or -1 when l
 * cannot grow.
 */
int empty_groups_add(struct empty_groups *g, struct ledger *l, const struct empty_claim *e,
		     struct instants_snapshot before, struct critical_instants *ci, int seat, int64_t start_ns);

#endif
