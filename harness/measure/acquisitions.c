/*
 * The figures of a guarded-resource run from its acquisitions ledger, exactly
 * (docs/metrics.md, "Guarded resources", says the same for users):
 *
 * granted	a holder (below): granted, then released, abandoned or expired. grants counts them;
 *		grants_per_s is grants / duration; polls_per_grant the polls of the
 *		granted / grants (NaN without a grant); wait_ms the nearest-rank p50,
 *		p90, p99, p99.9 and the exact max of grant_ns - start_ns over them, in ms,
 *		writer_wait_ms the same over the ROLE_WRITER ones (all NaN without one).
 * outcomes	timeouts, refusals, starved, expired, abandoned: the acquisitions whose
 *		outcome is ACQ_TIMEOUT, ACQ_REFUSED, ACQ_WAITING, ACQ_EXPIRED, ACQ_ABANDONED.
 * a holder	an acquisition with grant_ns >= 0 whose outcome is ACQ_GRANTED,
 *		ACQ_ABANDONED or ACQ_EXPIRED: it held its resource over [grant_ns, end),
 *		end being release_ns, or duration_ns when release_ns is -1.
 * the sweep	per resource, the holders' grants and ends in time order; at one instant
 *		ends come before grants (back-to-back holders do not overlap), and grants
 *		at one instant are taken by start_ns, then worker, then ledger order.
 *		max_holders, max_exclusive, max_shared: the most holders of any mode, of
 *		ACQ_EXCLUSIVE, of ACQ_SHARED on one resource at once, the most over resources.
 *		violations: grants that met, at their instant, E exclusive, S shared and L
 *		limited holders (the grant itself not counted) with: EXCLUSIVE and
 *		E + S + L > 0; SHARED and E > 0; LIMITED and (E > 0 or L + 1 > limit).
 *		A holder whose interval is empty (end <= grant) is judged at its grant
 *		and never held.
 * fifo_inversions
 *		unknown when no holder has a ticket (no line); else per resource, over
 *		holders with ticket > 0: unordered pairs {a, b} with
 *		a.ticket < b.ticket and b.grant_ns < a.grant_ns that conflict: either is
 *		EXCLUSIVE, or both are LIMITED and limit is 1. Counted with a Fenwick tree
 *		over grant ranks: inversions(all) - inversions(non-exclusive), plus
 *		inversions(limited) when limit is 1.
 * refreshes	only when stale_ns > 0 (else unknown): periods = duration_ns / stale_ns + 1;
 *		refreshes the acquisitions with refreshed = 1, whatever their outcome;
 *		duplicate_refreshes the sum over period values of max(0, refreshes - 1);
 *		refreshes_per_period refreshes / distinct periods with a refresh (NaN when
 *		none); waited_skips the granted with waited = 1, refreshed = 0, ROLE_USER.
 * uses		stale_uses, torn_uses: acquisitions with seen USE_STALE, USE_TORN; always known.
 *
 * The holder series: buckets [k * 100, (k + 1) * 100) ms for k from 0 while k * 100 ms is
 * below duration_ns; per resource and bucket, the most holders at once (one holding at the
 * bucket's start counted) and the most waiting at once. A holder waits over [start_ns,
 * grant_ns); an acquisition never granted (grant_ns -1) over [start_ns, release_ns), or
 * [start_ns, duration_ns) when release_ns is -1. Ends before beginnings at one instant.
 */
#include "base/alloc.h"
#include "base/order.h"
#include "measure/acquisitions.h"
#include "model/metric_table.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define NS_PER_S 1e9
#define NS_PER_MS 1000000

/* One grant or end of a holding, in the sweep. */
struct hold_event {
	int64_t t_ns;		/* its instant */
	int64_t start_ns;	/* the acquisition's start: the order of grants at one instant */
	uint32_t index;		/* the acquisition's place in the ledger: the last tie-break */
	int32_t resource;	/* the resource held */
	int32_t worker;		/* the acquisition's worker: the next tie-break */
	uint8_t grant;		/* 1 a grant, 0 an end: ends sort first at one instant */
	uint8_t mode;		/* the holding's enum acq_mode */
	uint8_t held;		/* a grant: 1 when its interval is not empty (an end event follows) */
};

