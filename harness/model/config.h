/* Everything `claimbench run` was asked to do, after parsing and validation. */
#ifndef CLAIMBENCH_CONFIG_H
#define CLAIMBENCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generated/plugins.h"
#include "model/faults.h"
#include "model/timeline.h"


/* How a worker's claim relates to its work (docs/vocabulary.md, "claim mode"). */
enum claim_mode {
	MODE_HOLD,	/* claim, work and complete in one transaction, the lock held during the work */
	MODE_FLIP,	/* the claim commits a status change; the work runs outside any transaction */
	MODE_COUNT
};

#define MODE_BIT(mode) (1u << (mode))

/* How each job's work time is drawn. */
enum work_dist {
	WORK_FIXED,	/* exactly work_ms */
	WORK_UNIFORM,	/* uniform on [work_min_ms, work_max_ms] when a range is given, else on [0, 2 * work_ms] */
	WORK_EXP,	/* exponential with mean work_ms */
	WORK_LOGNORMAL,	/* log-normal with mean work_ms and the underlying normal's sigma work_sigma */
	WORK_PARETO,	/* Pareto with mean work_ms and tail index work_alpha, cut at WORK_TAIL_CAP x the mean */
};

/* The longest a heavy-tailed work time may be, as a multiple of the mean: a Pareto draw is cut here. */
#define WORK_TAIL_CAP 1000

enum output_format {
	FORMAT_TABLE,
	FORMAT_CSV,
	FORMAT_JSON,
};

/* What a run's workers do: claim jobs from a queue, or take a guarded resource (docs/guarded.md). */
enum workload {
	WORKLOAD_QUEUE,		/* claim and work jobs: the strategies */
	WORKLOAD_REFRESH,	/* seed 003, step 1: check a shared cache, refresh it when stale, use it */
	WORKLOAD_EXCLUSIVE_USE,	/* seed 003, step 2: users hold the cache table locked; a refresher must wait */
	WORKLOAD_RESOURCE,	/* seed 004: requests for several resources through a ticket line */
	WORKLOAD_COUNT
};

#define WORKLOAD_BIT(w) (1u << (w))

/*
 * Strategies one run group runs at most: every registered one in each claim mode, and as
 * many again for those a scenario defines in SQL. Sized from the registry, which `all` fits.
 */
#define MAX_STRATEGIES (2 * STRATEGY_COUNT * MODE_COUNT)

/* Guards one run group runs at most: every registered one, twice over for a list that repeats one. */
#define MAX_GUARDS (2 * GUARD_COUNT)

_Static_assert(MAX_STRATEGIES >= MAX_GUARDS, "run_config.left_out holds the guards \"all\" leaves out too");

#define MAX_WORKER_POINTS 32
#define MAX_WORKERS 1024
#define MAX_QUEUES 16
#define QUEUE_NAME_MAX 64

struct backend_ops;
struct guard_ops;
struct strategy_ops;

/* How a connection is set up; each driver reads the members that concern it. */
/* The isolation level of every MariaDB connection (--isolation): the server's default, or one set per session. */
enum isolation_level {
	ISOLATION_SERVER,		/* the server's (InnoDB's default: REPEATABLE READ, as a real application has) */
	ISOLATION_REPEATABLE_READ,	/* REPEATABLE READ */
	ISOLATION_READ_COMMITTED,	/* READ COMMITTED: no gap locks on searches */
	ISOLATION_COUNT
};

struct db_options {
	int sqlite_journal;		/* SQLite journal_mode: an index in sqlite_journal_modes; -1: leave it as it is */
	int sqlite_synchronous;		/* SQLite synchronous level: an index in sqlite_synchronous_levels */
	int sqlite_busy_timeout_ms;	/* SQLite: how long a statement waits for a lock before SQLITE_BUSY */
	int lock_timeout_ms;		/* PostgreSQL: lock_timeout of every connection, 0: none */
	int statement_timeout_ms;	/* PostgreSQL: statement_timeout of every connection, 0: none */
	bool pipeline;			/* PostgreSQL: a worker sends a transaction's statements in pipelines */
	bool unnamed_statements;	/* PostgreSQL: no named prepared statement; each execution sends its
					 * statement's text (a pooler in transaction mode, db/pooler.h) */
	int isolation;			/* MariaDB: an enum isolation_level */
};

/* One strategy to run and the claim mode to run it in. */
struct strategy_choice {
	const struct strategy_ops *ops;	/* the strategy */
	enum claim_mode mode;		/* its claim mode for this invocation */
	size_t kind;			/* its place in the registry: its settings are strategy_configs[kind] */
};

/* Room for one strategy's own settings: the struct its option rows point into. */
#define STRATEGY_CONFIG_MAX 128

