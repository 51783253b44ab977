#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/histogram.h"
#include "measure/timeline_figures.h"

/* Series buckets per second. */
#define BUCKETS_PER_S 10

/* The series bucket an instant (ns after the start) is nearest the start of. */
static size_t bucket_at(int64_t t_ns)
{
	return t_ns <= 0 ? 0 : (size_t)((t_ns + 50000000) / 100000000);
}

/* Orders two doubles for qsort. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The p-th percentile (0 < p <= 100) of the n sorted values by nearest rank. */
static double nearest_rank(const double *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100 * (double)n);

	return sorted[rank ? rank - 1 : 0];
}

/* The completions of buckets [from, to) of series (n buckets). */
static uint64_t completed_in(const struct series_point *series, size_t n, size_t from, size_t to)
{
	uint64_t sum = 0;

	for (size_t b = from; b < to && b < n; b++)
		sum += series[b].completed;
	return sum;
}

int timeline_series_figures(const struct series_point *series, size_t n, struct timeline_phase *p)
{
	size_t from = bucket_at(p->start_ns), to = bucket_at(p->end_ns), seconds;
	double *per_s;

	to = to > n ? n : to;
	p->throughput_median = p->throughput_p10 = NAN;
	p->depth_start = p->depth_end = p->depth_max = 0;
	p->errors = p->arrivals = p->completed = 0;
	if (from >= to)
		return 0;
	seconds = (to - from) / BUCKETS_PER_S;
	if (!(per_s = malloc((seconds ? seconds : 1) * sizeof(*per_s))))
		return -1;
	for (size_t k = 0; k < seconds; k++)
		per_s[k] = (double)completed_in(series, n, from + k * BUCKETS_PER_S, from + (k + 1) * BUCKETS_PER_S);
	if (seconds) {
		qsort(per_s, seconds, sizeof(per_s[0]), cmp_double);
		p->throughput_median = seconds % 2 ? per_s[seconds / 2] : (per_s[seconds / 2 - 1] + per_s[seconds / 2]) / 2;
		p->throughput_p10 = nearest_rank(per_s, seconds, 10);
	} else {
		p->throughput_median = p->throughput_p10 =
			(double)completed_in(series, n, from, to) * BUCKETS_PER_S / (double)(to - from);
	}
	p->depth_start = (int64_t)series[from].backlog;
	p->depth_end = (int64_t)series[to - 1].backlog;
	for (size_t b = from; b < to; b++) {
		p->depth_max = (int64_t)series[b].backlog > p->depth_max ? (int64_t)series[b].backlog : p->depth_max;
		p->errors += (int64_t)series[b].errors;
		p->arrivals += (int64_t)series[b].enqueued;
		p->completed += (int64_t)series[b].completed;
	}
	free(per_s);
	return 0;
}

void timeline_recoveries(const struct series_point *series, size_t n, struct timeline_phase *phases, size_t n_phases)
{
	double target = NAN;

	for (size_t i = 0; i < n_phases; i++)
		phases[i].recovery_s = NAN;
	for (size_t i = 0; i < n_phases && isnan(target); i++)
		if (phases[i].kind == TIMELINE_CLEAN)
			target = phases[i].throughput_median;
	if (isnan(target))
		return;
	for (size_t i = 0; i + 1 < n_phases; i++) {
		size_t end = bucket_at(phases[i].end_ns);

		if (!timeline_is_pressure(phases[i].kind))
			continue;
		phases[i + 1].recovery_s = INFINITY;
		for (size_t t = end; t + BUCKETS_PER_S <= n; t++) {
			double got = (double)completed_in(series, n, t, t + BUCKETS_PER_S);

			if (fabs(got - target) <= TIMELINE_RECOVERY_TOLERANCE * target) {
				phases[i + 1].recovery_s = (double)(t - end) / BUCKETS_PER_S;
				break;
			}
		}
	}
}

/*
 * The rise of a cumulative count (value picks it from a sample) over the n samples, in
 * the order taken, between the last one at or before from_ms (the first in (from_ms, to_ms]
 * when none) and the last in that span; TIMELINE_UNKNOWN when no sample in the span read it.
 * The span is open at its start, so that a sample on a boundary between two phases ends the
 * earlier one and begins the later: the phases' rises add up to the whole timeline's.
 */
