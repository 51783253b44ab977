/*
 * Every metric of a run, from the merged ledger, the workers' counters and the
 * table's final state. The definitions (docs/metrics.md says the same for users):
 *
 * Every integrity figure is what the server's committed history of the run's tables would
 * show, but where the ledger knows more (docs/metrics.md lists where). An execution is
 * committed when its outcome is EXEC_DONE or EXEC_FAILED. Its start_ns is when the job was
 * in hand: the end of the claim that returned it (a batch's, for every job of the batch).
 * n_j is the number of executions of job j but those a stop cut short (EXEC_INTERRUPTED:
 * the job was given back, never completed twice).
 *
 * completed	distinct jobs with at least one EXEC_DONE execution.
 * executions	entries in the ledger.
 * failed	executions with outcome EXEC_FAILED (the job was marked error, and that committed).
 * duplicates	sum over jobs of max(0, n_j - 1).
 * dup_jobs	jobs with n_j > 1.
 * overlaps	unordered pairs {a, b} of executions of one job, neither cut short by a stop,
 *		whose [start_ns, held(e)) intervals intersect: a.start < held(b) && b.start <
 *		held(a), where held(e) is e.released_ns when set (hold mode: when the COMMIT or
 *		ROLLBACK ending e's transaction was sent, after which a claim waiting on the
 *		job's lock may return before e's worker reads its clock), else e.end_ns.
 * makespan_s	largest end_ns of a committed execution, in seconds; NaN (unknown) when none.
 * ideal_s	drain: work_ns summed over every job / n_workers;
 *		timed: work_ns summed over the completed jobs / n_workers.
 * throughput	drain: completed / makespan_s (NaN when makespan_s is NaN or 0);
 *		timed: completed / duration (0 when duration is 0);
 *		stopped before its end (either kind), or a timed run that ran dry
 *		(measure/dry.h): the jobs first done after the warm-up /
 *		(makespan_s - warm-up), the time it measured (0 when none).
 * lost		jobs (enqueued, in 1..n_jobs) whose final status is neither JOB_DONE nor
 *		JOB_ERROR and that are (a) JOB_ACTIVE; (b) JOB_NEW or JOB_MISSING in a drain
 *		run; or (c) JOB_CONSUMED with no committed execution. METRIC_UNKNOWN
 *		without the final state. The executions do not decide it: a job whose final
 *		status is done or error is never lost.
 * spurious	empty claims e for which some job j has enqueued_ns[j] <= e.start_ns
 *		(every job at 0 when enqueued_ns is NULL) and first_claim(j) > e.end_ns,
 *		where first_claim(j) is the smallest claim_start_ns of j's executions, or
 *		+infinity for a job never executed whose final status is JOB_NEW,
 *		JOB_ACTIVE or JOB_MISSING (or unknown). A job never executed whose final
 *		status is JOB_DONE, JOB_ERROR or JOB_CONSUMED is left out.
 * empty_claims, retries, give_ups
 *		the workers' counters summed.
 * errors	the workers' and the producers' counters summed, kind by kind;
 *		errors_total their sum over the kinds.
 * arrivals, arrivals_late
 *		the producers' inserted and late counters summed; arrival_late_max_ms
 *		the largest of their late_max_ns, in milliseconds.
 * queue wait	for every job j in 1..n_jobs that was enqueued (enqueued_ns[j] is not
 *		INT64_MAX; every job at 0 when enqueued_ns is NULL):
 *		max(0, first_start(j) - enqueued_ns[j]), where first_start(j) is the
 *		smallest start_ns of j's executions, or the run's end (the series' last
 *		instant, below) for a job never in hand, so that a strategy that falls
 *		behind is not flattered by leaving its waiting jobs out; percentiles as
 *		for claim latency.
 * end to end	likewise, to first_done(j), the smallest end_ns of j's EXEC_DONE
 *		executions, or the run's end for a job never done.
 * jobs_total	the jobs enqueued; backlog_end those of them never in hand.
 * makespan_ratio
 *		makespan_s / ideal_s in a drain run with ideal_s above 0 and a makespan;
 *		NaN otherwise (a timed run's makespan is its duration).
 * fairness	over the workers' completed counters x_1..x_n: Jain's index
 *		(sum x)^2 / (n * sum x^2), NaN (unknown: no share to compare) when every x
 *		is 0; min; max; cv, the population standard deviation / mean, NaN when the
 *		mean is 0. All 0 when n is 0.
 * claim latency
 *		nearest-rank p50, p90, p99 and p99.9 and the exact max of the workers'
 *		histograms merged, in milliseconds.
 * ledger_mismatches
 *		jobs whose final status disagrees with the committed execution that ended
 *		last (on a tie, the one that started last): it is EXEC_DONE and the status
 *		is not JOB_DONE, it is EXEC_FAILED and the status is not JOB_ERROR, or there
 *		is none and the status is JOB_DONE or JOB_ERROR; a JOB_CONSUMED job
 *		disagrees only when the ledger holds no execution of it. 0 when the final
 *		state is unknown.
 * stuck	jobs whose final status is JOB_ACTIVE; METRIC_UNKNOWN without the final state.
 * redeliveries	executions x, not cut short by a stop, whose job's holder h(x) had lost it:
 *		h(x) is, of the executions y of the job not cut short by a stop with
 *		y.start_ns < x.start_ns, the latest by start_ns that held the job when x's
 *		claim began (y did not commit, or x.claim_start_ns < y.end_ns); none: x is
 *		no redelivery. Its cause, the first that holds:
 *		reaper	the harness gave the job back to new (a return r of the job in the
 *			ledger, the reaper's or --rerun-stuck's) with y.start_ns < r.start_ns
 *			< x.start_ns;
 *		stale_ticket	y has EXEC_TICKET_EXPIRED: the ticket strategy found y's
 *			ticket deleted as stale;
 *		crash	the claim lives in its holder's session (hold mode, advisory's lock),
 *			or y crashed with its process (EXEC_PROCESS_DIED: an adapter's replica
 *			killed, which cannot race), and y did not commit: its transaction or
 *			session ended (crash, lost connection, rollback) before x's claim could
 *			take the job;
 *		lease	flip mode with a lease and no reaper, and x.start_ns -
 *			y.claim_start_ns >= lease: y's lease may have run out when x's claim
 *			read the row (its lease was set between y.claim_start_ns and
 *			y.start_ns, read between x.claim_start_ns and x.start_ns).
 *		None holds: the two claims raced (both believed they won while y was live):
 *		a duplicate, not a redelivery. redeliveries_crash, _lease, _reaper and
 *		_stale_ticket count them by cause; they sum to redeliveries.
 * zombie_completions
 *		committed executions y of a job with a redelivery x that took it while y had
 *		it in hand: y.start_ns < x.start_ns < held(y).
 * fenced	executions with outcome EXEC_FENCED.
 * reaped	the input's reaped.
 * faults_injected
 *		entries in the ledger's faults.
 * reconnects	the workers' and the producers' counters summed.
 * recovery_ms	for every fault f on a job (job_id in 1..n_jobs): the smallest end_ns of a
 *		committed execution of that job with end_ns >= f.at_ns, minus f.at_ns; faults
 *		whose job never committed after them are left out. p50 (nearest rank) and max,
 *		in ms; NaN when none is left.
 * restart_first_completion_ms
 *		the largest, over FAULT_RESTART faults r, of the smallest end_ns >= u of an
 *		EXEC_DONE execution, minus u, where u = r.at_ns + r.duration_ns is when the
 *		server accepted connections again; in ms; NaN without restarts or when none
 *		completed after one.
 * delivery	at_most_once: 1 when duplicates is 0, else 0; at_least_once: 1 when lost is
 *		0, else 0, METRIC_UNKNOWN when lost is.
 * guarded	every figure unknown (NaN, METRIC_UNKNOWN): a queue run has no acquisitions;
 *		measure/acquisitions.c computes them for a guarded-resource run.
 *
 * A job never enqueued (enqueued_ns INT64_MAX: an arrival a stopped producer did not
 * insert) counts in no per-job figure: not in ideal_s, lost, ledger_mismatches, queue
 * wait or the series, and it makes no empty claim spurious.
 *
 * series	the 100 ms time series: measure/series.c defines it.
 *
 * Executions of ids outside 1..n_jobs count in the ledger's own figures
 * (executions, completed, duplicates, dup_jobs, overlaps, makespan) but in none
 * that needs the job's planned work, enqueue time or final status.
 */
