/*
 * Unit tests of the figures of measure/metrics.c that open-loop arrivals add: queue
 * wait, the 100 ms time series (every column, backlog included), error instants in the
 * ledger and the producers' counters, on a hand-made ledger whose answers were worked
 * out by hand (the comments show how). test_metrics.c tests the other metrics.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measure/ledger.h"
#include "measure/metrics.h"

#define N_JOBS 7
#define MS(x) ((int64_t)(x) * 1000000)
#define US(x) ((int64_t)(x) * 1000)

/* Appends one execution of job, in hand at start_ms (its claim began 1 ms before). */
static void add_exec(struct ledger *l, int64_t job, int64_t start_ms, int64_t end_ms, int32_t outcome)
{
	struct execution e = {
		.job_id = job,
		.claim_start_ns = MS(start_ms - 1),
		.start_ns = MS(start_ms),
		.end_ns = MS(end_ms),
		.outcome = outcome,
	};

	check_need(ledger_add_execution(l, &e) == 0, "ledger_add_execution");
}

/* Appends one empty claim, times in ms. */
static void add_empty(struct ledger *l, int64_t start_ms, int64_t end_ms)
{
	struct empty_claim e = { .start_ns = MS(start_ms), .end_ns = MS(end_ms), .count = 1 };

	check_need(ledger_add_empty(l, &e) == 0, "ledger_add_empty");
}

/*
 * The hand-made run, a drain run of 7 jobs, 2 of them the backlog (enqueued at 0):
 *
 *   job  enqueued  executions (in hand - end, outcome)      queue wait
 *   1    0         10 - 120 done                            10
 *   2    0         20 - 90 done                             20
 *   3    50        60 - 130 uncommitted, 200 - 250 done     10 (first in hand 60)
 *   4    150       145 - 310 done                           0 (in hand before the enqueue was noted)
 *   5    160       300 - 305 failed                         140
 *   6    420       never executed                           10 (until the run's end, 430)
 *   7    never     never executed                           -
 *
 * Empty claims [90, 95], [301, 305], [425, 430]; errors at 5, 99.999, 100 and 410 ms,
 * split between a worker's ledger and a producer's.
 */
static void build_run(struct ledger *merged, int64_t *enqueued)
{
	struct ledger parts[2];

	check_need(ledger_init(&parts[0], 2, 1, 1) == 0 && ledger_init(&parts[1], 0, 0, 1) == 0, "ledger_init");
	add_exec(&parts[0], 1, 10, 120, EXEC_DONE);
	add_exec(&parts[0], 2, 20, 90, EXEC_DONE);
	add_exec(&parts[0], 3, 60, 130, EXEC_UNCOMMITTED);
	add_exec(&parts[0], 3, 200, 250, EXEC_DONE);
	add_exec(&parts[0], 4, 145, 310, EXEC_DONE);
	add_exec(&parts[0], 5, 300, 305, EXEC_FAILED);
	add_empty(&parts[0], 90, 95);
	add_empty(&parts[0], 301, 305);
	add_empty(&parts[0], 425, 430);
	check_need(ledger_add_error(&parts[0], MS(5)) == 0 && ledger_add_error(&parts[0], MS(100)) == 0 &&
		   ledger_add_error(&parts[1], US(99999)) == 0 && ledger_add_error(&parts[1], MS(410)) == 0,
		   "ledger_add_error");
	check_need(ledger_init(merged, 0, 0, 0) == 0 && ledger_merge(merged, parts, 2) == 0, "ledger_merge");
	ledger_free(&parts[0]);
	ledger_free(&parts[1]);
	enqueued[0] = 0;
	enqueued[1] = 0;
	enqueued[2] = MS(50);
	enqueued[3] = MS(150);
	enqueued[4] = MS(160);
	enqueued[5] = MS(420);
	enqueued[6] = INT64_MAX;
}

/* The hand-made run's error instants, merged part after part (test_ledger.c tests the rest). */
static void test_error_instants(void)
{
	struct ledger merged;
	int64_t enqueued[N_JOBS];

	build_run(&merged, enqueued);
	CHECK(merged.n_errors == 4 && merged.errors[0] == MS(5) && merged.errors[1] == MS(100) &&
	      merged.errors[2] == US(99999) && merged.errors[3] == MS(410),
	      "ledger_merge appends the parts' error instants, part after part");
	ledger_free(&merged);
}

/* Prepares in for the hand-made run with two producers and one worker. */
static void input_init(struct metrics_input *in, struct ledger *l, int64_t *enqueued, int64_t *work,
		       struct worker_stats *w, struct producer_stats *p)
{
	int i;

