/*
 * Unit tests of the delivery figures of measure/metrics.c (docs/metrics.md, "Delivery"):
 * deliveries and executions (a batch's tail never begun is no execution), race duplicates
 * against redeliveries, the redeliveries of a holder whose session a restart, a killed
 * backend or a failover ended, those of a job never begun before, and the ledger against
 * the table's final state (measure/ledger_table.c): a claim lost in flight, a completion a
 * cut connection (or an adapter's replica that died with the job) left unknown, a completion a
 * later claim wrote over, and a disagreement
 * nothing explains, an integrity error.
 * Each case is a hand-made ledger whose answers were worked out by hand (the comments).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ledger_case.h"
#include "measure/ledger.h"
#include "measure/ledger_table.h"
#include "measure/metrics.h"
#include "model/faults.h"
#include "model/metric_table.h"

/* Appends an execution of job by the worker at seat (its identity the same): claim began at claim_ms, in hand at start_ms, ended at end_ms. */
static void add_exec(struct ledger_case *c, int64_t job, int32_t seat, int64_t claim_ms, int64_t start_ms,
		     int64_t end_ms, int32_t outcome, int32_t flags)
{
	struct execution e = {
		.job_id = job, .claim_start_ns = MS(claim_ms), .start_ns = MS(start_ms), .end_ns = MS(end_ms),
		.worker = seat, .identity = seat, .outcome = outcome, .flags = flags,
	};

	check_need(ledger_add_execution(&c->ledger, &e) == 0, "ledger_add_execution");
}

/* Appends a fault of kind at at_ms striking the worker at seat (-1: the server). */
static void add_fault(struct ledger_case *c, int kind, int64_t at_ms, int32_t seat)
{
	struct fault_record f = { .at_ns = MS(at_ms), .duration_ns = MS(1), .kind = kind, .worker = seat };

	check_need(ledger_add_fault(&c->ledger, &f) == 0, "ledger_add_fault");
}

/* The delivery figures of c as "deliveries executions race redeliveries unbegun". */
static const char *delivery_text(const struct ledger_case *c, char *buf, size_t size)
{
	snprintf(buf, size, "%llu %llu %llu %llu %llu", (unsigned long long)c->out.deliveries,
		 (unsigned long long)c->out.executions, (unsigned long long)c->out.race_duplicates,
		 (unsigned long long)c->out.redeliveries, (unsigned long long)c->out.redelivered_unbegun);
	return buf;
}

/* Computes c's metrics and frees its ledger; name says which case. */
static void compute(struct ledger_case *c, const char *name)
{
	CHECK_EQ(metrics_compute(&c->in, &c->out), 0, "%s: computed", name);
	CHECK_EQ(c->out.duplicates, c->out.race_duplicates + c->out.redeliveries,
	      "%s: duplicates are race duplicates plus redeliveries", name);
	ledger_free(&c->ledger);
}

/*
 * A batch of jobs 1, 2 and 3 in hold mode: worker 0 crashed in job 1's work, jobs 2 and 3
 * never begun; worker 1's batch took all three again after the crash and did them. Six
 * deliveries, four executions (1 twice, 2 and 3 once), three crash redeliveries of which
 * two (jobs 2 and 3) of a job whose work had never begun: no race, one job's work begun
 * twice (at-most-once broken by job 1 alone).
 */
