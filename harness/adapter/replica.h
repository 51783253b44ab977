/*
 * One replica of an adapter: its process (the adapter's executable, its standard input
 * claimbench's commands, its standard output the contract's lines) and the thread that reads
 * those lines into the replica's own ledger and counters. Nothing on the reading path
 * allocates (but a rare ledger growth), locks or prints; the monitor reads the atomics.
 */
#ifndef CLAIMBENCH_ADAPTER_REPLICA_H
#define CLAIMBENCH_ADAPTER_REPLICA_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "adapter/manifest.h"
#include "measure/ledger.h"
#include "model/result.h"

/* The longest line a replica may write, newline included. */
#define REPLICA_LINE_MAX 4096

/* Room for the CLAIMBENCH_REPLICA=N entry of a replica's environment. */
#define REPLICA_VAR_MAX 48

/* What every replica of one run shares; read-only once the replicas start but for the atomics. */
struct replica_run {
	const struct adapter_manifest *adapter;	/* the adapter */
	char **env;				/* the environment each replica is started with (NULL-ended) */
	char *replica_var;			/* the entry of env that says CLAIMBENCH_REPLICA=N, rewritten before each
						 * replica starts; room for REPLICA_VAR_MAX bytes */
	const char *program;			/* the executable: the runtime, or the adapter's command */
	const char *const *argv;		/* its arguments, argv[0] included (NULL-ended) */
	int workers;				/* W: workers per replica */
	long n_jobs;				/* jobs in the run: ids 1..n_jobs */
	atomic_int_fast64_t start_ns;		/* clock_now_ns when start was sent: the ledger's 0; 0 before */
	atomic_uchar *done;			/* per job (id-1): 1 once a finished line said so */
	atomic_long distinct_done;		/* jobs with a finished line */
};

/* What one seat (a worker of a replica) holds, as its lines have said. */
struct replica_seat {
	bool held;			/* a job is in hand */
	int64_t job;			/* that job */
	int64_t attempt;		/* its attempt */
	int64_t claim_start_ns;		/* when the claim that returned it began: the seat's previous end */
	int64_t start_ns;		/* when its claimed line came */
	int64_t last_end_ns;		/* when its previous execution's last line came (0: none yet) */
};

/* One replica. */
struct replica {
	int index;				/* 0-based replica number: its seats' */
	int number;				/* the number its process is told (CLAIMBENCH_REPLICA): index, or a
						 * replacement's, beyond every replica's (replica_respawn) */
	struct replica_run *run;		/* the run it belongs to */
	pid_t pid;				/* its process (and process group), 0 before it starts */
	int in_fd;				/* claimbench's end of its standard input, -1 when closed */
	int out_fd;				/* claimbench's end of its standard output, -1 when closed */
	pthread_t thread;			/* the reader thread */
	bool reading;				/* the reader thread was started: join it */
	struct ledger ledger;			/* its executions and errors, seats numbered index * W + worker */
	struct worker_stats *stats;		/* W counters, one per seat, written by the reader only */
	struct replica_seat *seats;		/* W seats */
	char buf[16 * REPLICA_LINE_MAX];	/* bytes read and not yet split into lines: 64 KiB, a pipe's worth a read */
	size_t buffered;			/* bytes used in buf */
	long lineno;				/* lines read so far */
	int64_t skew_min_us;			/* the least receipt time minus adapter time over its lines (INT64_MAX none) */
	int64_t skew_max_us;			/* the most of it (INT64_MIN none) */
	atomic_long lines;			/* lines read */
	atomic_int_fast64_t last_line_ns;	/* clock_now_ns of its last line (its start before any) */
	atomic_bool ready;			/* it said ready */
	atomic_int in_hand;			/* its seats holding a job now (the reader's count, for the crash) */
	atomic_long enqueued;			/* its last enqueued N, -1 before one */
	atomic_bool said_stopped;		/* it said stopped */
	atomic_bool ended;			/* its standard output closed: the reader has finished */
	atomic_bool broken;			/* a line broke the contract: broken_reason says which */
	char broken_reason[REPLICA_LINE_MAX + 512]; /* adapter, replica, line number, the line, what was expected */
	bool killed;				/* claimbench killed it (a crash fault or the stop's last resort) */
	atomic_int_fast64_t killed_at_ns;	/* clock_now_ns when claimbench sent the kill, 0 before: its seats' crash instant */
	int crashed;				/* executions it held when it died without saying stopped (its processes', a
						 * replacement's too) */
	int deaths;				/* times its process died without saying stopped */
	int exit_status;			/* its wait status once reaped, -1 before */
};

/* Prepares r (index, run; ledger and seats for about expected executions). 0, or -1 when out of memory. */
int replica_init(struct replica *r, int index, struct replica_run *run, size_t expected);

/* Starts r's process and its reader thread. 0, or -1 with err. */
int replica_start(struct replica *r, char *err, size_t errlen);

/* Writes the len bytes of text to r's standard input. 0, or -1 (it is gone). */
int replica_send(struct replica *r, const char *text, size_t len);

/* Closes r's standard input: the contract's stop at once. */
void replica_close_input(struct replica *r);

/* SIGKILLs r's process group now. */
void replica_kill(struct replica *r);

/* Joins r's reader and reaps its process (which must have ended or been killed). */
void replica_reap(struct replica *r);

/*
 * Starts a replacement process for r, which replica_reap has reaped, told it is replica
 * number (CLAIMBENCH_REPLICA: beyond every replica's, so that it makes no tables), in r's
 * seats, whose next claims begin at at_ns (ns since the start). 0, or -1 with err.
 */
int replica_respawn(struct replica *r, int number, int64_t at_ns, char *err, size_t errlen);

/* Frees what r holds (after replica_reap). */
void replica_free(struct replica *r);

#endif
