/*
 * Unit tests of --verify on an adapter's run (adapter/adapter_verify.c): hand-made records
 * of the state table's committed changes, as the audit trigger writes them, against
 * hand-made ledgers of the adapter's lines. Each case's answer was worked out by hand from
 * docs/adapters.md ("--verify"): a claim the lines never reported must come out as a
 * difference naming its job, what a dead replica may have left unsaid as in doubt.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adapter/adapter_verify.h"
#include "check.h"
#include "measure/verify.h"

#define MAX_EVENTS 40
#define MAX_JOBS 8

/* One hand-made adapter run: its record, its ledger and the final state the harness read. */
struct adapter_case {
	struct adapter_event events[MAX_EVENTS];	/* the record, in order */
	struct ledger ledger;				/* the executions the lines made */
	struct job_state final[MAX_JOBS];		/* the state table's final state, every job done unless set */
	struct adapter_verify_input in;			/* what adapter_verify_run reads */
	struct verify_outcome out;			/* what it found */
};

/* Prepares c: n_jobs jobs enqueued before the record began, flip mode, no replica dead. */
static void case_init(struct adapter_case *c, size_t n_jobs)
{
	memset(c, 0, sizeof(*c));
	check_need(ledger_init(&c->ledger, 8, 1, 1) == 0, "ledger_init");
	for (size_t i = 0; i < MAX_JOBS; i++)
		c->final[i] = (struct job_state){ .status = JOB_DONE, .claimed_by = -1 };
	c->in = (struct adapter_verify_input){ .events = c->events, .ledger = &c->ledger, .final = c->final,
					       .n_jobs = n_jobs };
}

/* Appends a change of job's row from state old to state new by op to c's record. */
static void change(struct adapter_case *c, int op, int64_t job, int old, int new)
{
	check_need(c->in.n_events < MAX_EVENTS, "room for the change");
	c->events[c->in.n_events] = (struct adapter_event){ .seq = (int64_t)c->in.n_events + 1, .job = job, .op = op,
							    .old_status = old, .new_status = new };
	c->in.n_events++;
}

/* Adds an execution of job with outcome and flags to c's ledger. */
static void execution(struct adapter_case *c, int64_t job, int outcome, int flags)
{
	struct execution x = { .job_id = job, .outcome = outcome, .flags = flags };

	check_need(ledger_add_execution(&c->ledger, &x) == 0, "ledger_add_execution");
}

/* A flip-mode delivery in the record: the row made active, then done. */
static void delivered(struct adapter_case *c, int64_t job)
{
	change(c, AUDIT_UPDATE, job, JOB_NEW, JOB_ACTIVE);
	change(c, AUDIT_UPDATE, job, JOB_ACTIVE, JOB_DONE);
}

/* A race without a lock in the record: job claimed twice (an active row made active again), completed twice. */
static void raced(struct adapter_case *c, int64_t job)
{
	change(c, AUDIT_UPDATE, job, JOB_NEW, JOB_ACTIVE);
	change(c, AUDIT_UPDATE, job, JOB_ACTIVE, JOB_ACTIVE);
	change(c, AUDIT_UPDATE, job, JOB_ACTIVE, JOB_DONE);
	change(c, AUDIT_UPDATE, job, JOB_DONE, JOB_DONE);
}

/* Runs the comparison on c; the outcome in c->out. */
static void run(struct adapter_case *c)
{
	check_need(adapter_verify_run(&c->in, &c->out) == 0, "adapter_verify_run");
}

/* The difference of figure in c's outcome, or NULL. */
static const struct verify_difference *difference(const struct adapter_case *c, const char *figure)
{
	for (size_t i = 0; i < c->out.n_diffs; i++)
		if (strcmp(c->out.diffs[i].figure, figure) == 0)
			return &c->out.diffs[i];
	return NULL;
}

