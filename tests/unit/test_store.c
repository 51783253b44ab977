/*
 * Unit test of the result store: two hand-made runs appended to a temporary
 * file and read back field by field (its server samples, timeline phases and --verify
 * differences too, at the edges of their fields) and through every printer; the history
 * listing; a rolled-back append; migrating a version 1 and a version 5 file (the
 * machine's load and steal columns added, the old run's unknown, its engine its
 * invocation's backend and server version); a
 * metric column the file lacks added at open, its old rows unknown; refusing a
 * newer file and a foreign one; creating the default directory. The files are
 * inspected through a connection of the test's own.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "print_capture.h"
#include "store_files.h"
#include "model/faults.h"
#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "output/results_print.h"
#include "store/store.h"

#define ODD_STRATEGY "say \"hi\", \\ok\tnow"	/* needs escaping in JSON, quoting in CSV */
#define BIG_SEED 0xfedcba9876543210ULL		/* past INT64_MAX: the bits must survive */

/* The temporary directory every file of the test lives in. */
static char tmpdir[] = "/tmp/claimbench-unit-store-XXXXXX";

/* Writes tmpdir/name into buf. */
static void tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

/* A time series of three buckets, every column distinct and non-zero, backlog past 2^63 in the last. */
static struct series_point first_series[] = {
	{ .t_ms = 0, .completed = 40, .first_completed = 38, .empty_claims = 56, .errors = 1, .enqueued = 20, .backlog = 3 },
	{ .t_ms = 100, .completed = 19, .first_completed = 17, .empty_claims = 64, .errors = 2, .enqueued = 21,
	  .backlog = 2 },
	{ .t_ms = 200, .completed = 7, .first_completed = 6, .empty_claims = 5, .errors = 4, .enqueued = 9,
	  .backlog = UINT64_MAX },
};

/* A guarded run's holders over time: two resources of two buckets, the counts at their widest. */
static struct holder_point second_holders[] = {
	{ .t_ms = 0, .resource = 0, .holders = 2, .waiting = 5 },
	{ .t_ms = 100, .resource = 0, .holders = 1, .waiting = UINT32_MAX },
	{ .t_ms = 0, .resource = 1, .holders = UINT32_MAX, .waiting = 0 },
	{ .t_ms = 100, .resource = 1, .holders = 3, .waiting = 7 },
};

/* The second run's server samples: wait counts at their widest, sampled figures unknown, 0 and huge. */
static struct server_sample second_samples[] = {
	{ .t_ms = 0, .waits = { 1, 0, UINT32_MAX, 3, 4, 5 }, .live_tuples = SAMPLE_UNKNOWN, .dead_tuples = 0,
	  .heap_blocks = INT64_MAX, .index_blocks = 7, .vacuums = SAMPLE_UNKNOWN, .xmin_age = 12, .wal_bytes = 1 << 20,
	  .claims = UINT64_MAX },
	{ .t_ms = 250, .waits = { 0 }, .live_tuples = 100, .dead_tuples = SAMPLE_UNKNOWN, .heap_blocks = 0,
	  .index_blocks = SAMPLE_UNKNOWN, .vacuums = 2, .xmin_age = SAMPLE_UNKNOWN, .wal_bytes = SAMPLE_UNKNOWN,
	  .claims = 9 },
};

/* The second run's timeline: a clean phase measured, an idle-in-tx one with NaN and unknown figures. */
static struct timeline_phase second_timeline[] = {
	{ .name = "clean", .kind = TIMELINE_CLEAN, .arg = 0, .start_ns = 0, .end_ns = 1000000000,
	  .throughput_median = 98.5, .throughput_p10 = 90, .latency_p50_ms = 1.25, .latency_p99_ms = 4,
	  .latency_max_ms = 9.5, .depth_start = 0, .depth_end = 3, .depth_max = 7, .dead_start = 10, .dead_end = 12,
	  .xmin_age_max = 4, .errors = 0, .arrivals = 100, .completed = 99, .recovery_s = NAN,
	  .readers_seen = TIMELINE_UNKNOWN, .readers_repeatable = TIMELINE_UNKNOWN, .reader_scans = TIMELINE_UNKNOWN,
	  .xid = TIMELINE_UNKNOWN, .pool_held = TIMELINE_UNKNOWN, .pool_refused = TIMELINE_UNKNOWN,
	  .pool_seen = TIMELINE_UNKNOWN },
	{ .name = "idle-in-tx", .kind = TIMELINE_IDLE_IN_TX, .arg = 0.5, .start_ns = 1000000000,
	  .end_ns = INT64_MAX, .throughput_median = NAN, .throughput_p10 = -INFINITY, .latency_p50_ms = 0,
	  .latency_p99_ms = NAN, .latency_max_ms = INFINITY, .depth_start = -5, .depth_end = INT64_MAX,
	  .depth_max = 0, .dead_start = TIMELINE_UNKNOWN, .dead_end = 0, .xmin_age_max = TIMELINE_UNKNOWN,
	  .errors = 2, .arrivals = 0, .completed = 1, .recovery_s = 0.75, .readers_seen = 0,
	  .readers_repeatable = 3, .reader_scans = INT64_MAX, .xid = 123456, .faults = 4, .pool_held = 190,
	  .pool_refused = 0, .pool_seen = TIMELINE_UNKNOWN },
};

/* Three faults: a crash and a stall on jobs, a server restart (no worker, no job). */
static struct fault_record first_faults[] = {
	{ .at_ns = 1500000, .job_id = 17, .kind = FAULT_CRASH, .worker = 2 },
	{ .at_ns = 2500000000LL, .job_id = 150, .kind = FAULT_STALL, .worker = 0 },
	{ .at_ns = 3000000001LL, .duration_ns = 350000000, .job_id = 0, .kind = FAULT_RESTART, .worker = -1 },
};

