/*
 * Unit tests of every metric (measure/metrics.c) on hand-made ledgers whose answers were
 * worked out by hand (the comments show how); test_metrics_series.c tests the figures of
 * open-loop arrivals and the time series.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/histogram.h"
#include "measure/ledger.h"
#include "measure/metrics.h"
#include "model/metric_table.h"

#define MAX_JOBS 16
#define MS(x) ((int64_t)(x) * 1000000)

/* One hand-made run: its ledger, its workers and its jobs. */
struct run_case {
	struct ledger ledger;			/* executions and empty claims */
	struct worker_stats *workers;		/* per-worker counters (on the heap: ~21 KB each) */
	int64_t work_ns[MAX_JOBS];		/* planned work per job, indexed id-1 */
	int64_t enqueued_ns[MAX_JOBS];		/* enqueue times, in use once in.enqueued_ns is set */
	struct job_state final[MAX_JOBS];	/* final table state, in use once in.final is set */
	struct metrics_input in;		/* what metrics_compute reads; points into the above */
	struct run_metrics out;			/* what it computed */
};

/*
 * Prepares c for n_workers workers and n_jobs jobs of 100 ms work each, every
 * job JOB_NEW in c->final, with neither final state nor enqueue times in use.
 */
static void case_init(struct run_case *c, size_t n_workers, size_t n_jobs, bool drain)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	check_need(n_jobs <= MAX_JOBS, "case_init job count");
	check_need(ledger_init(&c->ledger, 4, 2, 1) == 0, "ledger_init");
	c->workers = calloc(n_workers ? n_workers : 1, sizeof(*c->workers));
	check_need(c->workers != NULL, "worker allocation");
	for (i = 0; i < n_workers; i++)
		hist_init(&c->workers[i].claim_latency);
	for (i = 0; i < MAX_JOBS; i++) {
		c->work_ns[i] = MS(100);
		c->final[i].status = JOB_NEW;
		c->final[i].claimed_by = -1;
	}
	c->in.ledger = &c->ledger;
	c->in.workers = c->workers;
	c->in.n_workers = n_workers;
	c->in.n_jobs = n_jobs;
	c->in.work_ns = c->work_ns;
	c->in.drain = drain;
}

/* Frees what case_init allocated. */
static void case_free(struct run_case *c)
{
	ledger_free(&c->ledger);
	free(c->workers);
}

/* Appends one execution of job, times in ms since the start barrier. */
static void add_exec(struct run_case *c, int64_t job, int64_t claim_ms, int64_t start_ms,
		     int64_t end_ms, int32_t worker, int32_t outcome)
{
	struct execution e = {
		.job_id = job,
		.claim_start_ns = MS(claim_ms),
		.start_ns = MS(start_ms),
		.end_ns = MS(end_ms),
		.worker = worker,
		.outcome = outcome,
	};

	check_need(ledger_add_execution(&c->ledger, &e) == 0, "ledger_add_execution");
}

/* Appends one empty claim, times in ms since the start barrier. */
static void add_empty(struct run_case *c, int64_t start_ms, int64_t end_ms, int32_t worker)
{
	struct empty_claim e = { .start_ns = MS(start_ms), .end_ns = MS(end_ms), .worker = worker, .count = 1 };

	check_need(ledger_add_empty(&c->ledger, &e) == 0, "ledger_add_empty");
}

/* Sets job's final table status and makes the case use the final state. */
static void set_final(struct run_case *c, int64_t job, int32_t status)
{
	c->final[job - 1].status = status;
	c->in.final = c->final;
}

/* Sets job's enqueue time (ms) and makes the case use enqueue times. */
static void set_enqueued(struct run_case *c, int64_t job, int64_t ms)
{
	c->enqueued_ns[job - 1] = MS(ms);
	c->in.enqueued_ns = c->enqueued_ns;
}

/* Runs metrics_compute on c; name says which case in the check's description. */
static void case_compute(struct run_case *c, const char *name)
{
	CHECK_EQ(metrics_compute(&c->in, &c->out), 0, "%s: metrics_compute returns 0", name);
}

