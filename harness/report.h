/* The results of an invocation and the formats that print them. */
#ifndef CLAIMBENCH_REPORT_H
#define CLAIMBENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "backend.h"
#include "metrics.h"

/* One run: one strategy at one worker count, one repetition. */
struct run_result {
	const char *strategy;		/* strategy name */
	const char *claim_mode;		/* "hold" or "flip" */
	const char *group;		/* the scenario section it belongs to; NULL or "" when none */
	const char *sweep;		/* the swept keys' values of its sweep point; NULL or "" when none */
	int workers;			/* worker threads */
	long jobs;			/* jobs in the initial backlog */
	double work_ms;			/* mean work time per job */
	const char *work_dist;		/* "fixed", "uniform" or "exp" */
	double duration_s;		/* length of a timed run; 0 for a drain run */
	double arrival_rate;		/* jobs per second the producers inserted at; 0 when none */
	int repeat;			/* repetition number, from 1 */
	bool complete;			/* false when interrupted or a worker aborted */
	struct run_metrics metrics;	/* every figure of the run */
	struct worker_stats *per_worker; /* per-worker counters, workers of them (owned) */
	struct series_point *series;	/* the 100 ms time series, n_series buckets (owned); NULL when none */
	size_t n_series;		/* entries in series */
};

/* Everything one invocation of `claimbench run` measured. */
struct report {
	const char *version;		/* claimbench version */
	const char *scenario;		/* scenario name */
	const char *backend;		/* "postgresql" or "sqlite" */
	char server_version[64];	/* the server's version string */
	struct db_setting settings[DB_MAX_SETTINGS]; /* server settings that shape contention, as reported */
	size_t n_settings;		/* entries used in settings */
	char started_at[32];		/* UTC start time, ISO 8601 */
	unsigned long long seed;	/* the RNG seed of the work times */
	struct run_result *results;	/* the runs, in the order they ran */
	size_t n_results;		/* runs in results */
};

/* Prints one row per run with the key columns, for a person at a terminal. */
void report_print_table(FILE *out, const struct report *r);

/* Prints a header line and one CSV row per run (per-worker rows are left out). */
void report_print_csv(FILE *out, const struct report *r);

/* Prints the JSON object of DESIGN.md's output contract. */
void report_print_json(FILE *out, const struct report *r);

#endif