#include "base/alloc.h"
#include "base/order.h"
#include "measure/dry.h"
#include "measure/job_scan.h"
#include "measure/ledger_table.h"
#include "measure/metrics.h"
#include "model/faults.h"
#include "model/metric_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1e9
#define NS_PER_MS 1e6

/* A job that can make an empty claim spurious. */
struct pending_job {
	int64_t enqueued_ns;	/* when it was enqueued */
	int64_t first_claim_ns;	/* its first claim (INT64_MAX: never); after the prefix pass,
				 * the latest first claim among the jobs sorted up to here */
};

/* qsort order of pending jobs: by enqueue time. */
static int cmp_pending(const void *pa, const void *pb)
{
	const struct pending_job *a = pa, *b = pb;

	return cmp_i64(a->enqueued_ns, b->enqueued_ns);
}

struct fairness metrics_fairness(const uint64_t *x, size_t n)
{
	struct fairness f = { 0 };
	double sum = 0.0, sum_sq = 0.0, mean, var = 0.0;
	size_t i;

	if (!n)
		return f;
	f.min = x[0];
	f.max = x[0];
	for (i = 0; i < n; i++) {
		sum += (double)x[i];
		sum_sq += (double)x[i] * (double)x[i];
		if (x[i] < f.min)
			f.min = x[i];
		if (x[i] > f.max)
			f.max = x[i];
	}
	if (sum_sq == 0.0) {
		f.jain = NAN;
		f.cv = NAN;
		return f;
	}
	f.jain = sum * sum / ((double)n * sum_sq);
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		var += ((double)x[i] - mean) * ((double)x[i] - mean);
	f.cv = sqrt(var / (double)n) / mean;
	return f;
}