/* Jain's index, min, max and cv on share vectors worked out by hand. */
static void test_fairness(void)
{
	const uint64_t equal[] = { 5, 5, 5, 5 };
	const uint64_t one_did_all[] = { 0, 0, 0, 8 };
	const uint64_t uneven[] = { 1, 2, 3, 4 };
	const uint64_t zeros[] = { 0, 0, 0 };
	struct fairness f;

	f = metrics_fairness(equal, 4);
	CHECK_NEAR(f.jain, 1.0, 1e-12, "fairness: equal shares give Jain 1");
	CHECK(f.min == 5 && f.max == 5, "fairness: equal shares give min = max = 5");
	CHECK_NEAR(f.cv, 0.0, 1e-12, "fairness: equal shares give cv 0");

	/* (8)^2 / (4 * 64) = 1/4; mean 2, variance (4+4+4+36)/4 = 12, cv sqrt(12)/2 = sqrt(3) */
	f = metrics_fairness(one_did_all, 4);
	CHECK_NEAR(f.jain, 0.25, 1e-12, "fairness: one worker of 4 doing all gives Jain 1/n");
	CHECK(f.min == 0 && f.max == 8, "fairness: one worker doing all gives min 0, max 8");
	CHECK_NEAR(f.cv, sqrt(3.0), 1e-12, "fairness: one worker of 4 doing all gives cv sqrt(3)");

	/* 10^2 / (4 * 30) = 5/6; mean 2.5, variance (2.25+0.25+0.25+2.25)/4 = 1.25, cv sqrt(0.2) */
	f = metrics_fairness(uneven, 4);
	CHECK_NEAR(f.jain, 5.0 / 6.0, 1e-12, "fairness: shares 1,2,3,4 give Jain 5/6");
	CHECK(f.min == 1 && f.max == 4, "fairness: shares 1,2,3,4 give min 1, max 4");
	CHECK_NEAR(f.cv, sqrt(0.2), 1e-12, "fairness: shares 1,2,3,4 give cv sqrt(0.2)");

	f = metrics_fairness(zeros, 3);
	CHECK(isnan(f.jain), "fairness: all-zero shares give Jain unknown (NaN): no share to compare, not an even one");
	CHECK(f.min == 0 && f.max == 0, "fairness: all-zero shares give min = max = 0");
	CHECK(isnan(f.cv), "fairness: all-zero shares give cv unknown (NaN, mean 0)");

	f = metrics_fairness(NULL, 0);
	CHECK(f.jain == 0.0 && f.min == 0 && f.max == 0 && f.cv == 0.0,
	      "fairness: no workers give Jain, min, max and cv all 0");
}

/* executions, duplicates, dup_jobs, overlaps and completed on one ledger of six jobs. */
static void test_duplicates_and_overlaps(void)
{
	struct run_case c;

	case_init(&c, 2, 6, false);
	/* once: nothing */
	add_exec(&c, 1, 0, 0, 10, 0, EXEC_DONE);
	/* twice, overlapping: 1 pair */
	add_exec(&c, 2, 0, 0, 10, 0, EXEC_DONE);
	add_exec(&c, 2, 4, 5, 15, 1, EXEC_DONE);
	/* twice, touching at 10: no pair */
	add_exec(&c, 3, 0, 0, 10, 0, EXEC_DONE);
	add_exec(&c, 3, 10, 10, 20, 1, EXEC_DONE);
	/* three at once: 3 pairs */
	add_exec(&c, 4, 0, 0, 10, 0, EXEC_DONE);
	add_exec(&c, 4, 1, 1, 11, 1, EXEC_UNCOMMITTED);
	add_exec(&c, 4, 2, 2, 12, 0, EXEC_FAILED);
	/* twice, apart: no pair */
	add_exec(&c, 5, 0, 0, 5, 0, EXEC_UNCOMMITTED);
	add_exec(&c, 5, 20, 20, 30, 1, EXEC_DONE);
	/* long one holds two that miss each other: 2 pairs */
	add_exec(&c, 6, 0, 0, 100, 0, EXEC_DONE);
	add_exec(&c, 6, 50, 50, 60, 1, EXEC_DONE);
	add_exec(&c, 6, 10, 10, 20, 0, EXEC_DONE);
	case_compute(&c, "duplicates");
	CHECK_EQ(c.out.executions, 13, "duplicates: executions counts every ledger entry (13)");
	CHECK_EQ(c.out.duplicates, 7,
	      "duplicates: 0+1+1+2+1+2 = 7 executions beyond each job's first");
	CHECK_EQ(c.out.dup_jobs, 5, "duplicates: jobs 2..6 were executed more than once");
	CHECK_EQ(c.out.overlaps, 6,
	      "duplicates: overlapping pairs 1 (job 2) + 0 (touching) + 3 (three-way) + 0 + 2 = 6");
	CHECK_EQ(c.out.completed, 6,
	      "duplicates: completed counts distinct jobs with a DONE execution, not executions");
	case_free(&c);
}

