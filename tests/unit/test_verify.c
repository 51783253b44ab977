/*
 * Unit tests of --verify's derivation (measure/verify.c): hand-made records of committed
 * changes, as the audit triggers write them, against hand-made ledgers and figures. Each
 * case's answer was worked out by hand from docs/metrics.md ("Verifying against the
 * server"); a figure of the ledger set wrong must come out as a difference naming its jobs.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "measure/ledger.h"
#include "measure/verify.h"

#define MAX_EVENTS 80
#define MAX_JOBS 200

/*
 * The figure --verify compares the record's crash redeliveries with: the ledger's whose
 * holder's session ended (crash + restart + killed backend + failover).
 */
#define CRASH_SUM "redeliveries_session_ended"

/* One hand-made run: its record, its ledger, the figures the ledger gave and its final state. */
struct verify_case {
	struct audit_event events[MAX_EVENTS];	/* the record, in order */
	size_t n_events;			/* entries used */
	struct ledger ledger;			/* the executions */
	struct run_metrics metrics;		/* the ledger's figures, set by hand */
	struct job_state final[MAX_JOBS];	/* the final state the harness read, every job done unless set */
	struct verify_input in;			/* what verify_run reads */
	struct verify_outcome out;		/* what it found */
};

/* Prepares c: n_jobs jobs loaded before the record began, a drain run in flip mode. */
static void case_init(struct verify_case *c, size_t n_jobs)
{
	memset(c, 0, sizeof(*c));
	check_need(ledger_init(&c->ledger, 8, 1, 1) == 0, "ledger_init");
	for (size_t i = 0; i < MAX_JOBS; i++)
		c->final[i] = (struct job_state){ .status = JOB_DONE, .claimed_by = 0 };
	c->in = (struct verify_input){
		.events = c->events, .ledger = &c->ledger, .final = c->final, .metrics = &c->metrics,
		.n_jobs = n_jobs, .n_backlog = n_jobs, .drain = true,
	};
}

/* Appends a change to c's record: on table, op, of job id, from (status, owner, attempt) to the new ones. */
static void change(struct verify_case *c, int table, int op, int64_t id, int old_status, int new_status,
		   int old_owner, int new_owner, int old_attempt, int new_attempt, bool lease_expired, int writer)
{
	check_need(c->n_events < MAX_EVENTS, "room for the change");
	c->events[c->n_events] = (struct audit_event){
		.seq = (int64_t)c->n_events + 1, .id = id, .table = table, .op = op, .old_status = old_status,
		.new_status = new_status, .old_owner = old_owner, .new_owner = new_owner, .old_attempt = old_attempt,
		.new_attempt = new_attempt, .lease_expired = lease_expired, .writer = writer,
	};
	c->n_events++;
}

/* A flip-mode claim of job id by worker w, its attempt a, from a row of status old owned by old_owner. */
static void claim(struct verify_case *c, int64_t id, int w, int a, int old, int old_owner, bool expired)
{
	change(c, AUDIT_JOBS, AUDIT_UPDATE, id, old, JOB_ACTIVE, old_owner, w, a - 1, a, expired, w);
}

/* A completion of job id by worker w (status st, done or error) of a row of status old owned by owner. */
static void complete(struct verify_case *c, int64_t id, int w, int st, int old, int owner)
{
	change(c, AUDIT_JOBS, AUDIT_UPDATE, id, old, st, owner, owner, 1, 1, false, w);
}

/* Adds an execution of job id by identity w with outcome to c's ledger. */
static void execution(struct verify_case *c, int64_t id, int w, int outcome)
{
	struct execution x = { .job_id = id, .worker = w, .identity = w, .outcome = outcome };

	check_need(ledger_add_execution(&c->ledger, &x) == 0, "ledger_add_execution");
}

/* Runs verify_run on c. */
static void verify(struct verify_case *c)
{
	c->in.n_events = c->n_events;
	check_need(verify_run(&c->in, &c->out) == 0, "verify_run");
}

/* c's difference of figure, or NULL. */
static const struct verify_difference *difference(const struct verify_case *c, const char *figure)
{
	for (size_t i = 0; i < c->out.n_diffs; i++)
		if (strcmp(c->out.diffs[i].figure, figure) == 0)
			return &c->out.diffs[i];
	return NULL;
}

