/*
 * A run as a timeline of phases (--phase KIND[:ARG]:DURATION, the scenario key phase):
 * what each phase puts on the server, how long it lasts, and the figures measured over it.
 * The timeline makes the run a timed one of the phases' total length, its producers at
 * --arrival-rate scaled by each phase's load factor.
 */
#ifndef CLAIMBENCH_TIMELINE_H
#define CLAIMBENCH_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most phases of one timeline. */
#define TIMELINE_MAX_PHASES 32

/* The most sessions of one active-readers phase. */
#define TIMELINE_MAX_READERS 16

/* The most idle connections of one pool-exhaustion phase. */
#define TIMELINE_MAX_POOL 1000

/* The most workers one crash-workers phase crashes (the most a run has). */
#define TIMELINE_MAX_CRASH 1024

/* The most server sessions a kill-backends phase terminates per second. */
#define TIMELINE_MAX_KILL_RATE 100

/* What a phase does. */
enum timeline_kind {
	TIMELINE_WARMUP,		/* measured, left out of every figure of the run (as --warmup) */
	TIMELINE_CLEAN,			/* nothing put on the server */
	TIMELINE_LOAD,			/* arrivals at --arrival-rate x ARG */
	TIMELINE_IDLE_IN_TX,		/* a session of the harness's took an XID and sits idle in transaction */
	TIMELINE_HELD_SNAPSHOT,		/* a session of the harness's holds a REPEATABLE READ snapshot */
	TIMELINE_ACTIVE_READERS,	/* ARG REPEATABLE READ sessions scan the queue table again and again */
	TIMELINE_VACUUM,		/* a VACUUM of the queue table at the phase's start */
	TIMELINE_RECOVERY,		/* clean, named so: the phase after a pressure phase */
	TIMELINE_CRASH_WORKERS,		/* ARG workers (or ARG % of them) crash at its start, as --crash-at's */
	TIMELINE_KILL_BACKENDS,		/* workers' server sessions terminated at ARG per second, as --kill-backend-at's */
	TIMELINE_RESTART_SERVER,	/* the server restarts at its start, as --restart-at's */
	TIMELINE_POOL_EXHAUSTION,	/* ARG idle connections of the harness's own held through it */
	TIMELINE_LONG_WRITER,		/* a session of the harness's writes the run's writer table in one transaction */
	TIMELINE_KIND_COUNT
};

/* Each kind's name as --phase spells it: "warmup", "clean", "load" ... */
extern const char *const timeline_kind_names[TIMELINE_KIND_COUNT];

/* One planned phase. */
struct timeline_step {
	enum timeline_kind kind;	/* what it does */
	double arg;			/* load: the rate factor; active-readers, pool-exhaustion: the sessions;
					 * crash-workers: the workers (or their share); kill-backends: the rate; else 0 */
	double duration_s;		/* how long it lasts */
	bool arg_share;			/* crash-workers: arg is a share of the run's workers in percent */
};

/* A run's planned phases, in order. */
/* The longest a timeline may last in all, in seconds: --duration's limit. */
#define TIMELINE_MAX_TOTAL_S 86400

struct timeline {
	struct timeline_step steps[TIMELINE_MAX_PHASES];	/* the phases */
	size_t n;						/* entries used in steps; 0: no timeline */
};

/*
 * Parses text, a comma-separated list of KIND[:ARG]:DURATION (DURATION a number and a unit,
 * ms, s, m or h: 500ms, 10s, 2m), and appends its phases to tl. 0, or -1 with err naming the
 * item at fault and what was expected.
 */
int timeline_parse(const char *text, struct timeline *tl, char *err, size_t errlen);

/* Writes tl as timeline_parse reads it ("clean:2s,load:2:3s") into buf of len bytes. */
void timeline_format(const struct timeline *tl, char *buf, size_t len);

/* The timeline's total length in seconds. */
double timeline_total_s(const struct timeline *tl);

/* The length in seconds of the warmup phases at its start: the run's warm-up. */
double timeline_warmup_s(const struct timeline *tl);

/* Phase i's arrival rate factor: ARG for load, 1 for every other kind. */
double timeline_rate_factor(const struct timeline *tl, size_t i);

/* The arrivals tl's producers insert at rate jobs/s (scaled per phase): their ceiling, as a whole count. */
long timeline_arrivals(const struct timeline *tl, double rate);

/* When arrival k (from 0) of tl at base rate is due, ns after the start (k / rate for a timeline of no phases). */
int64_t timeline_due_ns(const struct timeline *tl, double rate, long k);

/* Writes phase i's name into buf (len bytes): its kind, "-2", "-3" ... after the first of a kind (clean, clean-2). */
void timeline_phase_name(const struct timeline *tl, size_t i, char *buf, size_t len);

/* Whether tl has a phase called name. */
bool timeline_has_phase(const struct timeline *tl, const char *name);

