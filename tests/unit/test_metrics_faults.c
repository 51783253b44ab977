/*
 * Unit tests of the figures of faults and recovery in measure/metrics.c: redeliveries,
 * zombie completions, fenced, stuck, lost through crashes, recovery times, the first
 * completion after a restart, and the delivery verdict, each on a hand-made ledger whose
 * answers were worked out by hand (the comments show how). docs/metrics.md defines them.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "ledger_case.h"
#include "measure/ledger.h"
#include "measure/metrics.h"
#include "model/faults.h"
#include "model/metric_table.h"

/* Appends an execution of job: claim began at claim_ms, in hand at start_ms, ended at end_ms. */
static void add_exec(struct ledger_case *c, int64_t job, int64_t claim_ms, int64_t start_ms, int64_t end_ms,
		     int32_t outcome)
{
	struct execution e = {
		.job_id = job, .claim_start_ns = MS(claim_ms), .start_ns = MS(start_ms), .end_ns = MS(end_ms),
		.outcome = outcome,
	};

	check_need(ledger_add_execution(&c->ledger, &e) == 0, "ledger_add_execution");
}

/* Appends a fault of kind at at_ms on job (0: none), striking worker (-1: the server). */
static void add_fault(struct ledger_case *c, enum fault_kind kind, int64_t at_ms, int64_t job, int32_t worker)
{
	struct fault_record f = { .at_ns = MS(at_ms), .job_id = job, .kind = kind, .worker = worker };

	check_need(ledger_add_fault(&c->ledger, &f) == 0, "ledger_add_fault");
}

/* Computes c's metrics; name says which case. */
static void compute(struct ledger_case *c, const char *name)
{
	CHECK_EQ(metrics_compute(&c->in, &c->out), 0, "%s: computed", name);
}

/*
 * Hold mode, a worker crashes holding job 1 at 5 ms; the server frees the row and another
 * worker has it in hand at 7 ms and completes it at 20 ms:
 *   y  claim 0, in hand 1, ended 5, crashed
 *   x  claim 6, in hand 7, ended 20, done      y never committed and was in hand first:
 *                                              x is a redelivery
 * Job 2 ran once. Duplicates 1 (the crashed work may have been done), no overlap, nothing
 * lost; recovery 20 - 5 = 15 ms; at-most-once broken, at-least-once held.
 */
static void test_crash_in_hold(void)
{
	struct ledger_case c;

	ledger_case_init(&c, 2);
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 1, 6, 7, 20, EXEC_DONE);
	add_exec(&c, 2, 0, 1, 11, EXEC_DONE);
	add_fault(&c, FAULT_CRASH, 5, 1, 0);
	c.in.claim_in_session = true;
	compute(&c, "crash in hold mode");
	CHECK(c.out.duplicates == 1 && c.out.redeliveries == 1 && c.out.overlaps == 0 && c.out.zombie_completions == 0,
	      "crash in hold mode: 1 duplicate, 1 redelivery, no overlap, no zombie (%llu %llu %llu %llu)",
	      (unsigned long long)c.out.duplicates, (unsigned long long)c.out.redeliveries,
	      (unsigned long long)c.out.overlaps, (unsigned long long)c.out.zombie_completions);
	CHECK(c.out.lost == 0 && c.out.stuck == 0 && c.out.faults_injected == 1 && c.out.completed == 2,
	      "crash in hold mode: nothing lost or stuck, 1 fault, both jobs completed");
	CHECK(c.out.recovery_ms.p50 == 15.0 && c.out.recovery_ms.max == 15.0,
	      "crash in hold mode: recovered in 15 ms (%g, %g)", c.out.recovery_ms.p50, c.out.recovery_ms.max);
	CHECK(c.out.delivery.at_most_once == 0 && c.out.delivery.at_least_once == 1,
	      "crash in hold mode: at-most-once broken, at-least-once held");
	ledger_free(&c.ledger);
}

/*
 * Flip mode without a lease, a worker crashes holding job 1: the row stays active, no
 * one takes it again. Lost 1 (its final state is active), stuck 1, no redelivery, no
 * recovery time (the job never committed after the fault); at-least-once broken.
 */