/* Whether c found exactly one difference, of figure, ledger against server, on jobs. */
static bool only_difference(const struct verify_case *c, const char *figure, int64_t ledger, int64_t server,
			    const char *jobs)
{
	const struct verify_difference *d = difference(c, figure);

	return c->out.verified && c->out.n_diffs == 1 && d && d->ledger == ledger && d->server == server &&
	       strcmp(d->jobs, jobs) == 0;
}

/* Two jobs claimed and completed once each: everything agrees; a completion the ledger misses is caught. */
static void test_agreement(void)
{
	struct verify_case c;

	case_init(&c, 2);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	claim(&c, 2, 1, 1, JOB_NEW, -1, false);
	complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 0);
	complete(&c, 2, 1, JOB_DONE, JOB_ACTIVE, 1);
	execution(&c, 1, 0, EXEC_DONE);
	execution(&c, 2, 1, EXEC_DONE);
	c.metrics.completed = 2;
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "claims and completions that agree: verified, no difference");
	ledger_free(&c.ledger);

	/* the record has job 2 done by a completion the ledger never saw (a double completion) */
	case_init(&c, 2);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 0);
	complete(&c, 2, 0, JOB_DONE, JOB_NEW, -1);
	execution(&c, 1, 0, EXEC_DONE);
	c.metrics.completed = 1;
	verify(&c);
	CHECK(difference(&c, "completed") && difference(&c, "completed")->ledger == 1 &&
	      difference(&c, "completed")->server == 2 && strcmp(difference(&c, "completed")->jobs, "2") == 0,
	      "a job done that the ledger never completed: completed differs, job 2 named");
	CHECK(difference(&c, "executions_committed") && difference(&c, "executions_committed")->server == 2,
	      "and the committed completions differ (ledger 1, server 2)");
	ledger_free(&c.ledger);
}

/*
 * A stall past the lease without a fence: worker 1's claim takes worker 0's row with its
 * lease run out (a lease redelivery), then worker 0's late completion lands over worker
 * 1's claim: a zombie. Worker 1 completes it again (done over done). Two executions, one
 * duplicate.
 */
static void test_lease_and_zombie(void)
{
	struct verify_case c;

	case_init(&c, 1);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	claim(&c, 1, 1, 2, JOB_ACTIVE, 0, true);
	complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 1);
	complete(&c, 1, 1, JOB_DONE, JOB_DONE, 1);
	execution(&c, 1, 0, EXEC_DONE);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .redeliveries = 1, .redeliveries_lease = 1,
					  .zombie_completions = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "a lease redelivery and a zombie completion: the figures agree");
	c.metrics.zombie_completions = 0;
	verify(&c);
	CHECK(only_difference(&c, "zombie_completions", 0, 1, "1"),
	      "a ledger that missed the zombie: zombie_completions, ledger 0, server 1, job 1");
	c.metrics.zombie_completions = 1;
	c.metrics.redeliveries_lease = 0;
	c.metrics.redeliveries_crash = 1;
	verify(&c);
	CHECK(c.out.n_diffs == 2 && difference(&c, "redeliveries_lease") && difference(&c, CRASH_SUM) &&
	      difference(&c, CRASH_SUM)->ledger == 1 && difference(&c, CRASH_SUM)->server == 0,
	      "a lease redelivery the ledger put down to a crash: redeliveries_lease and the session-ended sum differ");
	c.metrics.redeliveries_crash = 0;
	c.metrics.redeliveries_restart = 1;
	verify(&c);
	CHECK(c.out.n_diffs == 2 && difference(&c, CRASH_SUM) && difference(&c, CRASH_SUM)->ledger == 1,
	      "put down to a restart instead: the same sum differs, ledger 1 (the record cannot tell a crash from a "
	      "restart)");
	ledger_free(&c.ledger);
}