/* Each rule of lost alone, their union counted once, the ledger never deciding, unknown without a final state. */
static void test_lost(void)
{
	struct run_case c;

	/* rule (a): drain run, never finished */
	case_init(&c, 1, 4, true);
	add_exec(&c, 1, 0, 0, 10, 0, EXEC_DONE);
	add_exec(&c, 2, 10, 10, 20, 0, EXEC_FAILED);
	set_final(&c, 1, JOB_DONE);
	set_final(&c, 2, JOB_ERROR);
	set_final(&c, 3, JOB_NEW);
	set_final(&c, 4, JOB_MISSING);
	case_compute(&c, "lost (a)");
	CHECK_EQ(c.out.lost, 2,
	      "lost (a): in a drain run the jobs left new or missing are lost, done and error are not");
	CHECK(c.out.failed == 1 && c.out.completed == 1, "failed counts the execution that marked its job error");
	c.in.drain = false;
	case_compute(&c, "lost (a) timed");
	CHECK_EQ(c.out.lost, 0, "lost (a): in a timed run jobs left new or missing are not lost");
	case_free(&c);

	/*
	 * the executions do not decide: a job whose final status is done or error is not lost,
	 * whatever attempts of it did not commit, and in which order they began (the old rule
	 * 2, "an uncommitted execution and no committed one started later", counted jobs 1, 3
	 * and 4 here, all done on the server)
	 */
	case_init(&c, 2, 5, true);
	add_exec(&c, 1, 0, 0, 10, 0, EXEC_UNCOMMITTED);
	set_final(&c, 1, JOB_DONE);
	add_exec(&c, 2, 0, 0, 10, 0, EXEC_UNCOMMITTED);
	add_exec(&c, 2, 20, 20, 30, 1, EXEC_DONE);
	set_final(&c, 2, JOB_DONE);
	add_exec(&c, 3, 0, 0, 10, 0, EXEC_DONE);
	add_exec(&c, 3, 20, 20, 30, 1, EXEC_FENCED);
	set_final(&c, 3, JOB_DONE);
	add_exec(&c, 4, 0, 5, 10, 0, EXEC_CRASHED);
	add_exec(&c, 4, 0, 5, 12, 1, EXEC_DONE);
	set_final(&c, 4, JOB_DONE);
	add_exec(&c, 5, 0, 0, 10, 0, EXEC_UNCOMMITTED);
	add_exec(&c, 5, 20, 20, 30, 1, EXEC_FAILED);
	set_final(&c, 5, JOB_ERROR);
	case_compute(&c, "lost: done or error");
	CHECK(c.out.lost == 0 && c.out.delivery.at_least_once == 1,
	      "lost: jobs done or error at the end are never lost, whatever attempts did not commit (%llu)",
	      (unsigned long long)c.out.lost);
	/* the same ledger, a job whose last attempt did not commit left new after a drain: lost by its state */
	set_final(&c, 1, JOB_NEW);
	case_compute(&c, "lost: new after a drain");
	CHECK_EQ(c.out.lost, 1, "lost: a job left new after a drain is lost (job 1)");
	case_free(&c);

	/* rule (c): left active */
	case_init(&c, 1, 3, false);
	add_exec(&c, 1, 0, 0, 10, 0, EXEC_DONE);
	set_final(&c, 1, JOB_DONE);
	set_final(&c, 2, JOB_ACTIVE);
	set_final(&c, 3, JOB_NEW);
	case_compute(&c, "lost (c)");
	CHECK_EQ(c.out.lost, 1,
	      "lost (c): in a timed run a job left active is lost, one left new is not");
	case_free(&c);

	/* one job meeting two rules counts once; without the final state lost is unknown */
	case_init(&c, 1, 2, true);
	add_exec(&c, 1, 0, 0, 10, 0, EXEC_UNCOMMITTED);
	set_final(&c, 1, JOB_ACTIVE);
	set_final(&c, 2, JOB_DONE);
	add_exec(&c, 2, 10, 10, 20, 0, EXEC_DONE);
	case_compute(&c, "lost union");
	CHECK_EQ(c.out.lost, 1, "lost: a job left active after a drain is counted once");
	c.in.final = NULL;
	case_compute(&c, "lost without final");
	CHECK(c.out.lost == METRIC_UNKNOWN && c.out.delivery.at_least_once == METRIC_UNKNOWN,
	      "lost: without the final state lost and at-least-once are unknown, not guessed from the ledger");
	case_free(&c);
}

