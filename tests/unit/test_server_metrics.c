/*
 * The server figures' arithmetic on hand-made samples (measure/server_metrics.c): wait
 * shares, blocks per claim over the first and last 2 s, peaks, vacuums, the oldest
 * transaction, unknown values, throughput around a held snapshot from the series; and
 * the diagnosis written from them (output/diagnosis.c), in each engine's words (PostgreSQL's
 * xmin horizon, InnoDB's history list).
 */
#include <string.h>

#include "check.h"
#include "measure/server_metrics.h"
#include "model/metric_table.h"
#include "output/diagnosis.h"

/* A sample at t_ms with claims, blocks (heap + index, split evenly), dead tuples, vacuums, xmin age and waits. */
static struct server_sample sample(int64_t t_ms, uint64_t claims, int64_t blocks, int64_t dead, int64_t vacuums,
				   int64_t xmin_age, uint32_t lock, uint32_t client)
{
	return (struct server_sample){
		.t_ms = t_ms, .claims = claims, .heap_blocks = blocks / 2, .index_blocks = blocks - blocks / 2,
		.live_tuples = 1000, .dead_tuples = dead, .vacuums = vacuums, .xmin_age = xmin_age,
		.wal_bytes = SAMPLE_UNKNOWN, .waits = { [WAIT_LOCK] = lock, [WAIT_CLIENT] = client },
	};
}

/*
 * Seven samples a second apart over 6 s: 100 claims a second; blocks 5 per claim in the
 * first 2 s, 50 per claim in the last 2 s; dead tuples rise to 900 and fall to 30 after
 * one vacuum; the oldest transaction reaches 4000; 3 of 4 backends on a lock, 1 on the client.
 */