/* Naive's race: worker 1's claim takes worker 0's live row (no lease ran out): a duplicate, not a redelivery. */
static void test_race(void)
{
	struct verify_case c;

	case_init(&c, 1);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	claim(&c, 1, 1, 2, JOB_ACTIVE, 0, false);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 1);
	complete(&c, 1, 0, JOB_DONE, JOB_DONE, 1);
	execution(&c, 1, 0, EXEC_DONE);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .race_duplicates = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "a race: one duplicate, a race duplicate, no redelivery, no zombie");
	c.metrics.race_duplicates = 0;
	c.metrics.redeliveries = 1;
	c.metrics.redeliveries_crash = 1;
	verify(&c);
	CHECK(c.out.n_diffs == 3 && difference(&c, "redeliveries") && difference(&c, "redeliveries")->ledger == 1 &&
	      difference(&c, "redeliveries")->server == 0 && difference(&c, CRASH_SUM) &&
	      difference(&c, "race_duplicates") && difference(&c, "race_duplicates")->ledger == 0 &&
	      difference(&c, "race_duplicates")->server == 1 && strcmp(difference(&c, "race_duplicates")->jobs, "1") == 0,
	      "a race the ledger called a redelivery: redeliveries and the session-ended sum, ledger 1, server 0, and "
	      "race_duplicates, ledger 0, server 1, job 1");
	ledger_free(&c.ledger);
}

/*
 * A crash in flip mode with a reaper: worker 0's claim is never completed, the harness
 * gives the row back (its lease ran out: the reaper), worker 1 claims it (a reaper
 * redelivery) and completes it. Worker 0's claim stays unfinished: the crashed execution.
 */
static void test_reaper(void)
{
	struct verify_case c;

	case_init(&c, 1);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	change(&c, AUDIT_JOBS, AUDIT_UPDATE, 1, JOB_ACTIVE, JOB_NEW, 0, -1, 1, 1, true, -1);
	claim(&c, 1, 1, 2, JOB_NEW, -1, false);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 1);
	execution(&c, 1, 0, EXEC_CRASHED);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .redeliveries = 1, .redeliveries_reaper = 1,
					  .reaped = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "a reaper redelivery after a crash: the figures agree");
	c.metrics.reaped = 0;
	verify(&c);
	CHECK(only_difference(&c, "reaped", 0, 1, "1"), "a give-back the ledger missed: reaped, ledger 0, server 1");
	ledger_free(&c.ledger);

	/* the same crash with the crashed execution missing from the ledger */
	case_init(&c, 1);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	change(&c, AUDIT_JOBS, AUDIT_UPDATE, 1, JOB_ACTIVE, JOB_NEW, 0, -1, 1, 1, true, -1);
	claim(&c, 1, 1, 2, JOB_NEW, -1, false);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 1);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .redeliveries = 1, .redeliveries_reaper = 1, .reaped = 1 };
	verify(&c);
	CHECK(difference(&c, "duplicates") && strcmp(difference(&c, "duplicates")->jobs, "1") == 0 &&
	      difference(&c, "fenced+crashed+uncommitted") &&
	      difference(&c, "fenced+crashed+uncommitted")->server == 1,
	      "a committed claim the ledger does not hold: duplicates and the unfinished claims differ on job 1");
	c.metrics.reconnects = 1;
	c.metrics.redeliveries = 0;
	c.metrics.redeliveries_reaper = 0;
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0 && c.out.in_doubt == 1,
	      "the same after a lost connection: the claim is in doubt (its answer lost), left out and counted");
	ledger_free(&c.ledger);
}

/*
 * Advisory's claim marks a row it leaves new (its session's lock is the claim): worker 0
 * crashes, its lock goes, worker 1 marks the row again and completes it (new to done):
 * a redelivery of cause crash; the completion of a row the writer marked is no new claim.
 */
static void test_session_lock(void)
{
	struct verify_case c;

	case_init(&c, 1);
	change(&c, AUDIT_JOBS, AUDIT_UPDATE, 1, JOB_NEW, JOB_NEW, -1, 0, 0, 1, false, 0);
	change(&c, AUDIT_JOBS, AUDIT_UPDATE, 1, JOB_NEW, JOB_NEW, 0, 1, 1, 2, false, 1);
	complete(&c, 1, 1, JOB_DONE, JOB_NEW, 1);
	execution(&c, 1, 0, EXEC_CRASHED);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .redeliveries = 1, .redeliveries_crash = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "a session lock's claim lost to a crash: one redelivery of cause crash");
	ledger_free(&c.ledger);
}

/*
 * Worker 0's claim commits but its answer is lost with the connection; it connects anew,
 * the lease runs out and it claims the same job again, which the ledger holds: the first
 * claim, beyond the ledger's one execution of job 1 by worker 0, is in doubt.
 */