static int64_t count_rise(const struct server_sample *samples, size_t n, int64_t from_ms, int64_t to_ms,
			  int64_t (*value)(const struct server_sample *))
{
	int64_t before = SAMPLE_UNKNOWN, last = SAMPLE_UNKNOWN;

	for (size_t k = 0; k < n && samples[k].t_ms <= to_ms; k++) {
		int64_t v = value(&samples[k]);

		if (v == SAMPLE_UNKNOWN)
			continue;
		if (samples[k].t_ms <= from_ms) {
			before = v;
			continue;
		}
		if (before == SAMPLE_UNKNOWN)
			before = v;
		last = v;
	}
	return last == SAMPLE_UNKNOWN ? TIMELINE_UNKNOWN : last - before;
}

/* A sample's vacuums and autovacuums, for count_rise. */
static int64_t vacuums_of(const struct server_sample *sm)
{
	return sm->vacuums;
}

/* A sample's autovacuums, for count_rise. */
static int64_t autovacuums_of(const struct server_sample *sm)
{
	return sm->autovacuums;
}

void timeline_sample_figures(const struct server_sample *samples, size_t n, struct timeline_phase *phases,
			     size_t n_phases)
{
	for (size_t i = 0; i < n_phases; i++) {
		struct timeline_phase *p = &phases[i];
		int64_t from_ms = p->start_ns / 1000000, to_ms = p->end_ns / 1000000;

		p->dead_start = p->dead_end = p->xmin_age_max = TIMELINE_UNKNOWN;
		p->vacuums = count_rise(samples, n, from_ms, to_ms, vacuums_of);
		p->autovacuums = count_rise(samples, n, from_ms, to_ms, autovacuums_of);
		for (size_t k = 0; k < n; k++) {
			const struct server_sample *sm = &samples[k];

			if (sm->t_ms < from_ms || sm->t_ms > to_ms)
				continue;
			if (p->dead_start == TIMELINE_UNKNOWN)
				p->dead_start = sm->dead_tuples;
			if (sm->dead_tuples != SAMPLE_UNKNOWN)
				p->dead_end = sm->dead_tuples;
			if (sm->xmin_age != SAMPLE_UNKNOWN && sm->xmin_age > p->xmin_age_max)
				p->xmin_age_max = sm->xmin_age;
		}
	}
}

void timeline_fault_counts(const struct ledger *l, struct timeline_phase *phases, size_t n_phases)
{
	for (size_t i = 0; i < n_phases; i++) {
		phases[i].faults = 0;
		for (size_t f = 0; f < l->n_faults; f++)
			phases[i].faults += l->faults[f].at_ns >= phases[i].start_ns && l->faults[f].at_ns < phases[i].end_ns;
	}
}

int timeline_figures(const struct metrics_input *in, const struct series_point *series, size_t n_series,
		     struct timeline_phase *phases, size_t n_phases)
{
	struct histogram *hists = calloc(n_phases ? n_phases : 1, sizeof(*hists));
	const struct ledger *l = in->ledger;

	if (!hists)
		return -1;
	for (size_t i = 0; i < n_phases; i++) {
		hist_init(&hists[i]);
		if (timeline_series_figures(series, n_series, &phases[i]) < 0) {
			free(hists);
			return -1;
		}
	}
	timeline_recoveries(series, n_series, phases, n_phases);
	timeline_fault_counts(l, phases, n_phases);
	for (size_t e = 0; e < l->n_execs; e++) {
		const struct execution *x = &l->execs[e];
		int64_t enq;

		if (x->outcome != EXEC_DONE || !metrics_job_in_range(in, x->job_id))
			continue;
		enq = metrics_enqueued_at(in, (size_t)(x->job_id - 1));
		for (size_t i = 0; i < n_phases && enq != INT64_MAX; i++) {
			if (x->end_ns >= phases[i].start_ns && x->end_ns < phases[i].end_ns) {
				hist_record(&hists[i], x->end_ns - enq);
				break;
			}
		}
	}
	for (size_t i = 0; i < n_phases; i++) {
		bool any = hists[i].count > 0;

		phases[i].latency_p50_ms = any ? (double)hist_percentile(&hists[i], 50) / 1e6 : NAN;
		phases[i].latency_p99_ms = any ? (double)hist_percentile(&hists[i], 99) / 1e6 : NAN;
		phases[i].latency_max_ms = any ? (double)hists[i].max / 1e6 : NAN;
	}
	free(hists);
	return 0;
}