static void test_batch_tail(void)
{
	struct ledger_case c;
	char buf[96];

	ledger_case_init(&c, 3);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 0, 1, 5, EXEC_CRASHED, 0);
	add_exec(&c, 2, 0, 0, 1, 5, EXEC_CRASHED, EXEC_UNBEGUN);
	add_exec(&c, 3, 0, 0, 1, 5, EXEC_CRASHED, EXEC_UNBEGUN);
	for (int64_t j = 1; j <= 3; j++)
		add_exec(&c, j, 1, 6, 7, 40, EXEC_DONE, 0);
	compute(&c, "batch tail");
	CHECK(c.out.deliveries == 6 && c.out.executions == 4 && c.out.race_duplicates == 0 && c.out.redeliveries == 3 &&
	      c.out.redeliveries_crash == 3 && c.out.redelivered_unbegun == 2,
	      "batch tail: 6 deliveries, 4 executions, 0 races, 3 crash redeliveries, 2 of them never begun before (%s)",
	      delivery_text(&c, buf, sizeof(buf)));
	CHECK_EQ(c.out.delivery.at_most_once, 0, "batch tail: job 1's work began twice: at-most-once broken");

	/* the crash struck the batch's last job: the two before it were done, none unbegun */
	ledger_case_init(&c, 1);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 0, 1, 5, EXEC_CRASHED, EXEC_UNBEGUN);
	add_exec(&c, 1, 1, 6, 7, 40, EXEC_DONE, 0);
	compute(&c, "unbegun alone");
	CHECK(c.out.executions == 1 && c.out.redelivered_unbegun == 1 && c.out.delivery.at_most_once == 1,
	      "a job redelivered whose work never began before: one execution, at-most-once held (%s)",
	      delivery_text(&c, buf, sizeof(buf)));

	/*
	 * job 1 begun and crashed, then in the never-begun tail of a second crashed batch, then
	 * done: 3 deliveries, 2 executions, 2 redeliveries of which the tail's began no work
	 * again, so its work began twice once (1 + 2 - 1 = 2 - 1 begun again)
	 */
	ledger_case_init(&c, 1);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 0, 1, 5, EXEC_CRASHED, 0);
	add_exec(&c, 1, 1, 6, 7, 9, EXEC_CRASHED, EXEC_UNBEGUN);
	add_exec(&c, 1, 2, 10, 11, 40, EXEC_DONE, 0);
	compute(&c, "begun, then in a tail");
	CHECK(c.out.deliveries == 3 && c.out.executions == 2 && c.out.redeliveries == 2 &&
	      c.out.redelivered_unbegun == 1 && c.out.deliveries - c.out.executions == c.out.redelivered_unbegun &&
	      c.out.delivery.at_most_once == 0,
	      "begun, then a tail never begun, then done: 3 deliveries, 2 executions, 2 redeliveries, 1 began no work (%s)",
	      delivery_text(&c, buf, sizeof(buf)));
}

/*
 * A session claim (advisory, hold) whose holder's completion came after another had the
 * job: a race without a fault; a redelivery of cause restart when a restart struck between
 * the holder's claim and the other's having it; of cause killed backend when the holder's
 * own backend was killed then (another worker's backend: still a race); of cause failover
 * when a failover struck.
 */