static void test_in_doubt(void)
{
	struct verify_case c;

	case_init(&c, 1);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	claim(&c, 1, 0, 2, JOB_ACTIVE, 0, true);
	complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 0);
	execution(&c, 1, 0, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .reconnects = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0 && c.out.in_doubt == 1,
	      "a claim whose answer was lost, then the same worker's claim of the job: the first is in doubt");
	c.metrics.reconnects = 0;
	verify(&c);
	CHECK(c.out.in_doubt == 0 && difference(&c, "duplicates") && difference(&c, "redeliveries_lease"),
	      "without a lost connection it is a difference (duplicates, a lease redelivery)");
	ledger_free(&c.ledger);
}

/*
 * A batch claim of 3 jobs by worker 0 commits, its answer lost with the connection: 3
 * claims in doubt, one statement's, which one lost connection allows where a claim hands
 * out 3 jobs (a batch of 3) and not where it hands out 1. Workers 1 then claim and complete
 * them (the lease run out).
 */
static void test_batch_in_doubt(void)
{
	struct verify_case c;

	case_init(&c, 3);
	for (int64_t id = 1; id <= 3; id++)
		claim(&c, id, 0, 1, JOB_NEW, -1, false);
	for (int64_t id = 1; id <= 3; id++) {
		claim(&c, id, 1, 2, JOB_ACTIVE, 0, true);
		complete(&c, id, 1, JOB_DONE, JOB_ACTIVE, 1);
		execution(&c, id, 1, EXEC_DONE);
	}
	c.metrics = (struct run_metrics){ .completed = 3, .reconnects = 1 };
	c.in.claim_size = 3;
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0 && c.out.in_doubt == 3,
	      "a batch of 3 whose answer was lost: its 3 claims in doubt for one lost connection (in doubt %zu, "
	      "differences %zu)", c.out.in_doubt, c.out.n_diffs);
	c.in.claim_size = 1;
	verify(&c);
	CHECK(c.out.in_doubt == 0 && difference(&c, "duplicates") && difference(&c, "duplicates")->server == 3,
	      "claims of one job at a time: 3 claims in doubt are 3 statements, more than 1 lost connection");
	ledger_free(&c.ledger);
}

/* Adds an execution of job id by identity w with outcome to c's ledger whose connection was made anew during it. */
static void reconnected_execution(struct verify_case *c, int64_t id, int w, int outcome)
{
	struct execution x = { .job_id = id, .worker = w, .identity = w, .outcome = outcome, .start_ns = 10,
			       .conn_ns = 20 };

	check_need(ledger_add_execution(&c->ledger, &x) == 0, "ledger_add_execution");
}

/*
 * Naive's completions across a lost connection. Job 1: workers 0 and 1 race; worker 0's
 * connection goes during its completion, which never committed, and after reconnecting it
 * reads the row done under its claim, worker 1's completion's: its done is in the ledger,
 * not in the record. Job 2: worker 0's completion committed with its answer lost, the row's
 * claim by then worker 1's; it completes again: two completions in the record, one in the
 * ledger. One lost connection each: in doubt; without one, or when the execution kept its
 * connection, a difference.
 */
