/*
 * The server's samples during a run, taken by the monitor from the harness's own
 * connection every --sample-ms: on PostgreSQL one query reads where the run's worker
 * backends wait (pg_stat_activity, by their pids), the queue table's live and dead
 * tuples, blocks read and hit and vacuums (pg_stat_user_tables, pg_statio_user_tables)
 * and the oldest transaction on the server; on SQLite the size of the -wal file. The
 * workers are not touched: the cost is one round trip of the monitor's per sample.
 */
#ifndef CLAIMBENCH_SAMPLER_H
#define CLAIMBENCH_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/admin.h"
#include "model/server_sample.h"
#include "queue/run_shared.h"
#include "queue/run_threads.h"

/* The samples of one run, and when the next is due. */
struct sampler {
	const struct run_shared *s;	/* the run */
	struct admin *admin;		/* the connection samples are read on */
	int64_t every_ns;		/* the interval; 0: no samples */
	int64_t next_ns;		/* when the next is due (clock_now_ns); 0 before the first */
	struct server_sample *samples;	/* the samples taken, in time order (owned) */
	size_t n;			/* entries used in samples */
	size_t cap;			/* entries allocated in samples */
	bool failed;			/* a sample could not be read or kept: no more are taken */
	char failure[256];		/* why, when failed */
};

/* Prepares sm for the run s, reading on admin every s->cfg->pressure.sample_ms. */
void sampler_init(struct sampler *sm, const struct run_shared *s, struct admin *admin);

/* Takes a sample of the server and of t's workers if one is due at now_ns; a failure stops the sampling. */
void sampler_take_if_due(struct sampler *sm, const struct run_threads *t, int64_t now_ns);

/* Hands sm's samples to the caller (*out, *n; free *out) and empties sm. */
void sampler_take_samples(struct sampler *sm, struct server_sample **out, size_t *n);

/* Frees what sm holds. */
void sampler_free(struct sampler *sm);

#endif
