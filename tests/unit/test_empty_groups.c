/*
 * Unit tests of queue/empty_groups.c and queue/instants.c: a worker's empty claims in a
 * row become one ledger entry while no critical instant can fall within them, and stay
 * apart as soon as one may; the figures they give are test_metrics.c's.
 */
#include <string.h>

#include "check.h"
#include "measure/series.h"
#include "queue/empty_groups.h"

/* A worker (seat 0) of a run of 2 seats, its ledger and its grouping; times are ns after 0. */
struct group_case {
	struct critical_instants ci;	/* the run's instants */
	struct ledger l;		/* seat 0's ledger */
	struct empty_groups g;		/* seat 0's grouping */
};

static void case_init(struct group_case *c)
{
	instants_init(&c->ci, 2);
	check_need(ledger_init(&c->l, 0, 0, 0) == 0, "ledger_init");
	empty_groups_reset(&c->g);
}

/* Adds seat 0's empty claim from start to end, begun after the instants were as before. */
static void add(struct group_case *c, int64_t start, int64_t end, struct instants_snapshot before)
{
	struct empty_claim e = { .start_ns = start, .end_ns = end, .worker = 0, .count = 1 };

	check_need(empty_groups_add(&c->g, &c->l, &e, before, &c->ci, 0, 0) == 0, "empty_groups_add");
}

/* Whether ledger entry i spans start..end with count claims. */
static bool entry_is(const struct group_case *c, size_t i, int64_t start, int64_t end, uint32_t count)
{
	return i < c->l.n_empties && c->l.empties[i].start_ns == start && c->l.empties[i].end_ns == end &&
	       c->l.empties[i].count == count;
}

static void test_grouping(void)
{
	struct group_case c;
	struct instants_snapshot quiet, after_enqueue, after_job, busy;

	case_init(&c);
	quiet = instants_snapshot(&c.ci);
	add(&c, 10, 20, quiet);
	add(&c, 25, 30, quiet);
	add(&c, 35, 40, quiet);
	CHECK(c.l.n_empties == 1 && entry_is(&c, 0, 10, 40, 3),
	      "three empty claims in a row with no instant read are one entry 10..40 of 3 (got %zu entries)",
	      c.l.n_empties);

	/* an enqueue time is read: the group closes, the next claims make a new one */
	instants_clock(&c.ci);
	after_enqueue = instants_snapshot(&c.ci);
	add(&c, 45, 50, after_enqueue);
	add(&c, 55, 60, after_enqueue);
	CHECK(c.l.n_empties == 2 && entry_is(&c, 0, 10, 40, 3) && entry_is(&c, 1, 45, 60, 2),
	      "after a critical instant a new group begins: 10..40 of 3, 45..60 of 2 (got %zu entries)", c.l.n_empties);

	/* seat 1's claim began at 62, within the span: the claims wait, then join once it came back empty */
	atomic_store(&c.ci.claim_start[1], 62);
	add(&c, 61, 65, after_enqueue);
	add(&c, 66, 70, after_enqueue);
	CHECK(c.l.n_empties == 4 && c.g.n_tail == 2,
	      "while another seat's claim begun within the span is in flight, the claims wait apart (got %zu, tail %zu)",
	      c.l.n_empties, c.g.n_tail);
	atomic_store(&c.ci.claim_start[1], INSTANT_NO_CLAIM);
	add(&c, 71, 75, after_enqueue);
	CHECK(c.l.n_empties == 2 && entry_is(&c, 1, 45, 75, 5) && c.g.n_tail == 0,
	      "once it came back empty, they join the group: 45..75 of 5 (got %zu entries)", c.l.n_empties);

	/* seat 1's claim began at 80 within the next claim and returned a job: nothing joins across it */
	atomic_store(&c.ci.claim_start[1], 80);
	add(&c, 78, 85, after_enqueue);
	instants_claim_end(&c.ci, 1, true);
	after_job = instants_snapshot(&c.ci);
	add(&c, 86, 90, after_job);
	CHECK(c.l.n_empties == 4 && entry_is(&c, 1, 45, 75, 5) && entry_is(&c, 2, 78, 85, 1) &&
	      entry_is(&c, 3, 86, 90, 1),
	      "a claim that returned a job, begun within the span, keeps the claims around it apart (got %zu entries)",
	      c.l.n_empties);

	/* a claim begun while an instant was being read opens no group */
	atomic_fetch_add(&c.ci.begun, 1);
	busy = instants_snapshot(&c.ci);
	atomic_fetch_add(&c.ci.done, 1);
	empty_groups_reset(&c.g);
	add(&c, 91, 92, busy);
	add(&c, 93, 94, instants_snapshot(&c.ci));
	add(&c, 95, 96, instants_snapshot(&c.ci));
	CHECK(c.l.n_empties == 6 && entry_is(&c, 4, 91, 92, 1) && entry_is(&c, 5, 93, 96, 2),
	      "a claim begun while an instant was read stays alone; the next ones group (got %zu entries)",
	      c.l.n_empties);

	/* a claim ending in the next 100 ms bucket of the series begins a new group */
	add(&c, 97, SERIES_BUCKET_NS + 1, instants_snapshot(&c.ci));
	CHECK(c.l.n_empties == 7 && entry_is(&c, 6, 97, SERIES_BUCKET_NS + 1, 1),
	      "a claim ending in the next series bucket is a group of its own (got %zu entries)", c.l.n_empties);
	ledger_free(&c.l);
}

static void test_full_tail(void)
{
	struct group_case c;
	struct instants_snapshot quiet;
	size_t i, waited;

	case_init(&c);
	quiet = instants_snapshot(&c.ci);
	add(&c, 10, 20, quiet);
	/* seat 1's claim, begun at 21 within the group 10.., stays in flight */
	atomic_store(&c.ci.claim_start[1], 21);
	for (i = 0; i < EMPTY_TAIL_MAX; i++)
		add(&c, 30 + 10 * (int64_t)i, 35 + 10 * (int64_t)i, quiet);
	waited = c.g.n_tail;
	for (; i < EMPTY_TAIL_MAX + 6; i++)
		add(&c, 30 + 10 * (int64_t)i, 35 + 10 * (int64_t)i, quiet);
	CHECK(waited == EMPTY_TAIL_MAX && c.l.n_empties == 2 && entry_is(&c, 0, 10, 20, 1) &&
	      entry_is(&c, 1, 30, 35 + 10 * (EMPTY_TAIL_MAX + 5), EMPTY_TAIL_MAX + 6),
	      "a full tail of %d closes the group the claim in flight began in; the claims after its start group "
	      "(tail %zu, %zu entries)", EMPTY_TAIL_MAX, waited, c.l.n_empties);
	ledger_free(&c.l);
}

int main(void)
{
	test_grouping();
	test_full_tail();
	return check_exit_status();
}
