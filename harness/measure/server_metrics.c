#include <math.h>

#include "measure/server_metrics.h"
#include "model/metric_table.h"

/* The largest known value get reads from the n samples p; METRIC_UNKNOWN when none is. */
static uint64_t peak(const struct server_sample *p, size_t n, int64_t (*get)(const struct server_sample *))
{
	uint64_t best = METRIC_UNKNOWN;

	for (size_t i = 0; i < n; i++) {
		int64_t v = get(&p[i]);

		if (v != SAMPLE_UNKNOWN && (best == METRIC_UNKNOWN || (uint64_t)v > best))
			best = (uint64_t)v;
	}
	return best;
}

/* Getters of the members peak() looks at. */
static int64_t dead_of(const struct server_sample *p) { return p->dead_tuples; }
static int64_t xmin_age_of(const struct server_sample *p) { return p->xmin_age; }
static int64_t wal_of(const struct server_sample *p) { return p->wal_bytes; }

/* Heap and index blocks of sample p, or SAMPLE_UNKNOWN. */
static int64_t blocks_of(const struct server_sample *p)
{
	if (p->heap_blocks == SAMPLE_UNKNOWN || p->index_blocks == SAMPLE_UNKNOWN)
		return SAMPLE_UNKNOWN;
	return p->heap_blocks + p->index_blocks;
}

/* Blocks per claim from sample a to sample b; NaN when unknown or no claim came between. */
static double blocks_per_claim(const struct server_sample *a, const struct server_sample *b)
{
	int64_t from = blocks_of(a), to = blocks_of(b);

	if (from == SAMPLE_UNKNOWN || to == SAMPLE_UNKNOWN || b->claims <= a->claims || to < from)
		return NAN;
	return (double)(to - from) / (double)(b->claims - a->claims);
}

/* Fills the wait shares of f from the n samples p: each class's states over all states sampled, %. */
static void wait_shares(const struct server_sample *p, size_t n, struct server_figures *f)
{
	uint64_t by_class[WAIT_CLASS_COUNT] = { 0 }, all = 0;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < WAIT_CLASS_COUNT; k++)
			by_class[k] += p[i].waits[k];
	for (int k = 0; k < WAIT_CLASS_COUNT; k++)
		all += by_class[k];
	for (int k = 0; k < WAIT_CLASS_COUNT; k++)
		f->wait_pct[k] = all ? 100.0 * (double)by_class[k] / (double)all : NAN;
}

/* Fills f from the n > 0 samples p. */
static void sample_figures(const struct server_sample *p, size_t n, struct server_figures *f)
{
	size_t first_end = 0, last_start = n - 1;
	int64_t v0 = SAMPLE_UNKNOWN, v1 = SAMPLE_UNKNOWN;

	f->samples = n;
	wait_shares(p, n, f);
	while (first_end + 1 < n && p[first_end].t_ms - p[0].t_ms < BLOCKS_WINDOW_MS)
		first_end++;
	while (last_start > 0 && p[n - 1].t_ms - p[last_start].t_ms < BLOCKS_WINDOW_MS)
		last_start--;
	f->blocks_per_claim_start = blocks_per_claim(&p[0], &p[first_end]);
	f->blocks_per_claim_end = blocks_per_claim(&p[last_start], &p[n - 1]);
	f->dead_tuples_peak = peak(p, n, dead_of);
	f->dead_tuples_end = p[n - 1].dead_tuples == SAMPLE_UNKNOWN ? METRIC_UNKNOWN : (uint64_t)p[n - 1].dead_tuples;
	for (size_t i = 0; i < n; i++) {
		if (p[i].vacuums == SAMPLE_UNKNOWN)
			continue;
		if (v0 == SAMPLE_UNKNOWN)
			v0 = p[i].vacuums;
		v1 = p[i].vacuums;
	}
	f->vacuums = v0 == SAMPLE_UNKNOWN ? METRIC_UNKNOWN : (uint64_t)(v1 - v0);
	f->xmin_age_max = peak(p, n, xmin_age_of);
	f->wal_bytes_peak = peak(p, n, wal_of);
}