/*
 * Rule (d) and the ledger check on jobs their claim took out of the queue (JOB_CONSUMED):
 * the ledger alone says whether such a job was done.
 */
static void test_consumed(void)
{
	struct run_case c;

	case_init(&c, 2, 6, true);
	/* done, and failed: consumed and committed, neither lost nor a mismatch */
	add_exec(&c, 1, 0, 0, 10, 0, EXEC_DONE);
	add_exec(&c, 2, 0, 0, 10, 1, EXEC_FAILED);
	/* crashed, and stopped: consumed and never committed, lost */
	add_exec(&c, 3, 10, 10, 20, 0, EXEC_CRASHED);
	add_exec(&c, 4, 10, 10, 20, 1, EXEC_INTERRUPTED);
	/* consumed with no execution in the ledger: lost, and a mismatch */
	for (int64_t job = 1; job <= 5; job++)
		set_final(&c, job, JOB_CONSUMED);
	/* job 6 was never claimed, and is still new: lost by rule (a) */
	case_compute(&c, "consumed");
	CHECK_EQ(c.out.lost, 4, "lost (d): consumed jobs with no committed execution are lost (jobs 3, 4, 5; 6 by (a))");
	CHECK_EQ(c.out.ledger_mismatches, 1, "a consumed job no worker held is the one ledger mismatch");
	CHECK(c.out.completed == 1 && c.out.failed == 1, "consumed jobs count as completed or failed by the ledger");
	c.in.drain = false;
	case_compute(&c, "consumed timed");
	CHECK_EQ(c.out.lost, 3, "lost (d) holds in a timed run too: a consumed job is gone either way");
	case_free(&c);
}

/* Spurious empty claims: timing against first claims, enqueue times, jobs never executed. */
static void test_spurious_empties(void)
{
	struct run_case c;

	/* two task classes: job 1 (class 0) waits until 50 ms, job 2 (class 1) is claimed at once */
	case_init(&c, 2, 2, true);
	c.in.n_queues = 2;
	add_exec(&c, 1, 50, 51, 60, 0, EXEC_DONE);
	add_exec(&c, 2, 0, 1, 10, 1, EXEC_DONE);
	/* worker 1 serves class 1: job 1 waiting in the other class does not make it spurious */
	add_empty(&c, 20, 25, 1);
	/* worker 0 serves class 0, where job 1 waits: spurious */
	add_empty(&c, 20, 25, 0);
	case_compute(&c, "spurious by class");
	CHECK_EQ(c.out.spurious_empties, 1,
	      "spurious: only jobs of the worker's own task class make its empty claim spurious");
	case_free(&c);

	/* every job enqueued at 0; job 1 first claimed at 10 ms, in hand at 13 ms */
	case_init(&c, 2, 1, true);
	add_exec(&c, 1, 10, 13, 20, 0, EXEC_DONE);
	/* a duplicate: the first claim is still 10 ms */
	add_exec(&c, 1, 30, 31, 40, 1, EXEC_DONE);
	/* job 1 waiting throughout: spurious */
	add_empty(&c, 2, 5, 1);
	/* between job 1's claims: not */
	add_empty(&c, 20, 25, 1);
	/* job 1 already claimed: not */
	add_empty(&c, 12, 15, 1);
	/* the claim of job 1 began (not ended) before this ended: not */
	add_empty(&c, 8, 12, 1);
	/* first claim exactly at the end: not */
	add_empty(&c, 6, 10, 1);
	case_compute(&c, "spurious");
	CHECK_EQ(c.out.spurious_empties, 1,
	      "spurious: of five empty claims only the one made wholly before job 1's first claim counts");
	case_free(&c);

	/* enqueue times: job 1 at 0 claimed at 10, job 2 at 30 claimed at 40 */
	case_init(&c, 2, 2, true);
	add_exec(&c, 1, 10, 11, 20, 0, EXEC_DONE);
	add_exec(&c, 2, 40, 41, 50, 0, EXEC_DONE);
	set_enqueued(&c, 1, 0);
	set_enqueued(&c, 2, 30);
	/* job 2 not yet enqueued, job 1 claimed: not */
	add_empty(&c, 20, 25, 1);
	/* job 2 enqueued after this began: not */
	add_empty(&c, 29, 35, 1);
	/* job 2 enqueued exactly at the start, claimed at 40: spurious */
	add_empty(&c, 30, 35, 1);
	/* spurious */
	add_empty(&c, 31, 39, 1);
	case_compute(&c, "spurious enqueued");
	CHECK_EQ(c.out.spurious_empties, 2,
	      "spurious: empty claims before a job's enqueue time do not count, from it on they do");
	case_free(&c);

	/* a job enqueued early but claimed late still waits when a later-enqueued one is gone */
	case_init(&c, 2, 2, true);
	add_exec(&c, 1, 100, 101, 110, 0, EXEC_DONE);
	add_exec(&c, 2, 60, 61, 70, 0, EXEC_DONE);
	set_enqueued(&c, 1, 0);
	set_enqueued(&c, 2, 50);
	add_empty(&c, 70, 80, 1);
	case_compute(&c, "spurious prefix");
	CHECK_EQ(c.out.spurious_empties, 1,
	      "spurious: a waiting job enqueued before a claimed one still makes the empty claim spurious");
	case_free(&c);

	/* jobs never executed */
	case_init(&c, 1, 1, false);
	add_empty(&c, 5, 6, 0);
	case_compute(&c, "spurious never executed, no final");
	CHECK_EQ(c.out.spurious_empties, 1,
	      "spurious: a never-executed job with unknown final state waits forever");
	set_final(&c, 1, JOB_NEW);
	case_compute(&c, "spurious never executed, new");
	CHECK_EQ(c.out.spurious_empties, 1, "spurious: a never-executed job left new waits forever");
	set_final(&c, 1, JOB_DONE);
	case_compute(&c, "spurious never executed, done");
	CHECK_EQ(c.out.spurious_empties, 0,
	      "spurious: a never-executed job whose final status is done is ignored");
	set_final(&c, 1, JOB_ERROR);
	case_compute(&c, "spurious never executed, error");
	CHECK_EQ(c.out.spurious_empties, 0,
	      "spurious: a never-executed job whose final status is error is ignored");
	set_enqueued(&c, 1, 7);
	set_final(&c, 1, JOB_NEW);
	case_compute(&c, "spurious never executed, enqueued late");
	CHECK_EQ(c.out.spurious_empties, 0,
	      "spurious: a never-executed job enqueued after the empty claim does not count");
	case_free(&c);
}

