/*
 * Unit test of the result store: two hand-made runs appended to a temporary
 * file and read back field by field and through every printer; the history
 * listing; a rolled-back append; migrating a version 1 file; refusing a newer
 * file and a foreign one; creating the default directory.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "output/report.h"
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

/* Removes the store at path and the WAL files SQLite may leave beside it. */
static void remove_store(const char *path)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	char name[512];
	size_t i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", path, suffixes[i]);
		unlink(name);
	}
}

/* A time series of three buckets, every column distinct and non-zero, backlog past 2^63 in the last. */
static struct series_point first_series[] = {
	{ .t_ms = 0, .completed = 40, .empty_claims = 56, .errors = 1, .enqueued = 20, .backlog = 3 },
	{ .t_ms = 100, .completed = 19, .empty_claims = 64, .errors = 2, .enqueued = 21, .backlog = 2 },
	{ .t_ms = 200, .completed = 7, .empty_claims = 5, .errors = 4, .enqueued = 9, .backlog = UINT64_MAX },
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
	for (k = 0; k < ERR_KIND_COUNT; k++)
		m->errors[k] = 10 + (uint64_t)k;
	m->fairness = (struct fairness){ .jain = 0.987654321, .min = 60, .max = 71, .cv = 0.0712345 };
	m->claim_latency_ms = (struct latency_summary){ 0.125, 0.5, 1.0 / 3.0, 2.5, 1000.0 };
	m->queue_wait_ms = (struct latency_summary){ 1.25, 5.5, 13.0 / 7.0, 14.25, 99.5 };
	m->arrivals = 200;
	m->arrivals_late = 11;
	m->arrival_late_max_ms = 2.0 / 3.0;
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
		hist_init(&w->claim_latency);
	}
	hist_record(&run->per_worker[0].claim_latency, 100);
	hist_record(&run->per_worker[0].claim_latency, 5000);
	hist_record(&run->per_worker[0].claim_latency, 1000000);
	hist_record(&run->per_worker[1].claim_latency, 5000);
	hist_record(&run->per_worker[1].claim_latency, 1000000000);
}

/* Fills the second run: an odd name, an interrupted timed run, NaN and infinite figures, huge counters. */
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
	m->completed = UINT64_MAX;
	m->executions = (uint64_t)INT64_MAX + 1;
	m->errors[ERR_DEADLOCK] = 1;
	m->errors[ERR_OTHER] = 2;
	m->fairness = (struct fairness){ .jain = 0.75, .min = 5, .max = 14, .cv = NAN };
	m->claim_latency_ms = (struct latency_summary){ 12, 40, 1500, NAN, -INFINITY };
	m->queue_wait_ms = (struct latency_summary){ NAN, 0, 0, 0, INFINITY };
	run->per_worker[0] = (struct worker_stats){ .completed = 14, .claims = 16, .retries = 7, .busy_ns = -1 };
	run->per_worker[1] = (struct worker_stats){ .completed = 5, .claims = 6, .give_ups = 1, .errors = { 0, 3 } };
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
	SAME(same_dbl(x->makespan_s, y->makespan_s), "makespan_s");
	SAME(same_dbl(x->ideal_s, y->ideal_s), "ideal_s");
	SAME(same_dbl(x->throughput_jps, y->throughput_jps), "throughput_jps");
	SAME(x->completed == y->completed, "completed");
	SAME(x->executions == y->executions, "executions");
	SAME(x->duplicates == y->duplicates, "duplicates");
	SAME(x->dup_jobs == y->dup_jobs, "dup_jobs");
	SAME(x->overlaps == y->overlaps, "overlaps");
	SAME(x->lost == y->lost, "lost");
	SAME(x->empty_claims == y->empty_claims, "empty_claims");
	SAME(x->spurious_empties == y->spurious_empties, "spurious_empties");
	SAME(x->retries == y->retries, "retries");
	SAME(x->give_ups == y->give_ups, "give_ups");
	SAME(x->ledger_mismatches == y->ledger_mismatches, "ledger_mismatches");
	SAME(memcmp(x->errors, y->errors, sizeof(x->errors)) == 0, "errors");
	SAME(same_dbl(x->fairness.jain, y->fairness.jain), "fairness.jain");
	SAME(x->fairness.min == y->fairness.min, "fairness.min");
	SAME(x->fairness.max == y->fairness.max, "fairness.max");
	SAME(same_dbl(x->fairness.cv, y->fairness.cv), "fairness.cv");
	SAME(same_dbl(x->claim_latency_ms.p50, y->claim_latency_ms.p50), "latency p50");
	SAME(same_dbl(x->claim_latency_ms.p90, y->claim_latency_ms.p90), "latency p90");
	SAME(same_dbl(x->claim_latency_ms.p99, y->claim_latency_ms.p99), "latency p99");
	SAME(same_dbl(x->claim_latency_ms.p999, y->claim_latency_ms.p999), "latency p999");
	SAME(same_dbl(x->claim_latency_ms.max, y->claim_latency_ms.max), "latency max");
	SAME(same_dbl(x->queue_wait_ms.p50, y->queue_wait_ms.p50), "queue wait p50");
	SAME(same_dbl(x->queue_wait_ms.p90, y->queue_wait_ms.p90), "queue wait p90");
	SAME(same_dbl(x->queue_wait_ms.p99, y->queue_wait_ms.p99), "queue wait p99");
	SAME(same_dbl(x->queue_wait_ms.p999, y->queue_wait_ms.p999), "queue wait p999");
	SAME(same_dbl(x->queue_wait_ms.max, y->queue_wait_ms.max), "queue wait max");
	SAME(x->arrivals == y->arrivals, "arrivals");
	SAME(x->arrivals_late == y->arrivals_late, "arrivals_late");
	SAME(same_dbl(x->arrival_late_max_ms, y->arrival_late_max_ms), "arrival_late_max_ms");
	SAME(same_dbl(a->arrival_rate, b->arrival_rate), "arrival_rate");
	SAME(a->n_series == b->n_series, "series length");
	for (size_t j = 0; j < a->n_series; j++)
		SAME(memcmp(&a->series[j], &b->series[j], sizeof(a->series[j])) == 0, "series bucket");
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
		for (k = 0; k < ERR_KIND_COUNT; k++)
			SAME(v->errors[k] == w->errors[k], "worker errors");
	}
