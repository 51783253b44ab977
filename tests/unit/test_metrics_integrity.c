/*
 * Unit tests of the integrity figures of measure/metrics.c as docs/metrics.md defines them: lost
 * from the final state alone, a redelivery only when an earlier holder had lost the job
 * (each cause, and races that are none, with either racer's clock read first), and
 * zombie completions counted from the claim. Each case is a hand-made ledger whose
 * answers were worked out by hand (the comments show how); docs/metrics.md defines them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "ledger_case.h"
#include "measure/ledger.h"
#include "measure/metrics.h"
#include "model/metric_table.h"

/* Appends an execution of job: claim began at claim_us, in hand at start_us, ended at end_us (microseconds). */
static void add_exec_us(struct ledger_case *c, int64_t job, int64_t claim_us, int64_t start_us, int64_t end_us,
			int32_t outcome, int32_t flags)
{
	struct execution e = {
		.job_id = job, .claim_start_ns = claim_us * 1000, .start_ns = start_us * 1000, .end_ns = end_us * 1000,
		.outcome = outcome, .flags = flags,
	};

	check_need(ledger_add_execution(&c->ledger, &e) == 0, "ledger_add_execution");
}

/* add_exec_us in milliseconds, no flags. */
static void add_exec(struct ledger_case *c, int64_t job, int64_t claim_ms, int64_t start_ms, int64_t end_ms,
		     int32_t outcome)
{
	add_exec_us(c, job, claim_ms * 1000, start_ms * 1000, end_ms * 1000, outcome, 0);
}

/* Appends a return of job to new by the harness, its statement running from start_ms to end_ms. */
static void add_return(struct ledger_case *c, int64_t job, int64_t start_ms, int64_t end_ms)
{
	struct job_return r = { .job_id = job, .start_ns = MS(start_ms), .end_ns = MS(end_ms) };

	check_need(ledger_add_return(&c->ledger, &r) == 0, "ledger_add_return");
}

/*
 * Computes c's metrics, checks that the causes sum to the redeliveries and that each is
 * one of the duplicates (explore's race duplicates rest on it), and frees its ledger; name
 * says which case.
 */
static void compute(struct ledger_case *c, const char *name)
{
	const struct run_metrics *o = &c->out;

	CHECK_EQ(metrics_compute(&c->in, &c->out), 0, "%s: computed", name);
	CHECK_EQ(o->redeliveries, o->redeliveries_crash + o->redeliveries_lease + o->redeliveries_reaper +
					 o->redeliveries_stale_ticket + o->redeliveries_restart +
					 o->redeliveries_killed_backend + o->redeliveries_failover,
	      "%s: the redeliveries by cause sum to the redeliveries", name);
	CHECK(o->redeliveries <= o->duplicates, "%s: every redelivery is one of its job's duplicates", name);
	CHECK_EQ(o->duplicates, o->race_duplicates + o->redeliveries, "%s: duplicates are races plus redeliveries", name);
	ledger_free(&c->ledger);
}

/* The redeliveries of c: all, then by cause crash, lease, reaper, stale ticket, as "all c l r s". */
static const char *redeliveries_text(const struct ledger_case *c, char *buf, size_t size)
{
	snprintf(buf, size, "%llu %llu %llu %llu %llu", (unsigned long long)c->out.redeliveries,
		 (unsigned long long)c->out.redeliveries_crash, (unsigned long long)c->out.redeliveries_lease,
		 (unsigned long long)c->out.redeliveries_reaper, (unsigned long long)c->out.redeliveries_stale_ticket);
	return buf;
}

/*
 * Lost, from the final state alone: done and error never (whatever attempts did not
 * commit, in whatever order they began); active always; new or missing only after a
 * drain; consumed only without a committed execution; unknown without the final state.
 */
