/*
 * The result model: what a run measured and what an invocation was, as the engine
 * fills it, the store keeps it and every printer reads it. Below everything that reads it.
 */
#ifndef CLAIMBENCH_RESULT_H
#define CLAIMBENCH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/histogram.h"
#include "model/error_kind.h"
#include "model/server_sample.h"
#include "model/timeline.h"

/* A job's status in the queue table; the final-state queries write it as its number (0 new ... 5 consumed). */
enum job_status {
	JOB_NEW,	/* waiting to be claimed */
	JOB_ACTIVE,	/* claimed (flip mode) and not finished */
	JOB_DONE,	/* completed */
	JOB_ERROR,	/* deliberately marked failed */
	JOB_MISSING,	/* not in the table at the end */
	JOB_CONSUMED,	/* taken out of the queue by its claim (delete-returning): the ledger says whether it was done */
};

/* One job's row in the table when the run ended. */
struct job_state {
	int32_t status;		/* an enum job_status */
	int32_t claimed_by;	/* worker index in claimed_by, -1 when NULL */
};

/* One fault the harness injected; times are ns since the start barrier. */
struct fault_record {
	int64_t at_ns;		/* when it struck */
	int64_t duration_ns;	/* how long it lasted: a restart until the server accepted connections again, an adapter's
				 * killed backend until it had gone (when it struck is not known closer); else 0 */
	int64_t job_id;		/* the job in the struck worker's hand, 0 for none */
	int32_t kind;		/* an enum fault_kind (model/faults.h) */
	int32_t worker;		/* the seat of the worker it struck, -1 for the server */
};

/* One worker's counters, written only by its own thread during the run. */
struct worker_stats {
	uint64_t completed;			/* executions whose completion committed after the warm-up */
	uint64_t claims;			/* claim attempts, whatever they returned */
	uint64_t empty;				/* claim attempts that returned no job */
	uint64_t retries;			/* retries inside claim attempts (back-offs, polls) */
	uint64_t give_ups;			/* claim attempts abandoned after the last try */
	uint64_t errors[ERR_KIND_COUNT];	/* database errors met, by kind */
	int64_t busy_ns;			/* time spent executing jobs' work */
	uint64_t reconnects;			/* lost connections made anew (a crashed worker's replacement's included) */
	bool waits_counted;			/* its driver counts the three below (SQLite) */
	int64_t lock_wait_ns;			/* time its statements slept waiting for a lock */
	uint64_t checkpoints;			/* WAL checkpoints its commits ran */
	uint64_t checkpoints_partial;		/* of them, those a reader kept from copying the whole WAL */
	uint64_t statements;			/* statements it sent, BEGIN and COMMIT included, the whole run */
	uint64_t round_trips;			/* waits for the server's answer: a pipeline of statements is one */
	int64_t cpu_ns;				/* its thread's CPU time from the start gate to its loop's end */
	uint64_t pages_hit;			/* SQLite: pages its connection found in its page cache (waits_counted) */
	uint64_t pages_read;			/* SQLite: pages it read from the file: cache misses */
	uint64_t pages_written;			/* SQLite: pages it wrote out */
	struct histogram claim_latency;		/* claim start to job in hand, successful claims begun after the warm-up */
};

/* One producer's counters, written only by its own thread during the run. */
struct producer_stats {
	uint64_t inserted;			/* arrivals whose INSERT committed */
	uint64_t late;				/* inserts issued over PRODUCER_LATE_NS late */
	int64_t late_max_ns;			/* the most an insert was issued late; 0: never */
	uint64_t errors[ERR_KIND_COUNT];	/* database errors met, by kind */
	uint64_t reconnects;			/* lost connections made anew */
};

/* Width of one bucket of a run's time series. */
#define SERIES_BUCKET_NS 100000000