#undef SAME
	*field = "none";
	return true;
}

/* Prints r with printer into a new string; the caller frees it. */
static char *print_to_string(int (*printer)(FILE *, const struct report *), const struct report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	printer(f, r);
	fclose(f);
	return text;
}

/* Whether printer prints a and b the same way. */
static bool same_print(int (*printer)(FILE *, const struct report *), const struct report *a,
		       const struct report *b)
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

/* store_list's output for limit as a new string (the caller frees it); NULL when it failed. */
static char *list_to_string(sqlite3 *db, int limit)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		return NULL;
	rc = store_list(db, f, limit);
	fclose(f);
	if (rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Reads one integer from sql on db; -1 on error. */
static long long query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
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
	};
	struct worker_stats workers1[3], workers2[2];
	struct run_result runs[2] = { { .per_worker = workers1 }, { .per_worker = workers2 } };
	struct report r = {
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
	struct report one;
	long long ids[2] = { 0, 0 }, runs_before;
	char path[256], err[512], newest[24], *list;
	const char *field;
	sqlite3 *db;
	int i, rc;

	memset(workers1, 0, sizeof(workers1));
	memset(workers2, 0, sizeof(workers2));
	fill_first(&runs[0]);
	fill_second(&runs[1]);
	tmp_path(path, sizeof(path), "round-trip.db");
	rc = store_open(path, &db, err, sizeof(err));
	CHECK(rc == 0, "a new store opens (%s)", rc ? err : "");
	if (rc)
		return;
	CHECK(query_int(db, "PRAGMA user_version") == store_schema_version, "a new store is at schema version %d",
	      store_schema_version);
	CHECK(query_is(db, "PRAGMA journal_mode", "wal"), "the store is in WAL mode");

	for (i = 0; i < 2; i++) {
		rc = store_append(db, &session, &ctx, &r, &runs[i], &ids[i], err, sizeof(err));
		CHECK(rc == 0 && ids[i] > 0, "run %d is appended (%s)", i + 1, rc ? err : "");
	}
	CHECK(ids[1] > ids[0], "run ids grow");
	CHECK(query_int(db, "SELECT count(*) FROM invocations") == 1, "both runs share one invocation row");
	CHECK(query_int(db, "SELECT count(*) FROM invocation_settings") == 2, "the settings are stored once");
	CHECK(bins_match(db, ids[0], &runs[0]), "the merged latency histogram is stored as its non-empty bins");
	CHECK(query_int(db, "SELECT count(*) FROM run_latency_bins r JOIN runs ON runs.id = r.run_id"
			    " WHERE runs.workers = 2") == 0, "a run without latencies stores no bins");

	for (i = 0; i < 2; i++) {
		rc = store_load(db, ids[i], &loaded, err, sizeof(err));
		CHECK(rc == 0, "run %d loads (%s)", i + 1, rc ? err : "");
		if (rc)
			continue;
		CHECK(loaded.run_id == ids[i] && loaded.recorded_at[0] == '2', "run %d: id and storage time", i + 1);
		CHECK(same_run(&runs[i], &loaded.run, &field), "run %d: every field equal (first different: %s)",
		      i + 1, field);
		CHECK(loaded.run.per_worker[0].claim_latency.count == 0,
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
		CHECK(same_print(report_print_json, &one, &loaded.report), "run %d: JSON identical", i + 1);
		CHECK(same_print(report_print_csv, &one, &loaded.report), "run %d: CSV identical", i + 1);
		CHECK(same_print(report_print_table, &one, &loaded.report), "run %d: table identical", i + 1);
		store_run_free(&loaded);
	}
	CHECK(loaded.strings == NULL && loaded.run.per_worker == NULL, "store_run_free empties the record");
	rc = store_load(db, ids[1] + 100, &loaded, err, sizeof(err));
	CHECK(rc == 1, "loading a run that does not exist returns 1");

	list = list_to_string(db, 0);
	snprintf(newest, sizeof(newest), "\n%6lld ", ids[1]);
	CHECK(list && strstr(list, "makespan_s") && strstr(list, newest) &&
	      strstr(list, newest) < strstr(list, "skip-locked"), "history lists both runs, newest first");
	CHECK(list && strstr(list, "say \"hi\", \\ok?now") && strstr(list, " no\n") && strstr(list, " yes\n"),
	      "history shows control characters as '?' and whether each run completed");
	free(list);
	list = list_to_string(db, 1);
	CHECK(list && !strstr(list, "skip-locked") && strstr(list, "flip"), "history with limit 1 lists the newest");
	free(list);

	runs_before = query_int(db, "SELECT count(*) FROM runs");
	session.invocation_id = 1000000;
	rc = store_append(db, &session, &ctx, &r, &runs[0], NULL, err, sizeof(err));
	CHECK(rc < 0 && query_int(db, "SELECT count(*) FROM runs") == runs_before &&
	      query_int(db, "SELECT count(*) FROM run_workers") == 5,
	      "an append that fails (unknown invocation) leaves nothing behind (%s)", err);
	sqlite3_close(db);
	remove_store(path);
}

/* A version 1 file with one run opens, is migrated to the current version and its run still loads. */
static void test_migration(void)
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
	CHECK(query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'invocation_settings'") == 0,
	      "migration 1 alone has no settings table");
	sqlite3_close(db);

	rc = store_open(path, &db, err, sizeof(err));
	CHECK(rc == 0, "the version 1 file opens (%s)", rc ? err : "");
	if (rc)
		return;
	CHECK(query_int(db, "PRAGMA user_version") == store_schema_version, "it is migrated to version %d",
	      store_schema_version);
	CHECK(query_int(db, "SELECT count(*) FROM sqlite_master"
			    " WHERE name IN ('invocation_settings', 'run_series')") == 2,
	      "migration 2 added the settings and series tables");
	rc = store_load(db, 7, &loaded, err, sizeof(err));
	CHECK(rc == 0 && same_str(loaded.run.strategy, "for-update") && loaded.run.workers == 2 &&
	      loaded.run.metrics.makespan_s == 2.5 && loaded.run.metrics.claim_latency_ms.max == 5 &&
	      loaded.run.per_worker && loaded.run.per_worker[1].busy_ns == 400000000 &&
	      same_str(loaded.ctx.host, "oldhost") && loaded.ctx.scenario_text == NULL && loaded.report.n_settings == 0,
	      "the old run still loads (%s)", rc ? err : "");
	CHECK(rc == 0 && loaded.run.metrics.errors[ERR_DEADLOCK] == 3 && loaded.run.metrics.errors[ERR_OTHER] == 2,
	      "an error kind this binary does not know counts as other");
	store_run_free(&loaded);
	sqlite3_close(db);
	remove_store(path);
}