/* Whether a phase of kind puts pressure on the run (every kind but warmup, clean and recovery). */
bool timeline_is_pressure(enum timeline_kind kind);

/* Whether tl has a phase of kind. */
bool timeline_has_kind(const struct timeline *tl, enum timeline_kind kind);

/* What was measured over one phase of a run. NAN or TIMELINE_UNKNOWN where not known. */
struct timeline_phase {
	char name[40];			/* its kind, "-2", "-3" ... after the first of a kind: clean, idle-in-tx, clean-2 */
	enum timeline_kind kind;	/* what it did */
	double arg;			/* its ARG (load's factor, the readers), 0 without one */
	int64_t start_ns;		/* when it began (its pressure in place), ns after the start barrier */
	int64_t end_ns;			/* when it ended (its pressure released) */
	double throughput_median;	/* completions per second, the median over its whole seconds */
	double throughput_p10;		/* their 10th percentile (nearest rank) */
	double latency_p50_ms;		/* enqueue to completion of the executions completed in it, ms */
	double latency_p99_ms;		/* their 99th percentile */
	double latency_max_ms;		/* their longest */
	int64_t depth_start;		/* jobs waiting (enqueued, not yet in hand) as it began */
	int64_t depth_end;		/* as it ended */
	int64_t depth_max;		/* the most over it */
	int64_t dead_start;		/* the queue table's dead tuples at its first sample inside the phase; TIMELINE_UNKNOWN */
	int64_t dead_end;		/* at the last sample in it; TIMELINE_UNKNOWN */
	int64_t xmin_age_max;		/* the oldest transaction's age the sampler saw in it; TIMELINE_UNKNOWN */
	int64_t vacuums;		/* the queue table's vacuums and autovacuums its samples showed: the count at
					 * its last sample less the one before it (or its first); TIMELINE_UNKNOWN */
	int64_t autovacuums;		/* of which autovacuums, likewise; TIMELINE_UNKNOWN */
	int64_t errors;			/* database errors met in it, workers' and producers' */
	int64_t arrivals;		/* arrivals whose insert committed in it (the harness's count) */
	int64_t completed;		/* executions whose completion committed in it */
	double recovery_s;		/* the pressure phase before it: s from that one's end until a second's
					 * throughput is within 20 % of the first clean phase's median; NAN: no
					 * pressure phase before, INFINITY: not recovered by the run's end */
	int64_t readers_seen;		/* active-readers: the readers' sessions pg_stat_activity showed in a transaction
					 * once each had scanned; TIMELINE_UNKNOWN otherwise */
	int64_t readers_repeatable;	/* active-readers: readers whose transaction was REPEATABLE READ; TIMELINE_UNKNOWN */
	int64_t reader_scans;		/* active-readers: scans of the queue table the readers made; TIMELINE_UNKNOWN */
	int64_t xid;			/* idle-in-tx, long-writer: the transaction id the session took; TIMELINE_UNKNOWN */
	int64_t writer_rows;		/* long-writer: the rows its transaction wrote (committed at its end); TIMELINE_UNKNOWN */
	int64_t faults;			/* faults that struck in its span (the run's fault records, any kind) */
	int64_t pool_held;		/* pool-exhaustion: the idle connections it opened and held; TIMELINE_UNKNOWN */
	int64_t pool_refused;		/* pool-exhaustion: its connections the server refused; TIMELINE_UNKNOWN */
	int64_t pool_seen;		/* pool-exhaustion: its sessions pg_stat_activity showed once opened; TIMELINE_UNKNOWN */
};

/* A figure of a phase not known (no sample, not this kind). */
#define TIMELINE_UNKNOWN (-1)

/* The fields of a phase an expectation can name (phase[NAME].FIELD), NULL-terminated. */
extern const char *const timeline_field_names[];

/* Phase p's field called name into *out. 0, or -1 when there is no such field. */
int timeline_field(const struct timeline_phase *p, const char *name, double *out);

/*
 * How many faults a fault phase of a timeline (crash-workers, kill-backends, restart-server)
 * has due, counted from the instant its phase began: the monitor (queue/monitor.c) strikes
 * them with the fault machinery of --crash-at, --kill-backend-at and --restart-at.
 */

/* The fault kind a phase of kind strikes with, or -1 for a kind that strikes none. */
int timeline_fault_kind(enum timeline_kind kind);

/*
 * The faults step (a phase of a fault kind) has due since_s seconds after it began, in a
 * run of workers: crash-workers its N (or its share of workers, rounded up, at least 1) and
 * restart-server its one at once; kill-backends one at its start and one every 1/RATE s
 * after, ceil(RATE x its duration) in all. 0 for another kind, or before it began.
 */
long timeline_faults_due(const struct timeline_step *step, int workers, double since_s);

#endif