/* The metrics a version 5 file's runs table has no column for: they read back unknown. */
static const char *const after_v5[] = {
	"deliveries", "race_duplicates", "integrity_errors", "claims_lost_in_flight", "completions_unknown", "overwritten_completions",
	"redeliveries_restart", "redeliveries_killed_backend", "redeliveries_failover", "redelivered_unbegun",
	"errors.statement_timeout", "errors.lock_wait_timeout", "faults_injected", "stuck", "redeliveries", "redeliveries_crash",
	"redeliveries_lease", "redeliveries_reaper", "redeliveries_stale_ticket", "zombie_completions", "fenced",
	"reaped", "reconnects",
	"recovery_ms.p50", "recovery_ms.max", "restart_first_completion_ms", "delivery.at_most_once",
	"failover.lag_bytes", "failover.lag_ms", "failover.lost_completions", "failover.rerun", "failover.left_active", "failover.claims_lost",
	"failover.first_completion_ms",
	"delivery.at_least_once", "makespan_ratio", "jobs_total", "end_to_end_ms.p50", "end_to_end_ms.p90",
	"end_to_end_ms.p99", "end_to_end_ms.p999", "end_to_end_ms.max", "backlog_end", "server.samples",
	"server.wait_cpu_pct", "server.wait_lock_pct", "server.wait_lwlock_pct", "server.wait_io_pct",
	"server.wait_client_pct", "server.wait_other_pct", "server.blocks_per_claim_start",
	"server.blocks_per_claim_end", "server.dead_tuples_peak", "server.dead_tuples_end", "server.vacuums",
	"server.xmin_age_max", "server.wal_bytes_peak", "server.head_buffers_before", "server.head_buffers_after",
	"server.table_bytes_before", "server.table_bytes_after", "server.index_bytes_before",
	"server.index_bytes_after", "server.locks_left", "server.lock_wait_pct", "server.checkpoints",
	"server.checkpoints_partial", "mvcc.throughput_before_jps", "mvcc.throughput_during_jps",
	"mvcc.throughput_after_jps", "guarded.grants", "guarded.grants_per_s", "guarded.timeouts", "guarded.refusals",
	"guarded.starved", "guarded.expired", "guarded.abandoned", "guarded.polls_per_grant", "guarded.periods",
	"guarded.refreshes", "guarded.duplicate_refreshes", "guarded.refreshes_per_period", "guarded.waited_skips",
	"guarded.stale_uses", "guarded.torn_uses", "guarded.max_holders", "guarded.max_exclusive", "guarded.max_shared",
	"guarded.violations", "guarded.fifo_inversions", "guarded.wait_ms.p50", "guarded.wait_ms.p90",
	"guarded.wait_ms.p99", "guarded.wait_ms.p999", "guarded.wait_ms.max", "guarded.writer_wait_ms.p50",
	"guarded.writer_wait_ms.p90", "guarded.writer_wait_ms.p99", "guarded.writer_wait_ms.p999",
	"guarded.writer_wait_ms.max", "costs.statements_per_job", "costs.round_trips_per_job",
	"costs.buffers_hit_per_job", "costs.buffers_read_per_job", "costs.pages_written_per_job",
	"costs.wal_records_per_job", "costs.wal_bytes_per_job", "costs.rows_examined_per_job", "costs.cpu_us_per_job",
	"costs.innodb_row_lock_waits", "costs.innodb_row_lock_time_ms", "costs.innodb_deadlocks",
	"costs.database_wide", "dry.ran_dry", "dry.at_s", "dry.empty_after", "machine.load_start", "machine.load_end",
	"machine.steal_pct", "machine.cores", "machine.overloaded",
};

/* Fills the first run: every metric and per-worker counter distinct and non-zero, latencies recorded. */
static void fill_first(struct run_result *run)
{
	struct run_metrics *m = &run->metrics;
	struct worker_stats *w;
	int i, k;

	run->strategy = "skip-locked";
	run->claim_mode = "hold";
	run->workers = 3;
	run->jobs = 200;
	run->work_ms = 100.25;
	run->work_dist = "uniform";
	run->duration_s = 0;
	run->repeat = 1;
	run->complete = true;
	m->makespan_s = 2.718281828459045;
	m->ideal_s = 2.0;
	m->throughput_jps = 73.57588823428847;
	m->completed = 200;
	m->executions = 203;
	m->duplicates = 3;
	m->dup_jobs = 2;
	m->overlaps = 1;
	m->lost = 4;
	m->empty_claims = 5;
	m->spurious_empties = 6;
	m->retries = 7;
	m->give_ups = 8;
	m->ledger_mismatches = 9;
	m->errors_total = 0;
	for (k = 0; k < ERR_KIND_COUNT; k++) {
		m->errors[k] = 10 + (uint64_t)k;
		m->errors_total += m->errors[k];
	}
	m->fairness = (struct fairness){ .jain = 0.987654321, .min = 60, .max = 71, .cv = 0.0712345 };
	m->claim_latency_ms = (struct latency_summary){ 0.125, 0.5, 1.0 / 3.0, 2.5, 1000.0 };
	m->queue_wait_ms = (struct latency_summary){ 1.25, 5.5, 13.0 / 7.0, 14.25, 99.5 };
	m->arrivals = 200;
	m->arrivals_late = 11;
	m->arrival_late_max_ms = 2.0 / 3.0;
	m->faults_injected = 3;
	m->stuck = 12;
	m->redeliveries = 13;
	m->zombie_completions = 14;
	m->fenced = 15;
	m->reaped = 16;
	m->reconnects = 17;
	m->recovery_ms = (struct recovery_summary){ .p50 = 31.25, .max = 1234.5 };
	m->restart_first_completion_ms = 842.125;
	m->delivery = (struct delivery){ .at_most_once = 0, .at_least_once = 1 };
	m->guarded = (struct guard_figures){
		.grants = 401, .grants_per_s = 40.1, .timeouts = 41, .refusals = 42, .starved = 43, .expired = 44,
		.abandoned = 45, .polls_per_grant = 1.75, .periods = 46, .refreshes = 47, .duplicate_refreshes = 48,
		.refreshes_per_period = 47.0 / 3.0, .waited_skips = 49, .stale_uses = 50, .torn_uses = 51,
		.max_holders = 52, .max_exclusive = 53, .max_shared = 54, .violations = 55, .fifo_inversions = 56,
		.wait_ms = { 2.125, 3.5, 17.0 / 3.0, 8.25, 9.5 }, .writer_wait_ms = { 4.125, 5.5, 19.0 / 7.0, 10.25, 11.5 },
	};
	run->faults = first_faults;
	run->n_faults = sizeof(first_faults) / sizeof(first_faults[0]);
	run->arrival_rate = 212.5;
	run->series = first_series;
	run->n_series = sizeof(first_series) / sizeof(first_series[0]);
	for (i = 0; i < run->workers; i++) {
		w = &run->per_worker[i];
		w->completed = 60 + (uint64_t)i * 5;
		w->claims = 70 + (uint64_t)i;
		w->empty = 1 + (uint64_t)i;
		w->retries = 2 + (uint64_t)i;
		w->give_ups = 3 + (uint64_t)i;
		for (k = 0; k < ERR_KIND_COUNT; k++)
			w->errors[k] = (uint64_t)(i * ERR_KIND_COUNT + k);
		w->busy_ns = 6000000000LL + i;
		w->reconnects = 20 + (uint64_t)i;
		hist_init(&w->claim_latency);
	}
	hist_record(&run->per_worker[0].claim_latency, 100);
	hist_record(&run->per_worker[0].claim_latency, 5000);
	hist_record(&run->per_worker[0].claim_latency, 1000000);
	hist_record(&run->per_worker[1].claim_latency, 5000);
	hist_record(&run->per_worker[1].claim_latency, 1000000000);
}