/* Appends a group of count empty claims in a row of one worker, from start_ms to end_ms. */
static void add_empty_group(struct run_case *c, int64_t start_ms, int64_t end_ms, int32_t worker, uint32_t count)
{
	struct empty_claim e = { .start_ns = MS(start_ms), .end_ns = MS(end_ms), .worker = worker, .count = count };

	check_need(ledger_add_empty(&c->ledger, &e) == 0, "ledger_add_empty");
}

/*
 * Groups of empty claims (queue/empty_groups.h) count as the claims they hold: spurious,
 * and empty after the run ran dry, each by its count.
 */
static void test_grouped_empties(void)
{
	struct run_case c;

	/* enqueue times as in test_spurious_empties: job 1 at 0 claimed at 10, job 2 at 30 claimed at 40 */
	case_init(&c, 2, 2, true);
	add_exec(&c, 1, 10, 11, 20, 0, EXEC_DONE);
	add_exec(&c, 2, 40, 41, 50, 0, EXEC_DONE);
	set_enqueued(&c, 1, 0);
	set_enqueued(&c, 2, 30);
	/* 3 claims in a row between job 1's claim and job 2's enqueue: not spurious */
	add_empty_group(&c, 20, 29, 1, 3);
	/* 4 claims in a row while job 2 waited: spurious, 4 of them */
	add_empty_group(&c, 31, 39, 1, 4);
	/* and one more, alone */
	add_empty(&c, 32, 33, 1);
	case_compute(&c, "spurious groups");
	CHECK(c.out.spurious_empties == 5, "a group of 4 spurious empty claims counts 4, beside a single one (got %llu)",
	      (unsigned long long)c.out.spurious_empties);
	case_free(&c);

	/* a timed run of 2 jobs, the last in hand at 5 ms, then claims that came back empty */
	case_init(&c, 2, 2, false);
	c.in.duration_ns = MS(100);
	add_exec(&c, 1, 0, 1, 2, 0, EXEC_DONE);
	add_exec(&c, 2, 4, 5, 6, 1, EXEC_DONE);
	/* before the last take: not after it */
	add_empty_group(&c, 2, 4, 0, 2);
	/* after it: 10 and 1 */
	add_empty_group(&c, 6, 90, 0, 10);
	add_empty(&c, 7, 8, 1);
	case_compute(&c, "dry groups");
	CHECK(c.out.dry.ran_dry == 1 && c.out.dry.empty_after == 11,
	      "ran dry at 5 ms with 11 claims empty after it: a group of 10 and a single one (got %llu, %llu)",
	      (unsigned long long)c.out.dry.ran_dry, (unsigned long long)c.out.dry.empty_after);
	case_free(&c);
}