/* Sums the workers' claim and error counters and the producers' counters into out. */
static void sum_workers(const struct metrics_input *in, struct run_metrics *out)
{
	const struct producer_stats *p;
	const struct worker_stats *w;
	int64_t late_max_ns = 0;
	size_t i;
	int k;

	for (i = 0; i < in->n_producers; i++) {
		p = &in->producers[i];
		out->arrivals += p->inserted;
		out->arrivals_late += p->late;
		if (p->late_max_ns > late_max_ns)
			late_max_ns = p->late_max_ns;
		for (k = 0; k < ERR_KIND_COUNT; k++)
			out->errors[k] += p->errors[k];
	}
	out->arrival_late_max_ms = (double)late_max_ns / NS_PER_MS;
	for (i = 0; i < in->n_producers; i++)
		out->reconnects += in->producers[i].reconnects;
	for (i = 0; i < in->n_workers; i++) {
		w = &in->workers[i];
		out->reconnects += w->reconnects;
		out->empty_claims += w->empty;
		out->retries += w->retries;
		out->give_ups += w->give_ups;
		for (k = 0; k < ERR_KIND_COUNT; k++)
			out->errors[k] += w->errors[k];
	}
	for (k = 0; k < ERR_KIND_COUNT; k++)
		out->errors_total += out->errors[k];
}

/* Fills out->fairness from the workers' completed counters. 0, or -1 when out of memory. */
static int compute_fairness(const struct metrics_input *in, struct run_metrics *out)
{
	uint64_t *completed;
	size_t i;

	completed = alloc_zeroed(in->n_workers, sizeof(*completed));
	if (!completed)
		return -1;
	for (i = 0; i < in->n_workers; i++)
		completed[i] = in->workers[i].completed;
	out->fairness = metrics_fairness(completed, in->n_workers);
	free(completed);
	return 0;
}

/* The percentiles and max of h, in milliseconds. */
static struct latency_summary summarise_hist(const struct histogram *h)
{
	return (struct latency_summary){
		.p50 = (double)hist_percentile(h, 50.0) / NS_PER_MS,
		.p90 = (double)hist_percentile(h, 90.0) / NS_PER_MS,
		.p99 = (double)hist_percentile(h, 99.0) / NS_PER_MS,
		.p999 = (double)hist_percentile(h, 99.9) / NS_PER_MS,
		.max = (double)h->max / NS_PER_MS,
	};
}

/* Fills out->claim_latency_ms from the workers' histograms merged. 0, or -1 when out of memory. */
static int summarise_latency(const struct metrics_input *in, struct run_metrics *out)
{
	struct histogram *merged;
	size_t i;

	merged = malloc(sizeof(*merged));
	if (!merged)
		return -1;
	hist_init(merged);
	for (i = 0; i < in->n_workers; i++)
		hist_merge(merged, &in->workers[i].claim_latency);
	out->claim_latency_ms = summarise_hist(merged);
	free(merged);
	return 0;
}