/* Files the store must not touch: one from a newer claimbench, one that is some other database. */
static void test_refusals(void)
{
	char path[256], err[512];
	sqlite3 *db;
	int rc;

	tmp_path(path, sizeof(path), "newer.db");
	rc = sqlite3_open(path, &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL);
	sqlite3_close(db);
	err[0] = '\0';
	if (rc == SQLITE_OK)
		rc = store_open(path, &db, err, sizeof(err));
	CHECK(rc < 0 && db == NULL && strstr(err, "newer claimbench") && strstr(err, "999"),
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
		rc = store_open(path, &db, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "not a claimbench result store"), "another SQLite database is refused: %s", err);
	remove_store(path);

	tmp_path(path, sizeof(path), "missing/dir/x.db");
	rc = store_open(path, &db, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "missing/dir/x.db"), "a path in a missing directory is refused: %s", err);
}

/* The default path creates its directory, relative to the working directory. */
static void test_default_path(void)
{
	char cwd[4096], dir[256], err[512];
	struct stat st;
	sqlite3 *db;
	int rc;

	if (!getcwd(cwd, sizeof(cwd)) || chdir(tmpdir) < 0) {
		CHECK(false, "entering the temporary directory");
		return;
	}
	rc = store_open(STORE_DEFAULT_PATH, &db, err, sizeof(err));
	CHECK(rc == 0 && stat(STORE_DEFAULT_PATH, &st) == 0, "%s is created with its directory (%s)",
	      STORE_DEFAULT_PATH, rc ? err : "");
	sqlite3_close(db);
	remove_store(STORE_DEFAULT_PATH);
	snprintf(dir, sizeof(dir), "%s/results", tmpdir);
	rmdir(dir);
	CHECK(chdir(cwd) == 0, "back in the working directory");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_round_trip();
	test_migration();
	test_refusals();
	test_default_path();
	rmdir(tmpdir);
	return check_exit_status();
}