/* One 100 ms bucket of a run's time series: [t_ms, t_ms + 100) after the start barrier. */
struct series_point {
	int64_t t_ms;		/* the bucket's start, ms after the start barrier */
	uint64_t completed;	/* executions whose completion committed (outcome done), by end time */
	uint64_t first_completed; /* of those, each job's first: distinct jobs done; METRIC_UNKNOWN when not stored */
	uint64_t empty_claims;	/* empty claims, by the instant they returned */
	uint64_t errors;	/* database errors of every kind, workers' and producers', by instant */
	uint64_t enqueued;	/* arrivals whose insert committed in the bucket (the backlog not included) */
	uint64_t backlog;	/* jobs enqueued by the bucket's end minus jobs first in hand by then */
};

/* Fairness of the per-worker completed counts. */
struct fairness {
	double jain;		/* Jain's index (sum x)^2 / (n * sum x^2); 1 when every x is 0 */
	uint64_t min;		/* fewest completed by one worker */
	uint64_t max;		/* most completed by one worker */
	double cv;		/* coefficient of variation: population stddev / mean; 0 when mean is 0 */
};

/* Percentiles of a duration (claim latency, queue wait) in milliseconds. */
struct latency_summary {
	double p50, p90, p99, p999;	/* nearest-rank percentiles */
	double max;			/* exact largest value */
};

/* Recovery times of faults, in milliseconds; NaN when no fault's job was completed after it. */
struct recovery_summary {
	double p50;	/* nearest-rank median */
	double max;	/* the longest */
};

/* The delivery guarantees a run kept: 1 held, 0 broken, METRIC_UNKNOWN (model/metric_table.h) not known. */
struct delivery {
	uint64_t at_most_once;	/* no job's work began twice: race_duplicates + redeliveries - redelivered_unbegun is 0 */
	uint64_t at_least_once;	/* no job was lost: lost is 0 (unknown without the final state) */
};

/*
 * What a failover to the standby (FAULT_FAILOVER) cost, by the ledger against the new
 * primary's table; unknown (METRIC_UNKNOWN, NaN) without a failover.
 */
struct failover_figures {
	uint64_t lag_bytes;		/* WAL the standby had not replayed when the failover struck (pg_stat_replication) */
	double lag_ms;			/* the standby's replay_lag then, ms; NaN when the server did not say */
	uint64_t lost_completions;	/* jobs whose completion a worker was told had committed before the failover
					 * and that the new primary did not have done: run again, or left undone */
	uint64_t rerun;			/* of those, jobs claimed and run again after the failover */
	uint64_t left_active;		/* of those, jobs the new primary still had active at the end */
	uint64_t claims_lost;		/* jobs in a worker's hand when it struck (flip mode) whose claim the new primary
					 * lacked: the fence refused the completion, or another claim took the job, before
					 * the claim's lease could have run out */
	double first_completion_ms;	/* the failover's start to the first completion on the new primary, ms */
};

/* Room for the ids of the jobs whose completion a failover lost, separated by spaces. */
#define FAILOVER_JOBS_MAX 200

/* The figures of a run's server samples (model/server_sample.h); NaN or METRIC_UNKNOWN without them. */
struct server_figures {
	uint64_t samples;			/* samples taken */
	double wait_pct[WAIT_CLASS_COUNT];	/* share of the worker backends' sampled states in each wait class, % */
	double blocks_per_claim_start;		/* heap and index blocks per claim over the first second sampled */
	double blocks_per_claim_end;		/* the same over the last second sampled */
	uint64_t dead_tuples_peak;		/* the most dead tuples sampled in the queue table */
	uint64_t dead_tuples_end;		/* dead tuples at the last sample */
	uint64_t vacuums;			/* vacuums and autovacuums of the queue table during the run */
	uint64_t xmin_age_max;			/* the oldest transaction sampled on the server, in transactions */
	uint64_t wal_bytes_peak;		/* SQLite: the largest -wal file sampled, bytes */
	uint64_t head_buffers_before;		/* buffers the head lookup touched before the run (EXPLAIN ANALYZE) */
	uint64_t head_buffers_after;		/* the same after it */
	uint64_t table_bytes_before;		/* the queue table's size before the run */
	uint64_t table_bytes_after;		/* and after it */
	uint64_t index_bytes_before;		/* its indexes' size before the run */
	uint64_t index_bytes_after;		/* and after it */
	uint64_t locks_left;			/* locks other sessions still held on it after the workers stopped */
	double lock_wait_pct;			/* SQLite: the workers' time waiting for the write lock, % of theirs */
	uint64_t checkpoints;			/* SQLite: WAL checkpoints at the workers' commits */
	uint64_t checkpoints_partial;		/* of them, those a reader kept from copying the whole WAL */
};