static void test_completion_in_doubt(void)
{
	struct verify_case c;

	case_init(&c, 2);
	claim(&c, 1, 1, 1, JOB_NEW, -1, false);
	claim(&c, 1, 0, 2, JOB_ACTIVE, 1, false);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 0);
	reconnected_execution(&c, 1, 0, EXEC_DONE);
	execution(&c, 1, 1, EXEC_DONE);
	claim(&c, 2, 0, 1, JOB_NEW, -1, false);
	claim(&c, 2, 1, 2, JOB_ACTIVE, 0, false);
	complete(&c, 2, 0, JOB_DONE, JOB_ACTIVE, 1);
	complete(&c, 2, 1, JOB_DONE, JOB_DONE, 1);
	complete(&c, 2, 0, JOB_DONE, JOB_DONE, 1);
	reconnected_execution(&c, 2, 0, EXEC_DONE);
	execution(&c, 2, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 2, .duplicates = 2, .race_duplicates = 2, .reconnects = 2 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0 && c.out.in_doubt == 2,
	      "naive's two completions across a lost connection: in doubt, nothing differs (in doubt %zu, "
	      "differences %zu)", c.out.in_doubt, c.out.n_diffs);
	c.metrics.reconnects = 1;
	verify(&c);
	CHECK(c.out.in_doubt == 0 && difference(&c, "executions_committed") &&
	      strcmp(difference(&c, "executions_committed")->jobs, "1 2") == 0 &&
	      difference(&c, "fenced+crashed+uncommitted"),
	      "with one lost connection for two completions in doubt: both jobs differ");
	ledger_free(&c.ledger);

	case_init(&c, 1);
	claim(&c, 1, 1, 1, JOB_NEW, -1, false);
	claim(&c, 1, 0, 2, JOB_ACTIVE, 1, false);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 0);
	execution(&c, 1, 0, EXEC_DONE);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .race_duplicates = 1, .reconnects = 1 };
	verify(&c);
	CHECK(c.out.in_doubt == 0 && difference(&c, "executions_committed"),
	      "a completion the record lacks by an execution that kept its connection: a difference");
	ledger_free(&c.ledger);
}

/* Adds an execution of job id by identity w with outcome, its claim begun at claim_ms, in hand at start_ms, ended at end_ms. */
static void timed_execution(struct verify_case *c, int64_t id, int w, int outcome, int64_t claim_ms, int64_t start_ms,
			    int64_t end_ms)
{
	struct execution x = { .job_id = id, .worker = w, .identity = w, .outcome = outcome,
			       .claim_start_ns = claim_ms * 1000000, .start_ns = start_ms * 1000000,
			       .end_ns = end_ms * 1000000 };

	check_need(ledger_add_execution(&c->ledger, &x) == 0, "ledger_add_execution");
}

/*
 * The lease band, naive under a lease of 20 ms: worker 1's claim began at 25 ms, before
 * worker 0's completion returned at 30, and wrote the row once that completion had
 * committed (done to active, the lease past): the record's race, the ledger's lease
 * redelivery (the lease may have run out as the claim read the row, and the claim may have
 * read it before the completion). One open judgement: no difference, nor for one zombie
 * more by the ledger, but for two. Began at 40, after the completion returned, the
 * judgement is not open: the ledger's lease redelivery differs.
 */
static void test_lease_band(void)
{
	struct verify_case c;

	for (int late = 0; late <= 1; late++) {
		case_init(&c, 1);
		claim(&c, 1, 0, 1, JOB_NEW, -1, false);
		complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 0);
		change(&c, AUDIT_JOBS, AUDIT_UPDATE, 1, JOB_DONE, JOB_ACTIVE, 0, 1, 1, 2, true, 1);
		complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 1);
		timed_execution(&c, 1, 0, EXEC_DONE, 0, 1, 30);
		timed_execution(&c, 1, 1, EXEC_DONE, late ? 40 : 25, late ? 41 : 26, 50);
		c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .redeliveries = 1,
						  .redeliveries_lease = 1 };
		c.in.lease_ns = 20000000;
		c.in.clock_tick_ns = 1000000;
		verify(&c);
		if (!late) {
			CHECK(c.out.verified && c.out.n_diffs == 0,
			      "a claim begun before the holder's completion returned: within the band (differences %zu)",
			      c.out.n_diffs);
			c.metrics.zombie_completions = 1;
			verify(&c);
			CHECK(c.out.n_diffs == 0, "the holder's completion a zombie by the ledger alone: within the band too");
			c.metrics.zombie_completions = 2;
			verify(&c);
			CHECK(difference(&c, "zombie_completions"), "two zombies more than the record: beyond the band");
		} else {
			CHECK(difference(&c, "redeliveries_lease") && difference(&c, "race_duplicates"),
			      "begun after the completion returned: the lease redelivery is a difference");
		}
		ledger_free(&c.ledger);
	}
}

/* A fenced completion writes nothing: worker 0's claim stays unfinished, as its fenced execution says. */
static void test_fenced(void)
{
	struct verify_case c;

	case_init(&c, 1);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	claim(&c, 1, 1, 2, JOB_ACTIVE, 0, true);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 1);
	execution(&c, 1, 0, EXEC_FENCED);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .redeliveries = 1, .redeliveries_lease = 1,
					  .fenced = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "a refused completion: one claim left unfinished, as the ledger says");
	ledger_free(&c.ledger);
}