/* One strategy's settings, as its option rows (strategy_ops.options) read them. */
union strategy_config {
	max_align_t align;			/* aligns bytes for any struct */
	unsigned char bytes[STRATEGY_CONFIG_MAX];	/* the strategy's settings struct */
};

/* How the server is watched during a run, and the MVCC pressure put on it. */
struct pressure_plan {
	int sample_ms;			/* sample the server this often from the harness's connection; 0: never */
	double snapshot_at_s;		/* hold a snapshot open from this instant (s after the start) ... */
	double snapshot_s;		/* ... for this long; 0: no snapshot */
	struct fault_trigger vacuum;	/* VACUUM the queue table at its at_s instants (only those are used) */
};

/* A guarded-resource workload's settings (docs/guarded.md); unused by the queue workload. */
struct guarded_plan {
	int workload;					/* an enum workload; WORKLOAD_QUEUE: no guarded run */
	const struct guard_ops *guards[MAX_GUARDS];	/* the guards to run, in order */
	size_t n_guards;				/* entries used in guards */
	bool all_guards;				/* --guard all (the default): those of the workload the backend can run */
	int stale_ms;					/* the cache goes stale every this many ms (refresh, exclusive-use) */
	int refresh_ms;					/* a refresh takes this long between its two halves: the half-written window */
	int wait_limit_ms;				/* a guard with a wait limit gives up after this long; 0: none */
	int retry_ms;					/* pause before a refused or NOWAIT acquisition tries again */
	int poll_ms;					/* pause between a ticket's polls of the line */
	int resources;					/* resource: how many resources the requests spread over */
	int limit;					/* resource: X, the most holders of one resource at once */
	double write_share;				/* resource: the share of requests that are writes, 0..1 */
	int ticket_expiry_ms;				/* resource: tickets older than this are removed as stale; 0: never */
	double abandon_share;				/* resource: the share of grants whose holder leaves its ticket behind */
};

/* The throwaway server's autovacuum for a run (--autovacuum; docs/phases.md#autovacuum). */
enum autovacuum_mode {
	AUTOVACUUM_DEFAULT,	/* the server's own: PostgreSQL's defaults on the throwaway, a user's server as it is */
	AUTOVACUUM_AGGRESSIVE,	/* as the field runs it: scale factor 0.005, naptime 10 s, cost limit 10000 */
	AUTOVACUUM_OFF,		/* none: only the run's own VACUUMs (--phase vacuum, --vacuum-at) */
};

/* How workers and producers reach the server (--pooler; db/pooler.h). */
enum pooler_mode {
	POOLER_NONE,		/* each connects to the server itself */
	POOLER_SESSION,		/* through pgbouncer, one server connection per client session */
	POOLER_TRANSACTION,	/* through pgbouncer, one server connection per transaction */
};