	memset(in, 0, sizeof(*in));
	memset(w, 0, sizeof(*w));
	hist_init(&w->claim_latency);
	for (i = 0; i < N_JOBS; i++)
		work[i] = MS(10);
	w->errors[ERR_DEADLOCK] = 1;
	w->errors[ERR_OTHER] = 1;
	p[0] = (struct producer_stats){ .inserted = 3, .late = 1, .late_max_ns = US(2500) };
	p[0].errors[ERR_SQLITE_BUSY] = 1;
	p[1] = (struct producer_stats){ .inserted = 1, .late = 0, .late_max_ns = US(500) };
	p[1].errors[ERR_OTHER] = 1;
	in->ledger = l;
	in->workers = w;
	in->n_workers = 1;
	in->producers = p;
	in->n_producers = 2;
	in->n_jobs = N_JOBS;
	in->n_backlog = 2;
	in->work_ns = work;
	in->enqueued_ns = enqueued;
	in->drain = true;
}

/* Queue wait, arrivals and the producers' share of the errors. */
static void test_queue_wait(void)
{
	struct metrics_input in;
	struct run_metrics m;
	struct ledger l;
	struct worker_stats *w = malloc(sizeof(*w));
	struct producer_stats p[2];
	struct job_state final[N_JOBS];
	int64_t enqueued[N_JOBS], work[N_JOBS];

	check_need(w != NULL, "worker allocation");
	build_run(&l, enqueued);
	input_init(&in, &l, enqueued, work, w, p);
	CHECK_EQ(metrics_compute(&in, &m), 0, "metrics_compute returns 0");
	/* waits sorted: 0, 10, 10, 10, 20, 140; nearest rank p50 is the 3rd, p90 and above the 6th */
	CHECK_NEAR(m.queue_wait_ms.p50, 10.0, 10.0 / 64, "queue wait p50 = 10 ms (%g)", m.queue_wait_ms.p50);
	CHECK_NEAR(m.queue_wait_ms.p90, 140.0, 1e-9, "queue wait p90 = 140 ms (%g)", m.queue_wait_ms.p90);
	CHECK_NEAR(m.queue_wait_ms.p99, 140.0, 1e-9, "queue wait p99 = 140 ms (%g)", m.queue_wait_ms.p99);
	CHECK_NEAR(m.queue_wait_ms.p999, 140.0, 1e-9, "queue wait p99.9 = 140 ms (%g)", m.queue_wait_ms.p999);
	CHECK_NEAR(m.queue_wait_ms.max, 140.0, 1e-9, "queue wait max = 140 ms, exact (%g)", m.queue_wait_ms.max);
	/* enqueue to first done, job 5 (failed) and 6 (never run) to the end at 430: 10, 90, 120, 160, 200, 270 */
	CHECK_NEAR(m.end_to_end_ms.p50, 120.0, 120.0 / 64, "end to end p50 = 120 ms (%g)", m.end_to_end_ms.p50);
	CHECK_NEAR(m.end_to_end_ms.max, 270.0, 1e-9, "end to end max = 270 ms: job 5 failed, counted to the end (%g)",
		   m.end_to_end_ms.max);
	CHECK(m.backlog_end == 1 && m.jobs_total == 6, "job 6 waits at the end; 6 jobs enqueued, job 7 never (%llu, %llu)",
	      (unsigned long long)m.backlog_end, (unsigned long long)m.jobs_total);
	CHECK_NEAR(m.makespan_ratio, 0.310 / 0.060, 1e-9, "makespan / ideal = 310 ms / 60 ms (%g)", m.makespan_ratio);
	CHECK(m.arrivals == 4 && m.arrivals_late == 1, "arrivals 3 + 1, late 1 + 0 (%llu, %llu)",
	      (unsigned long long)m.arrivals, (unsigned long long)m.arrivals_late);
	CHECK_NEAR(m.arrival_late_max_ms, 2.5, 1e-12, "worst lateness: the larger of 2.5 and 0.5 ms (%g)",
		   m.arrival_late_max_ms);
	CHECK(m.errors[ERR_DEADLOCK] == 1 && m.errors[ERR_OTHER] == 2 && m.errors[ERR_SQLITE_BUSY] == 1,
	      "errors by kind add the producers' to the workers'");
	/* only [425, 430] is spurious: job 6 waits from 420; job 7, never enqueued, waits for nothing */
	CHECK_EQ(m.spurious_empties, 1, "a job never enqueued makes no empty claim spurious (%llu)",
	      (unsigned long long)m.spurious_empties);

	for (int j = 0; j < N_JOBS; j++)
		final[j] = (struct job_state){ .status = j < 4 ? JOB_DONE : j == 4 ? JOB_ERROR : JOB_NEW };
	final[6].status = JOB_MISSING;
	in.final = final;
	CHECK_EQ(metrics_compute(&in, &m), 0, "with the final state: metrics_compute returns 0");
	/* job 6 waits in vain; job 7 was never inserted, so it is not lost, nor planned work */
	CHECK(m.lost == 1 && m.ledger_mismatches == 0, "only job 6 is lost; job 7, never enqueued, is not (%llu)",
	      (unsigned long long)m.lost);
	CHECK_NEAR(m.ideal_s, 0.060, 1e-12, "ideal: the work of the six enqueued jobs, 6 x 10 ms (%g)", m.ideal_s);

	in.final = NULL;
	in.enqueued_ns = NULL;
	CHECK_EQ(metrics_compute(&in, &m), 0, "without enqueue times: metrics_compute returns 0");
	/* every job at 0: waits 10, 20, 60, 145, 300, and jobs 6 and 7 until the end, 430; p50 the 4th */
	CHECK_NEAR(m.queue_wait_ms.p50, 145.0, 145.0 / 64, "without enqueue times every job waits from 0 (p50 %g)",
		   m.queue_wait_ms.p50);
	CHECK_NEAR(m.queue_wait_ms.max, 430.0, 1e-9, "without enqueue times: max 430 ms, to the end (%g)",
		   m.queue_wait_ms.max);
	ledger_free(&l);
	free(w);
}