/* Completions per second of the series buckets whose middle falls in [from_ms, to_ms); NaN when none does. */
static double rate_between(const struct run_result *r, double from_ms, double to_ms)
{
	uint64_t done = 0;
	size_t buckets = 0;

	for (size_t i = 0; i < r->n_series; i++) {
		double mid = (double)r->series[i].t_ms + SERIES_BUCKET_NS / 2e6;

		if (mid < from_ms || mid >= to_ms)
			continue;
		done += r->series[i].completed;
		buckets++;
	}
	return buckets ? (double)done / ((double)buckets * SERIES_BUCKET_NS / 1e9) : NAN;
}

/*
 * Fills f's SQLite figures from r's workers when their driver counts them: the time they
 * waited for the write lock over their time in the run (workers x makespan), and the
 * checkpoints their commits ran.
 */
static void lock_wait_figures(const struct run_result *r, struct server_figures *f)
{
	int64_t waited = 0;

	if (!r->per_worker || r->workers < 1 || !r->per_worker[0].waits_counted)
		return;
	f->checkpoints = f->checkpoints_partial = 0;
	for (int i = 0; i < r->workers; i++) {
		waited += r->per_worker[i].lock_wait_ns;
		f->checkpoints += r->per_worker[i].checkpoints;
		f->checkpoints_partial += r->per_worker[i].checkpoints_partial;
	}
	if (r->metrics.makespan_s > 0)
		f->lock_wait_pct = 100.0 * (double)waited / 1e9 / ((double)r->workers * r->metrics.makespan_s);
}

/* Fills r's phase figures from its first snapshot phase, if it has one. */
static void phase_figures(struct run_result *r)
{
	struct phase_figures *f = &r->metrics.phases;

	f->before_jps = f->during_jps = f->after_jps = NAN;
	for (size_t i = 0; i < r->n_phases; i++) {
		const struct phase_record *ph = &r->phases[i];
		double from = (double)ph->at_ns / 1e6, to = (double)(ph->at_ns + ph->duration_ns) / 1e6;

		if (ph->kind != PHASE_SNAPSHOT)
			continue;
		f->before_jps = rate_between(r, 0, from);
		f->during_jps = rate_between(r, from, to);
		f->after_jps = rate_between(r, to, INFINITY);
		return;
	}
}

/* A probed value as a count: METRIC_UNKNOWN when it was not read. */
static uint64_t probed(int64_t v)
{
	return v == SAMPLE_UNKNOWN ? METRIC_UNKNOWN : (uint64_t)v;
}

void server_metrics_compute(struct run_result *r)
{
	struct server_figures *f = &r->metrics.server;
	const struct table_probe *before = &r->probes[PROBE_BEFORE], *after = &r->probes[PROBE_AFTER];

	*f = (struct server_figures){
		.blocks_per_claim_start = NAN, .blocks_per_claim_end = NAN, .dead_tuples_peak = METRIC_UNKNOWN,
		.dead_tuples_end = METRIC_UNKNOWN, .vacuums = METRIC_UNKNOWN, .xmin_age_max = METRIC_UNKNOWN,
		.wal_bytes_peak = METRIC_UNKNOWN,
		.head_buffers_before = probed(before->head_buffers), .head_buffers_after = probed(after->head_buffers),
		.table_bytes_before = probed(before->table_bytes), .table_bytes_after = probed(after->table_bytes),
		.index_bytes_before = probed(before->index_bytes), .index_bytes_after = probed(after->index_bytes),
		.locks_left = probed(after->locks), .lock_wait_pct = NAN, .checkpoints = METRIC_UNKNOWN,
		.checkpoints_partial = METRIC_UNKNOWN,
	};
	for (int k = 0; k < WAIT_CLASS_COUNT; k++)
		f->wait_pct[k] = NAN;
	if (r->n_samples)
		sample_figures(r->samples, r->n_samples, f);
	lock_wait_figures(r, f);
	phase_figures(r);
}
