/*
 * Unit tests of the accounting across a failover (measure/failover.c) on hand-made
 * ledgers whose answers were worked out by hand (the comments show how): which
 * acknowledged completions the new primary lacks, run again or left active (the old
 * primary's told by the connection they returned on), and the first completion on the new one. docs/metrics.md defines the figures.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "ledger_case.h"
#include "measure/failover.h"
#include "measure/ledger.h"
#include "model/faults.h"
#include "model/metric_table.h"

/*
 * Appends an execution of job whose claim began at claim_ms and that ended at end_ms with
 * outcome, on a connection made at conn_ms.
 */
static void add_exec_on(struct ledger_case *c, int64_t conn_ms, int64_t job, int64_t claim_ms, int64_t end_ms,
			int32_t outcome)
{
	struct execution e = {
		.job_id = job, .claim_start_ns = MS(claim_ms), .start_ns = MS(claim_ms + 1), .end_ns = MS(end_ms),
		.conn_ns = MS(conn_ms), .outcome = outcome,
	};

	check_need(ledger_add_execution(&c->ledger, &e) == 0, "ledger_add_execution");
}

/*
 * Appends an execution as add_exec_on does, its connection made at 0 when its claim began
 * before 100 ms, else when its claim began (after the failovers of these tests: the new primary's).
 */
static void add_exec(struct ledger_case *c, int64_t job, int64_t claim_ms, int64_t end_ms, int32_t outcome)
{
	add_exec_on(c, claim_ms < 100 ? 0 : claim_ms, job, claim_ms, end_ms, outcome);
}

/* Appends a failover that began at at_ms and whose promotion returned duration_ms later. */
static void add_failover(struct ledger_case *c, int64_t at_ms, int64_t duration_ms)
{
	struct fault_record f = { .at_ns = MS(at_ms), .duration_ns = MS(duration_ms), .kind = FAULT_FAILOVER, .worker = -1 };

	check_need(ledger_add_fault(&c->ledger, &f) == 0, "ledger_add_fault");
}

/*
 * The failover begins at 100 ms, the promotion returns at 150 ms:
 *   job 1  done at 40, never claimed again, done at the end          kept: not lost
 *   job 2  done at 90, claimed again at 160, done at 180             lost, run again
 *   job 3  done at 120 on a connection made at 0 (the old primary's), done at the end after a claim at 170
 *                                                                     lost, run again
 *   job 4  done at 95, active at the end, never claimed again        lost, left active
 *   job 5  claimed at 90, its completion lost with the connection (uncommitted at 110),
 *          claimed again at 160, done at 175                         no acknowledged completion: not lost
 *   job 6  done at 160 (on the new primary)                          not lost; the first completion after
 * Lost 3 (jobs 2 3 4), run again 2, left active 1; first completion at 160: 60 ms after 100.
 * Job 5's claim, in hand when the failover struck, was taken again at 160 with no lease:
 * the new primary lacked it (1 claim lost, flip mode without a lease).
 */
static void test_lost_completions(void)
{
	struct ledger_case c;
	struct failover_figures f;
	char jobs[FAILOVER_JOBS_MAX];

	ledger_case_init(&c, 6);
	add_exec(&c, 1, 30, 40, EXEC_DONE);
	add_exec(&c, 2, 80, 90, EXEC_DONE);
	add_exec(&c, 2, 160, 180, EXEC_DONE);
	add_exec_on(&c, 0, 3, 105, 120, EXEC_DONE);
	add_exec(&c, 3, 170, 190, EXEC_DONE);
	add_exec(&c, 4, 85, 95, EXEC_DONE);
	c.final[3].status = JOB_ACTIVE;
	add_exec(&c, 5, 90, 110, EXEC_UNCOMMITTED);
	add_exec(&c, 5, 160, 175, EXEC_DONE);
	add_exec(&c, 6, 155, 160, EXEC_DONE);
	add_failover(&c, 100, 50);
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK(f.lost_completions == 3 && f.rerun == 2 && f.left_active == 1,
	      "3 acknowledged completions lost: 2 run again, 1 left active (%llu %llu %llu)",
	      (unsigned long long)f.lost_completions, (unsigned long long)f.rerun, (unsigned long long)f.left_active);
	CHECK_STR_EQ(jobs, "2 3 4", "the lost jobs are named: 2 3 4 (%s)", jobs);
	CHECK_EQ(f.claims_lost, 1, "job 5's claim lost (%llu)", (unsigned long long)f.claims_lost);
	CHECK_EQ(f.first_completion_ms, 60.0, "the first completion after the promotion, 60 ms after the failover (%g)",
	      f.first_completion_ms);
	ledger_free(&c.ledger);
}

/*
 * Claims in hand when the failover struck at 100 ms (promotion returned at 150), flip mode:
 *   job 1  in hand from 11, its completion refused by the fence at 150   claim lost
 *   job 2  in hand from 21, its completion lost with the connection at 130, claimed
 *          again at 160 (in hand 161), done at 170                          claim lost
 *   job 3  in hand from 31, completed after the holder reconnected at 200   claim kept
 * No lease: 2 lost. A lease of 100 ms: job 1's ran out at 111 before the fence (150), job
 * 2's at 121 before it was taken again (161): none lost, the lease's doing. Hold mode:
 * a claim dies with its connection by design, none counted.
 */