/* One holder with a ticket, for the inversions. */
struct line_entry {
	int64_t ticket;		/* its place in the line */
	int64_t grant_ns;	/* when it was granted */
	size_t rank;		/* grant_ns's rank among the entries' distinct grants, from 1 */
	int32_t resource;	/* its resource */
	uint8_t mode;		/* its enum acq_mode */
};

/* One beginning or end of a holding or a wait, for the holder series. */
struct span_event {
	int64_t t_ns;		/* its instant */
	int32_t resource;	/* the resource */
	int8_t delta;		/* +1 a beginning, -1 an end: ends sort first at one instant */
	uint8_t waiting;	/* 1 a wait, 0 a holding */
};

/* qsort order of int64_t values, ascending. */
static int cmp_value(const void *pa, const void *pb)
{
	return cmp_i64(*(const int64_t *)pa, *(const int64_t *)pb);
}

/* qsort order of the sweep: resource, instant, ends before grants, then start, worker, ledger order. */
static int cmp_hold_event(const void *pa, const void *pb)
{
	const struct hold_event *a = pa, *b = pb;
	int c = cmp_i64(a->resource, b->resource);

	if (!c)
		c = cmp_i64(a->t_ns, b->t_ns);
	if (!c)
		c = cmp_i64(a->grant, b->grant);
	if (!c)
		c = cmp_i64(a->start_ns, b->start_ns);
	if (!c)
		c = cmp_i64(a->worker, b->worker);
	if (!c)
		c = cmp_i64(a->index, b->index);
	return c;
}

/* qsort order of line entries by grant instant. */
static int cmp_line_grant(const void *pa, const void *pb)
{
	const struct line_entry *a = pa, *b = pb;

	return cmp_i64(a->grant_ns, b->grant_ns);
}

/* qsort order of line entries: resource, then ticket, then grant. */
static int cmp_line_ticket(const void *pa, const void *pb)
{
	const struct line_entry *a = pa, *b = pb;
	int c = cmp_i64(a->resource, b->resource);

	if (!c)
		c = cmp_i64(a->ticket, b->ticket);
	if (!c)
		c = cmp_i64(a->grant_ns, b->grant_ns);
	return c;
}

/* qsort order of series events: resource, instant, ends before beginnings. */
static int cmp_span_event(const void *pa, const void *pb)
{
	const struct span_event *a = pa, *b = pb;
	int c = cmp_i64(a->resource, b->resource);

	if (!c)
		c = cmp_i64(a->t_ns, b->t_ns);
	if (!c)
		c = cmp_i64(a->delta, b->delta);
	return c;
}

/* a's enum acq_mode; a value outside the enum is taken as exclusive, the strictest. */
static uint8_t mode_of(const struct acquisition *a)
{
	return a->mode <= ACQ_LIMITED ? a->mode : ACQ_EXCLUSIVE;
}

/* Whether a held its resource: granted, then released, abandoned or expired. */
static bool is_holder(const struct acquisition *a)
{
	return a->grant_ns >= 0 &&
	       (a->outcome == ACQ_GRANTED || a->outcome == ACQ_ABANDONED || a->outcome == ACQ_EXPIRED);
}

/* The end of a's holding, or of its wait when never granted: its release, else the run's end. */
static int64_t end_of(const struct acquisition *a, int64_t duration_ns)
{
	return a->release_ns >= 0 ? a->release_ns : duration_ns;
}

/* A duration summary with no sample: every figure NaN. */
static struct latency_summary unknown_summary(void)
{
	return (struct latency_summary){ .p50 = NAN, .p90 = NAN, .p99 = NAN, .p999 = NAN, .max = NAN };
}