/*
 * Hold mode: the claim commits with its completion (new straight to done); a crashed
 * claim left nothing, so the ledger's duplicate of the crashed execution is not compared,
 * nor are its redeliveries.
 */
static void test_hold(void)
{
	struct verify_case c;

	case_init(&c, 1);
	c.in.hold = true;
	complete(&c, 1, 1, JOB_DONE, JOB_NEW, -1);
	execution(&c, 1, 0, EXEC_CRASHED);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .redeliveries = 1, .redeliveries_crash = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0,
	      "hold mode: a crash's rolled-back claim is not compared, the committed execution is");
	ledger_free(&c.ledger);
}

/*
 * The ticket strategy's stale expiry in hold mode: worker 0 takes ticket 5, claims job 1;
 * worker 2 deletes ticket 5 as stale; worker 0 completes; worker 1's claim, which waited
 * on the row, turns the done row active again: a stale_ticket redelivery.
 */
static void test_stale_ticket(void)
{
	struct verify_case c;

	case_init(&c, 1);
	c.in.hold = true;
	change(&c, AUDIT_LINE, AUDIT_INSERT, 5, JOB_MISSING, JOB_CONSUMED, -1, 0, -1, -1, false, 0);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	change(&c, AUDIT_LINE, AUDIT_DELETE, 5, JOB_CONSUMED, JOB_MISSING, 0, -1, -1, -1, false, 2);
	complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 0);
	claim(&c, 1, 1, 2, JOB_DONE, 0, false);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 1);
	execution(&c, 1, 0, EXEC_DONE);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .redeliveries = 1,
					  .redeliveries_stale_ticket = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "a stale ticket's redelivery: the figures agree");
	c.metrics.redeliveries_stale_ticket = 0;
	c.metrics.redeliveries_lease = 1;
	verify(&c);
	CHECK(difference(&c, "redeliveries_stale_ticket") && difference(&c, "redeliveries_lease"),
	      "a stale expiry the ledger called a lease: both causes differ");
	ledger_free(&c.ledger);

	/* a ticket its own requester hands back is no expiry */
	case_init(&c, 1);
	change(&c, AUDIT_LINE, AUDIT_INSERT, 5, JOB_MISSING, JOB_CONSUMED, -1, 0, -1, -1, false, 0);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	change(&c, AUDIT_LINE, AUDIT_DELETE, 5, JOB_CONSUMED, JOB_MISSING, 0, -1, -1, -1, false, 0);
	claim(&c, 1, 1, 2, JOB_ACTIVE, 0, false);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 1);
	execution(&c, 1, 0, EXEC_UNCOMMITTED);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .race_duplicates = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "a ticket handed back by its requester: no redelivery, a race");
	ledger_free(&c.ledger);

	/*
	 * a ticket its own requester's poll deleted as stale before it claimed (the poll deletes
	 * every stale ticket, its own too): its claim held no exclusion, hold mode's next claim
	 * of the job is a stale-ticket redelivery, as the ledger (its return found it gone) says
	 */
	case_init(&c, 1);
	c.in.hold = true;
	change(&c, AUDIT_LINE, AUDIT_INSERT, 5, JOB_MISSING, JOB_CONSUMED, -1, 0, -1, -1, false, 0);
	change(&c, AUDIT_LINE, AUDIT_DELETE, 5, JOB_CONSUMED, JOB_MISSING, 0, -1, -1, -1, false, 0);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 0);
	claim(&c, 1, 1, 2, JOB_DONE, 0, false);
	complete(&c, 1, 1, JOB_DONE, JOB_ACTIVE, 1);
	execution(&c, 1, 0, EXEC_DONE);
	execution(&c, 1, 1, EXEC_DONE);
	c.metrics = (struct run_metrics){ .completed = 1, .duplicates = 1, .redeliveries = 1,
					  .redeliveries_stale_ticket = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0,
	      "a ticket its requester's own poll expired before its claim: a stale-ticket redelivery (differences %zu)",
	      c.out.n_diffs);
	ledger_free(&c.ledger);
}