/*
 * What the run's jobs cost, counted rather than timed, per job taken to an end (a
 * committed completion or failure, the warm-up's included); NaN where not known.
 */
struct cost_figures {
	double statements_per_job;	/* statements the workers sent */
	double round_trips_per_job;	/* round trips they waited for */
	double buffers_hit_per_job;	/* PostgreSQL: shared buffers found in memory; SQLite: page-cache hits */
	double buffers_read_per_job;	/* PostgreSQL: shared buffers read in; SQLite: pages read from the file */
	double pages_written_per_job;	/* SQLite: pages written out; NaN on PostgreSQL */
	double wal_records_per_job;	/* PostgreSQL: WAL records generated */
	double wal_bytes_per_job;	/* PostgreSQL: WAL bytes generated */
	double rows_examined_per_job;	/* PostgreSQL: queue-table rows read by scans and fetched through indexes */
	double cpu_us_per_job;		/* the worker threads' CPU time, microseconds */
	uint64_t database_wide;		/* flag: buffers and WAL are the whole database's (cluster's, WAL)
					 * deltas, not the workers' statements' alone */
	uint64_t innodb_row_lock_waits;	/* MariaDB: InnoDB's row lock waits during the run (the server's) */
	uint64_t innodb_row_lock_time_ms; /* MariaDB: their total time, ms */
	uint64_t innodb_deadlocks;	/* MariaDB: deadlocks InnoDB detected during the run */
};

/* Whether a timed run ran out of jobs before its end, and when. */
struct dry_figures {
	uint64_t ran_dry;	/* flag: a timed run without arrivals took its last job and claims came back empty after */
	double at_s;		/* when: the last job put in a worker's hand, s after the start; NaN when not dry */
	uint64_t empty_after;	/* claims begun after that instant that came back empty */
};

/* How busy the machine that ran the run was (run/run_loop.c samples it); NaN or METRIC_UNKNOWN when not known. */
struct machine_figures {
	double load_start;	/* the 1-minute load average as the run began (getloadavg) */
	double load_end;	/* the same as it ended */
	double steal_pct;	/* CPU time the hypervisor stole over the run, % of all CPU time (/proc/stat) */
	uint64_t cores;		/* processors online (sysconf(_SC_NPROCESSORS_ONLN)) */
	uint64_t overloaded;	/* flag: the load average as the run began above the cores: other work (or, for a
				 * minute, the invocation's own run before) competed for the CPUs */
};

/* Throughput before, during and after the run's held snapshot, from the time series. */
struct phase_figures {
	double before_jps;	/* completions per second from the start to the snapshot */
	double during_jps;	/* while it was held */
	double after_jps;	/* from its release to the run's end */
};

/*
 * The figures of a guarded-resource run (refresh, exclusive-use, resource) from its
 * acquisitions ledger (measure/acquisitions.h); NaN or METRIC_UNKNOWN in a queue run.
 */
