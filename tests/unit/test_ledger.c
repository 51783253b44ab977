/*
 * Unit tests of the per-thread ledger (measure/ledger.c): preallocation, growth by
 * doubling, error instants, and merging the parts in order.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "measure/ledger.h"

/* Ledger growth by doubling when full, growth counting, and merging in part order. */
static void test_ledger(void)
{
	struct ledger parts[2], into, zero;
	struct execution e = { 0 };
	struct empty_claim ec = { 0 };
	int64_t id;
	bool in_order = true;
	size_t i;

	check_need(ledger_init(&parts[0], 2, 1, 1) == 0, "ledger_init");
	CHECK(parts[0].cap_execs == 2 && parts[0].cap_empties == 1 && parts[0].n_execs == 0 &&
	      parts[0].growths == 0, "ledger: init preallocates what it is told and starts empty");
	for (id = 1; id <= 5; id++) {
		e.job_id = id;
		CHECK_EQ(ledger_add_execution(&parts[0], &e), 0,
		      "ledger: adding execution %lld succeeds", (long long)id);
	}
	/* capacity 2 is full at the third add (-> 4) and at the fifth (-> 8) */
	CHECK(parts[0].n_execs == 5 && parts[0].cap_execs == 8,
	      "ledger: 5 executions in room for 2 double it twice, to 8");
	CHECK_EQ(parts[0].growths, 2, "ledger: two growths are counted");
	for (i = 0; i < parts[0].n_execs; i++)
		if (parts[0].execs[i].job_id != (int64_t)i + 1)
			in_order = false;
	CHECK(in_order, "ledger: executions survive growth in the order added");
	ec.start_ns = 7;
	CHECK(ledger_add_empty(&parts[0], &ec) == 0 && parts[0].n_empties == 1 &&
	      parts[0].growths == 2,
	      "ledger: an empty claim that fits causes no growth");

	check_need(ledger_init(&parts[1], 0, 0, 0) == 0, "ledger_init");
	CHECK(parts[1].execs == NULL && parts[1].cap_execs == 0,
	      "ledger: init with nothing expected allocates nothing");
	e.job_id = 6;
	ec.start_ns = 8;
	CHECK(ledger_add_execution(&parts[1], &e) == 0 && ledger_add_empty(&parts[1], &ec) == 0,
	      "ledger: adding to an unallocated ledger succeeds");
	CHECK(parts[1].n_execs == 1 && parts[1].n_empties == 1 && parts[1].growths == 2,
	      "ledger: growing from nothing counts one growth per array");
	CHECK(ledger_add_return(&parts[1], &(struct job_return){ .job_id = 6, .start_ns = 3, .end_ns = 4 }) == 0 &&
	      parts[1].n_returns == 1 && parts[1].growths == 3,
	      "ledger: a job given back to new is recorded (the monitor's ledger: the reaper's returns)");

	check_need(ledger_init(&into, 1, 1, 0) == 0, "ledger_init");
	CHECK_EQ(ledger_merge(&into, parts, 2), 0, "ledger: merge succeeds");
	CHECK(into.n_execs == 6 && into.n_empties == 2,
	      "ledger: merge appends all 6 executions and 2 empty claims");
	in_order = true;
	for (i = 0; i < into.n_execs; i++)
		if (into.execs[i].job_id != (int64_t)i + 1)
			in_order = false;
	CHECK(in_order, "ledger: merge keeps each part's order, parts in turn");
	CHECK(into.empties[0].start_ns == 7 && into.empties[1].start_ns == 8,
	      "ledger: merge appends empty claims in part order");
	CHECK(into.n_returns == 1 && into.returns[0].job_id == 6 && into.returns[0].start_ns == 3 &&
	      into.returns[0].end_ns == 4, "ledger: merge appends the returns too");
	CHECK_EQ(into.growths, 5,
	      "ledger: merge carries the parts' growths (2 + 3), not its own reallocation");
	CHECK(ledger_merge(&into, parts, 1) == 0 && into.n_execs == 11 &&
	      into.execs[10].job_id == 5,
	      "ledger: a second merge appends after the first");

	ledger_free(&parts[0]);
	ledger_free(&parts[1]);
	ledger_free(&into);
	memset(&zero, 0, sizeof(zero));
	CHECK_EQ(memcmp(&into, &zero, sizeof(zero)), 0, "ledger: free leaves an empty ledger");
}

/* Error instants: recorded in order and grown past the preallocation. */
static void test_error_instants(void)
{
	struct ledger l;
	int i;
	bool ok = true;

	check_need(ledger_init(&l, 0, 0, 1) == 0, "ledger_init");
	for (i = 0; i < 100; i++)
		ok &= ledger_add_error(&l, i) == 0;
	CHECK(ok && l.n_errors == 100 && l.errors[0] == 0 && l.errors[99] == 99,
	      "ledger_add_error keeps 100 instants in order past a preallocation of 1");
	CHECK(l.growths > 0, "growing the error array counts as a growth (%zu)", l.growths);
	ledger_free(&l);
}

int main(void)
{
	test_ledger();
	test_error_instants();
	return check_exit_status();
}