static void test_session_ended(void)
{
	static const struct {
		const char *what;	/* the case */
		int kind;		/* the fault, -1 none */
		int32_t seat;		/* the seat it struck */
		uint64_t race, restart, killed, failover; /* the answer */
	} cases[] = {
		{ "no fault: a race", -1, -1, 1, 0, 0, 0 },
		{ "a restart", FAULT_RESTART, -1, 0, 1, 0, 0 },
		{ "the holder's backend killed", FAULT_KILL_BACKEND, 0, 0, 0, 1, 0 },
		{ "another's backend killed: a race", FAULT_KILL_BACKEND, 1, 1, 0, 0, 0 },
		{ "a failover", FAULT_FAILOVER, -1, 0, 0, 0, 1 },
	};
	char buf[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ledger_case c;

		ledger_case_init(&c, 1);
		c.in.claim_in_session = true;
		add_exec(&c, 1, 0, 0, 1, 30, EXEC_FENCED, 0);	/* refused at 30, after reconnecting */
		add_exec(&c, 1, 1, 8, 12, 25, EXEC_DONE, 0);	/* had it at 12 */
		if (cases[i].kind >= 0)
			add_fault(&c, cases[i].kind, 5, cases[i].seat);
		compute(&c, cases[i].what);
		CHECK(c.out.race_duplicates == cases[i].race && c.out.redeliveries_restart == cases[i].restart &&
		      c.out.redeliveries_killed_backend == cases[i].killed &&
		      c.out.redeliveries_failover == cases[i].failover && c.out.redeliveries_crash == 0,
		      "%s: race %llu restart %llu killed %llu failover %llu (%s)", cases[i].what,
		      (unsigned long long)c.out.race_duplicates, (unsigned long long)c.out.redeliveries_restart,
		      (unsigned long long)c.out.redeliveries_killed_backend, (unsigned long long)c.out.redeliveries_failover,
		      delivery_text(&c, buf, sizeof(buf)));
	}

	/* flip mode with a lease, its claim in the row: a restart frees nothing, a race stays one */
	struct ledger_case c;

	ledger_case_init(&c, 1);
	c.in.lease_ns = MS(1000);
	add_exec(&c, 1, 0, 0, 1, 30, EXEC_FENCED, 0);
	add_exec(&c, 1, 1, 8, 12, 25, EXEC_DONE, 0);
	add_fault(&c, FAULT_RESTART, 5, -1);
	compute(&c, "flip, restart");
	CHECK(c.out.race_duplicates == 1 && c.out.redeliveries == 0,
	      "flip mode: a restart does not end a claim kept in the row: a race (%s)", delivery_text(&c, buf, sizeof(buf)));

	/* the holder claimed after the restart began, while the server still answered: the restart ended it all the same */
	ledger_case_init(&c, 1);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 6, 7, 40, EXEC_FENCED, 0);
	add_exec(&c, 1, 1, 20, 22, 35, EXEC_DONE, 0);
	check_need(ledger_add_fault(&c.ledger, &(struct fault_record){ .at_ns = MS(5), .duration_ns = MS(10),
								     .kind = FAULT_RESTART, .worker = -1 }) == 0,
		   "ledger_add_fault");
	compute(&c, "claimed during the restart");
	CHECK(c.out.redeliveries_restart == 1 && c.out.race_duplicates == 0,
	      "a claim made during the restart (5 to 15 ms) is ended by it: a restart redelivery (%s)",
	      delivery_text(&c, buf, sizeof(buf)));

	/* the holder crashed: its crash, not the restart after it, let the job go */
	ledger_case_init(&c, 1);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 0, 1, 4, EXEC_CRASHED, 0);
	add_exec(&c, 1, 1, 8, 12, 25, EXEC_DONE, 0);
	add_fault(&c, FAULT_RESTART, 5, -1);
	compute(&c, "crash before a restart");
	CHECK(c.out.redeliveries_crash == 1 && c.out.redeliveries_restart == 0,
	      "a crashed holder's job is a crash redelivery whatever struck after (%s)", delivery_text(&c, buf, sizeof(buf)));
}

/* Naive's race in flip mode: two claims of a live job, both done: a race duplicate, no redelivery, an overlap. */
static void test_naive_race(void)
{
	struct ledger_case c;
	char buf[96];

	ledger_case_init(&c, 1);
	add_exec(&c, 1, 0, 0, 1, 20, EXEC_DONE, 0);
	add_exec(&c, 1, 1, 0, 2, 21, EXEC_DONE, 0);
	compute(&c, "naive race");
	CHECK(c.out.race_duplicates == 1 && c.out.redeliveries == 0 && c.out.overlaps == 1 &&
	      c.out.delivery.at_most_once == 0,
	      "naive race: a race duplicate, no redelivery, an overlap, at-most-once broken (%s)",
	      delivery_text(&c, buf, sizeof(buf)));
}

/*
 * The ledger against the final state, with and without a cut connection (a restart): a
 * consumed job with no execution is a claim lost in flight (and lost) or an integrity
 * error; an active job under a claimer that never had it, lost in flight or nothing; a job
 * done whose only completion the ledger has uncommitted, a completion left unknown or an
 * integrity error; a job the ledger completed that the table has active (a strategy whose
 * completion does nothing), an integrity error either way.
 */