/*
 * Lost and stuck from the final state the record leaves: job 1 done, job 2 left active
 * (stuck and lost), job 3 never claimed in a drain (lost), job 4 consumed by
 * delete-returning with no completion (lost by the ledger's knowledge alone: not compared).
 */
static void test_lost(void)
{
	struct verify_case c;

	case_init(&c, 4);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 0);
	claim(&c, 2, 1, 1, JOB_NEW, -1, false);
	change(&c, AUDIT_JOBS, AUDIT_DELETE, 4, JOB_NEW, JOB_MISSING, -1, -1, 0, -1, false, 0);
	change(&c, AUDIT_MOVED, AUDIT_INSERT, 4, JOB_MISSING, JOB_CONSUMED, -1, 0, -1, 1, false, 0);
	execution(&c, 1, 0, EXEC_DONE);
	execution(&c, 2, 1, EXEC_CRASHED);
	execution(&c, 4, 0, EXEC_CRASHED);
	c.final[1].status = JOB_ACTIVE;
	c.final[2].status = JOB_NEW;
	c.final[3].status = JOB_CONSUMED;
	c.metrics = (struct run_metrics){ .completed = 1, .lost = 3, .stuck = 1 };
	verify(&c);
	CHECK(c.out.verified && c.out.n_diffs == 0, "lost 3 (one consumed, by the ledger alone) and stuck 1: agreed");
	c.metrics.lost = 4;
	verify(&c);
	CHECK(only_difference(&c, "lost", 3, 2, "2 3"),
	      "a ledger that counts one lost too many: lost differs, the server's lost jobs named");
	c.metrics.lost = 3;
	c.in.drain = false;
	c.metrics.lost = 2;
	verify(&c);
	CHECK_EQ(c.out.n_diffs, 0, "a timed run: a job still new is queued, not lost");
	c.in.final = NULL;
	verify(&c);
	CHECK(c.out.verified && !difference(&c, "lost") && !difference(&c, "stuck"),
	      "without the final state lost and stuck are not compared");
	ledger_free(&c.ledger);

	/* the record leaves job 1 done; the harness read it new */
	case_init(&c, 1);
	claim(&c, 1, 0, 1, JOB_NEW, -1, false);
	complete(&c, 1, 0, JOB_DONE, JOB_ACTIVE, 0);
	execution(&c, 1, 0, EXEC_DONE);
	c.final[0].status = JOB_NEW;
	c.metrics = (struct run_metrics){ .completed = 1, .lost = 1 };
	verify(&c);
	CHECK(difference(&c, "final_state") && strcmp(difference(&c, "final_state")->jobs, "1") == 0,
	      "a final state other than the record's is a difference (job 1)");
	ledger_free(&c.ledger);
}

/* Jobs the ledger missed are listed up to the room there is, then "...". */
static void test_long_list(void)
{
	struct verify_case c;

	case_init(&c, MAX_JOBS);
	for (int64_t id = 1; id <= 30; id++)
		complete(&c, id, 0, JOB_DONE, JOB_NEW, -1);
	verify(&c);
	CHECK(difference(&c, "completed") && difference(&c, "completed")->server == 30 &&
	      strncmp(difference(&c, "completed")->jobs, "1 2 3 ", 6) == 0,
	      "30 jobs done unknown to the ledger: listed from the first");
	c.n_events = 0;
	for (int64_t id = 1; id <= 60; id++)
		complete(&c, id + 100, 0, JOB_DONE, JOB_NEW, -1);
	complete(&c, MAX_JOBS + 5, 0, JOB_DONE, JOB_NEW, -1);
	verify(&c);
	CHECK(difference(&c, "completed") && difference(&c, "completed")->server == 60,
	      "a change to a job outside the run is left out");
	CHECK(strlen(difference(&c, "completed")->jobs) < sizeof(difference(&c, "completed")->jobs) &&
	      strstr(difference(&c, "completed")->jobs, "...") != NULL, "a list longer than its room ends in ...");
	ledger_free(&c.ledger);
}

int main(void)
{
	test_agreement();
	test_lease_and_zombie();
	test_race();
	test_reaper();
	test_session_lock();
	test_in_doubt();
	test_batch_in_doubt();
	test_completion_in_doubt();
	test_lease_band();
	test_fenced();
	test_hold();
	test_stale_ticket();
	test_lost();
	test_long_list();
	return check_exit_status();
}