/* Every job delivered once, lines and record alike, flip and hold: nothing differs. */
static void test_agreement(void)
{
	struct adapter_case c;

	case_init(&c, 3);
	for (int64_t j = 1; j <= 3; j++) {
		delivered(&c, j);
		execution(&c, j, EXEC_DONE, 0);
	}
	run(&c);
	CHECK(c.out.verified, "flip: the run is verified");
	CHECK_EQ(c.out.n_diffs, (size_t)0, "flip: three deliveries, both sides alike: no difference");
	ledger_free(&c.ledger);

	case_init(&c, 2);
	c.in.hold = true;
	change(&c, AUDIT_UPDATE, 1, JOB_NEW, JOB_DONE);
	execution(&c, 1, EXEC_DONE, 0);
	execution(&c, 2, EXEC_CRASHED, 0); /* its transaction died: nothing committed, nothing recorded */
	change(&c, AUDIT_UPDATE, 2, JOB_NEW, JOB_DONE);
	execution(&c, 2, EXEC_DONE, 0);
	run(&c);
	CHECK_EQ(c.out.n_diffs, (size_t)0, "hold: a claim committed with its completion, a crashed one unseen: no difference");
	ledger_free(&c.ledger);
}

/* A claim no line reported (made, committed, given back): a duplicate only the server saw, job 2. */
static void test_unreported_claim(void)
{
	struct adapter_case c;
	const struct verify_difference *d;

	case_init(&c, 3);
	c.in.hold = true;
	change(&c, AUDIT_UPDATE, 1, JOB_NEW, JOB_DONE);
	change(&c, AUDIT_UPDATE, 2, JOB_NEW, JOB_ACTIVE);
	change(&c, AUDIT_UPDATE, 2, JOB_ACTIVE, JOB_NEW);
	change(&c, AUDIT_UPDATE, 2, JOB_NEW, JOB_DONE);
	change(&c, AUDIT_UPDATE, 3, JOB_NEW, JOB_DONE);
	for (int64_t j = 1; j <= 3; j++)
		execution(&c, j, EXEC_DONE, 0);
	run(&c);
	d = difference(&c, "duplicates");
	CHECK(d != NULL, "the unreported claim is a difference in duplicates");
	if (d) {
		CHECK_EQ(d->ledger, (int64_t)0, "the lines say no job was claimed twice");
		CHECK_EQ(d->server, (int64_t)1, "the record says job 2 was");
		CHECK_STR_EQ(d->jobs, "2", "the difference names job 2");
	}
	CHECK_EQ(c.out.n_diffs, (size_t)1, "and nothing else differs");
	ledger_free(&c.ledger);
}

/* A claim without a lock: two claims and two completions of job 1 on both sides agree. */
static void test_race(void)
{
	struct adapter_case c;

	case_init(&c, 1);
	raced(&c, 1);
	execution(&c, 1, EXEC_DONE, 0);
	execution(&c, 1, EXEC_DONE, 0);
	run(&c);
	CHECK_EQ(c.out.n_diffs, (size_t)0, "a race's two claims and completions: the record agrees with the lines");
	ledger_free(&c.ledger);
	case_init(&c, 1);
	raced(&c, 1);
	execution(&c, 1, EXEC_DONE, 0);
	run(&c);
	CHECK(difference(&c, "duplicates") && difference(&c, "executions_committed"),
	      "lines that hide the race's second execution: duplicates and executions_committed differ");
	ledger_free(&c.ledger);
}

/*
 * A replica that died: the claim its seat committed with no line (job 1, claimed again by
 * another) and the completion of its job in hand (job 2) are in doubt, within its seats.
 */