static void test_lost_rules(void)
{
	struct ledger_case c;
	static const struct {
		int32_t status;		/* the job's final status */
		bool drain;		/* a drain run, else a timed one */
		bool committed;		/* the ledger holds a committed execution of it */
		bool lost;		/* the answer */
	} rules[] = {
		{ JOB_DONE, true, false, false },	{ JOB_ERROR, true, false, false },
		{ JOB_ACTIVE, true, true, true },	{ JOB_ACTIVE, false, true, true },
		{ JOB_NEW, true, true, true },		{ JOB_NEW, false, false, false },
		{ JOB_MISSING, true, false, true },	{ JOB_MISSING, false, false, false },
		{ JOB_CONSUMED, true, false, true },	{ JOB_CONSUMED, true, true, false },
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		ledger_case_init(&c, 1);
		c.in.drain = rules[i].drain;
		c.in.duration_ns = MS(1000);
		add_exec(&c, 1, 0, 1, 5, EXEC_UNCOMMITTED);
		if (rules[i].committed)
			add_exec(&c, 1, 6, 7, 9, EXEC_DONE);
		c.final[0].status = rules[i].status;
		compute(&c, "lost rule");
		CHECK(c.out.lost == (rules[i].lost ? 1u : 0u) && c.out.delivery.at_least_once == !rules[i].lost,
		      "lost: final status %d, %s run, %s committed execution: %s", rules[i].status,
		      rules[i].drain ? "drain" : "timed", rules[i].committed ? "a" : "no",
		      rules[i].lost ? "lost" : "not lost");
	}

	/*
	 * batch:flip stalled past the lease under --fence attempt: the stalled holder's
	 * completion of job 1 began (in its own work) after another identity had re-claimed and
	 * completed it, and was fenced; the job is done: not lost, at-least-once held
	 */
	ledger_case_init(&c, 1);
	add_exec(&c, 1, 0, 1, 900, EXEC_FENCED);
	add_exec(&c, 1, 300, 301, 310, EXEC_DONE);
	c.in.lease_ns = MS(200);
	compute(&c, "fenced after the successor's commit");
	CHECK(c.out.lost == 0 && c.out.delivery.at_least_once == 1 && c.out.fenced == 1,
	      "lost: a job done at the end is not lost though its fenced execution ended last");

	ledger_case_init(&c, 1);
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	c.in.final = NULL;
	compute(&c, "lost without a final state");
	CHECK(c.out.lost == METRIC_UNKNOWN && c.out.stuck == METRIC_UNKNOWN &&
	      c.out.delivery.at_least_once == METRIC_UNKNOWN,
	      "lost: unknown without the final state, and at-least-once with it: never guessed from the ledger");
}

/*
 * The crash cause, in hold mode: the claim lived in its holder's transaction, so a claim
 * that returned the job after the holder's crash (even one that began before and waited on
 * the row lock) is a redelivery; a rollback (uncommitted) and a lost connection noticed
 * late are the same. In flip mode a crash gives nothing back: no crash cause.
 */
static void test_crash_cause(void)
{
	struct ledger_case c;
	char buf[64];

	ledger_case_init(&c, 3);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 1, 6, 7, 20, EXEC_DONE);		/* claimed after the crash */
	add_exec(&c, 2, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 2, 3, 6, 20, EXEC_DONE);		/* waited on the row lock from 3 */
	add_exec(&c, 3, 0, 1, 30, EXEC_UNCOMMITTED);	/* its connection killed, noticed at 30 */
	add_exec(&c, 3, 2, 10, 20, EXEC_DONE);
	compute(&c, "crash, hold");
	CHECK(c.out.redeliveries == 3 && c.out.redeliveries_crash == 3 && c.out.zombie_completions == 0,
	      "crash, hold: 3 redeliveries, all of cause crash, no zombie (%s)", redeliveries_text(&c, buf, sizeof(buf)));

	ledger_case_init(&c, 1);
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 1, 6, 7, 20, EXEC_DONE);
	compute(&c, "crash, flip, no lease");
	CHECK_EQ(c.out.redeliveries, 0, "crash, flip without a lease or reaper: no cause gave the job back (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));
}

/*
 * Naive's race, in which one racer later crashes (flip mode, no lease): both claims
 * believed they won while the first holder was live; neither is a redelivery and nothing is
 * lost (the job is done), whichever racer read its clock first. The old rules counted a
 * redelivery in one order and a lost job in the other.
 */
