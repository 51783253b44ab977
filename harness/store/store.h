/*
 * The result store: every run appended to an SQLite database, and read back so that
 * the report printers print it as `claimbench run` did. Other layers see an opaque
 * handle; the schema is a list of migrations (store_schema.c) that PRAGMA
 * user_version counts, and the runs table has a column for each run descriptor and
 * each metric of the metric table.
 */
#ifndef CLAIMBENCH_STORE_H
#define CLAIMBENCH_STORE_H

#include <stddef.h>
#include <stdio.h>

#include "model/result.h"

/* Where runs land when --results is not given; its directory is created when missing. */
#define STORE_DEFAULT_PATH "results/claimbench.db"

/* An open result store (store_open, store_close). */
struct store;

/*
 * The schema, one SQL script per version: store_migrations[i] takes a file from
 * user_version i to i + 1 and sets user_version itself. Never edit a shipped entry;
 * append a new one.
 */
extern const char *const store_migrations[];

/* The schema version this binary writes: the number of store_migrations. */
extern const int store_schema_version;

/*
 * What an invocation was, beyond what struct invocation_result holds (the server's settings are
 * in the report: report.settings, as the backend read them).
 */
struct store_context {
	const char *host;		/* host name of the machine that ran it */
	const char *version;		/* claimbench version */
	const char *git_revision;	/* git revision of the build, or "unknown" */
	const char *scenario_text;	/* the scenario file's content, or the command line */
	const char *command;		/* the command that made the invocation: "run", "ab", "explore" */
};

/* One invocation's place in the store; start it zeroed, one per report. */
struct store_session {
	long long invocation_id;	/* the invocation's row, 0 until the first run of the report is stored */
};

/*
 * A run read back from the store with its invocation; store_load fills it, store_run_free
 * empties it. report.results points into the struct itself: do not copy it.
 */
struct store_run {
	char recorded_at[32];		/* when the run was stored, UTC ISO 8601 */
	struct invocation_result report;		/* the invocation, its settings included; results is &run, n_results 1 */
	struct run_result run;		/* the run; per_worker allocated, their claim_latency histograms empty */
	struct histogram *claim_latency; /* the workers' claim-latency histograms merged, as stored (owned); NULL: no
					    bins; min and max are its first and last bins' upper edges */
	struct store_context ctx;	/* host, version, git revision, scenario text */
	char **strings;			/* every string report, run and ctx point to (owned) */
	size_t n_strings;		/* entries in strings */
};

/* Runs loaded one after another, in the order asked. */
struct store_run_list {
	struct store_run *runs;	/* the runs, n of them (owned; each points into itself, kept so when grown) */
	size_t n;		/* entries in runs */
};

/*
 * Opens (creating it when missing) the store at path, migrates it to
 * store_schema_version and adds a column for every metric it lacks; for
 * STORE_DEFAULT_PATH it first creates the directory. Refuses a file written by a newer
 * claimbench. 0 with *out open, or -1 with err.
 */
int store_open(const char *path, struct store **out, char *err, size_t errlen);

/*
 * Opens the existing store at path for reading commands: read-only (SQLite's
 * SQLITE_OPEN_READONLY), so that it works on a file or folder the user may not write, and
 * without leaving -wal or -shm files beside a store no connection has open (such a store
 * in WAL mode is read as immutable). Refuses a missing or empty file and an SQLite file
 * that is not a store, creating nothing. A store an older claimbench wrote is first
 * migrated as store_open does, which alone needs write access. 0 with *out open, or -1
 * with err.
 */
int store_open_existing(const char *path, struct store **out, char *err, size_t errlen);

/* Closes s; NULL is fine. */
void store_close(struct store *s);

/*
 * Appends one run of r, in one transaction: the invocation (ctx and r's header and
 * settings) once per session, then the run with its descriptors and every metric, its
 * parameters, per-worker counters, merged claim-latency histogram and time series.
 * 0 with the new row's id in *run_id (may be NULL), or -1 with err and nothing written.
 */
int store_append(struct store *s, struct store_session *session, const struct store_context *ctx,
		 const struct invocation_result *r, const struct run_result *run, long long *run_id, char *err, size_t errlen);

/*
 * Prints a header and one line per run and per explore (of one strategy and mode), newest
 * first: at most limit of them (all when limit <= 0); a guarded run's strategy column names
 * its guard, its mode column its workload and its throughput column its grants per second;
 * the section column names the scenario section ("-" for none); the last column names the
 * command that made the invocation, and an explore's line (id "-": show inv:N shows it) its
 * schedules. 0, or -1 with err.
 */
int store_list(struct store *s, FILE *out, int limit, char *err, size_t errlen);

/*
 * Reads run run_id back into out (zeroed first); a metric its file has no value for is
 * unknown. 0; 1 when there is no such run (out stays empty); -1 with err on an SQLite
 * error or out of memory. Release out with store_run_free.
 */
int store_load(struct store *s, long long run_id, struct store_run *out, char *err, size_t errlen);

/*
 * Reads invocation invocation_id alone into out (zeroed first): report's header and
 * settings and ctx, no run (report.n_results 0). 0; 1 when there is no such invocation;
 * -1 with err. Release out with store_run_free.
 */
int store_invocation_load(struct store *s, long long invocation_id, struct store_run *out, char *err, size_t errlen);

/* Frees everything store_load allocated in run and zeroes it; a zeroed run is fine. */
void store_run_free(struct store_run *run);

/* Loads run run_id as the next run of list. 0; 1 when there is no such run; -1 with err. */
int store_run_list_add(struct store *s, long long run_id, struct store_run_list *list, char *err, size_t errlen);

/*
 * Loads every run of invocation invocation_id, in the order they were stored, as the next
 * runs of list. 0 (*added of them, 0 when it holds none); 1 when there is no such
 * invocation; -1 with err.
 */
int store_run_list_add_invocation(struct store *s, long long invocation_id, struct store_run_list *list,
				  size_t *added, char *err, size_t errlen);

/* Frees every run of list and empties it; an empty list is fine. */
void store_run_list_free(struct store_run_list *list);

/*
 * Reads the ids of invocation invocation_id's runs, in the order they were stored, into a
 * new array *ids (free it) of *n. 0; 1 when there is no such invocation (*ids NULL, *n 0);
 * -1 with err on an SQLite error or out of memory.
 */
int store_invocation_runs(struct store *s, long long invocation_id, long long **ids, size_t *n, char *err,
			  size_t errlen);

/*
 * The invocations of the newest runs, newest first, at most want of them, into ids (room
 * for want); *found of them (0 when the store holds no run). 0, or -1 with err.
 */
int store_latest_invocations(struct store *s, long long *ids, size_t want, size_t *found, char *err, size_t errlen);

#endif