/* The time from enq to instant, or to end when instant is INT64_MAX (it never came): a censored wait. */
static int64_t censored(int64_t enq, int64_t instant, int64_t end)
{
	int64_t until = instant != INT64_MAX ? instant : end;

	return until > enq ? until - enq : 0;
}

/*
 * Fills out's queue wait and end-to-end latency from the job summaries, each job enqueued
 * after the warm-up counted (one never in hand, or never done, as waiting until the run's
 * end), the jobs enqueued in all and those never in hand at the end. 0, or -1 when out of memory.
 */
static int summarise_waits(const struct metrics_input *in, const struct job_summary *jobs,
			   struct run_metrics *out)
{
	struct histogram *wait, *e2e;
	int64_t enq, end = series_last_ns(in);
	size_t j;
	int ret = -1;

	wait = malloc(sizeof(*wait));
	e2e = malloc(sizeof(*e2e));
	if (!wait || !e2e)
		goto out;
	hist_init(wait);
	hist_init(e2e);
	for (j = 0; j < in->n_jobs; j++) {
		enq = metrics_enqueued_at(in, j);
		if (enq == INT64_MAX)
			continue;
		out->jobs_total++;
		out->backlog_end += jobs[j].first_start_ns == INT64_MAX;
		if (enq < in->warmup_ns)
			continue;
		hist_record(wait, censored(enq, jobs[j].first_start_ns, end));
		hist_record(e2e, censored(enq, jobs[j].first_done_ns, end));
	}
	out->queue_wait_ms = summarise_hist(wait);
	out->end_to_end_ms = summarise_hist(e2e);
	ret = 0;
out:
	free(wait);
	free(e2e);
	return ret;
}

/*
 * Whether the job at index j (id j + 1), summarised in s, is lost; the final state is
 * known. Its final status decides: done or error, never; active (stuck), always; new or
 * missing, when the run drained the queue; consumed (its claim deleted it), when no
 * execution of it committed.
 */
static bool job_lost(const struct metrics_input *in, const struct job_summary *s, size_t j)
{
	switch (in->final[j].status) {
	case JOB_DONE:
	case JOB_ERROR:
		return false;
	case JOB_ACTIVE:
		return true;
	case JOB_CONSUMED:
		return s->expected < 0;
	default:
		return in->drain;
	}
}

/* Whether the job at index j (id j + 1), summarised in s, may make an empty claim spurious. */
static bool job_may_be_pending(const struct metrics_input *in, const struct job_summary *s,
			       size_t j)
{
	int32_t status;

	if (s->executed || !in->final)
		return true;
	status = in->final[j].status;
	return status == JOB_NEW || status == JOB_ACTIVE || status == JOB_MISSING;
}

/*
 * Counts into out the spurious empty claims of the workers serving task class q (of
 * n_queues; worker w serves w % n_queues, job id j is in (j - 1) % n_queues): the jobs
 * of q that may be pending are sorted into p by enqueue time, each empty claim finds by
 * binary search those enqueued by its start, and is spurious when the latest first
 * claim among them comes after its end (a group of them, its count, judged by its first
 * start and last end: no enqueue or claim falls within it).
 */
static void count_spurious_in_queue(const struct metrics_input *in, const struct job_summary *jobs, size_t q,
				    size_t n_queues, struct pending_job *p, struct run_metrics *out)
{
	const struct empty_claim *e;
	size_t n = 0, i, lo, hi, mid;

	for (i = q; i < in->n_jobs; i += n_queues) {
		if (!job_may_be_pending(in, &jobs[i], i))
			continue;
		p[n].enqueued_ns = metrics_enqueued_at(in, i);
		p[n].first_claim_ns = jobs[i].first_claim_ns;
		n++;
	}
	qsort(p, n, sizeof(*p), cmp_pending);
	for (i = 1; i < n; i++)
		if (p[i - 1].first_claim_ns > p[i].first_claim_ns)
			p[i].first_claim_ns = p[i - 1].first_claim_ns;

	for (i = 0; i < in->ledger->n_empties; i++) {
		e = &in->ledger->empties[i];
		if ((size_t)e->worker % n_queues != q)
			continue;
		lo = 0;
		hi = n;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (p[mid].enqueued_ns <= e->start_ns)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && p[lo - 1].first_claim_ns > e->end_ns)
			out->spurious_empties += e->count;
	}
}