static void test_race_with_crash(void)
{
	struct ledger_case c;
	char buf[64];

	/* the crashed racer has the job in hand first (by the harness's clock) */
	ledger_case_init(&c, 1);
	add_exec_us(&c, 1, 0, 1000, 5000, EXEC_CRASHED, 0);
	add_exec_us(&c, 1, 500, 1500, 20000, EXEC_DONE, 0);
	compute(&c, "race, crashed racer first");
	CHECK(c.out.redeliveries == 0 && c.out.lost == 0 && c.out.duplicates == 1 && c.out.overlaps == 1,
	      "race, the crashed racer in hand first: no redelivery, nothing lost, a duplicate and an overlap (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));

	/* the surviving racer has the job in hand first */
	ledger_case_init(&c, 1);
	add_exec_us(&c, 1, 500, 1000, 20000, EXEC_DONE, 0);
	add_exec_us(&c, 1, 0, 1500, 5000, EXEC_CRASHED, 0);
	compute(&c, "race, surviving racer first");
	CHECK(c.out.redeliveries == 0 && c.out.lost == 0 && c.out.duplicates == 1,
	      "race, the surviving racer in hand first: no redelivery, nothing lost (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));

	/* the same race under a lease: within the lease it is still a race */
	ledger_case_init(&c, 1);
	c.in.lease_ns = MS(200);
	add_exec_us(&c, 1, 0, 1000, 5000, EXEC_CRASHED, 0);
	add_exec_us(&c, 1, 500, 1500, 20000, EXEC_DONE, 0);
	compute(&c, "race under a lease");
	CHECK_EQ(c.out.redeliveries, 0, "race under a lease: the second claim came 1.5 ms after the first, no lease ran out");
}

/*
 * A claim that lives in the holder's session (an advisory lock, even in flip mode) raced a
 * live holder, which later crashed or was fenced: the holder had not lost the job when the
 * second claim took it, so no redelivery (a crash needs the holder ended at or before the
 * redelivery had the job in hand). Its end at the very instant the other had it is a crash.
 */
static void test_session_claim_race(void)
{
	struct ledger_case c;
	char buf[64];

	ledger_case_init(&c, 3);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);	/* live until 5 */
	add_exec(&c, 1, 2, 3, 20, EXEC_DONE);	/* had the job at 3: a race */
	add_exec(&c, 2, 0, 1, 8, EXEC_FENCED);	/* its transaction ended at 8, refused */
	add_exec(&c, 2, 2, 3, 20, EXEC_DONE);
	add_exec(&c, 3, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 3, 2, 5, 20, EXEC_DONE);	/* in hand as the holder crashed: the crash let it go */
	compute(&c, "session claim racing a live holder");
	CHECK(c.out.redeliveries == 1 && c.out.redeliveries_crash == 1 && c.out.duplicates == 3,
	      "a session claim racing a live holder that later crashed or was fenced is no redelivery; one in hand "
	      "as the holder ended is (%s)", redeliveries_text(&c, buf, sizeof(buf)));
}

/*
 * The holder is the latest earlier execution: y1 crashed, y2 (a crash redelivery) committed
 * the job done, and x claimed it after that (a late claim of a done job): x is no
 * redelivery, y1's loss was y2's to make good.
 */
static void test_holder_is_latest(void)
{
	struct ledger_case c;
	char buf[64];

	ledger_case_init(&c, 1);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 1, 6, 7, 10, EXEC_DONE);	/* a redelivery after the crash */
	add_exec(&c, 1, 12, 13, 20, EXEC_DONE);	/* claimed after y2's commit */
	compute(&c, "the latest holder had committed");
	CHECK(c.out.redeliveries == 1 && c.out.redeliveries_crash == 1 && c.out.zombie_completions == 0,
	      "a claim after the latest holder committed is no redelivery, though an earlier holder crashed (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));
}

/*
 * A SQL-defined naive claim (select, then update) under the owner fence: the second
 * claim overwrote claimed_by while the first holder was live; the first holder's
 * completion is fenced; the job is done. No redelivery, nothing lost, whichever claim
 * the harness saw in hand first.
 */
static void test_sql_naive_owner_fence(void)
{
	struct ledger_case c;
	char buf[64];

	ledger_case_init(&c, 2);
	add_exec_us(&c, 1, 0, 1000, 10000, EXEC_FENCED, 0);
	add_exec_us(&c, 1, 200, 1100, 12000, EXEC_DONE, 0);
	add_exec_us(&c, 2, 200, 1000, 12000, EXEC_DONE, 0);
	add_exec_us(&c, 2, 0, 1100, 10000, EXEC_FENCED, 0);
	compute(&c, "SQL naive, owner fence");
	CHECK(c.out.redeliveries == 0 && c.out.lost == 0 && c.out.fenced == 2 && c.out.duplicates == 2 &&
	      c.out.zombie_completions == 0,
	      "SQL naive under the owner fence: no redelivery, nothing lost, 2 fenced, 2 duplicates (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));
}

/*
 * The lease cause (flip mode, a 40 ms lease, no reaper): a claim that returned the job at
 * least a lease after the holder's claim began took an expired row; the boundary is
 * x.start - y.claim_start >= lease (the lease was set no earlier than y's claim began and
 * read no later than x's claim returned). A nanosecond short of it is a race.
 */
static void test_lease_cause(void)
{
	struct ledger_case c;
	char buf[64];
	struct execution late = { .job_id = 2, .claim_start_ns = MS(39), .start_ns = MS(40), .end_ns = MS(50),
				  .outcome = EXEC_DONE };
	struct execution early = { .job_id = 3, .claim_start_ns = MS(39), .start_ns = MS(40) - 1, .end_ns = MS(50),
				   .outcome = EXEC_DONE };

	ledger_case_init(&c, 3);
	c.in.lease_ns = MS(40);
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 1, 45, 46, 60, EXEC_DONE);
	add_exec(&c, 2, 0, 1, 5, EXEC_CRASHED);
	check_need(ledger_add_execution(&c.ledger, &late) == 0, "ledger_add_execution");
	add_exec(&c, 3, 0, 1, 5, EXEC_CRASHED);
	check_need(ledger_add_execution(&c.ledger, &early) == 0, "ledger_add_execution");
	compute(&c, "lease");
	CHECK(c.out.redeliveries == 2 && c.out.redeliveries_lease == 2,
	      "lease: jobs 1 and 2 (exactly a lease after) redelivered by the lease, job 3 (1 ns short) a race (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));

	/* with a reaper the claims take new jobs only: without a return, no lease cause */
	ledger_case_init(&c, 1);
	c.in.lease_ns = MS(40);
	c.in.reaper = true;
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	add_exec(&c, 1, 45, 46, 60, EXEC_DONE);
	compute(&c, "lease with a reaper, no return");
	CHECK_EQ(c.out.redeliveries, 0, "lease with a reaper: a claim the reaper did not make way for is no redelivery");
}

/*
 * The reaper cause: the harness's own record that it gave the job back between the
 * holder's claim and the next; a return before the holder's claim makes way for the holder,
 * not for the claim after it.
 */
static void test_reaper_cause(void)
{
	struct ledger_case c;
	char buf[64];

	ledger_case_init(&c, 2);
	c.in.lease_ns = MS(40);
	c.in.reaper = true;
	add_exec(&c, 1, 0, 1, 5, EXEC_CRASHED);
	add_return(&c, 1, 50, 51);
	add_exec(&c, 1, 50, 52, 60, EXEC_DONE);
	add_return(&c, 2, 0, 1);		/* made way for the first claim below */
	add_exec(&c, 2, 0, 2, 5, EXEC_DONE);
	add_exec(&c, 2, 1, 3, 6, EXEC_DONE);	/* a race with it */
	compute(&c, "reaper");
	CHECK(c.out.redeliveries == 1 && c.out.redeliveries_reaper == 1,
	      "reaper: job 1's second claim, after the reaper gave it back, is a redelivery; job 2's race is not (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));
}

/*
 * The stale-ticket cause: the ticket strategy found the holder's ticket deleted as stale
 * (EXEC_TICKET_EXPIRED). In hold mode the next claim waited on the row lock and took the
 * job once the holder had committed it done: a redelivery named stale_ticket (never
 * lease), no zombie. Without the mark (top-X tickets, X > 1, claiming side by side) the
 * same overlap is a race.
 */
static void test_stale_ticket_cause(void)
{
	struct ledger_case c;
	char buf[64];

	ledger_case_init(&c, 2);
	c.in.claim_in_session = true;
	add_exec_us(&c, 1, 0, 1000, 10000, EXEC_DONE, EXEC_TICKET_EXPIRED);
	add_exec_us(&c, 1, 5000, 11000, 20000, EXEC_DONE, 0);
	add_exec_us(&c, 2, 0, 1000, 10000, EXEC_DONE, 0);
	add_exec_us(&c, 2, 500, 1500, 20000, EXEC_DONE, 0);
	compute(&c, "stale ticket");
	CHECK(c.out.redeliveries == 1 && c.out.redeliveries_stale_ticket == 1 && c.out.redeliveries_lease == 0 &&
	      c.out.zombie_completions == 0,
	      "stale ticket: job 1 redelivered by the stale expiry, not a lease; job 2's race is none (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));
}

/*
 * Zombie completions, from the claim. A batch claimed at 0-1 ms whose job 2 the holder
 * began only at 60 ms in its own work: the job was in hand from the batch's claim (its
 * start is 1), so the successor that took it at 51 (its lease of 40 ms ran out) is a
 * redelivery and the holder's late completion at 100 a zombie. A completion that
 * committed before the redelivery took the job is none, nor is a racer's.
 */
static void test_zombies(void)
{
	struct ledger_case c;
	char buf[64];

	ledger_case_init(&c, 3);
	c.in.lease_ns = MS(40);
	add_exec(&c, 1, 0, 1, 100, EXEC_DONE);	/* the batch's first job, worked from 1 */
	add_exec(&c, 2, 0, 1, 100, EXEC_DONE);	/* its second, worked from 60, in hand from the claim */
	add_exec(&c, 2, 50, 51, 55, EXEC_DONE);
	add_exec(&c, 3, 0, 1, 10, EXEC_DONE);	/* naive's race, no fence */
	add_exec(&c, 3, 0, 2, 12, EXEC_DONE);
	compute(&c, "zombies");
	CHECK(c.out.zombie_completions == 1 && c.out.redeliveries == 1 && c.out.redeliveries_lease == 1,
	      "zombies: the batch holder's late completion of job 2 is one; the race of job 3 none (%llu; %s)",
	      (unsigned long long)c.out.zombie_completions, redeliveries_text(&c, buf, sizeof(buf)));

	ledger_case_init(&c, 1);
	c.in.claim_in_session = true;
	add_exec(&c, 1, 0, 1, 5, EXEC_FAILED);		/* committed before the next claim took the job */
	add_exec(&c, 1, 2, 6, 9, EXEC_DONE);
	add_exec(&c, 1, 7, 10, 12, EXEC_CRASHED);
	add_exec(&c, 1, 11, 13, 20, EXEC_DONE);
	compute(&c, "no zombie");
	CHECK(c.out.zombie_completions == 0 && c.out.redeliveries == 1 && c.out.redeliveries_crash == 1,
	      "no zombie: the completions committed before a redelivery took the job (%s)",
	      redeliveries_text(&c, buf, sizeof(buf)));
}

/*
 * A hold-mode holder's hold ends when its COMMIT was sent (released_ns). Job 1: the holder,
 * its ticket expired, sent its COMMIT at 9 ms and saw it return at 10; the next claim,
 * which waited on the row lock, returned at 9.5: a stale-ticket redelivery after the
 * holder's commit, neither a zombie nor an overlap (by the return at 10 it would be both,
 * as --verify on MariaDB caught). Job 2: a claim returned at 8, before the holder sent its
 * COMMIT at 9: a zombie and an overlap still.
 */
static void test_hold_released(void)
{
	struct ledger_case c;
	char buf[64];
	struct execution held[] = {
		{ .job_id = 1, .claim_start_ns = 0, .start_ns = MS(1), .end_ns = MS(10), .released_ns = MS(9),
		  .outcome = EXEC_DONE, .flags = EXEC_TICKET_EXPIRED },
		{ .job_id = 1, .claim_start_ns = MS(5), .start_ns = 9500000, .end_ns = MS(20), .released_ns = MS(19),
		  .outcome = EXEC_DONE },
		{ .job_id = 2, .claim_start_ns = 0, .start_ns = MS(1), .end_ns = MS(10), .released_ns = MS(9),
		  .outcome = EXEC_DONE, .flags = EXEC_TICKET_EXPIRED },
		{ .job_id = 2, .claim_start_ns = MS(5), .start_ns = MS(8), .end_ns = MS(20), .released_ns = MS(19),
		  .outcome = EXEC_DONE },
	};

	ledger_case_init(&c, 2);
	c.in.claim_in_session = true;
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		check_need(ledger_add_execution(&c.ledger, &held[i]) == 0, "ledger_add_execution");
	compute(&c, "hold released");
	CHECK(c.out.redeliveries == 2 && c.out.redeliveries_stale_ticket == 2 && c.out.zombie_completions == 1 &&
	      c.out.overlaps == 1,
	      "hold released: 2 stale-ticket redeliveries, job 2's holder alone a zombie and an overlap "
	      "(zombies %llu, overlaps %llu; %s)", (unsigned long long)c.out.zombie_completions,
	      (unsigned long long)c.out.overlaps, redeliveries_text(&c, buf, sizeof(buf)));
}

int main(void)
{
	test_lost_rules();
	test_crash_cause();
	test_race_with_crash();
	test_session_claim_race();
	test_holder_is_latest();
	test_sql_naive_owner_fence();
	test_lease_cause();
	test_reaper_cause();
	test_stale_ticket_cause();
	test_zombies();
	test_hold_released();
	return check_exit_status();
}