/* Sets every figure of g unknown: NaN and METRIC_UNKNOWN. */
static void figures_unknown(struct guard_figures *g)
{
	*g = (struct guard_figures){
		.grants = METRIC_UNKNOWN, .grants_per_s = NAN, .timeouts = METRIC_UNKNOWN,
		.refusals = METRIC_UNKNOWN, .starved = METRIC_UNKNOWN, .expired = METRIC_UNKNOWN,
		.abandoned = METRIC_UNKNOWN, .polls_per_grant = NAN, .periods = METRIC_UNKNOWN,
		.refreshes = METRIC_UNKNOWN, .duplicate_refreshes = METRIC_UNKNOWN, .refreshes_per_period = NAN,
		.waited_skips = METRIC_UNKNOWN, .stale_uses = METRIC_UNKNOWN, .torn_uses = METRIC_UNKNOWN,
		.max_holders = METRIC_UNKNOWN, .max_exclusive = METRIC_UNKNOWN, .max_shared = METRIC_UNKNOWN,
		.violations = METRIC_UNKNOWN, .fifo_inversions = METRIC_UNKNOWN,
		.wait_ms = unknown_summary(), .writer_wait_ms = unknown_summary(),
	};
}

/* The value of nearest rank permille / 1000 among the k >= 1 sorted values v. */
static int64_t nearest_rank(const int64_t *v, size_t k, size_t permille)
{
	return v[(permille * k + 999) / 1000 - 1];
}

/* The summary of the k waits in v (sorted here), in ms; all NaN when k is 0. */
static struct latency_summary summarise_waits(int64_t *v, size_t k)
{
	if (k == 0)
		return unknown_summary();
	qsort(v, k, sizeof(*v), cmp_value);
	return (struct latency_summary){
		.p50 = (double)nearest_rank(v, k, 500) / NS_PER_MS,
		.p90 = (double)nearest_rank(v, k, 900) / NS_PER_MS,
		.p99 = (double)nearest_rank(v, k, 990) / NS_PER_MS,
		.p999 = (double)nearest_rank(v, k, 999) / NS_PER_MS,
		.max = (double)v[k - 1] / NS_PER_MS,
	};
}

/* Counts outcomes, polls, uses and waited skips of in into out. */
static void count_outcomes(const struct acquisitions_input *in, struct guard_figures *out)
{
	uint64_t polls = 0;

	for (size_t i = 0; i < in->n; i++) {
		const struct acquisition *a = &in->acqs[i];

		if (is_holder(a)) {
			out->grants++;
			polls += a->polls;
		}
		switch (a->outcome) {
		case ACQ_GRANTED:
			out->waited_skips += a->waited && !a->refreshed && a->role == ROLE_USER;
			break;
		case ACQ_TIMEOUT:
			out->timeouts++;
			break;
		case ACQ_REFUSED:
			out->refusals++;
			break;
		case ACQ_WAITING:
			out->starved++;
			break;
		case ACQ_EXPIRED:
			out->expired++;
			break;
		case ACQ_ABANDONED:
			out->abandoned++;
			break;
		}
		out->stale_uses += a->seen == USE_STALE;
		out->torn_uses += a->seen == USE_TORN;
	}
	out->grants_per_s = in->duration_ns > 0 ? (double)out->grants / ((double)in->duration_ns / NS_PER_S) : NAN;
	out->polls_per_grant = out->grants ? (double)polls / (double)out->grants : NAN;
}

/* Writes into v the waits (grant - start, ns) of in's granted acquisitions, writers' only if asked; their count. */
static size_t collect_waits(const struct acquisitions_input *in, bool writers_only, int64_t *v)
{
	size_t k = 0;

	for (size_t i = 0; i < in->n; i++) {
		const struct acquisition *a = &in->acqs[i];

		if (!is_holder(a) || (writers_only && a->role != ROLE_WRITER))
			continue;
		v[k++] = a->grant_ns > a->start_ns ? a->grant_ns - a->start_ns : 0;
	}
	return k;
}

/* Fills out's wait and writer wait summaries. 0, or -1 when out of memory. */
static int summarise_grant_waits(const struct acquisitions_input *in, struct guard_figures *out)
{
	int64_t *waits = alloc_zeroed(in->n, sizeof(*waits));

	if (!waits)
		return -1;
	out->wait_ms = summarise_waits(waits, collect_waits(in, false, waits));
	out->writer_wait_ms = summarise_waits(waits, collect_waits(in, true, waits));
	free(waits);
	return 0;
}