static void test_crash_in_flip(void)
{
	struct ledger_case c;

	ledger_case_init(&c, 2);
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 2, 0, 1, 11, EXEC_DONE);
	add_fault(&c, FAULT_CRASH, 5, 1, 0);
	c.final[0] = (struct job_state){ .status = JOB_ACTIVE, .claimed_by = 0 };
	compute(&c, "crash in flip mode");
	CHECK(c.out.lost == 1 && c.out.stuck == 1 && c.out.redeliveries == 0 && c.out.duplicates == 0,
	      "crash in flip mode: 1 lost, 1 stuck, no redelivery, no duplicate");
	CHECK(isnan(c.out.recovery_ms.p50) && isnan(c.out.recovery_ms.max),
	      "crash in flip mode: no recovery time, the job never committed after the fault");
	CHECK(c.out.delivery.at_most_once == 1 && c.out.delivery.at_least_once == 0,
	      "crash in flip mode: at-most-once held, at-least-once broken");
	CHECK_EQ(c.out.ledger_mismatches, 0, "crash in flip mode: the ledger agrees with the table");
	ledger_free(&c.ledger);
}

/*
 * A stall longer than the lease (flip mode, a 40 ms lease, no reaper): y has job 1 in
 * hand at 1 ms and stalls; its lease runs out and x claims the job at 50 ms, has it at 51
 * and completes it at 60; y completes at 100 ms.
 *   without a fence y's completion commits: a zombie completion (x took the job while y
 *   had it in hand); x is a redelivery (51 - 0 >= 40: the lease ran out); the two overlap;
 *   with a fence y's completion is refused: fenced 1, no zombie, nothing lost (x, which
 *   started later, committed).
 */
static void test_stall_past_the_lease(void)
{
	struct ledger_case c;

	ledger_case_init(&c, 1);
	add_exec(&c, 1, 0, 1, 100, EXEC_DONE);
	add_exec(&c, 1, 50, 51, 60, EXEC_DONE);
	add_fault(&c, FAULT_STALL, 6, 1, 0);
	c.in.lease_ns = MS(40);
	compute(&c, "stall, no fence");
	CHECK(c.out.zombie_completions == 1 && c.out.redeliveries == 1 && c.out.overlaps == 1 && c.out.fenced == 0,
	      "stall, no fence: 1 zombie completion, 1 redelivery, 1 overlap (%llu %llu %llu)",
	      (unsigned long long)c.out.zombie_completions, (unsigned long long)c.out.redeliveries,
	      (unsigned long long)c.out.overlaps);
	CHECK_EQ(c.out.redeliveries_lease, 1, "stall, no fence: the redelivery's cause is the lease");
	CHECK_EQ(c.out.recovery_ms.p50, 54.0, "stall, no fence: the job's next commit came 60 - 6 = 54 ms after (%g)",
	      c.out.recovery_ms.p50);
	ledger_free(&c.ledger);

	ledger_case_init(&c, 1);
	add_exec(&c, 1, 0, 1, 100, EXEC_FENCED);
	add_exec(&c, 1, 50, 51, 60, EXEC_DONE);
	c.in.lease_ns = MS(40);
	compute(&c, "stall, fenced");
	CHECK(c.out.zombie_completions == 0 && c.out.fenced == 1 && c.out.redeliveries == 1 && c.out.lost == 0,
	      "stall, fenced: no zombie, 1 fenced, 1 redelivery, nothing lost");
	CHECK_EQ(c.out.ledger_mismatches, 0, "stall, fenced: the ledger agrees with the table");
	ledger_free(&c.ledger);
}

/*
 * Races and waits that are not redeliveries, and one that is:
 *   job 1 (naive's race): two claims both begun before either had the job, both commit:
 *	a duplicate and an overlap, no redelivery, no zombie;
 *   job 2 (a killed connection in hold mode): y in hand at 1, its transaction killed, it
 *	notices at 20 (uncommitted); x had waited on y's row lock since 0.5 and has the job
 *	at 10: in hold mode y's transaction had ended, so x is a redelivery (cause crash),
 *	and they overlap;
 *   job 3 (a failed job run again by --rerun-errors): the first run committed its
 *	failure, the second is no redelivery.
 */
