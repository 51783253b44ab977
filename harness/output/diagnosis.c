#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "db/backend.h"
#include "model/metric_table.h"
#include "output/diagnosis.h"

/* What each wait class means, as the end of "most of the workers' backends' sampled time was spent ...". */
static const char *const wait_meaning[WAIT_CLASS_COUNT] = {
	[WAIT_CPU] = "running on the server's CPU",
	[WAIT_LOCK] = "waiting on a row or transaction lock held by another worker",
	[WAIT_LWLOCK] = "waiting on LWLocks (shared buffers, the WAL), contention inside the server",
	[WAIT_IO] = "waiting on I/O",
	[WAIT_CLIENT] = "idle or waiting on the client: the harness's work and round trips, not the server",
	[WAIT_OTHER] = "waiting on IPC, timeouts or buffer pins",
};

/* A growing text in a caller's buffer. */
struct text {
	char *buf;	/* the buffer */
	size_t size;	/* its size */
	size_t used;	/* characters written, NUL not counted */
};

/* Appends to t as printf does, with a space before it when t is not empty; truncates at the end of the buffer. */
static void say(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used + 1 >= t->size)
		return;
	if (t->used)
		t->buf[t->used++] = ' ';
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->size - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n < t->size - t->used ? (size_t)n : t->size - t->used - 1;
}

/*
 * Says where the workers' sessions on the server (db's name for them; NULL: "server
 * sessions") spent the sampled time: the largest class, and a lock or LWLock share beside it.
 */
static void say_waits(struct text *t, const struct server_figures *f, const struct backend_ops *db)
{
	int top = 0;

	if (isnan(f->wait_pct[WAIT_CPU]))
		return;
	for (int k = 1; k < WAIT_CLASS_COUNT; k++)
		if (f->wait_pct[k] > f->wait_pct[top])
			top = k;
	say(t, "%s of the workers' %s' sampled time was spent %s (%.0f%%).",
	    f->wait_pct[top] >= DIAGNOSIS_DOMINANT_PCT ? "Most" : "The largest share",
	    db && db->session_name ? db->session_name : "server sessions", wait_meaning[top],
	    f->wait_pct[top]);
	if (top != WAIT_LOCK && f->wait_pct[WAIT_LOCK] >= 10.0)
		say(t, "%.0f%% was spent waiting on locks.", f->wait_pct[WAIT_LOCK]);
	if (top != WAIT_LWLOCK && f->wait_pct[WAIT_LWLOCK] >= 10.0)
		say(t, "%.0f%% was spent on LWLocks inside the server.", f->wait_pct[WAIT_LWLOCK]);
}

/* Says how the queue table's blocks per claim moved from the first to the last seconds sampled. */
static void say_blocks(struct text *t, const struct server_figures *f)
{
	double a = f->blocks_per_claim_start, b = f->blocks_per_claim_end;

	if (isnan(a) || isnan(b) || a <= 0)
		return;
	if (b > a * DIAGNOSIS_GROWTH)
		say(t, "Each claim touched %.0f blocks of the queue table at the start and %.0f at the end: dead entries "
		       "piled up where the claims look (the head of the index), and every claim walked past them.", a, b);
	else if (a > b * DIAGNOSIS_GROWTH)
		say(t, "Each claim touched %.0f blocks of the queue table at the start and %.0f at the end.", a, b);
	else
		say(t, "Each claim touched about %.0f blocks of the queue table throughout.", (a + b) / 2);
}

/*
 * Says what dead tuples, vacuums and the oldest transaction did, the last in the words of
 * db (the run's backend; NULL: not known, nothing said of it).
 */
static void say_mvcc(struct text *t, const struct server_figures *f, const struct backend_ops *db)
{
	bool vacuumed = f->vacuums != METRIC_UNKNOWN && f->vacuums > 0;

	if (f->dead_tuples_peak != METRIC_UNKNOWN && f->dead_tuples_peak > 0 && f->dead_tuples_peak == f->dead_tuples_end)
		say(t, "Dead tuples in the queue table grew to %llu by the end%s.", (unsigned long long)f->dead_tuples_end,
		    vacuumed ? "" : "; no vacuum ran");
	else if (f->dead_tuples_peak != METRIC_UNKNOWN && f->dead_tuples_peak > 0)
		say(t, "Dead tuples in the queue table peaked at %llu and were %llu at the end%s.",
		    (unsigned long long)f->dead_tuples_peak, (unsigned long long)f->dead_tuples_end,
		    vacuumed ? ", after a vacuum" : "");
	if (f->xmin_age_max != METRIC_UNKNOWN && f->xmin_age_max >= DIAGNOSIS_OLD_XMIN && db &&
	    db->old_transaction_sentence)
		say(t, db->old_transaction_sentence, (unsigned long long)f->xmin_age_max);
	if (!isnan(f->lock_wait_pct) && db && db->lock_wait_sentence)
		say(t, db->lock_wait_sentence, f->lock_wait_pct);
	if (f->wal_bytes_peak != METRIC_UNKNOWN && f->wal_bytes_peak > 0)
		say(t, "The -wal file grew to %.1f MB.", (double)f->wal_bytes_peak / 1e6);
	if (f->checkpoints_partial != METRIC_UNKNOWN && f->checkpoints_partial > 0)
		say(t, "%llu of %llu checkpoints could not copy the whole WAL: a reader still needed it, so the file could "
		       "not be reset.", (unsigned long long)f->checkpoints_partial, (unsigned long long)f->checkpoints);
}

/* Says what the held snapshot did to throughput. */
static void say_snapshot(struct text *t, const struct phase_figures *p)
{
	if (isnan(p->before_jps) || isnan(p->during_jps))
		return;
	if (isnan(p->after_jps))
		say(t, "Throughput was %.0f jobs/s before the held snapshot and %.0f while it was held.", p->before_jps,
		    p->during_jps);
	else
		say(t, "Throughput was %.0f jobs/s before the held snapshot, %.0f while it was held and %.0f after its "
		       "release.", p->before_jps, p->during_jps, p->after_jps);
}

bool diagnosis_write(const struct run_result *run, const char *backend, char *buf, size_t size)
{
	struct text t = { .buf = buf, .size = size };
	const struct server_figures *f = &run->metrics.server;
	const struct backend_ops *db = backend_named(backend);

	if (size)
		buf[0] = '\0';
	if (f->samples == METRIC_UNKNOWN || f->samples == 0)
		return false;
	say_waits(&t, f, db);
	say_blocks(&t, f);
	say_mvcc(&t, f, db);
	say_snapshot(&t, &run->metrics.phases);
	return true;
}