/*
 * Fills the second run: an odd name, an interrupted timed run, NaN and infinite figures, huge and unknown
 * counters, a holders series.
 */
static void fill_second(struct run_result *run)
{
	struct run_metrics *m = &run->metrics;

	run->strategy = ODD_STRATEGY;
	run->claim_mode = "flip";
	run->workers = 2;
	run->jobs = 20;
	run->work_ms = 0.5;
	run->work_dist = "exp";
	run->duration_s = 30;
	run->repeat = 2;
	run->complete = false;
	m->makespan_s = NAN;
	m->ideal_s = 1.0;
	m->throughput_jps = INFINITY;
	m->completed = UINT64_MAX - 1;
	m->executions = (uint64_t)INT64_MAX + 1;
	m->ledger_mismatches = METRIC_UNKNOWN;
	m->errors[ERR_DEADLOCK] = 1;
	m->errors[ERR_OTHER] = 2;
	m->errors_total = 3;
	m->fairness = (struct fairness){ .jain = 0.75, .min = 5, .max = 14, .cv = NAN };
	m->claim_latency_ms = (struct latency_summary){ 12, 40, 1500, NAN, -INFINITY };
	m->queue_wait_ms = (struct latency_summary){ NAN, 0, 0, 0, INFINITY };
	run->per_worker[0] = (struct worker_stats){ .completed = 14, .claims = 16, .retries = 7, .busy_ns = -1 };
	run->per_worker[1] = (struct worker_stats){ .completed = 5, .claims = 6, .give_ups = 1, .errors = { 0, 3 } };
	run->holders = second_holders;
	run->n_holders = sizeof(second_holders) / sizeof(second_holders[0]);
	run->samples = second_samples;
	run->n_samples = sizeof(second_samples) / sizeof(second_samples[0]);
	run->timeline = second_timeline;
	run->n_timeline = sizeof(second_timeline) / sizeof(second_timeline[0]);
	run->verify = (struct verify_outcome){ .verified = true, .in_doubt = 2, .n_diffs = 2, .diffs = {
		{ .figure = "completed", .ledger = 99, .server = 98, .jobs = "17 18" },
		{ .figure = "duplicates", .ledger = -1, .server = INT64_MAX, .jobs = "" } } };
}