static void test_dead_replica(void)
{
	struct adapter_case c;
	const struct verify_difference *d;

	case_init(&c, 3);
	c.in.unsaid_claims_max = 1;
	change(&c, AUDIT_UPDATE, 1, JOB_NEW, JOB_ACTIVE);	/* the dead seat's claim, no line */
	change(&c, AUDIT_UPDATE, 1, JOB_ACTIVE, JOB_NEW);	/* the library's expiry */
	delivered(&c, 1);
	execution(&c, 1, EXEC_DONE, 0);
	change(&c, AUDIT_UPDATE, 2, JOB_NEW, JOB_ACTIVE);
	change(&c, AUDIT_UPDATE, 2, JOB_ACTIVE, JOB_DONE);	/* committed before the kill, no line */
	execution(&c, 2, EXEC_CRASHED, EXEC_PROCESS_DIED);
	delivered(&c, 3);
	execution(&c, 3, EXEC_DONE, 0);
	run(&c);
	CHECK_EQ(c.out.n_diffs, (size_t)0, "what the dead replica left unsaid is no difference");
	CHECK_EQ(c.out.in_doubt, (size_t)2, "its claim of job 1 and completion of job 2 are in doubt");
	ledger_free(&c.ledger);

	/* the same record, but no replica died and job 2's execution ended otherwise */
	case_init(&c, 3);
	change(&c, AUDIT_UPDATE, 1, JOB_NEW, JOB_ACTIVE);
	change(&c, AUDIT_UPDATE, 1, JOB_ACTIVE, JOB_NEW);
	delivered(&c, 1);
	execution(&c, 1, EXEC_DONE, 0);
	delivered(&c, 2);
	execution(&c, 2, EXEC_CRASHED, 0);
	delivered(&c, 3);
	execution(&c, 3, EXEC_DONE, 0);
	run(&c);
	d = difference(&c, "duplicates");
	CHECK(d && strcmp(d->jobs, "1") == 0, "with no replica dead, job 1's claim no line reported differs (%s)",
	      d ? d->jobs : "no difference");
	d = difference(&c, "executions_committed");
	CHECK(d && d->ledger == 2 && d->server == 3 && strcmp(d->jobs, "2") == 0,
	      "and job 2's completion no line reported: ledger 2, server 3, job 2 (%lld, %lld, %s)",
	      d ? (long long)d->ledger : -1, d ? (long long)d->server : -1, d ? d->jobs : "-");
	CHECK_EQ(c.out.in_doubt, (size_t)0, "nothing is in doubt");
	ledger_free(&c.ledger);

	/* hold mode: the dead replica's transaction committed claim and completion together, unsaid */
	case_init(&c, 1);
	c.in.hold = true;
	c.in.unsaid_claims_max = 1;
	change(&c, AUDIT_UPDATE, 1, JOB_NEW, JOB_DONE);
	execution(&c, 1, EXEC_CRASHED, EXEC_PROCESS_DIED);
	run(&c);
	CHECK(c.out.n_diffs == 0 && c.out.in_doubt == 2,
	      "hold: a dead replica's commit no line reported is in doubt, claim and completion (%zu differences, %zu in doubt)",
	      c.out.n_diffs, c.out.in_doubt);
	ledger_free(&c.ledger);

	/* two unsaid claims, one dead seat: more than it could have made, so none is excused */
	case_init(&c, 2);
	c.in.unsaid_claims_max = 1;
	for (int64_t j = 1; j <= 2; j++) {
		change(&c, AUDIT_UPDATE, j, JOB_NEW, JOB_ACTIVE);
		change(&c, AUDIT_UPDATE, j, JOB_ACTIVE, JOB_NEW);
		delivered(&c, j);
		execution(&c, j, EXEC_DONE, 0);
	}
	run(&c);
	d = difference(&c, "duplicates");
	CHECK(d && d->server == 2 && strcmp(d->jobs, "1 2") == 0,
	      "two unsaid claims for one dead seat: both jobs differ (%s)", d ? d->jobs : "no difference");
	ledger_free(&c.ledger);
}

/*
 * A connection cut (a restart): job 1's completion committed though the worker said lost,
 * job 2's claim committed though its answer never came; both in doubt within the fault's
 * allowance, neither without it.
 */