static void test_ledger_against_table(void)
{
	for (int cut = 0; cut <= 1; cut++) {
		struct ledger_case c;
		char jobs[64];

		ledger_case_init(&c, 5);
		c.final[0] = (struct job_state){ .status = JOB_CONSUMED, .claimed_by = -1 };	/* no execution */
		c.final[1] = (struct job_state){ .status = JOB_ACTIVE, .claimed_by = 3 };	/* 3 never had it */
		add_exec(&c, 3, 0, 0, 1, 9, EXEC_UNCOMMITTED, 0);				/* table: done */
		add_exec(&c, 4, 0, 10, 11, 20, EXEC_DONE, 0);
		c.final[3] = (struct job_state){ .status = JOB_ACTIVE, .claimed_by = 0 };	/* completion did nothing */
		add_exec(&c, 5, 0, 20, 21, 30, EXEC_DONE, 0);
		if (cut)
			add_fault(&c, FAULT_RESTART, 15, -1);
		check_need(metrics_compute(&c.in, &c.out) == 0, "metrics_compute");
		check_need(ledger_table_unexplained(&c.in, jobs, sizeof(jobs)) == 0, "ledger_table_unexplained");
		if (cut)
			CHECK(c.out.claims_lost_in_flight == 2 && c.out.completions_unknown == 1 &&
			      c.out.integrity_errors == 1 && strcmp(jobs, "4") == 0 && c.out.ledger_mismatches == 3 &&
			      c.out.lost == 3,
			      "a cut connection: 2 claims lost in flight, 1 completion unknown, 1 integrity error (job 4), 3 "
			      "disagreements, 3 lost: got %llu %llu %llu (jobs %s) %llu %llu",
			      (unsigned long long)c.out.claims_lost_in_flight, (unsigned long long)c.out.completions_unknown,
			      (unsigned long long)c.out.integrity_errors, jobs, (unsigned long long)c.out.ledger_mismatches,
			      (unsigned long long)c.out.lost);
		else
			CHECK(c.out.claims_lost_in_flight == 0 && c.out.completions_unknown == 0 &&
			      c.out.integrity_errors == 3 && strcmp(jobs, "1 3 4") == 0,
			      "no connection cut: nothing explains them: 3 integrity errors, jobs 1 3 4: got %llu %llu %llu "
			      "(jobs %s)", (unsigned long long)c.out.claims_lost_in_flight,
			      (unsigned long long)c.out.completions_unknown, (unsigned long long)c.out.integrity_errors, jobs);
		ledger_free(&c.ledger);
	}
}

/*
 * naive's racer writes over a completion: worker 0 completed job 1 at 10 ms, worker 1's
 * claim of it (in hand from 2 ms) wrote the row active again and crashed at 15: the table
 * has it active under worker 1, an overwritten completion, no integrity error. Had the
 * racer ended at 5, before the completion, nothing would explain the active row.
 */
static void test_overwritten(void)
{
	for (int after = 0; after <= 1; after++) {
		struct ledger_case c;

		ledger_case_init(&c, 1);
		c.final[0] = (struct job_state){ .status = JOB_ACTIVE, .claimed_by = 1 };
		add_exec(&c, 1, 0, 0, 1, 10, EXEC_DONE, 0);
		add_exec(&c, 1, 1, 0, 2, after ? 15 : 5, EXEC_CRASHED, 0);
		check_need(metrics_compute(&c.in, &c.out) == 0, "metrics_compute");
		CHECK(c.out.overwritten_completions == (uint64_t)after && c.out.integrity_errors == (uint64_t)!after &&
		      c.out.race_duplicates == 1,
		      "a racer in hand %s the completion: overwritten %d, integrity errors %d (got %llu, %llu)",
		      after ? "after" : "only before", after, !after, (unsigned long long)c.out.overwritten_completions,
		      (unsigned long long)c.out.integrity_errors);
		ledger_free(&c.ledger);
	}
}

