/* Everything `claimbench run` was asked to do, after parsing and validation. */
#ifndef CLAIMBENCH_CONFIG_H
#define CLAIMBENCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* How a worker's claim relates to its work (DESIGN.md "claim mode"). */
enum claim_mode {
	MODE_HOLD,	/* claim, work and complete in one transaction, the lock held during the work */
	MODE_FLIP,	/* the claim commits a status change; the work runs outside any transaction */
	MODE_COUNT
};

#define MODE_BIT(mode) (1u << (mode))

/* How each job's work time is drawn. */
enum work_dist {
	WORK_FIXED,	/* exactly work_ms */
	WORK_UNIFORM,	/* uniform on [0, 2 * work_ms] */
	WORK_EXP,	/* exponential with mean work_ms */
};

enum output_format {
	FORMAT_TABLE,
	FORMAT_CSV,
	FORMAT_JSON,
};

#define MAX_STRATEGIES 16
#define MAX_WORKER_POINTS 32
#define MAX_WORKERS 1024
#define MAX_QUEUES 16
#define QUEUE_NAME_MAX 64

struct backend_ops;
struct strategy_ops;

/* How a connection is set up; each driver reads the members that concern it. */
struct db_options {
	const char *sqlite_journal;	/* SQLite journal_mode: delete, truncate, persist, memory, wal or off */
	const char *sqlite_synchronous;	/* SQLite synchronous level: off, normal, full or extra */
	int sqlite_busy_timeout_ms;	/* SQLite: how long a statement waits for a lock before SQLITE_BUSY */
};


/* One strategy to run and the claim mode to run it in. */
struct strategy_choice {
	const struct strategy_ops *ops;	/* the strategy */
	enum claim_mode mode;		/* its claim mode for this invocation */
};

/* Knobs of the strategies that have them. */
struct strategy_params {
	int tries;		/* nowait-backoff: lock attempts per claim before giving up */
	int backoff_ms;		/* nowait-backoff: sleep between attempts */
	int poll_ms;		/* ticket: sleep between polls of the line */
	int ticket_limit;	/* ticket: how many tickets at the head of the line may claim at once (X) */
	int stale_ms;		/* ticket: tickets older than this are deleted as abandoned */
};

struct run_config {
	const struct backend_ops *backend;		/* the driver --db names; NULL: cmd_run chooses */
	const char *target;				/* --db: conninfo or file path; NULL for a throwaway database */
	struct db_options db_opts;			/* how connections are set up */
	bool all_strategies;				/* --strategy all (the default): those the backend can run */
	const char *scenario;				/* scenario name shown in output */
	char group[64];					/* the scenario section this run group comes from, or "" */
	char sweep[160];				/* the swept keys' values of this point ("tries=3,backoff-ms=10"), or "" */
	struct strategy_choice strategies[MAX_STRATEGIES]; /* what to run, in order */
	size_t n_strategies;				/* entries used in strategies */
	int workers[MAX_WORKER_POINTS];			/* worker counts to run each strategy at */
	size_t n_worker_points;				/* entries used in workers */
	long jobs;					/* jobs in the initial backlog */
	double work_ms;					/* mean work time per job */
	enum work_dist work_dist;			/* how work times are drawn */
	double duration_s;				/* timed run length; 0 for a drain run */
	double arrival_rate;				/* jobs per second the producers insert in all; 0: no arrivals */
	double arrival_s;				/* how long producers insert; 0: the run's duration_s */
	int producers;					/* producer threads sharing arrival_rate */
	int repeat;					/* repetitions of each strategy x worker count */
	enum output_format format;			/* how results are printed */
	uint64_t seed;					/* seed of the work-time RNG */
	char queues[MAX_QUEUES][QUEUE_NAME_MAX];	/* the task classes: job j is in queues[(j-1) % n_queues] */
	int n_queues;					/* task classes; worker w serves queues[w % n_queues] */
	double fail_rate;				/* share of jobs whose first pass fails (injected) */
	bool rerun_errors;				/* once drained, clear the errors and drain again */
	int empty_retries;				/* immediate claim retries after an empty claim (seed 002) */
	const char *table_prefix;			/* prefix of the run's table names */
	int empty_wait_ms;				/* pause after an empty claim while jobs remain */
	struct strategy_params params;			/* strategy knobs */
	bool progress;					/* draw a progress line on stderr */
};

/* How long cfg's producers insert, in seconds: arrival_s, or duration_s when that is 0. */
double run_config_arrival_s(const struct run_config *cfg);

/* The jobs cfg's producers insert after the backlog: ceil(arrival_rate * run_config_arrival_s()). */
long run_config_arrivals(const struct run_config *cfg);

/* The task class of job id (1-based) in cfg. */
const char *run_config_queue_of_job(const struct run_config *cfg, long id);

/* The name of a claim mode ("hold", "flip"). */
const char *claim_mode_name(enum claim_mode mode);

/* The name of a work distribution ("fixed", "uniform", "exp"). */
const char *work_dist_name(enum work_dist dist);

#endif