/* Fills out's refresh figures (unknown without a stale interval). 0, or -1 when out of memory. */
static int count_refreshes(const struct acquisitions_input *in, struct guard_figures *out)
{
	int64_t *periods;
	size_t k = 0, distinct = 0;

	if (in->stale_ns <= 0) {
		out->periods = out->refreshes = out->duplicate_refreshes = out->waited_skips = METRIC_UNKNOWN;
		out->refreshes_per_period = NAN;
		return 0;
	}
	periods = alloc_zeroed(in->n, sizeof(*periods));
	if (!periods)
		return -1;
	for (size_t i = 0; i < in->n; i++)
		if (in->acqs[i].refreshed)
			periods[k++] = in->acqs[i].period;
	qsort(periods, k, sizeof(*periods), cmp_value);
	for (size_t i = 0; i < k; i++)
		distinct += i == 0 || periods[i] != periods[i - 1];
	out->periods = (uint64_t)((in->duration_ns > 0 ? in->duration_ns : 0) / in->stale_ns) + 1;
	out->refreshes = k;
	out->duplicate_refreshes = k - distinct;
	out->refreshes_per_period = distinct ? (double)k / (double)distinct : NAN;
	free(periods);
	return 0;
}

/* Whether a grant of mode, meeting count[mode] holders of each mode, conflicts with them. */
static bool grant_conflicts(uint8_t mode, const uint64_t count[3], int limit)
{
	switch (mode) {
	case ACQ_SHARED:
		return count[ACQ_EXCLUSIVE] > 0;
	case ACQ_LIMITED:
		return count[ACQ_EXCLUSIVE] > 0 || count[ACQ_LIMITED] + 1 > (uint64_t)limit;
	default:
		return count[ACQ_EXCLUSIVE] + count[ACQ_SHARED] + count[ACQ_LIMITED] > 0;
	}
}

/* Fills out's concurrency figures and violations from the holders' sweep. 0, or -1 when out of memory. */
static int sweep_holders(const struct acquisitions_input *in, struct guard_figures *out)
{
	struct hold_event *ev = alloc_zeroed(2 * in->n, sizeof(*ev));
	uint64_t count[3] = { 0, 0, 0 };
	int limit = in->limit > 1 ? in->limit : 1;
	size_t m = 0;

	if (!ev)
		return -1;
	for (size_t i = 0; i < in->n; i++) {
		const struct acquisition *a = &in->acqs[i];
		int64_t end = end_of(a, in->duration_ns);
		struct hold_event e = { .t_ns = a->grant_ns, .start_ns = a->start_ns, .index = (uint32_t)i,
					.resource = a->resource, .worker = a->worker, .grant = 1, .mode = mode_of(a) };

		if (!is_holder(a))
			continue;
		e.held = end > a->grant_ns;
		ev[m++] = e;
		if (e.held) {
			e.t_ns = end;
			e.grant = 0;
			ev[m++] = e;
		}
	}
	qsort(ev, m, sizeof(*ev), cmp_hold_event);
	for (size_t i = 0; i < m; i++) {
		if (i > 0 && ev[i].resource != ev[i - 1].resource)
			count[0] = count[1] = count[2] = 0;
		if (!ev[i].grant) {
			count[ev[i].mode]--;
			continue;
		}
		out->violations += grant_conflicts(ev[i].mode, count, limit);
		if (!ev[i].held)
			continue;
		count[ev[i].mode]++;
		if (count[0] + count[1] + count[2] > out->max_holders)
			out->max_holders = count[0] + count[1] + count[2];
		if (count[ACQ_EXCLUSIVE] > out->max_exclusive)
			out->max_exclusive = count[ACQ_EXCLUSIVE];
		if (count[ACQ_SHARED] > out->max_shared)
			out->max_shared = count[ACQ_SHARED];
	}
	free(ev);
	return 0;
}