/* Counts the spurious empty claims into out, task class by task class. 0, or -1 when out of memory. */
static int count_spurious(const struct metrics_input *in, const struct job_summary *jobs,
			  struct run_metrics *out)
{
	size_t n_queues = in->n_queues ? in->n_queues : 1;
	struct pending_job *p;

	p = alloc_zeroed(in->n_jobs, sizeof(*p));
	if (!p)
		return -1;
	for (size_t q = 0; q < n_queues; q++)
		count_spurious_in_queue(in, jobs, q, n_queues, p, out);
	free(p);
	return 0;
}

/*
 * Counts the verdict of the final state of the job at index j (id j + 1), summarised in s,
 * against its ledger into out: a disagreement, and the figure that explains it or an
 * integrity error. cut: the run lost connections.
 */
static void judge_table(const struct metrics_input *in, const struct job_summary *s, size_t j, bool cut,
			struct run_metrics *out)
{
	switch (ledger_table_judge(in, s, j, cut)) {
	case TABLE_LOST_IN_FLIGHT:
		out->claims_lost_in_flight++;
		break;
	case TABLE_COMPLETION_UNKNOWN:
		out->completions_unknown++;
		break;
	case TABLE_OVERWRITTEN:
		out->overwritten_completions++;
		break;
	case TABLE_UNEXPLAINED:
		out->integrity_errors++;
		break;
	default:
		break;
	}
	out->ledger_mismatches += ledger_table_disagrees(s, in->final[j].status);
}

/*
 * Fills lost, ledger_mismatches and the figures that explain them, ideal_s and throughput_jps of out from the job summaries;
 * a job never enqueued (an arrival no producer inserted) counts in none of them. A timed
 * run's throughput counts the jobs first done after its warm-up, over the time after it;
 * a stopped run's, or one that ran dry, over the time from the warm-up to its last commit.
 */
static void judge_jobs(const struct metrics_input *in, const struct job_summary *jobs,
		       struct run_metrics *out)
{
	double work_ns = 0.0, duration_s;
	uint64_t measured = 0;
	bool cut = ledger_table_cut(in);
	size_t j;

	for (j = 0; j < in->n_jobs; j++) {
		if (metrics_enqueued_at(in, j) == INT64_MAX)
			continue;
		measured += jobs[j].completed && jobs[j].first_done_ns >= in->warmup_ns;
		if (in->drain || jobs[j].completed)
			work_ns += (double)in->work_ns[j];
		if (in->final && job_lost(in, &jobs[j], j))
			out->lost++;
		if (in->final)
			judge_table(in, &jobs[j], j, cut, out);
	}
	if (in->n_workers)
		out->ideal_s = work_ns / (double)in->n_workers / NS_PER_S;
	out->makespan_ratio = in->drain && out->ideal_s > 0.0 ? out->makespan_s / out->ideal_s : NAN;
	if (in->drain) {
		out->throughput_jps = out->makespan_s > 0.0 ? (double)out->completed / out->makespan_s : NAN;
	} else if (in->stopped || out->dry.ran_dry == 1) {
		duration_s = out->makespan_s - (double)in->warmup_ns / NS_PER_S;
		if (duration_s > 0.0)
			out->throughput_jps = (double)measured / duration_s;
	} else {
		duration_s = (double)(in->duration_ns - in->warmup_ns) / NS_PER_S;
		if (duration_s > 0.0)
			out->throughput_jps = (double)measured / duration_s;
	}
}

/*
 * The first instant at or after at_ns that an execution of job (any job when job is 0)
 * committed: EXEC_DONE, or EXEC_FAILED too when failures count. INT64_MAX when none did.
 */
static int64_t first_commit_after(const struct ledger *l, int64_t job, int64_t at_ns, bool failures)
{
	int64_t first = INT64_MAX;

	for (size_t i = 0; i < l->n_execs; i++) {
		const struct execution *e = &l->execs[i];

		if ((job && e->job_id != job) || e->end_ns < at_ns || e->end_ns >= first)
			continue;
		if (e->outcome == EXEC_DONE || (failures && e->outcome == EXEC_FAILED))
			first = e->end_ns;
	}
	return first;
}

