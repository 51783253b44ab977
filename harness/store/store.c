/*
 * The result store of store.h: one SQLite file, its schema a list of migrations
 * counted by PRAGMA user_version. Every value is written through a bound parameter.
 * SQLite integers are signed 64-bit, so a uint64_t counter is stored as the
 * int64_t with the same bits and read back as it was (only values past 2^63
 * would look negative to other SQL readers). NaN is stored as NULL.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"

/* How long a statement waits for another process's lock on the store. */
#define STORE_BUSY_TIMEOUT_MS 10000

const char *const store_migrations[] = {
	/* 1: invocations, runs with every metric, errors by kind, per-worker counters, latency bins. */
	"CREATE TABLE invocations (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	started_at TEXT NOT NULL,		-- UTC start, ISO 8601\n"
	"	host TEXT NOT NULL,			-- host name of the machine that ran it\n"
	"	claimbench_version TEXT NOT NULL,\n"
	"	git_revision TEXT NOT NULL,		-- of the build, or 'unknown'\n"
	"	scenario TEXT,				-- scenario name\n"
	"	scenario_text TEXT,			-- the scenario file's content, or the command line\n"
	"	backend TEXT,				-- 'postgresql' or 'sqlite'\n"
	"	server_version TEXT NOT NULL,\n"
	"	seed INTEGER NOT NULL			-- RNG seed of the work times (64 bits)\n"
	");\n"
	"CREATE TABLE runs (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	invocation_id INTEGER NOT NULL REFERENCES invocations(id) ON DELETE CASCADE,\n"
	"	recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),\n"
	"	strategy TEXT,\n"
	"	claim_mode TEXT,			-- 'hold' or 'flip'\n"
	"	workers INTEGER NOT NULL,\n"
	"	jobs INTEGER NOT NULL,			-- jobs in the initial backlog\n"
	"	work_ms REAL,				-- mean work time per job\n"
	"	work_dist TEXT,				-- 'fixed', 'uniform' or 'exp'\n"
	"	duration_s REAL,			-- length of a timed run, 0 for a drain run\n"
	"	repeat INTEGER NOT NULL,		-- repetition number, from 1\n"
	"	complete INTEGER NOT NULL,		-- 0 when interrupted or a worker aborted\n"
	"	makespan_s REAL,			-- REAL columns are NULL where the figure was NaN\n"
	"	ideal_s REAL,\n"
	"	throughput_jps REAL,\n"
	"	completed INTEGER NOT NULL,\n"
	"	executions INTEGER NOT NULL,\n"
	"	duplicates INTEGER NOT NULL,\n"
	"	dup_jobs INTEGER NOT NULL,\n"
	"	overlaps INTEGER NOT NULL,\n"
	"	lost INTEGER NOT NULL,\n"
	"	empty_claims INTEGER NOT NULL,\n"
	"	spurious_empties INTEGER NOT NULL,\n"
	"	retries INTEGER NOT NULL,\n"
	"	give_ups INTEGER NOT NULL,\n"
	"	ledger_mismatches INTEGER NOT NULL,\n"
	"	jain REAL,\n"
	"	fairness_min INTEGER NOT NULL,\n"
	"	fairness_max INTEGER NOT NULL,\n"
	"	fairness_cv REAL,\n"
	"	latency_p50_ms REAL,\n"
	"	latency_p90_ms REAL,\n"
	"	latency_p99_ms REAL,\n"
	"	latency_p999_ms REAL,\n"
	"	latency_max_ms REAL\n"
	");\n"
	"CREATE INDEX runs_invocation ON runs(invocation_id);\n"
	"CREATE TABLE run_errors (\n"
	"	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	kind TEXT NOT NULL,			-- error_kind_name(): 'deadlock', 'sqlite_busy', ...\n"
	"	count INTEGER NOT NULL,\n"
	"	PRIMARY KEY (run_id, kind)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE run_workers (\n"
	"	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	worker INTEGER NOT NULL,		-- worker index, from 0\n"
	"	completed INTEGER NOT NULL,\n"
	"	claims INTEGER NOT NULL,\n"
	"	empty INTEGER NOT NULL,\n"
	"	retries INTEGER NOT NULL,\n"
	"	give_ups INTEGER NOT NULL,\n"
	"	busy_ns INTEGER NOT NULL,\n"
	"	PRIMARY KEY (run_id, worker)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE worker_errors (\n"
	"	run_id INTEGER NOT NULL,\n"
	"	worker INTEGER NOT NULL,\n"
	"	kind TEXT NOT NULL,\n"
	"	count INTEGER NOT NULL,\n"
	"	PRIMARY KEY (run_id, worker, kind),\n"
	"	FOREIGN KEY (run_id, worker) REFERENCES run_workers(run_id, worker) ON DELETE CASCADE\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE run_latency_bins (\n"
	"	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	bin_upper_ns INTEGER NOT NULL,		-- inclusive upper edge of a claim-latency bin\n"
	"	count INTEGER NOT NULL,			-- successful claims in the bin, all workers (> 0)\n"
	"	PRIMARY KEY (run_id, bin_upper_ns)\n"
	") WITHOUT ROWID;\n"
	"PRAGMA user_version = 1;\n",

	/* 2: the server's settings per invocation, and a time series per run. */
	"CREATE TABLE invocation_settings (\n"
	"	invocation_id INTEGER NOT NULL REFERENCES invocations(id) ON DELETE CASCADE,\n"
	"	position INTEGER NOT NULL,		-- order the backend gave them in, from 0\n"
	"	name TEXT NOT NULL,\n"
	"	value TEXT NOT NULL,\n"
	"	PRIMARY KEY (invocation_id, position)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE run_series (\n"
	"	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	bucket_ms INTEGER NOT NULL,		-- start of a 100 ms bucket, after the start barrier\n"
	"	completed INTEGER NOT NULL,		-- completions committed in the bucket\n"
	"	empty_claims INTEGER NOT NULL,		-- claim attempts that returned no job\n"
	"	errors INTEGER NOT NULL,		-- database errors of every kind\n"
	"	PRIMARY KEY (run_id, bucket_ms)\n"
	") WITHOUT ROWID;\n"
	"PRAGMA user_version = 2;\n",

	/* 3: the scenario section and sweep point a run belongs to. */
	"ALTER TABLE runs ADD COLUMN run_group TEXT NOT NULL DEFAULT '';	-- scenario section, '' when none\n"
	"ALTER TABLE runs ADD COLUMN sweep TEXT NOT NULL DEFAULT '';	-- swept keys' values, '' when none\n"
	"PRAGMA user_version = 3;\n",

	/* 4: open-loop arrivals, queue wait, and the series' enqueued and backlog columns. */
	"ALTER TABLE runs ADD COLUMN arrival_rate REAL NOT NULL DEFAULT 0;	-- jobs per second, 0: none\n"
	"ALTER TABLE runs ADD COLUMN arrivals INTEGER NOT NULL DEFAULT 0;	-- arrivals inserted\n"
	"ALTER TABLE runs ADD COLUMN arrivals_late INTEGER NOT NULL DEFAULT 0;	-- inserts issued late\n"
	"ALTER TABLE runs ADD COLUMN arrival_late_max_ms REAL;	-- the most an insert was issued late\n"
	"ALTER TABLE runs ADD COLUMN queue_wait_p50_ms REAL;	-- enqueue to first in hand, per job\n"
	"ALTER TABLE runs ADD COLUMN queue_wait_p90_ms REAL;\n"
	"ALTER TABLE runs ADD COLUMN queue_wait_p99_ms REAL;\n"
	"ALTER TABLE runs ADD COLUMN queue_wait_p999_ms REAL;\n"
	"ALTER TABLE runs ADD COLUMN queue_wait_max_ms REAL;\n"
	"ALTER TABLE run_series ADD COLUMN enqueued INTEGER NOT NULL DEFAULT 0;	-- arrivals inserted\n"
	"ALTER TABLE run_series ADD COLUMN backlog INTEGER NOT NULL DEFAULT 0;	-- jobs waiting at its end\n"
	"PRAGMA user_version = 4;\n",

	/* 5: executions that marked their job error (injected failures, seed 000). */
	"ALTER TABLE runs ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;	-- executions marked error\n"
	"PRAGMA user_version = 5;\n",
};