static void test_cut_connection(void)
{
	struct adapter_case c;

	for (int allowed = 1; allowed >= 0; allowed--) {
		case_init(&c, 2);
		c.in.unsaid_claims_max = (size_t)allowed * 4;
		delivered(&c, 1);
		execution(&c, 1, EXEC_UNCOMMITTED, EXEC_CONNECTION_LOST);
		change(&c, AUDIT_UPDATE, 2, JOB_NEW, JOB_ACTIVE);	/* the claim whose answer the cut lost */
		change(&c, AUDIT_UPDATE, 2, JOB_ACTIVE, JOB_NEW);	/* the library's expiry */
		delivered(&c, 2);
		execution(&c, 2, EXEC_DONE, 0);
		run(&c);
		if (allowed) {
			CHECK_EQ(c.out.n_diffs, (size_t)0, "a lost line's completion and a cut claim are no difference");
			CHECK_EQ(c.out.in_doubt, (size_t)2, "both are in doubt");
		} else {
			CHECK(difference(&c, "duplicates") != NULL && difference(&c, "executions_committed") == NULL,
			      "without a fault's allowance the cut claim differs; the lost line's completion is still unsure");
		}
		ledger_free(&c.ledger);
	}
}

/* A library that deletes a done job (absent_state = done); the record's final state against the table's. */
static void test_final_state(void)
{
	struct adapter_case c;
	const struct verify_difference *d;

	case_init(&c, 2);
	change(&c, AUDIT_UPDATE, 1, JOB_NEW, JOB_ACTIVE);
	change(&c, AUDIT_DELETE, 1, JOB_ACTIVE, JOB_DONE);
	execution(&c, 1, EXEC_DONE, 0);
	change(&c, AUDIT_UPDATE, 2, JOB_NEW, JOB_ACTIVE);
	change(&c, AUDIT_DELETE, 2, JOB_ACTIVE, JOB_DONE);
	execution(&c, 2, EXEC_DONE, 0);
	c.final[1].status = JOB_ACTIVE;
	run(&c);
	d = difference(&c, "final_state");
	CHECK(d && d->ledger == 0 && d->server == 1 && strcmp(d->jobs, "2") == 0,
	      "a deletion is a completion; a table read that disagrees with the record names job 2 (%s)",
	      d ? d->jobs : "no difference");
	CHECK_EQ(c.out.n_diffs, (size_t)1, "and nothing else differs");
	ledger_free(&c.ledger);
	case_init(&c, 1);
	c.in.final = NULL;
	delivered(&c, 1);
	execution(&c, 1, EXEC_DONE, 0);
	c.final[0].status = JOB_NEW;
	run(&c);
	CHECK_EQ(c.out.n_diffs, (size_t)0, "without the table's final state, final_state is not compared");
	ledger_free(&c.ledger);
}

/* Failed jobs: a failure the lines report and the record shows agree; one the lines call done differs. */
static void test_failed(void)
{
	struct adapter_case c;

	case_init(&c, 1);
	change(&c, AUDIT_UPDATE, 1, JOB_NEW, JOB_ACTIVE);
	change(&c, AUDIT_UPDATE, 1, JOB_ACTIVE, JOB_ERROR);
	execution(&c, 1, EXEC_FAILED, 0);
	c.final[0].status = JOB_ERROR;
	run(&c);
	CHECK_EQ(c.out.n_diffs, (size_t)0, "a failure on both sides: no difference");
	ledger_free(&c.ledger);
	case_init(&c, 1);
	change(&c, AUDIT_UPDATE, 1, JOB_NEW, JOB_ACTIVE);
	change(&c, AUDIT_UPDATE, 1, JOB_ACTIVE, JOB_ERROR);
	execution(&c, 1, EXEC_DONE, 0);
	c.final[0].status = JOB_ERROR;
	run(&c);
	CHECK(difference(&c, "failed") && difference(&c, "completed"),
	      "lines that call a failure done: failed and completed differ");
	ledger_free(&c.ledger);
}

int main(void)
{
	test_agreement();
	test_unreported_claim();
	test_race();
	test_dead_replica();
	test_cut_connection();
	test_final_state();
	test_failed();
	return check_exit_status();
}