static void test_samples(void)
{
	struct server_sample p[] = {
		sample(0, 0, 1000, 0, 7, 5, 3, 1),
		sample(1000, 100, 1500, 300, 7, 8, 3, 1),
		sample(2000, 200, 2000, 600, 7, 2000, 3, 1),
		sample(3000, 300, 4000, 900, 7, 4000, 3, 1),
		sample(4000, 400, 6000, 900, 7, 12, 3, 1),
		sample(5000, 500, 11000, 30, 8, 9, 3, 1),
		sample(6000, 600, 16000, 30, 8, 9, 3, 1),
	};
	struct run_result r = { .samples = p, .n_samples = sizeof(p) / sizeof(p[0]) };
	const struct server_figures *f = &r.metrics.server;
	char text[1024];

	server_metrics_compute(&r);
	CHECK_EQ(f->samples, 7, "samples counted (%llu)", (unsigned long long)f->samples);
	CHECK_NEAR(f->wait_pct[WAIT_LOCK], 75.0, 1e-9, "3 of 4 sampled states on a lock: 75%% (%g)", f->wait_pct[WAIT_LOCK]);
	CHECK_NEAR(f->wait_pct[WAIT_CLIENT], 25.0, 1e-9, "1 of 4 on the client: 25%% (%g)", f->wait_pct[WAIT_CLIENT]);
	CHECK_NEAR(f->wait_pct[WAIT_CPU], 0.0, 1e-9, "none running: 0%% (%g)", f->wait_pct[WAIT_CPU]);
	CHECK_NEAR(f->blocks_per_claim_start, 5.0, 1e-9, "first 2 s: 1000 blocks over 200 claims (%g)",
		   f->blocks_per_claim_start);
	CHECK_NEAR(f->blocks_per_claim_end, 50.0, 1e-9, "last 2 s: 10000 blocks over 200 claims (%g)",
		   f->blocks_per_claim_end);
	CHECK(f->dead_tuples_peak == 900 && f->dead_tuples_end == 30, "dead tuples: peak 900, end 30 (%llu, %llu)",
	      (unsigned long long)f->dead_tuples_peak, (unsigned long long)f->dead_tuples_end);
	CHECK_EQ(f->vacuums, 1, "vacuums: the count rose from 7 to 8 (%llu)", (unsigned long long)f->vacuums);
	CHECK_EQ(f->xmin_age_max, 4000, "the oldest transaction: 4000 (%llu)", (unsigned long long)f->xmin_age_max);
	CHECK_EQ(f->wal_bytes_peak, METRIC_UNKNOWN, "no -wal file sampled: unknown");
	CHECK(isnan(r.metrics.phases.before_jps), "no snapshot: the phase figures are unknown");

	CHECK(diagnosis_write(&r, "postgresql", text, sizeof(text)), "a sampled run has a diagnosis");
	CHECK(strstr(text, "Most of the workers' server backends' sampled time was spent waiting on a row or transaction "
			   "lock held by another worker (75%).") != NULL, "it names the lock as where the time went: %s", text);
	CHECK(strstr(text, "5 blocks of the queue table at the start and 50 at the end") != NULL,
	      "it says the blocks per claim grew");
	CHECK(strstr(text, "peaked at 900 and were 30 at the end, after a vacuum") != NULL, "it says what dead tuples did");
	CHECK(strstr(text, "4000 transactions old and held the xmin horizon back") != NULL,
	      "on PostgreSQL it names the old transaction and the xmin horizon: %s", text);
	CHECK(diagnosis_write(&r, "mariadb", text, sizeof(text)) &&
	      strstr(text, "InnoDB's history list grew to 4000 committed transactions whose undo was not purged yet") &&
	      !strstr(text, "xmin") && !strstr(text, "horizon") && !strstr(text, "dead tuple younger") &&
	      strstr(text, "Most of the workers' connections' sampled time") && !strstr(text, "backends"),
	      "on MariaDB the same figure is InnoDB's history list and its purge, no xmin horizon; its sessions connections, not backends: %s", text);
	CHECK(diagnosis_write(&r, NULL, text, sizeof(text)) && !strstr(text, "4000"),
	      "of a run whose backend is not known nothing is said of the figure: %s", text);

	p[3].heap_blocks = SAMPLE_UNKNOWN;
	p[6].dead_tuples = SAMPLE_UNKNOWN;
	server_metrics_compute(&r);
	CHECK(f->dead_tuples_peak == 900 && f->dead_tuples_end == METRIC_UNKNOWN,
	      "an unknown value is left out of the peak, and an unknown last one leaves the end unknown");
	CHECK(!isnan(f->blocks_per_claim_start) && !isnan(f->blocks_per_claim_end),
	      "a sample inside a window does not matter, only its ends");
	p[0].heap_blocks = SAMPLE_UNKNOWN;
	server_metrics_compute(&r);
	CHECK(isnan(f->blocks_per_claim_start), "an unknown window end makes blocks per claim unknown");
}

/* No samples: every server figure unknown, and no diagnosis. */
static void test_no_samples(void)
{
	struct run_result r = { 0 };
	char text[64] = "x";

	server_metrics_compute(&r);
	CHECK(r.metrics.server.samples == 0 && isnan(r.metrics.server.wait_pct[WAIT_LOCK]) &&
	      r.metrics.server.dead_tuples_peak == METRIC_UNKNOWN && isnan(r.metrics.server.blocks_per_claim_start),
	      "no samples: 0 samples, every figure unknown");
	CHECK(!diagnosis_write(&r, "postgresql", text, sizeof(text)) && text[0] == '\0', "no samples: no diagnosis");
}

/*
 * A snapshot held from 1.0 s for 1.0 s over a 3 s series of 30 buckets: 10 completions a
 * bucket before it (100/s), 5 during it (50/s), 8 after it (80/s).
 */