const int store_schema_version = (int)(sizeof(store_migrations) / sizeof(store_migrations[0]));

/* ---- statements ---- */

/* Describes in err what failed and SQLite's reason. Returns -1. */
static int sql_fail(sqlite3 *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db));
	return -1;
}

/* Runs sql, which returns no rows that matter. 0, or -1 with err. */
static int exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t errlen)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_fail(db, what, err, errlen);
	return 0;
}

/* Compiles sql into *st. 0, or -1 with err. */
static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, char *err, size_t errlen)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return sql_fail(db, "preparing a statement", err, errlen);
	return 0;
}

/* Binds a statement's parameters in order, keeping the first failure. */
struct binder {
	sqlite3_stmt *st;	/* the statement */
	int next;		/* the next parameter's index, from 1 */
	int rc;			/* the first failing sqlite3_bind_* result; SQLITE_OK so far */
};

/* Records the result of binding parameter b->next and moves to the next one. */
static void bind_rc(struct binder *b, int rc)
{
	if (b->rc == SQLITE_OK)
		b->rc = rc;
	b->next++;
}

/* Binds a signed integer. */
static void bind_i64(struct binder *b, long long v)
{
	bind_rc(b, sqlite3_bind_int64(b->st, b->next, v));
}

/* Binds an unsigned counter as the int64 with the same bits. */
static void bind_u64(struct binder *b, uint64_t v)
{
	bind_i64(b, (long long)v);
}

/* Binds a double; NaN as NULL. */
static void bind_dbl(struct binder *b, double v)
{
	if (isnan(v))
		bind_rc(b, sqlite3_bind_null(b->st, b->next));
	else
		bind_rc(b, sqlite3_bind_double(b->st, b->next, v));
}

/* Binds a copy of s; NULL as NULL. */
static void bind_text(struct binder *b, const char *s)
{
	if (s)
		bind_rc(b, sqlite3_bind_text(b->st, b->next, s, -1, SQLITE_TRANSIENT));
	else
		bind_rc(b, sqlite3_bind_null(b->st, b->next));
}

/* Binds at most max bytes of s, which need not be NUL-terminated within them. */
static void bind_textn(struct binder *b, const char *s, size_t max)
{
	bind_rc(b, sqlite3_bind_text(b->st, b->next, s, (int)strnlen(s, max), SQLITE_TRANSIENT));
}