/*
 * The hand-made run as a timed run of 500 ms with a 300 ms warm-up: throughput counts the
 * jobs first done after it over the 200 ms after it, the waits those enqueued after it;
 * the accounting (done, jobs enqueued, waiting at the end) covers the whole run.
 */
static void test_warmup(void)
{
	struct metrics_input in;
	struct run_metrics m;
	struct ledger l;
	struct worker_stats *w = malloc(sizeof(*w));
	struct producer_stats p[2];
	int64_t enqueued[N_JOBS], work[N_JOBS];

	check_need(w != NULL, "worker allocation");
	build_run(&l, enqueued);
	input_init(&in, &l, enqueued, work, w, p);
	in.drain = false;
	in.duration_ns = MS(500);
	CHECK_EQ(metrics_compute(&in, &m), 0, "timed: metrics_compute returns 0");
	CHECK_NEAR(m.throughput_jps, 8.0, 1e-9, "timed, no warm-up: 4 jobs done in 0.5 s (%g)", m.throughput_jps);
	CHECK_NEAR(m.queue_wait_ms.max, 140.0, 1e-9, "timed, no warm-up: job 5 waited longest, 140 ms (%g)",
		   m.queue_wait_ms.max);
	in.warmup_ns = MS(300);
	CHECK_EQ(metrics_compute(&in, &m), 0, "warm-up: metrics_compute returns 0");
	CHECK_NEAR(m.throughput_jps, 5.0, 1e-9, "warm-up: job 4 alone was first done after it, 1 job in 0.2 s (%g)",
		   m.throughput_jps);
	CHECK_NEAR(m.queue_wait_ms.max, 80.0, 1e-5,
		   "warm-up: job 6 alone was enqueued after it, and waits from 420 ms to the end at 500 (%g)",
		   m.queue_wait_ms.max);
	CHECK_NEAR(m.end_to_end_ms.p50, 80.0, 80.0 / 64, "warm-up: end to end, job 6 alone (%g)", m.end_to_end_ms.p50);
	CHECK(m.completed == 4 && m.jobs_total == 6 && m.backlog_end == 1,
	      "warm-up: done, jobs enqueued and waiting at the end still count the whole run (%llu, %llu, %llu)",
	      (unsigned long long)m.completed, (unsigned long long)m.jobs_total, (unsigned long long)m.backlog_end);
	ledger_free(&l);
	free(w);
}

/* Whether the uint64_t member at offset of each of the n points equals want[], five values. */
static bool column_is(const struct series_point *pts, size_t n, size_t offset, const uint64_t want[5])
{
	uint64_t v;

	if (n != 5)
		return false;
	for (size_t i = 0; i < n; i++) {
		memcpy(&v, (const char *)&pts[i] + offset, sizeof(v));
		if (v != want[i])
			return false;
	}
	return true;
}

/* column_is for the member col, the wanted values listed. */
#define COLUMN_IS(pts, n, col, ...) \
	column_is(pts, n, offsetof(struct series_point, col), (const uint64_t[]){ __VA_ARGS__ })

