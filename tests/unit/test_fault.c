/*
 * Unit tests of queue/fault.c: which faults an execution meets (by number, by a rate
 * drawn from the seed), the instants' clock, and which worker a fault due at an instant
 * strikes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "check.h"
#include "queue/fault.h"

/* Executions by number: exactly the listed ones, whatever the job. */
static void test_planned_by_number(void)
{
	struct fault_plan plan;
	unsigned hits = 0;

	memset(&plan, 0, sizeof(plan));
	plan.when[FAULT_CRASH] = (struct fault_trigger){ .exec = { 5, 20 }, .n_exec = 2 };
	plan.when[FAULT_STALL] = (struct fault_trigger){ .exec = { 20 }, .n_exec = 1 };
	for (long n = 1; n <= 100; n++)
		hits += fault_planned(&plan, 42, n, n % 7 + 1, 0) != 0;
	CHECK_EQ(hits, 2, "two executions of 100 meet a fault (%u)", hits);
	CHECK_EQ(fault_planned(&plan, 42, 5, 3, 0), FAULT_BIT(FAULT_CRASH), "execution 5 crashes");
	CHECK_EQ(fault_planned(&plan, 7, 20, 9, 4), (FAULT_BIT(FAULT_CRASH) | FAULT_BIT(FAULT_STALL)),
	      "execution 20 stalls and crashes, whatever the seed, job and its execution count");
	CHECK_EQ(fault_planned(&plan, 42, 6, 3, 0), 0, "execution 6 meets none");
}

/* By rate: about rate x executions, the same ones for the same seed, job and execution. */
static void test_planned_by_rate(void)
{
	struct fault_plan plan;
	unsigned hits = 0, again = 0, retry = 0;

	memset(&plan, 0, sizeof(plan));
	plan.when[FAULT_KILL_BACKEND].rate = 0.1;
	for (long job = 1; job <= 10000; job++) {
		unsigned first = fault_planned(&plan, 42, job, job, 0);

		hits += first != 0;
		again += first == fault_planned(&plan, 42, job + 5, job, 0);
		retry += fault_planned(&plan, 42, job, job, 1) != 0;
	}
	CHECK(hits > 900 && hits < 1100, "a rate of 0.1 strikes about 1000 of 10000 executions (%u)", hits);
	CHECK_EQ(again, 10000, "the draw depends on the seed, the job and its execution, not the execution number");
	CHECK(retry > 900 && retry < 1100 && retry != hits,
	      "a job's second execution draws anew (%u, the first %u)", retry, hits);
	CHECK_EQ(fault_planned(&plan, 42, 1, 1, 0), fault_planned(&plan, 42, 1, 1, 0), "a draw is repeatable");
	plan.when[FAULT_KILL_BACKEND].rate = 1;
	CHECK_EQ(fault_planned(&plan, 1, 1, 1, 0), FAULT_BIT(FAULT_KILL_BACKEND), "a rate of 1 strikes every execution");
}

/* The instants' clock: sorted, due in order. */
static void test_clock(void)
{
	struct fault_trigger t = { .at_s = { 2.5, 0.5, 1.0 }, .n_at = 3 };
	struct fault_clock clock;

	fault_clock_init(&clock, &t);
	CHECK(clock.n == 3 && clock.at_s[0] == 0.5 && clock.at_s[1] == 1.0 && clock.at_s[2] == 2.5 && clock.next == 0,
	      "the instants are sorted, none struck");
	CHECK(!fault_clock_due(&clock, 0.49) && fault_clock_due(&clock, 0.5), "the first is due at 0.5 s");
	clock.next = 3;
	CHECK(!fault_clock_due(&clock, 100), "none is due once all have struck");
	t.n_at = 0;
	fault_clock_init(&clock, &t);
	CHECK(!fault_clock_due(&clock, 1e9), "an empty clock is never due");
}

/* Picking the worker: only eligible ones, repeatable, spread over them. */
static void test_pick(void)
{
	bool eligible[6] = { false, true, false, true, true, false }, none[3] = { false };
	unsigned seen[6] = { 0 }, wrong = 0;

	for (size_t i = 0; i < 300; i++) {
		int w = fault_pick(42, FAULT_CRASH, i, eligible, 6);

		if (w >= 0 && eligible[w])
			seen[w]++;
		else
			wrong++;
	}
	CHECK_EQ(wrong, 0, "every pick is an eligible worker (%u are not)", wrong);
	CHECK(seen[1] > 60 && seen[3] > 60 && seen[4] > 60, "300 picks spread over the 3 eligible workers (%u %u %u)",
	      seen[1], seen[3], seen[4]);
	CHECK_EQ(fault_pick(42, FAULT_CRASH, 7, eligible, 6), fault_pick(42, FAULT_CRASH, 7, eligible, 6),
	      "a pick is repeatable");
	CHECK_EQ(fault_pick(42, FAULT_STALL, 0, none, 3), -1, "no eligible worker: -1");
}

int main(void)
{
	test_planned_by_number();
	test_planned_by_rate();
	test_clock();
	test_pick();
	return check_exit_status();
}