/* makespan, ideal and throughput in drain and timed runs. */
static void test_times(void)
{
	struct run_case c;

	/*
	 * Two workers; jobs 1..3 planned 100, 200 and 400 ms. Jobs 1 and 2 done,
	 * job 3 failed at 250 ms after an uncommitted attempt that ran to 300 ms.
	 */
	case_init(&c, 2, 3, true);
	c.work_ns[0] = MS(100);
	c.work_ns[1] = MS(200);
	c.work_ns[2] = MS(400);
	add_exec(&c, 1, 0, 0, 100, 0, EXEC_DONE);
	add_exec(&c, 2, 0, 0, 200, 1, EXEC_DONE);
	add_exec(&c, 3, 100, 100, 300, 0, EXEC_UNCOMMITTED);
	add_exec(&c, 3, 110, 110, 250, 1, EXEC_FAILED);
	set_final(&c, 1, JOB_DONE);
	set_final(&c, 2, JOB_DONE);
	set_final(&c, 3, JOB_ERROR);
	case_compute(&c, "drain times");
	CHECK_NEAR(c.out.makespan_s, 0.25, 1e-12,
	           "times: makespan is the last committed end (failure at 250 ms), not the uncommitted 300 ms");
	CHECK_NEAR(c.out.ideal_s, 0.35, 1e-12,
	           "times: drain ideal is all planned work / workers = 700 ms / 2");
	CHECK_NEAR(c.out.throughput_jps, 8.0, 1e-9,
	           "times: drain throughput is 2 completed / 0.25 s");
	CHECK_EQ(c.out.completed, 2, "times: a failed job is not completed");
	CHECK_EQ(c.out.lost, 0, "times: a job failed after an uncommitted attempt is not lost");

	c.in.drain = false;
	c.in.duration_ns = MS(1000);
	case_compute(&c, "timed times");
	CHECK_NEAR(c.out.makespan_s, 0.25, 1e-12,
	           "times: timed makespan is still the last committed end");
	CHECK_NEAR(c.out.ideal_s, 0.15, 1e-12,
	           "times: timed ideal is completed jobs' work / workers = 300 ms / 2");
	CHECK_NEAR(c.out.throughput_jps, 2.0, 1e-9,
	           "times: timed throughput is 2 completed / 1 s duration");
	c.in.duration_ns = 0;
	case_compute(&c, "timed zero duration");
	CHECK_EQ(c.out.throughput_jps, 0.0, "times: timed throughput is 0 when the duration is 0");
	case_free(&c);

	case_init(&c, 2, 2, true);
	add_exec(&c, 1, 0, 0, 50, 0, EXEC_UNCOMMITTED);
	case_compute(&c, "nothing committed");
	CHECK(isnan(c.out.makespan_s) && isnan(c.out.throughput_jps) && isnan(c.out.makespan_ratio),
	      "times: with no committed execution makespan, drain throughput and makespan / ideal are unknown (NaN)");
	CHECK_NEAR(c.out.ideal_s, 0.1, 1e-12,
	           "times: drain ideal counts jobs never completed (200 ms / 2)");
	case_free(&c);
}