struct guard_figures {
	uint64_t grants;			/* acquisitions granted */
	double grants_per_s;			/* grants per second of the run: the throughput of uses */
	uint64_t timeouts;			/* acquisitions that gave up at the wait limit */
	uint64_t refusals;			/* acquisitions refused at once and not retried (NOWAIT, TRUNCATE) */
	uint64_t starved;			/* acquisitions still waiting when the run ended */
	uint64_t expired;			/* tickets removed as stale by another participant before their release */
	uint64_t abandoned;			/* grants left without release (a crashed participant's ticket) */
	double polls_per_grant;			/* tries (polls, retries) of granted acquisitions per grant */
	uint64_t periods;			/* stale periods the run reached into (workloads with a cache) */
	uint64_t refreshes;			/* refreshes of the cache */
	uint64_t duplicate_refreshes;		/* sum over periods of max(0, its refreshes - 1) */
	double refreshes_per_period;		/* refreshes / periods with at least one: 1 is correct */
	uint64_t waited_skips;			/* checks granted after waiting that found the cache fresh and skipped */
	uint64_t stale_uses;			/* uses that read a cache older than the period their check saw */
	uint64_t torn_uses;			/* uses that read a half-written cache */
	uint64_t max_holders;			/* most grants held at once on one resource, any mode */
	uint64_t max_exclusive;			/* most exclusive grants held at once on one resource */
	uint64_t max_shared;			/* most shared grants (readers) held at once on one resource */
	uint64_t violations;			/* grants made while a conflicting holder held, or beyond the limit X */
	uint64_t fifo_inversions;		/* pairs of conflicting grants of one resource made against ticket order */
	struct latency_summary wait_ms;		/* start to grant of granted acquisitions */
	struct latency_summary writer_wait_ms;	/* the same, writers' only */
};

/* One resource in one 100 ms bucket of a guarded run: how many held it and waited for it. */
struct holder_point {
	int64_t t_ms;		/* the bucket's start, ms after the start barrier */
	int32_t resource;	/* the resource, 0..resources-1 */
	uint32_t holders;	/* the most grants held at once in the bucket */
	uint32_t waiting;	/* the most acquisitions waiting at once in the bucket */
};