static void test_redelivery_or_not(void)
{
	struct ledger_case c;

	ledger_case_init(&c, 3);
	add_exec(&c, 1, 0, 2, 10, EXEC_DONE);
	add_exec(&c, 1, 1, 3, 11, EXEC_DONE);
	add_exec(&c, 2, 0, 1, 20, EXEC_UNCOMMITTED);
	add_exec(&c, 2, 0, 10, 30, EXEC_DONE);
	add_exec(&c, 3, 0, 1, 5, EXEC_FAILED);
	add_exec(&c, 3, 40, 41, 50, EXEC_DONE);
	c.in.claim_in_session = true;
	compute(&c, "races and waits");
	CHECK(c.out.duplicates == 3 && c.out.overlaps == 2 && c.out.redeliveries == 1 && c.out.zombie_completions == 0,
	      "races and waits: 3 duplicates, 2 overlaps, 1 redelivery (job 2), no zombie (%llu %llu %llu %llu)",
	      (unsigned long long)c.out.duplicates, (unsigned long long)c.out.overlaps,
	      (unsigned long long)c.out.redeliveries, (unsigned long long)c.out.zombie_completions);
	CHECK_EQ(c.out.redeliveries_crash, 1, "races and waits: job 2's redelivery has cause crash");
	CHECK(c.out.lost == 0 && isnan(c.out.recovery_ms.p50) && c.out.faults_injected == 0,
	      "races and waits: nothing lost; without faults no recovery time");
	ledger_free(&c.ledger);
}

/*
 * Recovery percentiles and restarts. Crashes at 10, 20 and 30 ms on jobs 1, 2, 3, whose
 * next commits end at 20, 40 and 60: recoveries 10, 20, 30 ms, median 20, max 30. A
 * crash on job 4, which never commits again, and a kill-backend on no job are left out.
 * Restarts at 5 ms, the server back at 8, and at 35, back at 35: the first completion
 * after 8 ends at 20 (12 ms), after 35 at 40 (5 ms): the longest is 12.
 */
static void test_recovery_times(void)
{
	struct ledger_case c;

	ledger_case_init(&c, 4);
	for (int64_t j = 1; j <= 3; j++) {
		add_exec(&c, j, 0, 1, 10 * j, EXEC_CRASHED);
		add_exec(&c, j, 10 * j + 1, 10 * j + 2, 20 * j, EXEC_DONE);
		add_fault(&c, FAULT_CRASH, 10 * j, j, 0);
	}
	add_exec(&c, 4, 0, 1, 7, EXEC_CRASHED);
	add_fault(&c, FAULT_CRASH, 7, 4, 1);
	add_fault(&c, FAULT_KILL_BACKEND, 8, 0, 1);
	add_fault(&c, FAULT_RESTART, 5, 0, -1);
	c.ledger.faults[c.ledger.n_faults - 1].duration_ns = MS(3);
	add_fault(&c, FAULT_RESTART, 35, 0, -1);
	c.final[3] = (struct job_state){ .status = JOB_NEW, .claimed_by = -1 };
	compute(&c, "recovery times");
	CHECK(c.out.recovery_ms.p50 == 20.0 && c.out.recovery_ms.max == 30.0,
	      "recovery times: median 20 ms, max 30 ms (%g, %g)", c.out.recovery_ms.p50, c.out.recovery_ms.max);
	CHECK_EQ(c.out.restart_first_completion_ms, 12.0,
	      "restarts: the longest wait from the server back to a completion is 12 ms (%g)",
	      c.out.restart_first_completion_ms);
	CHECK(c.out.faults_injected == 7 && c.out.lost == 1 && c.out.stuck == 0,
	      "recovery times: 7 faults; job 4 lost (new at the end of a drain run), not stuck");
	ledger_free(&c.ledger);
}

/* Without the final state, lost, stuck and at-least-once are unknown; reconnects and reaped are summed. */
static void test_unknowns_and_sums(void)
{
	struct worker_stats workers[2];
	struct producer_stats producer = { .reconnects = 4 };
	struct ledger_case c;

	memset(workers, 0, sizeof(workers));
	workers[0].reconnects = 2;
	workers[1].reconnects = 3;
	ledger_case_init(&c, 1);
	add_exec(&c, 1, 0, 1, 5, EXEC_DONE);
	c.in.final = NULL;
	c.in.workers = workers;
	c.in.n_workers = 2;
	c.in.producers = &producer;
	c.in.n_producers = 1;
	c.in.reaped = 6;
	compute(&c, "no final state");
	CHECK(c.out.lost == METRIC_UNKNOWN && c.out.stuck == METRIC_UNKNOWN &&
	      c.out.delivery.at_least_once == METRIC_UNKNOWN && c.out.delivery.at_most_once == 1,
	      "no final state: lost, stuck and at-least-once unknown, at-most-once held");
	CHECK(c.out.reconnects == 9 && c.out.reaped == 6, "reconnects 2 + 3 + 4 = 9, reaped 6");
	ledger_free(&c.ledger);
}

int main(void)
{
	test_crash_in_hold();
	test_crash_in_flip();
	test_stall_past_the_lease();
	test_redelivery_or_not();
	test_recovery_times();
	test_unknowns_and_sums();
	return check_exit_status();
}
