/*
 * Faults a run injects and the recovery its flip-mode claims use: what is asked for, in
 * the run configuration. Crashes, stalls and killed backends strike workers in the middle
 * of a job; a restart strikes the server. Leases, heartbeats, a reaper and fencing are
 * what real queues recover with (docs/faults.md).
 */
#ifndef CLAIMBENCH_FAULTS_H
#define CLAIMBENCH_FAULTS_H

#include <stdbool.h>
#include <stddef.h>

/* The kinds of fault. */
enum fault_kind {
	FAULT_CRASH,		/* a worker dies during its work: its connection dropped, a replacement started */
	FAULT_STALL,		/* a worker freezes during its work, then resumes */
	FAULT_KILL_BACKEND,	/* a worker's server process is terminated: it reconnects and goes on */
	FAULT_RESTART,		/* the server restarts in immediate mode: every connection reconnects */
	FAULT_FAILOVER,		/* the primary stops in immediate mode, its standby is promoted: every connection
				 * reconnects to the new primary */
	FAULT_KIND_COUNT
};

/* Instants or executions a trigger names at most. */
#define MAX_FAULT_POINTS 32

/* When one kind of fault strikes: at instants, at the N-th executions, or at a rate per execution. */
struct fault_trigger {
	double at_s[MAX_FAULT_POINTS];	/* instants, seconds after the start */
	size_t n_at;			/* entries used in at_s */
	long exec[MAX_FAULT_POINTS];	/* the N-th executions of the run, from 1 */
	size_t n_exec;			/* entries used in exec */
	double rate;			/* the chance that an execution meets it, drawn per job and execution from the seed */
};

/* The faults of a run. */
struct fault_plan {
	struct fault_trigger when[FAULT_KIND_COUNT];	/* when each kind strikes (a restart: at instants only) */
	int stall_ms;					/* how long a stall freezes its worker */
	int respawn_ms;					/* how long after a crash its replacement starts */
	const char *restart_command;			/* how to restart a user's server (sh -c), or NULL */
	double restart_limit_s;				/* how long the restart command may run before it is ended */
	const char *failover_command;			/* how to fail a user's primary over to its standby (sh -c), or NULL */
	int standby;					/* the throwaway primary's streaming standby: an enum standby_mode */
	int failover_lag_ms;				/* the throwaway standby stops receiving WAL this long before a failover */
	double reconnect_limit_s;			/* how long a lost connection is retried before the thread gives up */
};

/* How a completion makes sure the job is still the claimer's. */
enum fence_mode {
	FENCE_NONE,	/* it is not checked: a late completion overwrites a successor's (a zombie completion) */
	FENCE_OWNER,	/* the job must still be claimed by this worker */
	FENCE_ATTEMPT,	/* ... and by this very claim: its attempt number too */
};

/* The recovery of flip-mode claims (hold mode needs none: a dead transaction frees its job). */
struct recovery_plan {
	int lease_ms;		/* a claim holds its job this long; an expired lease may be claimed again (0: no lease) */
	int heartbeat_ms;	/* a working worker extends its lease this often (0: never) */
	int reaper_ms;		/* the harness resets expired leases to new this often (0: no reaper) */
	int fence;		/* an enum fence_mode */
	bool rerun_stuck;	/* once drained, give active jobs back to new and drain again (seed 000's free) */
};

/* The throwaway primary's streaming standby, the one a failover promotes, and its replication. */
enum standby_mode {
	STANDBY_NONE,		/* no standby */
	STANDBY_ASYNC,		/* asynchronous: a commit is acknowledged once the primary has flushed it */
	STANDBY_SYNC,		/* synchronous_commit on with the standby named: ... once the standby has flushed it too */
	STANDBY_REMOTE_APPLY,	/* synchronous_commit remote_apply: ... once the standby has applied it */
};

/* The names of the fault kinds, fence modes and standby modes, indexed by their enums, NULL-terminated. */
extern const char *const fault_kind_names[];
extern const char *const fence_mode_names[];
extern const char *const standby_mode_names[];

/* The name of fault kind (an enum fault_kind), "unknown" when it is none. */
const char *fault_kind_name(int kind);

/* The fault kind called name, or -1. */
int fault_kind_find(const char *name);

#endif