/* Each way a final status can agree or disagree with the ledger. */
static void test_ledger_mismatches(void)
{
	struct run_case c;

	case_init(&c, 2, 10, false);
	add_exec(&c, 1, 0, 0, 10, 0, EXEC_DONE);
	/* agrees */
	set_final(&c, 1, JOB_DONE);
	add_exec(&c, 2, 0, 0, 10, 0, EXEC_DONE);
	/* done in the ledger, not in the table */
	set_final(&c, 2, JOB_NEW);
	add_exec(&c, 3, 0, 0, 10, 0, EXEC_FAILED);
	/* agrees */
	set_final(&c, 3, JOB_ERROR);
	add_exec(&c, 4, 0, 0, 10, 0, EXEC_FAILED);
	/* failed in the ledger, done in the table */
	set_final(&c, 4, JOB_DONE);
	/* never executed, yet done */
	set_final(&c, 5, JOB_DONE);
	/* never executed, new: agrees */
	set_final(&c, 6, JOB_NEW);
	add_exec(&c, 7, 0, 0, 10, 0, EXEC_DONE);
	add_exec(&c, 7, 20, 20, 30, 1, EXEC_FAILED);
	/* last to end failed: agrees */
	set_final(&c, 7, JOB_ERROR);
	add_exec(&c, 8, 0, 0, 50, 0, EXEC_FAILED);
	add_exec(&c, 8, 10, 10, 20, 1, EXEC_DONE);
	/* the failure ended last (50 ms): disagrees */
	set_final(&c, 8, JOB_DONE);
	add_exec(&c, 9, 0, 0, 10, 0, EXEC_UNCOMMITTED);
	/* no expectation, not finished: agrees */
	set_final(&c, 9, JOB_NEW);
	add_exec(&c, 10, 0, 0, 10, 0, EXEC_UNCOMMITTED);
	/* no expectation, yet done */
	set_final(&c, 10, JOB_DONE);
	case_compute(&c, "mismatches");
	CHECK_EQ(c.out.ledger_mismatches, 5,
	      "mismatches: jobs 2, 4, 5, 8 and 10 disagree with their ledger");
	c.in.final = NULL;
	case_compute(&c, "mismatches without final");
	CHECK_EQ(c.out.ledger_mismatches, 0, "mismatches: 0 without the final state");
	case_free(&c);
}

/* Sums of the workers' counters, fairness of their completed counts, merged claim latency. */
static void test_worker_sums(void)
{
	struct run_case c;
	int64_t v;

	case_init(&c, 2, 1, false);
	c.workers[0].completed = 3;
	c.workers[1].completed = 1;
	c.workers[0].empty = 4;
	c.workers[1].empty = 6;
	c.workers[0].retries = 2;
	c.workers[1].retries = 5;
	c.workers[0].give_ups = 1;
	c.workers[1].give_ups = 2;
	c.workers[0].errors[ERR_LOCK_NOT_AVAILABLE] = 7;
	c.workers[1].errors[ERR_LOCK_NOT_AVAILABLE] = 1;
	c.workers[1].errors[ERR_DEADLOCK] = 3;
	for (v = 1; v <= 50; v++)
		hist_record(&c.workers[0].claim_latency, MS(v));
	for (v = 51; v <= 100; v++)
		hist_record(&c.workers[1].claim_latency, MS(v));
	case_compute(&c, "workers");
	CHECK_EQ(c.out.empty_claims, 10, "workers: empty claims are summed (4 + 6)");
	CHECK_EQ(c.out.retries, 7, "workers: retries are summed (2 + 5)");
	CHECK_EQ(c.out.give_ups, 3, "workers: give-ups are summed (1 + 2)");
	CHECK(c.out.errors[ERR_LOCK_NOT_AVAILABLE] == 8 && c.out.errors[ERR_DEADLOCK] == 3 &&
	      c.out.errors[ERR_OTHER] == 0, "workers: errors are summed kind by kind");
	CHECK_EQ(c.out.errors_total, 11, "workers: errors_total is the sum over the kinds (8 + 3)");
	/* completed 3 and 1: 16 / (2 * 10) = 0.8; mean 2, stddev 1 */
	CHECK_NEAR(c.out.fairness.jain, 0.8, 1e-12, "workers: Jain of completed 3 and 1 is 0.8");
	CHECK(c.out.fairness.min == 1 && c.out.fairness.max == 3, "workers: fairness min 1, max 3");
	CHECK_NEAR(c.out.fairness.cv, 0.5, 1e-12, "workers: cv of completed 3 and 1 is 0.5");
	/* 1..100 ms over both workers: percentiles are bin edges, within 1/64 above the rank */
	CHECK(c.out.claim_latency_ms.p50 >= 50.0 && c.out.claim_latency_ms.p50 <= 50.0 * 65 / 64,
	      "workers: merged claim latency p50 is 50 ms within 1/64");
	CHECK(c.out.claim_latency_ms.p90 >= 90.0 && c.out.claim_latency_ms.p90 <= 90.0 * 65 / 64,
	      "workers: merged claim latency p90 is 90 ms within 1/64");
	CHECK(c.out.claim_latency_ms.p99 >= 99.0 && c.out.claim_latency_ms.p99 <= 100.0,
	      "workers: merged claim latency p99 is 99 ms within 1/64, at most the max");
	CHECK_EQ(c.out.claim_latency_ms.p999, 100.0,
	      "workers: merged claim latency p99.9 is the max, 100 ms");
	CHECK_EQ(c.out.claim_latency_ms.max, 100.0,
	      "workers: merged claim latency max is exactly 100 ms");
	case_free(&c);
}