static void test_phases(void)
{
	struct series_point series[30];
	struct phase_record phases[] = {
		{ .kind = PHASE_VACUUM, .at_ns = 500000000, .duration_ns = 10000000 },
		{ .kind = PHASE_SNAPSHOT, .at_ns = 1000000000, .duration_ns = 1000000000 },
	};
	struct run_result r = { .series = series, .n_series = 30, .phases = phases, .n_phases = 2 };
	char text[1024];

	for (int i = 0; i < 30; i++)
		series[i] = (struct series_point){ .t_ms = i * 100, .completed = i < 10 ? 10 : i < 20 ? 5 : 8 };
	server_metrics_compute(&r);
	CHECK_NEAR(r.metrics.phases.before_jps, 100.0, 1e-9, "before the snapshot: 100 jobs/s (%g)",
		   r.metrics.phases.before_jps);
	CHECK_NEAR(r.metrics.phases.during_jps, 50.0, 1e-9, "while it was held: 50 jobs/s (%g)",
		   r.metrics.phases.during_jps);
	CHECK_NEAR(r.metrics.phases.after_jps, 80.0, 1e-9, "after its release: 80 jobs/s (%g)", r.metrics.phases.after_jps);
	r.n_phases = 1;
	server_metrics_compute(&r);
	CHECK(isnan(r.metrics.phases.during_jps), "a vacuum alone is no snapshot: the phase figures are unknown");
	r.n_phases = 2;
	r.samples = (struct server_sample[]){ sample(0, 0, 0, 0, 0, 0, 0, 4) };
	r.n_samples = 1;
	server_metrics_compute(&r);
	CHECK(diagnosis_write(&r, "postgresql", text, sizeof(text)) &&
	      strstr(text, "Throughput was 100 jobs/s before the held snapshot, 50 while it was held and 80 after its "
			   "release.") != NULL, "the diagnosis says what the snapshot cost: %s", text);
	CHECK(diagnosis_write(&r, "postgresql", text, 40) && strlen(text) == 39, "a diagnosis is cut to the buffer it is given");
	r.samples[0].dead_tuples = 300;
	server_metrics_compute(&r);
	CHECK(diagnosis_write(&r, "postgresql", text, sizeof(text)) &&
	      strstr(text, "Dead tuples in the queue table grew to 300 by the end; no vacuum ran.") != NULL,
	      "dead tuples never vacuumed are said to grow to their end: %s", text);
}

/*
 * SQLite's counts from the workers: 2 workers waited 1 s and 0.5 s for the write lock in a
 * 3 s run, 25 %; their checkpoints add up; a PostgreSQL run's workers count none: unknown.
 */
static void test_lock_waits(void)
{
	struct worker_stats w[2] = {
		{ .waits_counted = true, .lock_wait_ns = 1000000000, .checkpoints = 7, .checkpoints_partial = 2 },
		{ .waits_counted = true, .lock_wait_ns = 500000000, .checkpoints = 3, .checkpoints_partial = 1 },
	};
	struct run_result r = { .per_worker = w, .workers = 2 };
	char text[1024];

	r.metrics.makespan_s = 3.0;
	server_metrics_compute(&r);
	CHECK_NEAR(r.metrics.server.lock_wait_pct, 25.0, 1e-9, "1.5 s of lock waits over 2 workers x 3 s: 25%% (%g)",
		   r.metrics.server.lock_wait_pct);
	CHECK(r.metrics.server.checkpoints == 10 && r.metrics.server.checkpoints_partial == 3,
	      "checkpoints 7 + 3, partial 2 + 1 (%llu, %llu)", (unsigned long long)r.metrics.server.checkpoints,
	      (unsigned long long)r.metrics.server.checkpoints_partial);
	r.samples = (struct server_sample[]){ { .wal_bytes = 5000000, .live_tuples = SAMPLE_UNKNOWN,
						.dead_tuples = SAMPLE_UNKNOWN, .heap_blocks = SAMPLE_UNKNOWN,
						.index_blocks = SAMPLE_UNKNOWN, .vacuums = SAMPLE_UNKNOWN,
						.xmin_age = SAMPLE_UNKNOWN } };
	r.n_samples = 1;
	server_metrics_compute(&r);
	CHECK(diagnosis_write(&r, "sqlite", text, sizeof(text)) &&
	      strstr(text, "The workers spent 25% of their time waiting for SQLite's write lock.") &&
	      strstr(text, "3 of 10 checkpoints could not copy the whole WAL"), "the diagnosis says so: %s", text);
	w[0].waits_counted = w[1].waits_counted = false;
	server_metrics_compute(&r);
	CHECK(isnan(r.metrics.server.lock_wait_pct) && r.metrics.server.checkpoints == METRIC_UNKNOWN,
	      "a driver that counts nothing leaves them unknown");
}

int main(void)
{
	test_lock_waits();
	test_samples();
	test_no_samples();
	test_phases();
	return check_exit_status();
}