/* qsort order of doubles. */
static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * Fills the fault figures of out: faults_injected, the recovery times of faults on jobs
 * and the first completion after a restart. 0, or -1 when out of memory.
 */
static int judge_faults(const struct metrics_input *in, struct run_metrics *out)
{
	const struct ledger *l = in->ledger;
	double *recovered = alloc_zeroed(l->n_faults, sizeof(*recovered));
	size_t n = 0;

	if (!recovered)
		return -1;
	out->faults_injected = l->n_faults;
	out->recovery_ms = (struct recovery_summary){ .p50 = NAN, .max = NAN };
	out->restart_first_completion_ms = NAN;
	for (size_t i = 0; i < l->n_faults; i++) {
		const struct fault_record *f = &l->faults[i];
		int64_t first;

		if (f->kind == FAULT_RESTART) {
			double ms;

			first = first_commit_after(l, 0, f->at_ns + f->duration_ns, false);
			ms = (double)(first - f->at_ns - f->duration_ns) / NS_PER_MS;
			if (first != INT64_MAX && (isnan(out->restart_first_completion_ms) || ms > out->restart_first_completion_ms))
				out->restart_first_completion_ms = ms;
			continue;
		}
		if (!metrics_job_in_range(in, f->job_id))
			continue;
		first = first_commit_after(l, f->job_id, f->at_ns, true);
		if (first != INT64_MAX)
			recovered[n++] = (double)(first - f->at_ns) / NS_PER_MS;
	}
	if (n) {
		qsort(recovered, n, sizeof(*recovered), cmp_double);
		out->recovery_ms.p50 = recovered[(n + 1) / 2 - 1];
		out->recovery_ms.max = recovered[n - 1];
	}
	free(recovered);
	return 0;
}

/* Fills stuck and the delivery verdict of out, once duplicates and lost are known; lost unknown without the final state. */
static void judge_delivery(const struct metrics_input *in, struct run_metrics *out)
{
	if (!in->final) {
		out->lost = METRIC_UNKNOWN;
		out->claims_lost_in_flight = METRIC_UNKNOWN;
		out->completions_unknown = METRIC_UNKNOWN;
		out->overwritten_completions = METRIC_UNKNOWN;
		out->integrity_errors = METRIC_UNKNOWN;
	}
	out->stuck = in->final ? 0 : METRIC_UNKNOWN;
	for (size_t j = 0; in->final && j < in->n_jobs; j++)
		out->stuck += metrics_enqueued_at(in, j) != INT64_MAX && in->final[j].status == JOB_ACTIVE;
	out->delivery.at_most_once = out->race_duplicates + out->redeliveries == out->redelivered_unbegun;
	out->delivery.at_least_once = in->final ? out->lost == 0 : METRIC_UNKNOWN;
}

/* Sets the guarded-resource figures of out unknown: a queue run has none (measure/acquisitions.c fills them). */
static void guarded_unknown(struct run_metrics *out)
{
	static const char prefix[] = "guarded.";

	for (size_t i = 0; i < metric_table_len; i++) {
		const struct metric *m = &metric_table[i];

		if (strncmp(m->path, prefix, sizeof(prefix) - 1) != 0)
			continue;
		if (m->type == METRIC_DOUBLE)
			metric_set_double(m, out, NAN);
		else
			metric_set_count(m, out, METRIC_UNKNOWN);
	}
}

int metrics_compute(const struct metrics_input *in, struct run_metrics *out)
{
	struct job_summary *jobs;
	size_t j;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	guarded_unknown(out);
	jobs = alloc_zeroed(in->n_jobs, sizeof(*jobs));
	if (!jobs)
		return -1;
	for (j = 0; j < in->n_jobs; j++)
		job_summary_init(&jobs[j]);

	sum_workers(in, out);
	if (compute_fairness(in, out))
		goto out_free;
	if (summarise_latency(in, out))
		goto out_free;
	if (job_scan_ledger(in, out, jobs))
		goto out_free;
	if (count_spurious(in, jobs, out))
		goto out_free;
	if (summarise_waits(in, jobs, out))
		goto out_free;
	if (judge_faults(in, out))
		goto out_free;
	if (dry_compute(in, &out->dry))
		goto out_free;
	judge_jobs(in, jobs, out);
	judge_delivery(in, out);
	out->reaped = in->reaped;
	ret = 0;

out_free:
	free(jobs);
	return ret;
}