/*
 * Runs the insert b has bound every parameter of, then readies it for the next row.
 * 0, or -1 with err naming what.
 */
static int insert_row(sqlite3 *db, struct binder *b, const char *what, char *err, size_t errlen)
{
	int rc = SQLITE_DONE;

	if (b->rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", what, sqlite3_errstr(b->rc));
		rc = b->rc;
	} else if (b->next - 1 != sqlite3_bind_parameter_count(b->st)) {
		snprintf(err, errlen, "%s: %d values for %d parameters", what, b->next - 1,
			 sqlite3_bind_parameter_count(b->st));
		rc = SQLITE_MISUSE;
	} else if ((rc = sqlite3_step(b->st)) != SQLITE_DONE) {
		sql_fail(db, what, err, errlen);
	}
	sqlite3_reset(b->st);
	sqlite3_clear_bindings(b->st);
	b->next = 1;
	b->rc = SQLITE_OK;
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Reads the one integer row of sql into *out. 0, or -1 with err. */
static int query_int(sqlite3 *db, const char *sql, long long *out, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (prepare(db, sql, &st, err, errlen) < 0)
		goto out;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sql_fail(db, "reading the store", err, errlen);
		goto out;
	}
	*out = sqlite3_column_int64(st, 0);
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* ---- opening and migrating ---- */

/* Creates the directory part of path when it is missing. 0, or -1 with err. */
static int make_parent(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (!slash || slash == path)
		return 0;
	if ((size_t)(slash - path) >= sizeof(dir)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create directory %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Applies the migrations db lacks, each in its own transaction that re-reads the
 * version under the write lock, so two processes opening one new file do not both
 * migrate it. Refuses a newer file and an SQLite file that is not a store.
 * 0, or -1 with err.
 */
static int migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char what[64];
	long long version, objects;

	for (;;) {
		if (exec(db, "BEGIN IMMEDIATE", path, err, errlen) < 0)
			return -1;
		if (query_int(db, "PRAGMA user_version", &version, err, errlen) < 0)
			goto rollback;
		if (version > store_schema_version) {
			snprintf(err, errlen,
				 "%s was written by a newer claimbench (schema version %lld; this one knows up to %d)",
				 path, version, store_schema_version);
			goto rollback;
		}
		if (version == store_schema_version)
			break;
		if (version == 0) {
			if (query_int(db, "SELECT count(*) FROM sqlite_master", &objects, err, errlen) < 0)
				goto rollback;
			if (objects) {
				snprintf(err, errlen, "%s is an SQLite database but not a claimbench result store",
					 path);
				goto rollback;
			}
		}
		snprintf(what, sizeof(what), "migrating to schema version %lld", version + 1);
		if (exec(db, store_migrations[version], what, err, errlen) < 0 ||
		    exec(db, "COMMIT", what, err, errlen) < 0)
			goto rollback;
	}
	return exec(db, "COMMIT", path, err, errlen);
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_open(const char *path, sqlite3 **out, char *err, size_t errlen)
{
	sqlite3 *db = NULL;

	*out = NULL;
	if (strcmp(path, STORE_DEFAULT_PATH) == 0 && make_parent(path, err, errlen) < 0)
		return -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
	if (exec(db, "PRAGMA foreign_keys = ON", path, err, errlen) < 0 || migrate(db, path, err, errlen) < 0 ||
	    exec(db, "PRAGMA journal_mode = WAL", path, err, errlen) < 0)
		goto fail;
	*out = db;
	return 0;
fail:
	sqlite3_close(db);
	return -1;
}

int store_open_existing(const char *path, sqlite3 **out, char *err, size_t errlen)
{
	*out = NULL;
	if (access(path, F_OK) < 0) {
		if (errno == ENOENT)
			snprintf(err, errlen, "no result store at %s (claimbench run creates it)", path);
		else
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	return store_open(path, out, err, errlen);
}

/* ---- appending ---- */

/* Inserts the invocation row and its settings; its id in *id. 0, or -1 with err. */
static int insert_invocation(sqlite3 *db, const struct store_context *ctx, const struct report *r, long long *id,
			     char *err, size_t errlen)
{
	static const char invocation_sql[] =
		"INSERT INTO invocations (started_at, host, claimbench_version, git_revision, scenario,"
		" scenario_text, backend, server_version, seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
	static const char setting_sql[] =
		"INSERT INTO invocation_settings (invocation_id, position, name, value) VALUES (?, ?, ?, ?)";
	struct binder b = { .next = 1 };
	size_t i;
	int ret = -1;

	if (prepare(db, invocation_sql, &b.st, err, errlen) < 0)
		goto out;
	bind_textn(&b, r->started_at, sizeof(r->started_at));
	bind_text(&b, ctx->host);
	bind_text(&b, ctx->version);
	bind_text(&b, ctx->git_revision);
	bind_text(&b, r->scenario);
	bind_text(&b, ctx->scenario_text);
	bind_text(&b, r->backend);
	bind_textn(&b, r->server_version, sizeof(r->server_version));
	bind_u64(&b, r->seed);
	if (insert_row(db, &b, "storing the invocation", err, errlen) < 0)
		goto out;
	*id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(b.st);

	if (prepare(db, setting_sql, &b.st, err, errlen) < 0)
		goto out;
	for (i = 0; i < r->n_settings && i < DB_MAX_SETTINGS; i++) {
		bind_i64(&b, *id);
		bind_i64(&b, (long long)i);
		bind_textn(&b, r->settings[i].name, sizeof(r->settings[i].name));
		bind_textn(&b, r->settings[i].value, sizeof(r->settings[i].value));
		if (insert_row(db, &b, "storing the server settings", err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(b.st);
	return ret;
}

/* Inserts the run row with every figure; its id in *id. 0, or -1 with err. */
static int insert_run(sqlite3 *db, long long invocation_id, const struct run_result *run, long long *id, char *err,
		      size_t errlen)
{
	static const char sql[] =
		"INSERT INTO runs (invocation_id, strategy, claim_mode, workers, jobs, work_ms, work_dist,"
		" duration_s, repeat, complete, makespan_s, ideal_s, throughput_jps, completed, executions,"
		" duplicates, dup_jobs, overlaps, lost, empty_claims, spurious_empties, retries, give_ups,"
		" ledger_mismatches, jain, fairness_min, fairness_max, fairness_cv, latency_p50_ms,"
		" latency_p90_ms, latency_p99_ms, latency_p999_ms, latency_max_ms, run_group, sweep,"
		" arrival_rate, arrivals, arrivals_late, arrival_late_max_ms, queue_wait_p50_ms, queue_wait_p90_ms,"
		" queue_wait_p99_ms, queue_wait_p999_ms, queue_wait_max_ms, failed)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
		" ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	const struct run_metrics *m = &run->metrics;
	struct binder b = { .next = 1 };
	int ret = -1;

	if (prepare(db, sql, &b.st, err, errlen) < 0)
		goto out;
	bind_i64(&b, invocation_id);
	bind_text(&b, run->strategy);
	bind_text(&b, run->claim_mode);
	bind_i64(&b, run->workers);
	bind_i64(&b, run->jobs);
	bind_dbl(&b, run->work_ms);
	bind_text(&b, run->work_dist);
	bind_dbl(&b, run->duration_s);
	bind_i64(&b, run->repeat);
	bind_i64(&b, run->complete);
	bind_dbl(&b, m->makespan_s);
	bind_dbl(&b, m->ideal_s);
	bind_dbl(&b, m->throughput_jps);
	bind_u64(&b, m->completed);
	bind_u64(&b, m->executions);
	bind_u64(&b, m->duplicates);
	bind_u64(&b, m->dup_jobs);
	bind_u64(&b, m->overlaps);
	bind_u64(&b, m->lost);
	bind_u64(&b, m->empty_claims);
	bind_u64(&b, m->spurious_empties);
	bind_u64(&b, m->retries);
	bind_u64(&b, m->give_ups);
	bind_u64(&b, m->ledger_mismatches);
	bind_dbl(&b, m->fairness.jain);
	bind_u64(&b, m->fairness.min);
	bind_u64(&b, m->fairness.max);
	bind_dbl(&b, m->fairness.cv);
	bind_dbl(&b, m->claim_latency_ms.p50);
	bind_dbl(&b, m->claim_latency_ms.p90);
	bind_dbl(&b, m->claim_latency_ms.p99);
	bind_dbl(&b, m->claim_latency_ms.p999);
	bind_dbl(&b, m->claim_latency_ms.max);
	bind_text(&b, run->group ? run->group : "");
	bind_text(&b, run->sweep ? run->sweep : "");
	bind_dbl(&b, run->arrival_rate);
	bind_u64(&b, m->arrivals);
	bind_u64(&b, m->arrivals_late);
	bind_dbl(&b, m->arrival_late_max_ms);
	bind_dbl(&b, m->queue_wait_ms.p50);
	bind_dbl(&b, m->queue_wait_ms.p90);
	bind_dbl(&b, m->queue_wait_ms.p99);
	bind_dbl(&b, m->queue_wait_ms.p999);
	bind_dbl(&b, m->queue_wait_ms.max);
	bind_u64(&b, m->failed);
	if (insert_row(db, &b, "storing the run", err, errlen) < 0)
		goto out;
	*id = sqlite3_last_insert_rowid(db);
	ret = 0;
out:
	sqlite3_finalize(b.st);
	return ret;
}

/* Inserts one row per error kind, zeros too, into st: for run_id, and worker when >= 0. 0, or -1 with err. */
static int insert_errors(sqlite3 *db, sqlite3_stmt *st, long long run_id, int worker, const uint64_t *errors,
			 char *err, size_t errlen)
{
	struct binder b = { .st = st, .next = 1 };
	int k;

	for (k = 0; k < ERR_KIND_COUNT; k++) {
		bind_i64(&b, run_id);
		if (worker >= 0)
			bind_i64(&b, worker);
		bind_text(&b, error_kind_name((enum error_kind)k));
		bind_u64(&b, errors[k]);
		if (insert_row(db, &b, "storing errors by kind", err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Inserts the run's errors by kind and its per-worker counters and errors. 0, or -1 with err. */
static int insert_counters(sqlite3 *db, long long run_id, const struct run_result *run, char *err, size_t errlen)
{
	static const char run_errors_sql[] = "INSERT INTO run_errors (run_id, kind, count) VALUES (?, ?, ?)";
	static const char worker_sql[] =
		"INSERT INTO run_workers (run_id, worker, completed, claims, empty, retries, give_ups, busy_ns)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
	static const char worker_errors_sql[] =
		"INSERT INTO worker_errors (run_id, worker, kind, count) VALUES (?, ?, ?, ?)";
	sqlite3_stmt *errors_st = NULL;
	struct binder b = { .next = 1 };
	const struct worker_stats *w;
	int i, ret = -1;

	if (prepare(db, run_errors_sql, &errors_st, err, errlen) < 0 ||
	    insert_errors(db, errors_st, run_id, -1, run->metrics.errors, err, errlen) < 0)
		goto out;
	sqlite3_finalize(errors_st);
	errors_st = NULL;

	if (prepare(db, worker_sql, &b.st, err, errlen) < 0 ||
	    prepare(db, worker_errors_sql, &errors_st, err, errlen) < 0)
		goto out;
	for (i = 0; run->per_worker && i < run->workers; i++) {
		w = &run->per_worker[i];
		bind_i64(&b, run_id);
		bind_i64(&b, i);
		bind_u64(&b, w->completed);
		bind_u64(&b, w->claims);
		bind_u64(&b, w->empty);
		bind_u64(&b, w->retries);
		bind_u64(&b, w->give_ups);
		bind_i64(&b, w->busy_ns);
		if (insert_row(db, &b, "storing a worker's counters", err, errlen) < 0 ||
		    insert_errors(db, errors_st, run_id, i, w->errors, err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(errors_st);
	sqlite3_finalize(b.st);
	return ret;
}

/* Merges the workers' claim-latency histograms and inserts the non-empty bins. 0, or -1 with err. */
static int insert_latency_bins(sqlite3 *db, long long run_id, const struct run_result *run, char *err,
			       size_t errlen)
{
	static const char sql[] = "INSERT INTO run_latency_bins (run_id, bin_upper_ns, count) VALUES (?, ?, ?)";
	struct histogram *merged;
	struct binder b = { .next = 1 };
	int i, ret = -1;

	merged = malloc(sizeof(*merged));
	if (!merged) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	hist_init(merged);
	for (i = 0; run->per_worker && i < run->workers; i++)
		hist_merge(merged, &run->per_worker[i].claim_latency);
	if (prepare(db, sql, &b.st, err, errlen) < 0)
		goto out;
	for (i = 0; i < HIST_BINS; i++) {
		if (!merged->bins[i])
			continue;
		bind_i64(&b, run_id);
		bind_i64(&b, hist_bin_upper(i));
		bind_u64(&b, merged->bins[i]);
		if (insert_row(db, &b, "storing the claim-latency histogram", err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(b.st);
	free(merged);
	return ret;
}

/* Inserts the run's time series, one row per bucket. 0, or -1 with err. */
static int insert_series(sqlite3 *db, long long run_id, const struct run_result *run, char *err, size_t errlen)
{
	static const char sql[] =
		"INSERT INTO run_series (run_id, bucket_ms, completed, empty_claims, errors, enqueued, backlog)"
		" VALUES (?, ?, ?, ?, ?, ?, ?)";
	const struct series_point *p;
	struct binder b = { .next = 1 };
	size_t i;
	int ret = -1;

	if (prepare(db, sql, &b.st, err, errlen) < 0)
		goto out;
	for (i = 0; run->series && i < run->n_series; i++) {
		p = &run->series[i];
		bind_i64(&b, run_id);
		bind_i64(&b, p->t_ms);
		bind_u64(&b, p->completed);
		bind_u64(&b, p->empty_claims);
		bind_u64(&b, p->errors);
		bind_u64(&b, p->enqueued);
		bind_u64(&b, p->backlog);
		if (insert_row(db, &b, "storing the time series", err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(b.st);
	return ret;
}

int store_append(sqlite3 *db, struct store_session *session, const struct store_context *ctx,
		 const struct report *r, const struct run_result *run, long long *run_id, char *err, size_t errlen)
{
	long long invocation_id = session->invocation_id, id;

	if (exec(db, "BEGIN IMMEDIATE", "storing the run", err, errlen) < 0)
		return -1;
	if (!invocation_id && insert_invocation(db, ctx, r, &invocation_id, err, errlen) < 0)
		goto rollback;
	if (insert_run(db, invocation_id, run, &id, err, errlen) < 0 ||
	    insert_counters(db, id, run, err, errlen) < 0 ||
	    insert_latency_bins(db, id, run, err, errlen) < 0 ||
	    insert_series(db, id, run, err, errlen) < 0 ||
	    exec(db, "COMMIT", "storing the run", err, errlen) < 0)
		goto rollback;
	session->invocation_id = invocation_id;
	if (run_id)
		*run_id = id;
	return 0;
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* ---- reading ---- */

/* Reads a result row's columns in order. */
struct reader {
	sqlite3_stmt *st;	/* the statement, on a row */
	int next;		/* the next column's index, from 0 */
};

/* The next column as a signed integer. */
static long long col_i64(struct reader *c)
{
	return sqlite3_column_int64(c->st, c->next++);
}

/* The next column as an unsigned counter (the bits bind_u64 stored). */
static uint64_t col_u64(struct reader *c)
{
	return (uint64_t)col_i64(c);
}

/* The next column as a double; NULL as NaN. */
static double col_dbl(struct reader *c)
{
	int i = c->next++;

	if (sqlite3_column_type(c->st, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(c->st, i);
}

/* Copies the next column into buf, truncated to fit; NULL as "". */
static void col_copy(struct reader *c, char *buf, size_t size)
{
	const unsigned char *s = sqlite3_column_text(c->st, c->next++);

	snprintf(buf, size, "%s", s ? (const char *)s : "");
}

/* Copies the next column into a string s owns, in *out (NULL for NULL). 0, or -1 when out of memory. */
static int col_text(struct reader *c, struct store_run *s, const char **out)
{
	const unsigned char *text = sqlite3_column_text(c->st, c->next++);
	char **grown, *copy;

	*out = NULL;
	if (!text)
		return 0;
	grown = realloc(s->strings, (s->n_strings + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	s->strings = grown;
	copy = strdup((const char *)text);
	if (!copy)
		return -1;
	s->strings[s->n_strings++] = copy;
	*out = copy;
	return 0;
}

/* The error kind named name; a kind this binary does not know (a newer one wrote it) counts as other. */
static enum error_kind kind_of(const unsigned char *name)
{
	int k;

	for (k = 0; name && k < ERR_KIND_COUNT; k++)
		if (strcmp((const char *)name, error_kind_name((enum error_kind)k)) == 0)
			return (enum error_kind)k;
	return ERR_OTHER;
}

/* Reads the run's and its invocation's row into s. 0; 1 when there is no such run; -1 with err. */
static int load_run(sqlite3 *db, long long run_id, struct store_run *s, long long *invocation_id, char *err,
		    size_t errlen)
{
	static const char sql[] =
		"SELECT r.recorded_at, i.id, i.started_at, i.host, i.claimbench_version, i.git_revision,"
		" i.scenario, i.scenario_text, i.backend, i.server_version, i.seed,"
		" r.strategy, r.claim_mode, r.workers, r.jobs, r.work_ms, r.work_dist, r.duration_s, r.repeat,"
		" r.complete, r.makespan_s, r.ideal_s, r.throughput_jps, r.completed, r.executions,"
		" r.duplicates, r.dup_jobs, r.overlaps, r.lost, r.empty_claims, r.spurious_empties, r.retries,"
		" r.give_ups, r.ledger_mismatches, r.jain, r.fairness_min, r.fairness_max, r.fairness_cv,"
		" r.latency_p50_ms, r.latency_p90_ms, r.latency_p99_ms, r.latency_p999_ms, r.latency_max_ms,"
		" r.run_group, r.sweep, r.arrival_rate, r.arrivals, r.arrivals_late, r.arrival_late_max_ms,"
		" r.queue_wait_p50_ms, r.queue_wait_p90_ms, r.queue_wait_p99_ms, r.queue_wait_p999_ms,"
		" r.queue_wait_max_ms, r.failed FROM runs r JOIN invocations i ON i.id = r.invocation_id WHERE r.id = ?";
	struct run_result *run = &s->run;
	struct run_metrics *m = &run->metrics;
	struct reader c = { .next = 0 };
	int rc, ret = -1;

	if (prepare(db, sql, &c.st, err, errlen) < 0)
		goto out;
	sqlite3_bind_int64(c.st, 1, run_id);
	rc = sqlite3_step(c.st);
	if (rc == SQLITE_DONE) {
		ret = 1;
		goto out;
	}
	if (rc != SQLITE_ROW) {
		sql_fail(db, "reading the run", err, errlen);
		goto out;
	}
	col_copy(&c, s->recorded_at, sizeof(s->recorded_at));
	*invocation_id = col_i64(&c);
	col_copy(&c, s->report.started_at, sizeof(s->report.started_at));
	if (col_text(&c, s, &s->ctx.host) < 0 || col_text(&c, s, &s->ctx.version) < 0 ||
	    col_text(&c, s, &s->ctx.git_revision) < 0 || col_text(&c, s, &s->report.scenario) < 0 ||
	    col_text(&c, s, &s->ctx.scenario_text) < 0 || col_text(&c, s, &s->report.backend) < 0)
		goto oom;
	col_copy(&c, s->report.server_version, sizeof(s->report.server_version));
	s->report.seed = col_u64(&c);
	if (col_text(&c, s, &run->strategy) < 0 || col_text(&c, s, &run->claim_mode) < 0)
		goto oom;
	run->workers = (int)col_i64(&c);
	run->jobs = (long)col_i64(&c);
	run->work_ms = col_dbl(&c);
	if (col_text(&c, s, &run->work_dist) < 0)
		goto oom;
	run->duration_s = col_dbl(&c);
	run->repeat = (int)col_i64(&c);
	run->complete = col_i64(&c) != 0;
	m->makespan_s = col_dbl(&c);
	m->ideal_s = col_dbl(&c);
	m->throughput_jps = col_dbl(&c);
	m->completed = col_u64(&c);
	m->executions = col_u64(&c);
	m->duplicates = col_u64(&c);
	m->dup_jobs = col_u64(&c);
	m->overlaps = col_u64(&c);
	m->lost = col_u64(&c);
	m->empty_claims = col_u64(&c);
	m->spurious_empties = col_u64(&c);
	m->retries = col_u64(&c);
	m->give_ups = col_u64(&c);
	m->ledger_mismatches = col_u64(&c);
	m->fairness.jain = col_dbl(&c);
	m->fairness.min = col_u64(&c);
	m->fairness.max = col_u64(&c);
	m->fairness.cv = col_dbl(&c);
	m->claim_latency_ms.p50 = col_dbl(&c);
	m->claim_latency_ms.p90 = col_dbl(&c);
	m->claim_latency_ms.p99 = col_dbl(&c);
	m->claim_latency_ms.p999 = col_dbl(&c);
	m->claim_latency_ms.max = col_dbl(&c);
	if (col_text(&c, s, &run->group) < 0 || col_text(&c, s, &run->sweep) < 0)
		goto oom;
	run->arrival_rate = col_dbl(&c);
	m->arrivals = col_u64(&c);
	m->arrivals_late = col_u64(&c);
	m->arrival_late_max_ms = col_dbl(&c);
	m->queue_wait_ms.p50 = col_dbl(&c);
	m->queue_wait_ms.p90 = col_dbl(&c);
	m->queue_wait_ms.p99 = col_dbl(&c);
	m->queue_wait_ms.p999 = col_dbl(&c);
	m->queue_wait_ms.max = col_dbl(&c);
	m->failed = col_u64(&c);
	ret = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	sqlite3_finalize(c.st);
	return ret;
}

/* Reads the run's errors by kind into errors. 0, or -1 with err. */
static int load_run_errors(sqlite3 *db, long long run_id, uint64_t *errors, char *err, size_t errlen)
{
	static const char sql[] = "SELECT kind, count FROM run_errors WHERE run_id = ?";
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	if (prepare(db, sql, &st, err, errlen) < 0)
		goto out;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		errors[kind_of(sqlite3_column_text(st, 0))] += (uint64_t)sqlite3_column_int64(st, 1);
	if (rc != SQLITE_DONE) {
		sql_fail(db, "reading the run's errors", err, errlen);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/*
 * Reads the per-worker counters and errors into a new run->per_worker, left NULL when
 * none were stored. The join gives one row per worker and error kind, each repeating
 * the worker's counters. 0, or -1 with err.
 */
static int load_workers(sqlite3 *db, long long run_id, struct run_result *run, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT w.worker, w.completed, w.claims, w.empty, w.retries, w.give_ups, w.busy_ns, e.kind, e.count"
		" FROM run_workers w LEFT JOIN worker_errors e ON e.run_id = w.run_id AND e.worker = w.worker"
		" WHERE w.run_id = ? ORDER BY w.worker";
	struct reader c = { .next = 0 };
	struct worker_stats *w;
	enum error_kind kind;
	long long worker;
	int rc, ret = -1;

	if (prepare(db, sql, &c.st, err, errlen) < 0)
		goto out;
	sqlite3_bind_int64(c.st, 1, run_id);
	while ((rc = sqlite3_step(c.st)) == SQLITE_ROW) {
		c.next = 0;
		worker = col_i64(&c);
		if (worker < 0 || worker >= run->workers) {
			snprintf(err, errlen, "run %lld: worker %lld of %d workers", run_id, worker, run->workers);
			goto out;
		}
		if (!run->per_worker) {
			run->per_worker = calloc((size_t)run->workers, sizeof(*run->per_worker));
			if (!run->per_worker) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
		}
		w = &run->per_worker[worker];
		w->completed = col_u64(&c);
		w->claims = col_u64(&c);
		w->empty = col_u64(&c);
		w->retries = col_u64(&c);
		w->give_ups = col_u64(&c);
		w->busy_ns = col_i64(&c);
		if (sqlite3_column_type(c.st, c.next) == SQLITE_NULL)
			continue;
		kind = kind_of(sqlite3_column_text(c.st, c.next++));
		w->errors[kind] += col_u64(&c);
	}
	if (rc != SQLITE_DONE) {
		sql_fail(db, "reading the per-worker counters", err, errlen);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(c.st);
	return ret;
}

/* Reads the run's time series into a new run->series, left NULL when none was stored. 0, or -1 with err. */
static int load_series(sqlite3 *db, long long run_id, struct run_result *run, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT bucket_ms, completed, empty_claims, errors, enqueued, backlog FROM run_series"
		" WHERE run_id = ? ORDER BY bucket_ms";
	struct series_point *grown, *p;
	struct reader c = { .next = 0 };
	size_t cap = 0;
	int rc, ret = -1;

	if (prepare(db, sql, &c.st, err, errlen) < 0)
		goto out;
	sqlite3_bind_int64(c.st, 1, run_id);
	while ((rc = sqlite3_step(c.st)) == SQLITE_ROW) {
		if (run->n_series == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(run->series, cap * sizeof(*grown));
			if (!grown) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			run->series = grown;
		}
		p = &run->series[run->n_series++];
		c.next = 0;
		p->t_ms = col_i64(&c);
		p->completed = col_u64(&c);
		p->empty_claims = col_u64(&c);
		p->errors = col_u64(&c);
		p->enqueued = col_u64(&c);
		p->backlog = col_u64(&c);
	}
	if (rc != SQLITE_DONE) {
		sql_fail(db, "reading the time series", err, errlen);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(c.st);
	return ret;
}

/* Reads the invocation's server settings (the first DB_MAX_SETTINGS) into r. 0, or -1 with err. */
static int load_settings(sqlite3 *db, long long invocation_id, struct report *r, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT name, value FROM invocation_settings WHERE invocation_id = ? ORDER BY position LIMIT ?";
	struct db_setting *setting;
	struct reader c = { .next = 0 };
	int rc, ret = -1;

	if (prepare(db, sql, &c.st, err, errlen) < 0)
		goto out;
	sqlite3_bind_int64(c.st, 1, invocation_id);
	sqlite3_bind_int(c.st, 2, DB_MAX_SETTINGS);
	while ((rc = sqlite3_step(c.st)) == SQLITE_ROW) {
		setting = &r->settings[r->n_settings++];
		c.next = 0;
		col_copy(&c, setting->name, sizeof(setting->name));
		col_copy(&c, setting->value, sizeof(setting->value));
	}
	if (rc != SQLITE_DONE) {
		sql_fail(db, "reading the server settings", err, errlen);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(c.st);
	return ret;
}

int store_load(sqlite3 *db, long long run_id, struct store_run *out, char *err, size_t errlen)
{
	long long invocation_id;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = load_run(db, run_id, out, &invocation_id, err, errlen);
	if (rc != 0)
		goto fail;
	rc = -1;
	if (load_run_errors(db, run_id, out->run.metrics.errors, err, errlen) < 0 ||
	    load_workers(db, run_id, &out->run, err, errlen) < 0 ||
	    load_series(db, run_id, &out->run, err, errlen) < 0 ||
	    load_settings(db, invocation_id, &out->report, err, errlen) < 0)
		goto fail;
	out->run_id = run_id;
	out->invocation_id = invocation_id;
	out->report.version = out->ctx.version;
	out->report.results = &out->run;
	out->report.n_results = 1;
	return 0;
fail:
	store_run_free(out);
	return rc;
}

void store_run_free(struct store_run *s)
{
	size_t i;

	for (i = 0; i < s->n_strings; i++)
		free(s->strings[i]);
	free(s->strings);
	free(s->run.per_worker);
	free(s->run.series);
	memset(s, 0, sizeof(*s));
}

/* ---- listing ---- */

/* Copies s into buf with control characters shown as '?'; "-" when NULL. */
static void clean_text(char *buf, size_t size, const unsigned char *s)
{
	size_t i;

	if (!s)
		s = (const unsigned char *)"-";
	for (i = 0; i + 1 < size && s[i]; i++)
		buf[i] = s[i] < 0x20 || s[i] == 0x7f ? '?' : (char)s[i];
	buf[i] = '\0';
}

/* Formats column col of st with decimals digits; "-" when NULL or not finite. */
static void fixed_text(char *buf, size_t size, sqlite3_stmt *st, int col, int decimals)
{
	double v = sqlite3_column_double(st, col);

	if (sqlite3_column_type(st, col) == SQLITE_NULL || !isfinite(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.*f", decimals, v);
}

int store_list(sqlite3 *db, FILE *out, int limit)
{
	static const char sql[] =
		"SELECT id, recorded_at, strategy, claim_mode, workers, makespan_s, throughput_jps, duplicates,"
		" lost, jain, complete FROM runs ORDER BY id DESC LIMIT ?";
	char when[32], strategy[48], mode[16], makespan[32], thru[32], jain[32];
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int(st, 1, limit > 0 ? limit : -1);
	fprintf(out, "%6s  %-20s  %-16s %-4s %4s %10s %10s %6s %6s %6s  %s\n", "id", "when", "strategy", "mode",
		"wrk", "makespan_s", "thru_jps", "dup", "lost", "jain", "complete");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		clean_text(when, sizeof(when), sqlite3_column_text(st, 1));
		clean_text(strategy, sizeof(strategy), sqlite3_column_text(st, 2));
		clean_text(mode, sizeof(mode), sqlite3_column_text(st, 3));
		fixed_text(makespan, sizeof(makespan), st, 5, 3);
		fixed_text(thru, sizeof(thru), st, 6, 1);
		fixed_text(jain, sizeof(jain), st, 9, 3);
		fprintf(out, "%6lld  %-20s  %-16s %-4s %4d %10s %10s %6llu %6llu %6s  %s\n",
			(long long)sqlite3_column_int64(st, 0), when, strategy, mode, sqlite3_column_int(st, 4),
			makespan, thru, (unsigned long long)sqlite3_column_int64(st, 7),
			(unsigned long long)sqlite3_column_int64(st, 8), jain,
			sqlite3_column_int(st, 10) ? "yes" : "no");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* ---- invocations ---- */

int store_invocation_runs(sqlite3 *db, long long invocation_id, long long **ids, size_t *n, char *err,
			  size_t errlen)
{
	static const char sql[] =
		"SELECT i.id, r.id FROM invocations i LEFT JOIN runs r ON r.invocation_id = i.id"
		" WHERE i.id = ? ORDER BY r.id";
	long long *grown;
	sqlite3_stmt *st = NULL;
	int rc, ret = 1;

	*ids = NULL;
	*n = 0;
	if (prepare(db, sql, &st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, invocation_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ret = 0;
		if (sqlite3_column_type(st, 1) == SQLITE_NULL)
			continue;
		grown = realloc(*ids, (*n + 1) * sizeof(*grown));
		if (!grown) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		*ids = grown;
		(*ids)[(*n)++] = sqlite3_column_int64(st, 1);
	}
	if (rc != SQLITE_DONE) {
		sql_fail(db, "reading the invocation's runs", err, errlen);
		goto fail;
	}
	sqlite3_finalize(st);
	return ret;
fail:
	sqlite3_finalize(st);
	free(*ids);
	*ids = NULL;
	*n = 0;
	return -1;
}