/*
 * An adapter's replica killed with job 1 in hand (worker 0), its process gone: the table
 * shows job 1 done, its completion having committed before the kill with no line to say
 * so, and worker 1 did job 2. With the crash marked as the process's (EXEC_PROCESS_DIED)
 * and the seat's connection counted lost, a completion unknown; a crash of the harness's own
 * (no flag, nothing lost: it cannot have committed) leaves the done row an integrity error.
 */
static void test_process_died(void)
{
	for (int died = 0; died <= 1; died++) {
		struct ledger_case c;
		struct worker_stats seats[2];

		ledger_case_init(&c, 2);
		memset(seats, 0, sizeof(seats));
		seats[0].errors[ERR_CONNECTION_LOST] = (uint64_t)died;
		c.in.workers = seats;
		c.in.n_workers = 2;
		add_exec(&c, 1, 0, 0, 1, 9, EXEC_CRASHED, died ? EXEC_PROCESS_DIED : 0);
		add_exec(&c, 2, 1, 0, 1, 11, EXEC_DONE, 0);
		add_fault(&c, FAULT_CRASH, 9, 0);
		check_need(metrics_compute(&c.in, &c.out) == 0, "metrics_compute");
		CHECK(c.out.completions_unknown == (uint64_t)died && c.out.integrity_errors == (uint64_t)!died &&
		      c.out.lost == 0,
		      "a crash %s: completions unknown %d, integrity errors %d, lost 0 (got %llu, %llu, %llu)",
		      died ? "with its process" : "of the harness's own", died, !died,
		      (unsigned long long)c.out.completions_unknown, (unsigned long long)c.out.integrity_errors,
		      (unsigned long long)c.out.lost);
		ledger_free(&c.ledger);
	}
}

/*
 * Flip mode (no claim in the session, no lease known): worker 0 held job 1 from 1 ms and
 * died with its process at 9 ms; worker 1 had it from 12 ms (the library's own expiry gave
 * it back) and did it. A holder dead with its process cannot race: a redelivery by the
 * crash. Without the flag (a crash of the harness's own in flip mode, which gives nothing
 * back) the second claim is a race.
 */
static void test_process_died_flip(void)
{
	for (int died = 0; died <= 1; died++) {
		struct ledger_case c;

		ledger_case_init(&c, 1);
		add_exec(&c, 1, 0, 0, 1, 9, EXEC_CRASHED, died ? EXEC_PROCESS_DIED : 0);
		add_exec(&c, 1, 1, 11, 12, 20, EXEC_DONE, 0);
		add_fault(&c, FAULT_CRASH, 9, 0);
		compute(&c, died ? "flip, died with its process" : "flip, the harness's crash");
		CHECK(c.out.redeliveries_crash == (uint64_t)died && c.out.race_duplicates == (uint64_t)!died,
		      "flip mode, a holder %s: crash redeliveries %d, races %d (got %llu, %llu)",
		      died ? "dead with its process" : "crashed by the harness", died, !died,
		      (unsigned long long)c.out.redeliveries_crash, (unsigned long long)c.out.race_duplicates);
	}
}

/* Without the final state the ledger-versus-table figures are unknown, not 0. */
static void test_table_unknown(void)
{
	struct ledger_case c;

	ledger_case_init(&c, 1);
	c.in.final = NULL;
	add_exec(&c, 1, 0, 0, 1, 5, EXEC_DONE, 0);
	check_need(metrics_compute(&c.in, &c.out) == 0, "metrics_compute");
	CHECK(c.out.integrity_errors == METRIC_UNKNOWN && c.out.claims_lost_in_flight == METRIC_UNKNOWN &&
	      c.out.completions_unknown == METRIC_UNKNOWN,
	      "no final state: integrity errors, claims lost in flight and completions unknown are unknown");
	ledger_free(&c.ledger);
}

int main(void)
{
	test_batch_tail();
	test_session_ended();
	test_naive_race();
	test_ledger_against_table();
	test_overwritten();
	test_process_died();
	test_process_died_flip();
	test_table_unknown();
	return check_exit_status();
}