/* Adds delta at rank (from 1) of the Fenwick tree tree of size m. */
static void fenwick_add(int64_t *tree, size_t m, size_t rank, int64_t delta)
{
	for (; rank <= m; rank += rank & (~rank + 1))
		tree[rank] += delta;
}

/* The sum of the Fenwick tree tree over ranks 1..rank. */
static int64_t fenwick_sum(const int64_t *tree, size_t rank)
{
	int64_t sum = 0;

	for (; rank > 0; rank -= rank & (~rank + 1))
		sum += tree[rank];
	return sum;
}

/* Which holders one inversion count looks at. */
enum line_filter {
	LINE_ALL,		/* every holder with a ticket */
	LINE_NOT_EXCLUSIVE,	/* shared and limited ones */
	LINE_LIMITED,		/* limited ones */
};

/* Whether e is one of filter's. */
static bool line_takes(const struct line_entry *e, enum line_filter filter)
{
	return filter == LINE_ALL || (filter == LINE_NOT_EXCLUSIVE ? e->mode != ACQ_EXCLUSIVE : e->mode == ACQ_LIMITED);
}

/*
 * The pairs of filter's entries of one resource granted against ticket order, over the n
 * entries e sorted by resource and ticket; tree (m ranks) is all 0 before and after.
 */
static uint64_t count_inversions(const struct line_entry *e, size_t n, int64_t *tree, size_t m,
				 enum line_filter filter)
{
	uint64_t inversions = 0;
	int64_t inserted = 0;
	size_t first = 0, group, i;

	while (first < n) {
		for (group = first; group < n && e[group].resource == e[first].resource &&
				    e[group].ticket == e[first].ticket; group++)
			if (line_takes(&e[group], filter))
				inversions += (uint64_t)(inserted - fenwick_sum(tree, e[group].rank));
		for (i = first; i < group; i++)
			if (line_takes(&e[i], filter)) {
				fenwick_add(tree, m, e[i].rank, 1);
				inserted++;
			}
		if (group == n || e[group].resource != e[first].resource) {
			for (i = group; i-- > 0 && e[i].resource == e[first].resource;)
				if (line_takes(&e[i], filter))
					fenwick_add(tree, m, e[i].rank, -1);
			inserted = 0;
		}
		first = group;
	}
	return inversions;
}

/* Fills out's fifo_inversions: unknown when no holder has a ticket (no line). 0, or -1 when out of memory. */
static int count_fifo_inversions(const struct acquisitions_input *in, struct guard_figures *out)
{
	struct line_entry *e = alloc_zeroed(in->n, sizeof(*e));
	int64_t *tree = alloc_zeroed(in->n + 1, sizeof(*tree));
	size_t n = 0, m = 0;
	int ret = -1;

	if (!e || !tree)
		goto out;
	for (size_t i = 0; i < in->n; i++) {
		const struct acquisition *a = &in->acqs[i];

		if (is_holder(a) && a->ticket > 0)
			e[n++] = (struct line_entry){ .ticket = a->ticket, .grant_ns = a->grant_ns,
						      .resource = a->resource, .mode = mode_of(a) };
	}
	ret = 0;
	out->fifo_inversions = METRIC_UNKNOWN;
	if (!n)
		goto out;
	ret = -1;
	qsort(e, n, sizeof(*e), cmp_line_grant);
	for (size_t i = 0; i < n; i++) {
		m += i == 0 || e[i].grant_ns != e[i - 1].grant_ns;
		e[i].rank = m;
	}
	qsort(e, n, sizeof(*e), cmp_line_ticket);
	out->fifo_inversions = count_inversions(e, n, tree, m, LINE_ALL) -
			       count_inversions(e, n, tree, m, LINE_NOT_EXCLUSIVE);
	if (in->limit <= 1)
		out->fifo_inversions += count_inversions(e, n, tree, m, LINE_LIMITED);
	ret = 0;
out:
	free(e);
	free(tree);
	return ret;
}