/* Whether two doubles are the same figure: equal, or both NaN. */
static bool same_dbl(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* Whether two strings are equal, NULL matching only NULL. */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether timeline phases a and b hold the same figures, NaN matching NaN. */
static bool same_phase(const struct timeline_phase *a, const struct timeline_phase *b)
{
	return strcmp(a->name, b->name) == 0 && a->kind == b->kind && same_dbl(a->arg, b->arg) &&
	       a->start_ns == b->start_ns && a->end_ns == b->end_ns &&
	       same_dbl(a->throughput_median, b->throughput_median) && same_dbl(a->throughput_p10, b->throughput_p10) &&
	       same_dbl(a->latency_p50_ms, b->latency_p50_ms) && same_dbl(a->latency_p99_ms, b->latency_p99_ms) &&
	       same_dbl(a->latency_max_ms, b->latency_max_ms) && a->depth_start == b->depth_start &&
	       a->depth_end == b->depth_end && a->depth_max == b->depth_max && a->dead_start == b->dead_start &&
	       a->dead_end == b->dead_end && a->xmin_age_max == b->xmin_age_max && a->errors == b->errors &&
	       a->arrivals == b->arrivals && a->completed == b->completed && same_dbl(a->recovery_s, b->recovery_s) &&
	       a->readers_seen == b->readers_seen && a->readers_repeatable == b->readers_repeatable &&
	       a->reader_scans == b->reader_scans && a->xid == b->xid && a->faults == b->faults &&
	       a->pool_held == b->pool_held && a->pool_refused == b->pool_refused && a->pool_seen == b->pool_seen;
}

/* Whether every field of two runs but the per-worker histograms is equal; the first that is not in *field. */
static bool same_run(const struct run_result *a, const struct run_result *b, const char **field)
{
	const struct run_metrics *x = &a->metrics, *y = &b->metrics;
	const struct worker_stats *v, *w;
	int i, k;

#define SAME(cond, name)                 \
	do {                             \
		if (!(cond)) {           \
			*field = (name); \
			return false;    \
		}                        \
	} while (0)
	SAME(same_str(a->strategy, b->strategy), "strategy");
	SAME(same_str(a->claim_mode, b->claim_mode), "claim_mode");
	SAME(a->workers == b->workers, "workers");
	SAME(a->jobs == b->jobs, "jobs");
	SAME(same_dbl(a->work_ms, b->work_ms), "work_ms");
	SAME(same_str(a->work_dist, b->work_dist), "work_dist");
	SAME(same_dbl(a->duration_s, b->duration_s), "duration_s");
	SAME(a->repeat == b->repeat, "repeat");
	SAME(a->complete == b->complete, "complete");
	for (const struct metric *m = metric_table; m < metric_table + metric_table_len; m++)
		SAME(m->type == METRIC_DOUBLE ? same_dbl(metric_get(m, x), metric_get(m, y)) :
		     metric_get_count(m, x) == metric_get_count(m, y), m->path);
	SAME(same_dbl(a->arrival_rate, b->arrival_rate), "arrival_rate");
	SAME(a->n_series == b->n_series, "series length");
	for (size_t j = 0; j < a->n_series; j++)
		SAME(memcmp(&a->series[j], &b->series[j], sizeof(a->series[j])) == 0, "series bucket");
	SAME(a->n_holders == b->n_holders, "holders length");
	for (size_t j = 0; j < a->n_holders; j++)
		SAME(a->holders[j].t_ms == b->holders[j].t_ms && a->holders[j].resource == b->holders[j].resource &&
		     a->holders[j].holders == b->holders[j].holders && a->holders[j].waiting == b->holders[j].waiting,
		     "holders bucket");
	SAME(a->n_samples == b->n_samples, "samples length");
	for (size_t j = 0; j < a->n_samples; j++)
		SAME(memcmp(&a->samples[j], &b->samples[j], sizeof(a->samples[j])) == 0, "a server sample");
	SAME(a->n_timeline == b->n_timeline, "timeline length");
	for (size_t j = 0; j < a->n_timeline; j++)
		SAME(same_phase(&a->timeline[j], &b->timeline[j]), "a timeline phase");
	SAME(a->verify.verified == b->verify.verified && a->verify.in_doubt == b->verify.in_doubt, "verified");
	SAME(a->verify.n_diffs == b->verify.n_diffs, "verify differences length");
	for (size_t j = 0; j < a->verify.n_diffs; j++)
		SAME(strcmp(a->verify.diffs[j].figure, b->verify.diffs[j].figure) == 0 &&
		     a->verify.diffs[j].ledger == b->verify.diffs[j].ledger &&
		     a->verify.diffs[j].server == b->verify.diffs[j].server &&
		     strcmp(a->verify.diffs[j].jobs, b->verify.diffs[j].jobs) == 0, "a verify difference");
	SAME(a->n_faults == b->n_faults, "faults length");
	for (size_t j = 0; j < a->n_faults; j++)
		SAME(memcmp(&a->faults[j], &b->faults[j], sizeof(a->faults[j])) == 0, "a fault");
	SAME(a->n_params == b->n_params, "params length");
	for (size_t j = 0; j < a->n_params; j++)
		SAME(same_str(a->params[j].name, b->params[j].name) && same_str(a->params[j].value, b->params[j].value),
		     "a parameter");
	SAME(a->per_worker && b->per_worker, "per_worker present");
	for (i = 0; i < a->workers; i++) {
		v = &a->per_worker[i];
		w = &b->per_worker[i];
		SAME(v->completed == w->completed, "worker completed");
		SAME(v->claims == w->claims, "worker claims");
		SAME(v->empty == w->empty, "worker empty");
		SAME(v->retries == w->retries, "worker retries");
		SAME(v->give_ups == w->give_ups, "worker give_ups");
		SAME(v->busy_ns == w->busy_ns, "worker busy_ns");
		SAME(v->reconnects == w->reconnects, "worker reconnects");
		for (k = 0; k < ERR_KIND_COUNT; k++)
			SAME(v->errors[k] == w->errors[k], "worker errors");
	}
#undef SAME
	*field = "none";
	return true;
}

/* Whether printer prints a and b the same way. */
static bool same_print(int (*printer)(FILE *, const struct invocation_result *), const struct invocation_result *a,
		       const struct invocation_result *b)
{
	char *x = print_to_string(printer, a), *y = print_to_string(printer, b);
	bool same = x && y && strcmp(x, y) == 0;

	free(x);
	free(y);
	return same;
}

/* Whether the first column of sql's first row on db is the text want. */
static bool query_is(sqlite3 *db, const char *sql, const char *want)
{
	sqlite3_stmt *st;
	bool same = false;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	if (sqlite3_step(st) == SQLITE_ROW)
		same = same_str((const char *)sqlite3_column_text(st, 0), want);
	sqlite3_finalize(st);
	return same;
}

/* Whether run_id's stored latency bins are exactly the non-empty bins of the workers' merged histograms. */
static bool bins_match(sqlite3 *db, long long run_id, const struct run_result *run)
{
	static struct histogram merged;
	sqlite3_stmt *st;
	bool same = true;
	int i, bin = 0;

	hist_init(&merged);
	for (i = 0; i < run->workers; i++)
		hist_merge(&merged, &run->per_worker[i].claim_latency);
	if (sqlite3_prepare_v2(db, "SELECT bin_upper_ns, count FROM run_latency_bins WHERE run_id = ?"
			       " ORDER BY bin_upper_ns", -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(st, 1, run_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		while (bin < HIST_BINS && !merged.bins[bin])
			bin++;
		if (bin == HIST_BINS || sqlite3_column_int64(st, 0) != hist_bin_upper(bin) ||
		    (uint64_t)sqlite3_column_int64(st, 1) != merged.bins[bin])
			same = false;
		bin++;
	}
	while (bin < HIST_BINS && !merged.bins[bin])
		bin++;
	sqlite3_finalize(st);
	return same && bin == HIST_BINS;
}

/* Appends two runs, reads them back and compares them every way. */
static void test_round_trip(void)
{
	const struct store_context ctx = {
		.host = "testhost",
		.version = "0.1.0",
		.git_revision = "abc1234",
		.scenario_text = "jobs = 200\nworkers = 10\n",
		.command = "run",
	};
	struct worker_stats workers1[3], workers2[2];
	struct run_result runs[2] = { { .per_worker = workers1 }, { .per_worker = workers2 } };
	struct invocation_result r = {
		.version = "0.1.0",
		.scenario = "classic",
		.backend = "postgresql",
		.server_version = "16.2 (Debian 16.2-1)",
		.settings = { { "synchronous_commit", "on" }, { "max_connections", "100" } },
		.n_settings = 2,
		.started_at = "2024-05-01T10:00:00Z",
		.seed = BIG_SEED,
		.results = runs,
		.n_results = 2,
	};
	struct store_session session = { 0 };
	struct store_run loaded = { 0 };
	struct invocation_result one;
	long long ids[2] = { 0, 0 }, runs_before;
	char path[256], err[512], newest[24], *list;
	const char *field;
	struct store *st;
	sqlite3 *db;
	int i, rc;

	memset(workers1, 0, sizeof(workers1));
	memset(workers2, 0, sizeof(workers2));
	fill_first(&runs[0]);
	fill_second(&runs[1]);
	runs[0].verify = (struct verify_outcome){
		.verified = true, .in_doubt = 2, .n_diffs = 2,
		.diffs = { { "completed", 28, 40, "3 6 9" }, { "zombie_completions", 3, 0, "" } },
	};
	if (run_param_add(&runs[0], "work-ms", "100.25") < 0 || run_param_add(&runs[0], "note", "a = b, \"c\"") < 0)
		return;
	tmp_path(path, sizeof(path), "round-trip.db");
	rc = store_open(path, &st, err, sizeof(err));
	CHECK_EQ(rc, 0, "a new store opens (%s)", rc ? err : "");
	if (rc)
		return;
	sqlite3_open(path, &db);
	CHECK_EQ(query_int(db, "PRAGMA user_version"), store_schema_version, "a new store is at schema version %d",
	      store_schema_version);
	CHECK(query_is(db, "PRAGMA journal_mode", "wal"), "the store is in WAL mode");

	for (i = 0; i < 2; i++) {
		rc = store_append(st, &session, &ctx, &r, &runs[i], &ids[i], err, sizeof(err));
		CHECK(rc == 0 && ids[i] > 0, "run %d is appended (%s)", i + 1, rc ? err : "");
	}
	CHECK(ids[1] > ids[0], "run ids grow");
	CHECK_EQ(query_int(db, "SELECT count(*) FROM run_params"), 2, "run 1's two parameters are stored");
	CHECK(query_int(db, "SELECT count(*) FROM runs WHERE ledger_mismatches IS NULL") == 1 &&
	      query_int(db, "SELECT errors_total FROM runs WHERE workers = 3") == 126,
	      "an unknown count is stored as NULL; errors_total as a column");
	CHECK_EQ(query_int(db, "SELECT count(*) FROM invocations"), 1, "both runs share one invocation row");
	CHECK_EQ(query_int(db, "SELECT count(*) FROM invocation_settings"), 2, "the settings are stored once");
	CHECK_EQ(query_int(db, "SELECT count(*) FROM run_samples WHERE live_tuples IS NULL AND dead_tuples = 0 AND "
			   "wait_lwlock = 4294967295 AND claims = -1"), 1,
		 "a sample's unknown figure is NULL, its wait counts and its claims (UINT64_MAX's bits) as they were");
	CHECK_EQ(query_int(db, "SELECT count(*) FROM run_timeline WHERE xid IS NULL AND recovery_s IS NULL AND "
			   "kind = 'clean'"), 1, "a timeline phase's unknown count and its NaN are NULL");
	CHECK_EQ(query_int(db, "SELECT count(*) FROM run_verify_differences WHERE figure = 'duplicates' AND "
			   "ledger = -1 AND jobs = ''"), 1, "a --verify difference is stored as it was");
	CHECK(bins_match(db, ids[0], &runs[0]), "the merged latency histogram is stored as its non-empty bins");
	CHECK_EQ(query_int(db, "SELECT count(*) FROM run_latency_bins r JOIN runs ON runs.id = r.run_id"
			    " WHERE runs.workers = 2"), 0, "a run without latencies stores no bins");
	CHECK(query_int(db, "SELECT count(*) FROM run_holders") == 4 &&
	      query_int(db, "SELECT count(*) FROM run_holders h JOIN runs ON runs.id = h.run_id"
			    " WHERE runs.workers = 3") == 0,
	      "the guarded run's holders series is stored row by row; the queue run stores none");

	for (i = 0; i < 2; i++) {
		rc = store_load(st, ids[i], &loaded, err, sizeof(err));
		CHECK_EQ(rc, 0, "run %d loads (%s)", i + 1, rc ? err : "");
		if (rc)
			continue;
		CHECK(loaded.run.run_id == ids[i] && loaded.recorded_at[0] == '2', "run %d: id and storage time", i + 1);
		CHECK(same_run(&runs[i], &loaded.run, &field), "run %d: every field equal (first different: %s)",
		      i + 1, field);
		CHECK(loaded.run.verify.verified == runs[i].verify.verified &&
		      loaded.run.verify.in_doubt == runs[i].verify.in_doubt &&
		      loaded.run.verify.n_diffs == runs[i].verify.n_diffs &&
		      (i == 1 || (strcmp(loaded.run.verify.diffs[0].figure, "completed") == 0 &&
				  loaded.run.verify.diffs[0].ledger == 28 && loaded.run.verify.diffs[0].server == 40 &&
				  strcmp(loaded.run.verify.diffs[0].jobs, "3 6 9") == 0 &&
				  strcmp(loaded.run.verify.diffs[1].jobs, "") == 0)),
		      "run %d: %s", i + 1, i == 1 ? "not verified" : "--verify's outcome and differences come back");
		CHECK(i == 1 ? loaded.run.n_holders == 4 : loaded.run.holders == NULL && loaded.run.n_holders == 0,
		      "run %d: %s", i + 1, i == 1 ? "the holders series comes back" : "a queue run has no holders series");
		CHECK_EQ(loaded.run.per_worker[0].claim_latency.count, 0,
		      "run %d: per-worker histograms are not rebuilt (documented)", i + 1);
		CHECK(same_str(loaded.report.version, r.version) && same_str(loaded.report.scenario, r.scenario) &&
		      same_str(loaded.report.backend, r.backend) &&
		      strcmp(loaded.report.server_version, r.server_version) == 0 &&
		      strcmp(loaded.report.started_at, r.started_at) == 0 && loaded.report.seed == BIG_SEED,
		      "run %d: the report header is equal, the 64-bit seed too", i + 1);
		CHECK(same_str(loaded.ctx.host, ctx.host) && same_str(loaded.ctx.version, ctx.version) &&
		      same_str(loaded.ctx.git_revision, ctx.git_revision) &&
		      same_str(loaded.ctx.scenario_text, ctx.scenario_text),
		      "run %d: host, version, git revision and scenario text are equal", i + 1);
		CHECK(loaded.report.n_settings == 2 &&
		      memcmp(loaded.report.settings, r.settings, 2 * sizeof(r.settings[0])) == 0,
		      "run %d: the settings come back in order", i + 1);
		one = r;
		one.results = &runs[i];
		one.n_results = 1;
		one.invocation_id = loaded.report.invocation_id;
		runs[i].run_id = ids[i];
		CHECK(same_print(results_print_json, &one, &loaded.report), "run %d: JSON identical", i + 1);
		CHECK(same_print(results_print_csv, &one, &loaded.report), "run %d: CSV identical", i + 1);
		CHECK(same_print(results_print_table, &one, &loaded.report), "run %d: table identical", i + 1);
		store_run_free(&loaded);
	}
	CHECK(loaded.strings == NULL && loaded.run.per_worker == NULL, "store_run_free empties the record");
	rc = store_load(st, ids[1] + 100, &loaded, err, sizeof(err));
	CHECK_EQ(rc, 1, "loading a run that does not exist returns 1");

	list = history_text(st, 0);
	snprintf(newest, sizeof(newest), "\n%6lld ", ids[1]);
	CHECK(list && strstr(list, "makespan_s") && strstr(list, newest) &&
	      strstr(list, newest) < strstr(list, "skip-locked"), "history lists both runs, newest first");
	CHECK(list && strstr(list, "say \"hi\", \\ok?now") && strstr(list, " no        -             run\n") &&
	      strstr(list, " yes       -             run\n") && strstr(list, "complete  section       command\n"),
	      "history shows control characters as '?', whether each run completed, its section ('-': none) and "
	      "that run made it");
	free(list);
	list = history_text(st, 1);
	CHECK(list && !strstr(list, "skip-locked") && strstr(list, "flip"), "history with limit 1 lists the newest");
	free(list);

	runs_before = query_int(db, "SELECT count(*) FROM runs");
	session.invocation_id = 1000000;
	rc = store_append(st, &session, &ctx, &r, &runs[0], NULL, err, sizeof(err));
	CHECK(rc < 0 && query_int(db, "SELECT count(*) FROM runs") == runs_before &&
	      query_int(db, "SELECT count(*) FROM run_workers") == 5 &&
	      query_int(db, "SELECT count(*) FROM run_params") == 2,
	      "an append that fails (unknown invocation) leaves nothing behind (%s)", err);
	sqlite3_close(db);
	store_close(st);
	run_params_free(&runs[0]);
	remove_store(path);
}

/* A version 1 file with one run opens, is migrated to the current version and its run still loads. */
static void test_migration_v1(void)
{
	static const char v1_run[] =
		"INSERT INTO invocations (id, started_at, host, claimbench_version, git_revision, scenario,"
		" scenario_text, backend, server_version, seed)"
		" VALUES (1, '2023-01-02T03:04:05Z', 'oldhost', '0.0.9', 'unknown', 'classic', NULL,"
		" 'postgresql', '15.4', 42);"
		"INSERT INTO runs (id, invocation_id, strategy, claim_mode, workers, jobs, work_ms, work_dist,"
		" duration_s, repeat, complete, makespan_s, ideal_s, throughput_jps, completed, executions,"
		" duplicates, dup_jobs, overlaps, lost, empty_claims, spurious_empties, retries, give_ups,"
		" ledger_mismatches, jain, fairness_min, fairness_max, fairness_cv, latency_p50_ms,"
		" latency_p90_ms, latency_p99_ms, latency_p999_ms, latency_max_ms)"
		" VALUES (7, 1, 'for-update', 'hold', 2, 10, 100, 'fixed', 0, 1, 1, 2.5, 0.5, 4, 10, 10,"
		" 0, 0, 0, 0, 2, 0, 0, 0, 0, 0.9, 4, 6, 0.2, 1, 2, 3, 4, 5);"
		"INSERT INTO run_errors (run_id, kind, count) VALUES (7, 'deadlock', 3), (7, 'future_kind', 2);"
		"INSERT INTO run_workers (run_id, worker, completed, claims, empty, retries, give_ups, busy_ns)"
		" VALUES (7, 0, 6, 7, 1, 0, 0, 600000000), (7, 1, 4, 5, 1, 0, 0, 400000000);";
	struct store_run loaded = { 0 };
	char path[256], err[512];
	struct store *st;
	sqlite3 *db;
	int rc;

	tmp_path(path, sizeof(path), "v1.db");
	rc = sqlite3_open(path, &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, store_migrations[0], NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, v1_run, NULL, NULL, NULL);
	CHECK(rc == SQLITE_OK && query_int(db, "PRAGMA user_version") == 1,
	      "a version 1 file is made from migration 1 with a run (%s)", sqlite3_errmsg(db));
	CHECK_EQ(query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'invocation_settings'"), 0,
	      "migration 1 alone has no settings table");

	rc = store_open(path, &st, err, sizeof(err));
	CHECK_EQ(rc, 0, "the version 1 file opens (%s)", rc ? err : "");
	if (rc) {
		sqlite3_close(db);
		return;
	}
	CHECK_EQ(query_int(db, "PRAGMA user_version"), store_schema_version, "it is migrated to version %d",
	      store_schema_version);
	CHECK_EQ(query_int(db, "SELECT count(*) FROM sqlite_master"
			    " WHERE name IN ('invocation_settings', 'run_series')"), 2,
	      "migration 2 added the settings and series tables");
	CHECK_EQ(query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'run_holders'"), 1,
	      "migration 10 added the holders table");
	rc = store_load(st, 7, &loaded, err, sizeof(err));
	CHECK(rc == 0 && same_str(loaded.run.strategy, "for-update") && loaded.run.workers == 2 &&
	      loaded.run.metrics.makespan_s == 2.5 && loaded.run.metrics.claim_latency_ms.max == 5 &&
	      loaded.run.per_worker && loaded.run.per_worker[1].busy_ns == 400000000 &&
	      same_str(loaded.ctx.host, "oldhost") && loaded.ctx.scenario_text == NULL && loaded.report.n_settings == 0,
	      "the old run still loads (%s)", rc ? err : "");
	CHECK(rc == 0 && loaded.run.metrics.errors[ERR_DEADLOCK] == 3 && loaded.run.metrics.errors[ERR_OTHER] == 2,
	      "an error kind this binary does not know counts as other");
	CHECK(rc == 0 && loaded.run.metrics.errors_total == 5 &&
	      loaded.run.metrics.errors[ERR_LOCK_NOT_AVAILABLE] == METRIC_UNKNOWN,
	      "errors_total sums the kinds stored; a kind the file has no count of is unknown");
	CHECK(rc == 0 && !loaded.run.verify.verified && loaded.run.verify.n_diffs == 0,
	      "an old run reads as not verified");
	CHECK(rc == 0 && loaded.run.metrics.arrivals == 0 && isnan(loaded.run.metrics.queue_wait_ms.p50),
	      "columns a later migration added read as that migration left them (arrivals 0, queue wait NULL)");
	store_run_free(&loaded);
	store_close(st);
	sqlite3_close(db);
	remove_store(path);
}

/* Appends fmt's text to buf (size bytes) at *used; what does not fit is left out. */
static void add_sql(char *buf, size_t size, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_sql(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < size - *used)
		*used += (size_t)n;
}

/* Writes into buf the rows version 5 of the store held for run (as run 3 of invocation 1), the way claimbench 5 wrote them. */
static void v5_rows(char *buf, size_t size, const struct run_result *run, const struct invocation_result *r)
{
	const struct run_metrics *m = &run->metrics;
	size_t used = 0;
	int i, k;

	add_sql(buf, size, &used, "INSERT INTO invocations (id, started_at, host, claimbench_version, git_revision,"
		" scenario, scenario_text, backend, server_version, seed) VALUES (1, '%s', 'v5host', '0.5.0', 'abc',"
		" '%s', 'jobs = 200', '%s', '%s', %lld);", r->started_at, r->scenario, r->backend, r->server_version,
		(long long)r->seed);
	for (i = 0; i < (int)r->n_settings; i++)
		add_sql(buf, size, &used, "INSERT INTO invocation_settings VALUES (1, %d, '%s', '%s');", i,
			r->settings[i].name, r->settings[i].value);
	add_sql(buf, size, &used, "INSERT INTO runs (id, invocation_id, strategy, claim_mode, workers, jobs, work_ms,"
		" work_dist, duration_s, repeat, complete, makespan_s, ideal_s, throughput_jps, completed, executions,"
		" duplicates, dup_jobs, overlaps, lost, empty_claims, spurious_empties, retries, give_ups,"
		" ledger_mismatches, jain, fairness_min, fairness_max, fairness_cv, latency_p50_ms, latency_p90_ms,"
		" latency_p99_ms, latency_p999_ms, latency_max_ms, run_group, sweep, arrival_rate, arrivals,"
		" arrivals_late, arrival_late_max_ms, queue_wait_p50_ms, queue_wait_p90_ms, queue_wait_p99_ms,"
		" queue_wait_p999_ms, queue_wait_max_ms, failed) VALUES (3, 1, '%s', '%s', %d, %ld, %.17g, '%s', %.17g,"
		" %d, %d, %.17g, %.17g, %.17g, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld,"
		" %.17g, %lld, %lld, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g, 'grp', 'w=3', %.17g, %lld, %lld, %.17g,"
		" %.17g, %.17g, %.17g, %.17g, %.17g, %lld);",
		run->strategy, run->claim_mode, run->workers, run->jobs, run->work_ms, run->work_dist, run->duration_s,
		run->repeat, run->complete, m->makespan_s, m->ideal_s, m->throughput_jps, (long long)m->completed,
		(long long)m->executions, (long long)m->duplicates, (long long)m->dup_jobs, (long long)m->overlaps,
		(long long)m->lost, (long long)m->empty_claims, (long long)m->spurious_empties, (long long)m->retries,
		(long long)m->give_ups, (long long)m->ledger_mismatches, m->fairness.jain, (long long)m->fairness.min,
		(long long)m->fairness.max, m->fairness.cv, m->claim_latency_ms.p50, m->claim_latency_ms.p90,
		m->claim_latency_ms.p99, m->claim_latency_ms.p999, m->claim_latency_ms.max, run->arrival_rate,
		(long long)m->arrivals, (long long)m->arrivals_late, m->arrival_late_max_ms, m->queue_wait_ms.p50,
		m->queue_wait_ms.p90, m->queue_wait_ms.p99, m->queue_wait_ms.p999, m->queue_wait_ms.max,
		(long long)m->failed);
	for (k = 0; k < ERR_KIND_COUNT; k++)	/* statement_timeout and lock_wait_timeout came after version 5 */
		if (k != ERR_STATEMENT_TIMEOUT && k != ERR_LOCK_WAIT_TIMEOUT)
			add_sql(buf, size, &used, "INSERT INTO run_errors VALUES (3, '%s', %lld);",
				error_kind_name((enum error_kind)k), (long long)m->errors[k]);
	for (i = 0; i < run->workers; i++) {
		const struct worker_stats *w = &run->per_worker[i];

		add_sql(buf, size, &used, "INSERT INTO run_workers VALUES (3, %d, %lld, %lld, %lld, %lld, %lld, %lld);",
			i, (long long)w->completed, (long long)w->claims, (long long)w->empty, (long long)w->retries,
			(long long)w->give_ups, (long long)w->busy_ns);
		for (k = 0; k < ERR_KIND_COUNT; k++)
			add_sql(buf, size, &used, "INSERT INTO worker_errors VALUES (3, %d, '%s', %lld);", i,
				error_kind_name((enum error_kind)k), (long long)w->errors[k]);
	}
	for (size_t j = 0; j < run->n_series; j++) {
		const struct series_point *p = &run->series[j];

		add_sql(buf, size, &used, "INSERT INTO run_series (run_id, bucket_ms, completed, empty_claims, errors,"
			" enqueued, backlog) VALUES (3, %lld, %lld, %lld, %lld, %lld, %lld);", (long long)p->t_ms,
			(long long)p->completed, (long long)p->empty_claims, (long long)p->errors,
			(long long)p->enqueued, (long long)p->backlog);
	}
}

/* A version 5 file, made with the version 5 schema, opens, is migrated and reads back every figure. */
static void test_migration_v5(void)
{
	static char rows[32768];
	struct worker_stats workers[3];
	struct run_result run = { .per_worker = workers };
	struct invocation_result r = {
		.scenario = "classic",
		.backend = "postgresql",
		.server_version = "16.2",
		.settings = { { "synchronous_commit", "off" }, { "max_connections", "100" } },
		.n_settings = 2,
		.started_at = "2024-06-01T08:00:00Z",
		.seed = BIG_SEED,
	};
	struct series_point v5_series[sizeof(first_series) / sizeof(first_series[0])]; /* no first completions kept */
	struct store_run loaded = { 0 };
	char path[256], err[512], engine[96];
	const char *field;
	struct store *st;
	sqlite3 *db;
	int rc = SQLITE_OK;

	memset(workers, 0, sizeof(workers));
	fill_first(&run);
	memcpy(v5_series, first_series, sizeof(v5_series));
	for (size_t i = 0; i < sizeof(v5_series) / sizeof(v5_series[0]); i++)
		v5_series[i].first_completed = METRIC_UNKNOWN;
	run.series = v5_series;
	run.group = "grp";
	run.sweep = "w=3";
	run.faults = NULL;
	run.n_faults = 0;
	for (int i = 0; i < run.workers; i++)
		workers[i].reconnects = 0;
	run.metrics.errors_total -= run.metrics.errors[ERR_STATEMENT_TIMEOUT] + run.metrics.errors[ERR_LOCK_WAIT_TIMEOUT];
	for (size_t i = 0; i < sizeof(after_v5) / sizeof(after_v5[0]); i++) {
		const struct metric *m = metric_find(after_v5[i]);

		if (m->type == METRIC_DOUBLE)
			metric_set_double(m, &run.metrics, NAN);
		else
			metric_set_count(m, &run.metrics, METRIC_UNKNOWN);
	}
	v5_rows(rows, sizeof(rows), &run, &r);
	tmp_path(path, sizeof(path), "v5.db");
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return;
	for (int v = 0; v < 5 && rc == SQLITE_OK; v++)
		rc = sqlite3_exec(db, store_migrations[v], NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, rows, NULL, NULL, NULL);
	CHECK(rc == SQLITE_OK && query_int(db, "PRAGMA user_version") == 5,
	      "a version 5 file is made from migrations 1 to 5 with a run (%s)", sqlite3_errmsg(db));

	rc = store_open(path, &st, err, sizeof(err));
	CHECK_EQ(rc, 0, "the version 5 file opens (%s)", rc ? err : "");
	if (rc) {
		sqlite3_close(db);
		return;
	}
	CHECK(query_int(db, "PRAGMA user_version") == store_schema_version &&
	      query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'run_errors'") == 0 &&
	      query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'run_params'") == 1 &&
	      query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'run_faults'") == 1 &&
	      query_int(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('run_samples', 'run_phases', "
			    "'run_plans')") == 3,
	      "migrations 6 to 9: errors by kind folded into runs, run_errors gone, run_params, run_faults, "
	      "run_samples, run_phases and run_plans made");
	CHECK(query_int(db, "SELECT count(*) FROM run_workers") == 3 && query_int(db, "SELECT count(*) FROM run_series") == 3 &&
	      query_int(db, "SELECT count(*) FROM worker_errors") == 3 * ERR_KIND_COUNT,
	      "the rebuilt runs table kept its workers, their errors and the series");
	rc = store_load(st, 3, &loaded, err, sizeof(err));
	CHECK_EQ(rc, 0, "the version 5 run loads (%s)", rc ? err : "");
	if (rc == 0) {
		CHECK(same_run(&run, &loaded.run, &field), "every figure of the version 5 run reads back (first different: %s)",
		      field);
		CHECK(same_str(loaded.run.group, "grp") && same_str(loaded.run.sweep, "w=3") &&
		      loaded.report.seed == BIG_SEED && loaded.report.n_settings == 2 &&
		      same_str(loaded.ctx.host, "v5host") && same_str(loaded.ctx.scenario_text, "jobs = 200") &&
		      loaded.run.n_params == 0, "its group, sweep, invocation and settings too; no parameters");
		CHECK(query_int(db, "SELECT count(*) FROM pragma_table_info('runs') WHERE name IN ('load_start', "
				    "'load_end', 'steal_pct', 'cores', 'overloaded')") == 5 &&
		      isnan(loaded.run.metrics.machine.load_start) && isnan(loaded.run.metrics.machine.steal_pct) &&
		      loaded.run.metrics.machine.overloaded == METRIC_UNKNOWN,
		      "the migrated runs table has the machine's load and steal columns, the old run's unknown "
		      "(load_start %g, steal_pct %g)", loaded.run.metrics.machine.load_start,
		      loaded.run.metrics.machine.steal_pct);
		snprintf(engine, sizeof(engine), "%s %s", r.backend, r.server_version);
		CHECK(same_str(loaded.run.engine, engine), "the run's engine is its invocation's backend and server "
		      "version (\"%s\", expected \"%s\")", loaded.run.engine, engine);
	}
	store_run_free(&loaded);
	store_close(st);
	sqlite3_close(db);
	remove_store(path);
}

/* A runs table without a metric's column (a file from before the metric) gets it at open; its rows read unknown. */
static void test_missing_metric_column(void)
{
	const struct store_context ctx = { .host = "h", .version = "v", .git_revision = "g" };
	struct worker_stats workers[3];
	struct run_result run = { .per_worker = workers };
	struct invocation_result r = { .scenario = "s", .backend = "sqlite", .results = &run, .n_results = 1 };
	struct store_session session = { 0 };
	struct store_run loaded = { 0 };
	char path[256], err[512], *json;
	long long id = 0;
	struct store *st;
	sqlite3 *db;
	int rc;

	memset(workers, 0, sizeof(workers));
	fill_first(&run);
	tmp_path(path, sizeof(path), "missing-column.db");
	rc = store_open(path, &st, err, sizeof(err));
	if (rc == 0)
		rc = store_append(st, &session, &ctx, &r, &run, &id, err, sizeof(err));
	store_close(st);
	sqlite3_open(path, &db);
	CHECK(rc == 0 && sqlite3_exec(db, "ALTER TABLE runs DROP COLUMN arrivals_late; ALTER TABLE runs DROP COLUMN jain",
				      NULL, NULL, NULL) == SQLITE_OK,
	      "a store with a run, its arrivals_late and jain columns dropped (%s)", rc ? err : sqlite3_errmsg(db));
	rc = store_open(path, &st, err, sizeof(err));
	CHECK(rc == 0 && query_int(db, "SELECT count(*) FROM pragma_table_info('runs')"
				       " WHERE name IN ('arrivals_late', 'jain')") == 2,
	      "opening it adds the missing metric columns back (%s)", rc ? err : "");
	if (rc)
		goto out;
	rc = store_load(st, id, &loaded, err, sizeof(err));
	CHECK(rc == 0 && loaded.run.metrics.arrivals_late == METRIC_UNKNOWN && isnan(loaded.run.metrics.fairness.jain) &&
	      loaded.run.metrics.arrivals == run.metrics.arrivals,
	      "the old run reads them as unknown, the others as they were (%s)", rc ? err : "");
	json = rc == 0 ? print_to_string(results_print_json, &loaded.report) : NULL;
	CHECK(json && strstr(json, "\"arrivals_late\": null") && strstr(json, "\"jain\": null"),
	      "and prints them as null");
	free(json);
	store_run_free(&loaded);
	store_close(st);
out:
	sqlite3_close(db);
	remove_store(path);
}

/* Files the store must not touch: one from a newer claimbench, one that is some other database. */
static void test_refusals(void)
{
	char path[256], err[512];
	struct store *st;
	sqlite3 *db;
	int rc;

	tmp_path(path, sizeof(path), "newer.db");
	rc = sqlite3_open(path, &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL);
	sqlite3_close(db);
	err[0] = '\0';
	if (rc == SQLITE_OK)
		rc = store_open(path, &st, err, sizeof(err));
	CHECK(rc < 0 && st == NULL && strstr(err, "newer claimbench") && strstr(err, "999"),
	      "a file at schema version 999 is refused: %s", err);
	sqlite3_open(path, &db);
	CHECK(query_int(db, "PRAGMA user_version") == 999 &&
	      query_int(db, "SELECT count(*) FROM sqlite_master") == 0, "and left as it was");
	sqlite3_close(db);
	remove_store(path);

	tmp_path(path, sizeof(path), "foreign.db");
	rc = sqlite3_open(path, &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "CREATE TABLE queue (id INTEGER PRIMARY KEY)", NULL, NULL, NULL);
	sqlite3_close(db);
	err[0] = '\0';
	if (rc == SQLITE_OK)
		rc = store_open(path, &st, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "not a claimbench result store"), "another SQLite database is refused: %s", err);
	remove_store(path);

	tmp_path(path, sizeof(path), "missing/dir/x.db");
	rc = store_open(path, &st, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "missing/dir/x.db"), "a path in a missing directory is refused: %s", err);
}

/* The default path creates its directory, relative to the working directory. */
static void test_default_path(void)
{
	char cwd[4096], dir[256], err[512];
	struct stat sb;
	struct store *st;
	int rc;

	if (!getcwd(cwd, sizeof(cwd)) || chdir(tmpdir) < 0) {
		CHECK(false, "entering the temporary directory");
		return;
	}
	rc = store_open(STORE_DEFAULT_PATH, &st, err, sizeof(err));
	CHECK(rc == 0 && stat(STORE_DEFAULT_PATH, &sb) == 0, "%s is created with its directory (%s)",
	      STORE_DEFAULT_PATH, rc ? err : "");
	store_close(st);
	remove_store(STORE_DEFAULT_PATH);
	snprintf(dir, sizeof(dir), "%s/results", tmpdir);
	rmdir(dir);
	CHECK_EQ(chdir(cwd), 0, "back in the working directory");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_round_trip();
	test_migration_v1();
	test_migration_v5();
	test_missing_metric_column();
	test_refusals();
	test_default_path();
	rmdir(tmpdir);
	return check_exit_status();
}