/* A run with nothing in it, and executions of an id outside 1..n_jobs. */
static void test_empty_run(void)
{
	struct run_case c;
	struct run_metrics zero;

	case_init(&c, 0, 0, true);
	case_compute(&c, "empty run");
	memset(&zero, 0, sizeof(zero));
	zero.recovery_ms = (struct recovery_summary){ .p50 = NAN, .max = NAN };
	zero.restart_first_completion_ms = NAN;
	zero.makespan_ratio = NAN;
	zero.dry.at_s = NAN;
	zero.makespan_s = NAN;
	zero.throughput_jps = NAN;
	zero.stuck = METRIC_UNKNOWN;
	zero.lost = METRIC_UNKNOWN;
	zero.claims_lost_in_flight = METRIC_UNKNOWN;
	zero.completions_unknown = METRIC_UNKNOWN;
	zero.overwritten_completions = METRIC_UNKNOWN;
	zero.integrity_errors = METRIC_UNKNOWN;
	zero.delivery = (struct delivery){ .at_most_once = 1, .at_least_once = METRIC_UNKNOWN };
	zero.guarded = (struct guard_figures){
		.grants = METRIC_UNKNOWN, .grants_per_s = NAN, .timeouts = METRIC_UNKNOWN, .refusals = METRIC_UNKNOWN,
		.starved = METRIC_UNKNOWN, .expired = METRIC_UNKNOWN, .abandoned = METRIC_UNKNOWN, .polls_per_grant = NAN,
		.periods = METRIC_UNKNOWN, .refreshes = METRIC_UNKNOWN, .duplicate_refreshes = METRIC_UNKNOWN,
		.refreshes_per_period = NAN, .waited_skips = METRIC_UNKNOWN, .stale_uses = METRIC_UNKNOWN,
		.torn_uses = METRIC_UNKNOWN, .max_holders = METRIC_UNKNOWN, .max_exclusive = METRIC_UNKNOWN,
		.max_shared = METRIC_UNKNOWN, .violations = METRIC_UNKNOWN, .fifo_inversions = METRIC_UNKNOWN,
		.wait_ms = { NAN, NAN, NAN, NAN, NAN }, .writer_wait_ms = { NAN, NAN, NAN, NAN, NAN },
	};
	CHECK(c.out.executions == 0 && c.out.completed == 0 && c.out.lost == METRIC_UNKNOWN &&
	      c.out.spurious_empties == 0,
	      "empty run: no jobs, no workers give zero counts");
	CHECK(c.out.fairness.jain == 0.0 && c.out.claim_latency_ms.max == 0.0 &&
	      c.out.ideal_s == 0.0,
	      "empty run: no workers give Jain 0, latency 0 and ideal 0");
	CHECK_EQ(memcmp(&c.out, &zero, sizeof(zero)), 0,
	      "empty run: every figure is 0, but recovery times, makespan, throughput and makespan / ideal (none: "
	      "NaN), at-most-once (held), "
	      "without a final state, lost, stuck and at-least-once (unknown), and a queue run's guarded figures (unknown)");
	case_free(&c);

	/* an id outside 1..n_jobs counts in the ledger's figures only */
	case_init(&c, 1, 1, true);
	add_exec(&c, 1, 0, 0, 10, 0, EXEC_DONE);
	add_exec(&c, 9, 0, 0, 20, 0, EXEC_DONE);
	add_exec(&c, 9, 5, 5, 30, 0, EXEC_UNCOMMITTED);
	set_final(&c, 1, JOB_DONE);
	case_compute(&c, "unknown id");
	CHECK(c.out.executions == 3 && c.out.completed == 2 && c.out.duplicates == 1 &&
	      c.out.overlaps == 1,
	      "unknown id: executions of an id past n_jobs count in the ledger figures");
	CHECK(c.out.lost == 0 && c.out.ledger_mismatches == 0,
	      "unknown id: it counts in no per-job figure");
	CHECK_NEAR(c.out.makespan_s, 0.02, 1e-12,
	           "unknown id: its committed execution counts in the makespan");
	case_free(&c);
}

int main(void)
{
	test_fairness();
	test_duplicates_and_overlaps();
	test_lost();
	test_consumed();
	test_spurious_empties();
	test_grouped_empties();
	test_times();
	test_ledger_mismatches();
	test_worker_sums();
	test_empty_run();
	return check_exit_status();
}