struct run_config {
	const struct backend_ops *backend;		/* the driver --db names; NULL: invocation_backend chooses */
	const char *target;				/* --db: conninfo or file path; NULL for a throwaway database */
	struct db_options db_opts;			/* how connections are set up */
	int pooler;					/* --pooler: an enum pooler_mode */
	int autovacuum;					/* --autovacuum: an enum autovacuum_mode */
	int server_connections;				/* --server-connections: the pooler's server connections */
	bool all_strategies;				/* --strategy all (the default): those the backend can run */
	const char *scenario;				/* scenario name shown in output */
	char group[64];					/* the scenario section this run group comes from, or "" */
	char sweep[160];				/* the swept keys' values of this point ("tries=3,backoff-ms=10"), or "" */
	const struct strategy_ops *const *defined;	/* the strategies the scenario defines in SQL, by name after the registry's */
	size_t n_defined;				/* entries in defined */
	struct strategy_choice strategies[MAX_STRATEGIES]; /* what to run, in order */
	const char *left_out[MAX_STRATEGIES];		/* the strategies or guards "all" left out: the backend cannot run them */
	size_t n_left_out;				/* entries used in left_out */
	enum claim_mode claim_mode;			/* --claim-mode for strategies given without one; MODE_COUNT: each one's own */
	size_t n_strategies;				/* entries used in strategies */
	int workers[MAX_WORKER_POINTS];			/* worker counts to run each strategy at */
	size_t n_worker_points;				/* entries used in workers */
	long jobs;					/* jobs in the initial backlog */
	double work_ms;					/* mean work time per job */
	int work_dist;					/* how work times are drawn: an enum work_dist */
	double work_sigma;				/* lognormal: sigma of the underlying normal */
	double work_alpha;				/* pareto: the tail index, > 1 */
	double work_min_ms;				/* --work-dist uniform:MIN-MAX: the shortest work time; 0 without a range */
	double work_max_ms;				/* its longest, above work_min_ms; 0: no range (work_ms is then its mean) */
	double duration_s;				/* timed run length; 0 for a drain run */
	double warmup_s;				/* a timed run's first seconds left out of its rate and latency figures */
	double arrival_rate;				/* jobs per second the producers insert in all; 0: no arrivals */
	double arrival_s;				/* how long producers insert; 0: the run's duration_s */
	int producers;					/* producer threads sharing arrival_rate */
	int repeat;					/* repetitions of each strategy x worker count; 0: auto
							 * (--repeat auto), until the throughput's 95 % interval is
							 * within repeat_ci_pct of its mean or repeat_max runs */
	double repeat_ci_pct;				/* --repeat auto: the interval's half-width sought, % of the mean */
	int repeat_max;					/* --repeat auto: the most runs of one case */
	int format;					/* how results are printed: an enum output_format */
	uint64_t seed;					/* seed of the work-time RNG */
	char queues[MAX_QUEUES][QUEUE_NAME_MAX];	/* the task classes: job j is in queues[(j-1) % n_queues] */
	int n_queues;					/* task classes; worker w serves queues[w % n_queues] */
	double fail_rate;				/* share of jobs whose first pass fails (injected) */
	bool rerun_errors;				/* once drained, clear the errors and drain again */
	bool verify;					/* record the run's committed changes by trigger and
							 * compare the integrity figures with that record (--verify) */
	int empty_retries;				/* immediate claim retries after an empty claim (seed 002) */
	const char *table_prefix;			/* prefix of the run's table names; NULL: claimbench_<pid>_ */
	int empty_wait_ms;				/* pause after an empty claim while jobs remain */
	int replicas;					/* an adapter's processes, each of the run's workers (--replicas) */
	int adapter_silence_ms;				/* the watchdog: an adapter silent this long stops its run */
	double crash_replica_at_s;			/* an adapter's replica 0 SIGKILLed this long after the start; 0: never */
	int replica_respawn_ms;				/* a replacement started this long after the killed replica's output
							 * ended, in its seats; 0: none (--replica-respawn-ms) */
	struct fault_plan faults;			/* the faults to inject */
	struct recovery_plan recovery;			/* how flip-mode claims recover from them */
	struct pressure_plan pressure;			/* the server's sampling and MVCC pressure phases */
	struct timeline timeline;			/* --phase: the run's phases, in order; n 0: none */
	double phase_scale;				/* --phase-scale: every phase's duration is multiplied by it */
	struct guarded_plan guarded;			/* a guarded-resource workload's settings */
	union strategy_config strategy_configs[STRATEGY_COUNT]; /* each registered strategy's settings, by registry index */
	bool no_progress;				/* draw no progress line on stderr */
	double progress_interval_s;			/* print each interval's figures on stderr this often; 0: never */
};

/* The shortest interval of --progress-interval, in seconds: ten lines a second at most. */
#define PROGRESS_MIN_INTERVAL_S 0.1

/* The fewest runs --repeat auto makes of a case before it judges the interval. */
#define REPEAT_AUTO_MIN 3

/* The most runs cfg makes of one case: repeat, or repeat_max under --repeat auto. */
int run_config_repeat_cap(const struct run_config *cfg);

/* How long cfg's producers insert, in seconds: arrival_s, or duration_s when that is 0. */
double run_config_arrival_s(const struct run_config *cfg);

/*
 * The jobs cfg's producers insert after the backlog: ceil(arrival_rate * run_config_arrival_s()),
 * or with a timeline, phase by phase at arrival_rate x the phase's load factor.
 */
long run_config_arrivals(const struct run_config *cfg);

/* The task class of job id (1-based) in cfg. */
const char *run_config_queue_of_job(const struct run_config *cfg, long id);

/* The names of the claim modes, the work distributions and the output formats, indexed by their enums, NULL-terminated. */
extern const char *const claim_mode_names[];
extern const char *const work_dist_names[];
extern const char *const output_format_names[];
extern const char *const workload_names[];
extern const char *const pooler_mode_names[];

/* SQLite's journal modes and synchronous levels as the options name them (db_options indexes), NULL-terminated. */
extern const char *const sqlite_journal_modes[];
extern const char *const sqlite_synchronous_levels[];

/* The isolation levels as --isolation names them, NULL-terminated, and as SQL (NULL: the server's). */
extern const char *const isolation_names[];
extern const char *const autovacuum_mode_names[];
extern const char *const isolation_sql[ISOLATION_COUNT];

/* The name of a claim mode ("hold", "flip"; "none" for MODE_COUNT). */
const char *claim_mode_name(enum claim_mode mode);

/* The name of a workload ("queue", "refresh", "exclusive-use", "resource"). */
const char *workload_name(enum workload w);

/* The name of a work distribution ("fixed", "uniform", "exp", "lognormal", "pareto"). */
const char *work_dist_name(enum work_dist dist);

#endif