/* Every figure of one run. */
struct run_metrics {
	double makespan_s;			/* start barrier to the last committed completion */
	double ideal_s;				/* total work time / workers (drain: all jobs; timed: jobs completed) */
	double makespan_ratio;			/* makespan / ideal in a drain run; NaN in a timed run */
	double throughput_jps;			/* completed / makespan (drain) or / duration (timed) */
	uint64_t completed;			/* distinct jobs with a committed completion */
	uint64_t jobs_total;			/* jobs enqueued in all: the initial backlog and the arrivals */
	uint64_t deliveries;			/* times a job was handed out to a worker: entries in the ledger */
	uint64_t executions;			/* deliveries whose work began (a batch's tail never begun left out) */
	uint64_t failed;			/* executions that marked their job error, and committed */
	uint64_t duplicates;			/* race_duplicates + redeliveries: deliveries beyond each job's first */
	uint64_t race_duplicates;		/* deliveries beyond a job's first that no loss of its holder explains */
	uint64_t dup_jobs;			/* jobs executed more than once */
	uint64_t overlaps;			/* pairs of executions of one job whose intervals intersect */
	uint64_t lost;				/* jobs that should have finished and did not (see docs/metrics.md) */
	uint64_t empty_claims;			/* claim attempts that returned no job */
	uint64_t spurious_empties;		/* empty claims made while an enqueued job was unclaimed */
	uint64_t retries;			/* retries summed over workers */
	uint64_t give_ups;			/* give-ups summed over workers */
	uint64_t errors_total;			/* errors of every kind, workers' and producers' */
	uint64_t errors[ERR_KIND_COUNT];	/* errors by kind, workers' and producers' */
	struct fairness fairness;		/* over per-worker completed counts */
	struct latency_summary claim_latency_ms; /* from the merged per-worker histograms */
	struct latency_summary queue_wait_ms;	/* per job: its enqueue to its first execution's start (censored at the end) */
	struct latency_summary end_to_end_ms;	/* per job: its enqueue to its first completion (censored at the end) */
	uint64_t backlog_end;			/* jobs enqueued and never in a worker's hand when the run ended */
	uint64_t arrivals;			/* arrivals the producers inserted, summed */
	uint64_t arrivals_late;			/* of those, inserts issued late, summed */
	double arrival_late_max_ms;		/* the most an insert was issued after its instant */
	uint64_t ledger_mismatches;		/* jobs whose final table status disagrees with the ledger, explained or not */
	uint64_t claims_lost_in_flight;		/* claims the table shows committed whose answer reached no worker */
	uint64_t completions_unknown;		/* completions a cut connection left unknown that the table shows committed */
	uint64_t overwritten_completions;	/* committed completions whose status a later claim of the job wrote over */
	uint64_t integrity_errors;		/* disagreements of the ledger and the table that no figure explains */
	uint64_t stuck;				/* jobs still active at the end, no worker on them */
	uint64_t redeliveries;			/* executions of a job handed out again because an earlier holder had lost it */
	uint64_t redeliveries_crash;		/* of those, after the holder's transaction ended without its completion */
	uint64_t redeliveries_lease;		/* of those, after the holder's lease ran out */
	uint64_t redeliveries_reaper;		/* of those, after the harness gave the job back to new (reaper, --rerun-stuck) */
	uint64_t redeliveries_stale_ticket;	/* of those, after the ticket strategy deleted the holder's ticket as stale */
	uint64_t redeliveries_restart;		/* of those, after a server restart ended the holder's session */
	uint64_t redeliveries_killed_backend;	/* of those, after the holder's server backend was killed */
	uint64_t redeliveries_failover;		/* of those, after a failover ended the holder's session or lost its claim */
	uint64_t redelivered_unbegun;		/* of those, the ones that began no work again: never begun themselves,
						 * or a job's first beginning (no earlier delivery had begun it) */
	uint64_t zombie_completions;		/* completions that committed after their job was handed out again */
	uint64_t fenced;			/* completions refused: the job was no longer the claim's */
	uint64_t reaped;			/* jobs the reaper gave back to new */
	uint64_t faults_injected;		/* faults that struck */
	uint64_t reconnects;			/* lost connections made anew, workers' and producers' */
	struct recovery_summary recovery_ms;	/* per fault on a job: the fault to that job's next commit */
	double restart_first_completion_ms;	/* the longest, over restarts, from one to the next completion; NaN: none */
	struct delivery delivery;		/* the delivery guarantees the run kept */
	struct failover_figures failover;	/* what a failover cost; unknown without one (its jobs: run_result) */
	struct server_figures server;		/* what the samples of the server say; unknown without samples */
	struct phase_figures phases;		/* throughput around a held snapshot; unknown without one */
	struct guard_figures guarded;		/* a guarded-resource run's figures; unknown in a queue run */
	struct cost_figures costs;		/* what a job cost, counted */
	struct dry_figures dry;			/* whether a timed run ran out of jobs */
	struct machine_figures machine;		/* how busy the machine was at its start and end */
};

/* Server settings a report shows, at most this many. */
#define DB_MAX_SETTINGS 8

/* One server setting as the connection reports it. */
struct db_setting {
	char name[40];		/* the setting's name, e.g. "synchronous_commit" */
	char value[40];		/* its value as text */
};


/* Figures --verify compares with the server's own record, at most. */
#define VERIFY_MAX_DIFFS 16

/* One figure on which the ledger and the server's committed record disagree (--verify). */
struct verify_difference {
	char figure[40];	/* the figure, as docs/metrics.md names it */
	int64_t ledger;		/* the ledger's value, as the server could see it */
	int64_t server;		/* the value derived from the server's record alone */
	char jobs[200];		/* the jobs concerned, ids separated by spaces ("..." when more) */
};