int acquisitions_figures(const struct acquisitions_input *in, struct guard_figures *out)
{
	*out = (struct guard_figures){ 0 };
	count_outcomes(in, out);
	if (summarise_grant_waits(in, out) || count_refreshes(in, out) || sweep_holders(in, out) ||
	    count_fifo_inversions(in, out)) {
		figures_unknown(out);
		return -1;
	}
	return 0;
}

/* Adds a's holding and waiting to ev (m entries), as beginnings and ends of non-empty spans. */
static size_t add_spans(const struct acquisition *a, int64_t duration_ns, struct span_event *ev, size_t m)
{
	int64_t wait_end = a->grant_ns >= 0 ? a->grant_ns : end_of(a, duration_ns);
	int64_t hold_end = end_of(a, duration_ns);

	if (wait_end > a->start_ns) {
		ev[m++] = (struct span_event){ .t_ns = a->start_ns, .resource = a->resource, .delta = 1, .waiting = 1 };
		ev[m++] = (struct span_event){ .t_ns = wait_end, .resource = a->resource, .delta = -1, .waiting = 1 };
	}
	if (is_holder(a) && hold_end > a->grant_ns) {
		ev[m++] = (struct span_event){ .t_ns = a->grant_ns, .resource = a->resource, .delta = 1 };
		ev[m++] = (struct span_event){ .t_ns = hold_end, .resource = a->resource, .delta = -1 };
	}
	return m;
}

/*
 * Fills the buckets points p of one resource from its events ev[*i..] (sorted), advancing
 * *i past every event of that resource.
 */
static void fill_resource(const struct span_event *ev, size_t m, size_t *i, int32_t resource,
			  struct holder_point *p, size_t buckets)
{
	int64_t now[2] = { 0, 0 }, most[2];

	for (size_t b = 0; b < buckets; b++) {
		int64_t start = (int64_t)b * SERIES_BUCKET_NS, end = start + SERIES_BUCKET_NS;

		for (; *i < m && ev[*i].resource == resource &&
		       (ev[*i].t_ns < start || (ev[*i].t_ns == start && ev[*i].delta < 0)); (*i)++)
			now[ev[*i].waiting] += ev[*i].delta;
		most[0] = now[0];
		most[1] = now[1];
		for (; *i < m && ev[*i].resource == resource && ev[*i].t_ns < end; (*i)++) {
			now[ev[*i].waiting] += ev[*i].delta;
			if (now[ev[*i].waiting] > most[ev[*i].waiting])
				most[ev[*i].waiting] = now[ev[*i].waiting];
		}
		p[b] = (struct holder_point){ .t_ms = start / NS_PER_MS, .resource = resource,
					      .holders = (uint32_t)most[0], .waiting = (uint32_t)most[1] };
	}
	while (*i < m && ev[*i].resource == resource)
		(*i)++;
}

int acquisitions_holder_series(const struct acquisitions_input *in, struct holder_point **out, size_t *n)
{
	size_t buckets = in->duration_ns > 0 ? (size_t)((in->duration_ns - 1) / SERIES_BUCKET_NS) + 1 : 0;
	size_t resources = in->resources > 0 ? (size_t)in->resources : 0, m = 0, i = 0;
	struct span_event *ev;
	struct holder_point *p;

	*out = NULL;
	*n = 0;
	if (buckets == 0 || resources == 0)
		return 0;
	ev = alloc_zeroed(4 * in->n, sizeof(*ev));
	p = alloc_zeroed(resources * buckets, sizeof(*p));
	if (!ev || !p) {
		free(ev);
		free(p);
		return -1;
	}
	for (size_t k = 0; k < in->n; k++)
		if (in->acqs[k].resource >= 0 && (size_t)in->acqs[k].resource < resources)
			m = add_spans(&in->acqs[k], in->duration_ns, ev, m);
	qsort(ev, m, sizeof(*ev), cmp_span_event);
	for (size_t r = 0; r < resources; r++)
		fill_resource(ev, m, &i, (int32_t)r, p + r * buckets, buckets);
	free(ev);
	*out = p;
	*n = resources * buckets;
	return 0;
}