static void test_claims_lost(void)
{
	struct ledger_case c;
	struct failover_figures f;
	char jobs[FAILOVER_JOBS_MAX];

	ledger_case_init(&c, 3);
	add_exec(&c, 1, 10, 150, EXEC_FENCED);
	add_exec(&c, 2, 20, 130, EXEC_UNCOMMITTED);
	add_exec(&c, 2, 160, 170, EXEC_DONE);
	add_exec_on(&c, 190, 3, 30, 200, EXEC_DONE);
	add_failover(&c, 100, 50);
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK(f.claims_lost == 2 && f.lost_completions == 0, "no lease: 2 claims lost, no completion (%llu %llu)",
	      (unsigned long long)f.claims_lost, (unsigned long long)f.lost_completions);
	c.in.lease_ns = MS(100);
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK_EQ(f.claims_lost, 0, "a 100 ms lease ran out first: no claim lost (%llu)", (unsigned long long)f.claims_lost);
	c.in.n_jobs = 4;
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK_EQ(f.claims_lost, 0, "with a lease, a job never in hand at the failover (job 4) is no lost claim (%llu)",
	      (unsigned long long)f.claims_lost);
	c.in.lease_ns = 0;
	c.in.claim_in_session = true;
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK_EQ(f.claims_lost, 0, "hold mode: no claim counted lost (%llu)", (unsigned long long)f.claims_lost);
	ledger_free(&c.ledger);
}

/*
 * Without the final state, a completion the new primary lacks is still seen when its job
 * was claimed again; left active cannot be told. Without a failover everything is unknown.
 */
static void test_unknowns(void)
{
	struct ledger_case c;
	struct failover_figures f;
	char jobs[FAILOVER_JOBS_MAX];

	ledger_case_init(&c, 2);
	add_exec(&c, 1, 10, 20, EXEC_DONE);
	add_exec_on(&c, 60, 1, 60, 70, EXEC_DONE);
	add_exec(&c, 2, 10, 30, EXEC_DONE);
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK(f.lost_completions == METRIC_UNKNOWN && f.rerun == METRIC_UNKNOWN && f.left_active == METRIC_UNKNOWN &&
	      f.claims_lost == METRIC_UNKNOWN && isnan(f.first_completion_ms) && jobs[0] == '\0',
	      "no failover: every figure unknown");
	add_failover(&c, 40, 10);
	c.in.final = NULL;
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK(f.lost_completions == 1 && f.rerun == 1 && f.left_active == METRIC_UNKNOWN && strcmp(jobs, "1") == 0,
	      "no final state: job 1 run again is lost, left active unknown (%llu %s)",
	      (unsigned long long)f.lost_completions, jobs);
	ledger_free(&c.ledger);
}

/*
 * Which server acknowledged a completion is told by its connection, not by when it
 * returned. The failover begins at 100 ms, the promotion returns at 150 ms:
 *   job 1  on a connection made at 0, done at 160 (its return read late on a loaded
 *          machine), claimed again at 170 on a new connection, done at 180     lost, run again
 *   job 2  on a connection made at 120 (to the standby, which took writes before the
 *          promotion returned), done at 130, claimed again at 160, done at 170   not lost
 * Lost 1 (job 1); the first completion on a new connection at 130: 30 ms after 100.
 */
static void test_acknowledged_by_connection(void)
{
	struct ledger_case c;
	struct failover_figures f;
	char jobs[FAILOVER_JOBS_MAX];

	ledger_case_init(&c, 2);
	add_exec_on(&c, 0, 1, 90, 160, EXEC_DONE);
	add_exec_on(&c, 165, 1, 170, 180, EXEC_DONE);
	add_exec_on(&c, 120, 2, 121, 130, EXEC_DONE);
	add_exec_on(&c, 120, 2, 160, 170, EXEC_DONE);
	add_failover(&c, 100, 50);
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK(f.lost_completions == 1 && f.rerun == 1 && strcmp(jobs, "1") == 0,
	      "the old primary's completion read after the promotion is lost, the standby's before it is not (%llu %s)",
	      (unsigned long long)f.lost_completions, jobs);
	CHECK_EQ(f.first_completion_ms, 30.0, "the first completion on the new primary, 30 ms after the failover (%g)",
	      f.first_completion_ms);
	ledger_free(&c.ledger);
}

/* Lost jobs beyond the room for their ids end the list with "...". */
static void test_long_list(void)
{
	struct ledger_case c;
	struct failover_figures f;
	char jobs[30];

	ledger_case_init(&c, 8);
	for (int64_t j = 1; j <= 8; j++) {
		add_exec(&c, j, 1, 2, EXEC_DONE);
		add_exec_on(&c, 60, j, 60, 70, EXEC_DONE);
	}
	add_failover(&c, 40, 10);
	failover_account(&c.in, &f, jobs, sizeof(jobs));
	CHECK(f.lost_completions == 8 && strcmp(jobs, "1 2 3 4 ...") == 0,
	      "8 lost, the list cut with ... (%s)", jobs);
	ledger_free(&c.ledger);
}

int main(void)
{
	test_lost_completions();
	test_claims_lost();
	test_unknowns();
	test_acknowledged_by_connection();
	test_long_list();
	return check_exit_status();
}