/* Every column of the series of the hand-made run, and the length of a timed run's. */
static void test_series(void)
{
	struct metrics_input in;
	struct ledger l;
	struct series_point *pts;
	struct worker_stats *w = malloc(sizeof(*w));
	struct producer_stats p[2];
	int64_t enqueued[N_JOBS], work[N_JOBS];
	size_t n;

	check_need(w != NULL, "worker allocation");
	build_run(&l, enqueued);
	input_init(&in, &l, enqueued, work, w, p);
	CHECK_EQ(metrics_series(&in, &pts, &n), 0, "metrics_series returns 0");
	/* the latest instant is the empty claim that returned at 430 ms: buckets 0 to 400 */
	CHECK(n == 5 && pts[0].t_ms == 0 && pts[1].t_ms == 100 && pts[4].t_ms == 400,
	      "five buckets of 100 ms, to the one holding 430 ms (%zu)", n);
	/* done executions by end: 90 | 120 | 250 | 310 | -; the failed and the uncommitted do not count */
	CHECK(COLUMN_IS(pts, n, completed, 1, 1, 1, 1, 0), "completed by end time");
	CHECK(COLUMN_IS(pts, n, first_completed, 1, 1, 1, 1, 0), "without duplicates every completion is a first");
	CHECK(COLUMN_IS(pts, n, empty_claims, 1, 0, 0, 1, 1), "empty claims by the instant they returned");
	/* 5 and 99.999 ms in the first bucket, 100 ms exactly in the second, 410 in the last */
	CHECK(COLUMN_IS(pts, n, errors, 2, 1, 0, 0, 1), "errors by instant, workers' and producers'");
	/* arrivals only: job 3 at 50, jobs 4 and 5 at 150 and 160, job 6 at 420; job 7 never */
	CHECK(COLUMN_IS(pts, n, enqueued, 1, 2, 0, 0, 1), "enqueued: arrivals only, by commit instant");
	/*
	 * in: 3 (jobs 1, 2, 3) | 2 (4, 5) | 0 | 0 | 1 (6); out: 3 (first in hand 10, 20, 60) |
	 * 1 (job 4 at 145, counted at its enqueue, 150) | 0 | 1 (job 5 at 300) | 0
	 */
	CHECK(COLUMN_IS(pts, n, backlog, 0, 1, 1, 0, 1), "backlog at each bucket's end");
	free(pts);

	in.drain = false;
	in.duration_ns = MS(1000);
	CHECK(metrics_series(&in, &pts, &n) == 0 && n == 10 && pts[9].t_ms == 900,
	      "a timed run of 1 s has ten buckets even when nothing happened after 430 ms (%zu)", n);
	free(pts);

	in.duration_ns = MS(1050);
	CHECK(metrics_series(&in, &pts, &n) == 0 && n == 11, "a timed run of 1.05 s has eleven (%zu)", n);
	free(pts);
	ledger_free(&l);

	check_need(ledger_init(&l, 0, 0, 0) == 0, "ledger_init");
	in = (struct metrics_input){ .ledger = &l, .drain = true };
	CHECK(metrics_series(&in, &pts, &n) == 0 && n == 1 && pts[0].completed == 0 && pts[0].backlog == 0,
	      "an empty run has one empty bucket");
	free(pts);
	ledger_free(&l);
	free(w);
}

/* A job done twice: its second completion counts in completed, not in first_completed. */
static void test_first_completions(void)
{
	struct metrics_input in;
	struct ledger l;
	struct series_point *pts;
	struct worker_stats *w = malloc(sizeof(*w));
	struct producer_stats p[2];
	int64_t enqueued[N_JOBS], work[N_JOBS];
	size_t n;

	check_need(w != NULL, "worker allocation");
	build_run(&l, enqueued);
	add_exec(&l, 1, 330, 350, EXEC_DONE);
	input_init(&in, &l, enqueued, work, w, p);
	CHECK_EQ(metrics_series(&in, &pts, &n), 0, "metrics_series returns 0 with a duplicate");
	/* job 1 done at 120 and again at 350: two completions in bucket 300, one of them a first */
	CHECK(COLUMN_IS(pts, n, completed, 1, 1, 1, 2, 0), "the duplicate counts as an execution done");
	CHECK(COLUMN_IS(pts, n, first_completed, 1, 1, 1, 1, 0),
	      "first_completed counts each job once, at its earliest completion");
	free(pts);
	ledger_free(&l);
	free(w);
}

int main(void)
{
	test_error_instants();
	test_queue_wait();
	test_warmup();
	test_series();
	test_first_completions();
	return check_exit_status();
}
