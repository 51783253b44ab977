#include <string.h>

#include "measure/series.h"
#include "queue/empty_groups.h"

void empty_groups_reset(struct empty_groups *g)
{
	g->open = false;
	g->n_tail = 0;
}

/* Drops the oldest tail entry from the tail (it stays in the ledger where it is). */
static void pop_tail(struct empty_groups *g)
{
	memmove(g->tail, g->tail + 1, (g->n_tail - 1) * sizeof(g->tail[0]));
	g->n_tail--;
}

/*
 * Whether the tail entry e can join the open group before it (1), must wait (0: another
 * seat's claim in flight began within their span; never when full, the tail having no
 * room), or cannot (-1): the group is then closed.
 */
static int may_join(const struct empty_groups *g, const struct empty_claim *group, const struct empty_claim *e,
		    struct critical_instants *ci, int seat, int64_t start_ns, bool full)
{
	int none;

	if (series_bucket(e->end_ns) != series_bucket(group->end_ns) || group->count == UINT32_MAX)
		return -1;
	none = instants_none_within(ci, g->group_since, seat, group->start_ns + start_ns, e->end_ns + start_ns);
	return none == 0 && full ? -1 : none;
}

/*
 * Folds the tail's entries, oldest first, into the open group (or opens one with an entry
 * whose claim began with the instants quiet) while each can be told to belong; full: the
 * tail has no room left, so its oldest entry cannot wait.
 */
static void fold(struct empty_groups *g, struct ledger *l, struct critical_instants *ci, int seat, int64_t start_ns,
		 bool full)
{
	while (g->n_tail) {
		struct empty_claim *e = &l->empties[l->n_empties - g->n_tail];
		int join = g->open ? may_join(g, e - 1, e, ci, seat, start_ns, full) : -1;

		if (join == 0)
			return;
		if (join > 0) {
			e[-1].end_ns = e->end_ns;
			e[-1].count++;
			memmove(e, e + 1, (g->n_tail - 1) * sizeof(*e));
			l->n_empties--;
			pop_tail(g);
			continue;
		}
		if (g->open) {
			g->open = false;
			continue;
		}
		/* no group: the oldest entry opens one when its claim began with no instant being read */
		g->open = g->tail[0].quiet;
		g->group_since = g->tail[0];
		pop_tail(g);
		full = false;
	}
}

int empty_groups_add(struct empty_groups *g, struct ledger *l, const struct empty_claim *e,
		     struct instants_snapshot before, struct critical_instants *ci, int seat, int64_t start_ns)
{
	bool full = g->n_tail == EMPTY_TAIL_MAX;

	if (full)
		fold(g, l, ci, seat, start_ns, true);
	if (ledger_add_empty(l, e) < 0)
		return -1;
	g->tail[g->n_tail++] = before;
	fold(g, l, ci, seat, start_ns, false);
	return 0;
}