/*
 * The figure of the difference a run's verify outcome holds, verified or not, when the
 * ledger and the table's final state disagree on jobs no figure explains: its ledger is
 * their count, its server 0, its jobs theirs (measure/ledger_table.h).
 */
#define INTEGRITY_DIFFERENCE "integrity_errors"

/* What --verify found in one run, and the ledger-versus-table check's integrity errors. */
struct verify_outcome {
	bool verified;					/* the run was compared with the server's record */
	size_t in_doubt;				/* claims and completions in doubt, their answer lost with the
							 * connection: left out of the comparison (docs/metrics.md) */
	size_t n_diffs;					/* entries used in diffs */
	struct verify_difference diffs[VERIFY_MAX_DIFFS];	/* the figures that differ, in docs/metrics.md's order */
};

/* One parameter of a run as text: an option's name and the value the run had. */
struct run_param {
	char *name;	/* the option's name, e.g. "work-ms" (owned) */
	char *value;	/* its value as text, e.g. "100" (owned) */
};

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
	char engine[96];		/* its backend and server's version (engine_name, model/run_descriptor.h), "postgresql 16.4":
					 * part of its group, never pooled with another engine's; "" when not
					 * known; not stored (the invocation's backend and server_version) */
	bool complete;			/* false when interrupted or a worker aborted */
	bool contract_broken;		/* an adapter's line broke the contract (docs/adapters.md): the run stopped */
	char strategy_failure[256];	/* when every worker that aborted did so by the strategy's own
					 * statements and nothing else stopped the run: the first one's
					 * reason (its SQL, not its environment, ended the run); "" else;
					 * not stored */
	struct run_metrics metrics;	/* every figure of the run */
	struct worker_stats *per_worker; /* per-worker counters, workers of them (owned) */
	struct series_point *series;	/* the 100 ms time series, n_series buckets (owned); NULL when none */
	size_t n_series;		/* entries in series */
	struct holder_point *holders;	/* a guarded run's holders over time, resource after resource (owned); NULL when none */
	size_t n_holders;		/* entries in holders */
	struct run_param *params;	/* the run's parameters, n_params of them, in order (owned) */
	size_t n_params;		/* entries in params */
	struct fault_record *faults;	/* the faults injected, in the order they struck (owned); NULL when none */
	size_t n_faults;		/* entries in faults */
	char failover_jobs[FAILOVER_JOBS_MAX];	/* the jobs whose completion a failover lost, ids separated by spaces
						 * ("..." when more; metrics.failover counts them); not stored */
	struct server_sample *samples;	/* the server's samples, in time order (owned); NULL when none */
	size_t n_samples;		/* entries in samples */
	struct phase_record *phases;	/* the pressure phases, in the order they began (owned); NULL when none */
	size_t n_phases;		/* entries in phases */
	struct timeline_phase *timeline; /* --phase: the timeline's phases as they ran, with their figures (owned); NULL: none */
	size_t n_timeline;		/* entries in timeline */
	struct table_probe probes[PROBE_MOMENTS]; /* the queue table before and after the run (plans owned) */
	struct verify_outcome verify;	/* --verify: whether it was verified, and the differences */
	long long run_id;		/* its row in the result store; 0 when not stored */
};

/* Everything one invocation of `claimbench run` measured. */
struct invocation_result {
	const char *version;		/* claimbench version */
	const char *scenario;		/* scenario name */
	const char *backend;		/* the backend's name (struct backend_ops.name) */
	char server_version[64];	/* the server's version string */
	struct db_setting settings[DB_MAX_SETTINGS]; /* server settings that shape contention, as reported */
	size_t n_settings;		/* entries used in settings */
	char started_at[32];		/* UTC start time, ISO 8601 */
	unsigned long long seed;	/* the RNG seed of the work times */
	struct run_result *results;	/* the runs, in the order they ran */
	size_t n_results;		/* runs in results */
	long long invocation_id;	/* its row in the result store; 0 when none of its runs was stored */
};

#endif
