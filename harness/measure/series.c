/*
 * The run's time series (docs/metrics.md says the same for users):
 *
 * series	100 ms buckets [k * 100, (k + 1) * 100) ms, k from 0 to the bucket of the
 *		latest instant recorded (execution and empty-claim ends, error instants,
 *		enqueue times) and, in a timed run, at least to duration_ns - 1. completed:
 *		EXEC_DONE executions by end_ns; first_completed: of those, each job's
 *		earliest-ending one (every one of a job outside 1..n_jobs), so that
 *		completed - first_completed are duplicates; empty_claims by end_ns (a group of
 *		them, all in one bucket, by its count); errors by instant;
 *		enqueued: jobs past n_backlog by enqueue time; backlog: jobs enqueued in
 *		buckets up to k minus jobs first in hand in buckets up to k, a job's first
 *		in hand being max(first_start, enqueued_ns).
 *
 * A job never enqueued (enqueued_ns INT64_MAX) counts in no column.
 */
#include <stdlib.h>

#include "base/alloc.h"
#include "measure/series.h"

size_t series_bucket(int64_t t_ns)
{
	return t_ns > 0 ? (size_t)(t_ns / SERIES_BUCKET_NS) : 0;
}

int64_t series_last_ns(const struct metrics_input *in)
{
	const struct ledger *l = in->ledger;
	int64_t last = 0, enq;
	size_t i;

	if (!in->drain && in->duration_ns > 0)
		last = in->duration_ns - 1;
	for (i = 0; i < l->n_execs; i++)
		if (l->execs[i].end_ns > last)
			last = l->execs[i].end_ns;
	for (i = 0; i < l->n_empties; i++)
		if (l->empties[i].end_ns > last)
			last = l->empties[i].end_ns;
	for (i = 0; i < l->n_errors; i++)
		if (l->errors[i] > last)
			last = l->errors[i];
	for (i = 0; i < in->n_jobs; i++) {
		enq = metrics_enqueued_at(in, i);
		if (enq != INT64_MAX && enq > last)
			last = enq;
	}
	return last;
}

/*
 * Adds each enqueued job's arrival to the enqueued column and its entry to, and its first
 * execution's start (no earlier than its enqueue) from, the running backlog. 0, or -1 when
 * out of memory.
 */
static int series_backlog(const struct metrics_input *in, struct series_point *pts, size_t n)
{
	const struct ledger *l = in->ledger;
	int64_t *first_start, *delta, enq, backlog = 0;
	size_t i, j;
	int ret = -1;

	first_start = alloc_zeroed(in->n_jobs, sizeof(*first_start));
	delta = alloc_zeroed(n, sizeof(*delta));
	if (!first_start || !delta)
		goto out_free;
	for (j = 0; j < in->n_jobs; j++)
		first_start[j] = INT64_MAX;
	for (i = 0; i < l->n_execs; i++) {
		const struct execution *e = &l->execs[i];

		if (metrics_job_in_range(in, e->job_id) && e->start_ns < first_start[e->job_id - 1])
			first_start[e->job_id - 1] = e->start_ns;
	}
	for (j = 0; j < in->n_jobs; j++) {
		enq = metrics_enqueued_at(in, j);
		if (enq == INT64_MAX)
			continue;
		if (j >= in->n_backlog)
			pts[series_bucket(enq)].enqueued++;
		delta[series_bucket(enq)]++;
		if (first_start[j] != INT64_MAX)
			delta[series_bucket(first_start[j] > enq ? first_start[j] : enq)]--;
	}
	for (i = 0; i < n; i++) {
		backlog += delta[i];
		pts[i].backlog = (uint64_t)backlog;
	}
	ret = 0;
out_free:
	free(delta);
	free(first_start);
	return ret;
}

/*
 * Adds each job's first completion, the earliest end of its EXEC_DONE executions, to the
 * first_completed column; an execution of a job outside 1..n_jobs counts as a first. 0, or
 * -1 when out of memory.
 */
static int series_first_completions(const struct metrics_input *in, struct series_point *pts)
{
	const struct ledger *l = in->ledger;
	int64_t *first_end = alloc_zeroed(in->n_jobs, sizeof(*first_end));
	size_t i, j;

	if (!first_end)
		return -1;
	for (j = 0; j < in->n_jobs; j++)
		first_end[j] = INT64_MAX;
	for (i = 0; i < l->n_execs; i++) {
		const struct execution *e = &l->execs[i];

		if (e->outcome != EXEC_DONE)
			continue;
		if (!metrics_job_in_range(in, e->job_id))
			pts[series_bucket(e->end_ns)].first_completed++;
		else if (e->end_ns < first_end[e->job_id - 1])
			first_end[e->job_id - 1] = e->end_ns;
	}
	for (j = 0; j < in->n_jobs; j++)
		if (first_end[j] != INT64_MAX)
			pts[series_bucket(first_end[j])].first_completed++;
	free(first_end);
	return 0;
}

int metrics_series(const struct metrics_input *in, struct series_point **out, size_t *n)
{
	const struct ledger *l = in->ledger;
	struct series_point *pts;
	size_t count = series_bucket(series_last_ns(in)) + 1, i;

	*out = NULL;
	*n = 0;
	pts = calloc(count, sizeof(*pts));
	if (!pts)
		return -1;
	for (i = 0; i < count; i++)
		pts[i].t_ms = (int64_t)i * (SERIES_BUCKET_NS / 1000000);
	for (i = 0; i < l->n_execs; i++)
		if (l->execs[i].outcome == EXEC_DONE)
			pts[series_bucket(l->execs[i].end_ns)].completed++;
	for (i = 0; i < l->n_empties; i++)
		pts[series_bucket(l->empties[i].end_ns)].empty_claims += l->empties[i].count;
	for (i = 0; i < l->n_errors; i++)
		pts[series_bucket(l->errors[i])].errors++;
	if (series_first_completions(in, pts) < 0 || series_backlog(in, pts, count) < 0) {
		free(pts);
		return -1;
	}
	*out = pts;
	*n = count;
	return 0;
}
