/*
 * Worker threads: each owns one connection, its counters, histogram and ledger,
 * and loops claim -> work -> complete from the start barrier until the queue is
 * drained, the time is up, or a stop is requested. Nothing on that path locks,
 * allocates (but for a rare ledger growth) or prints.
 */
#ifndef CLAIMBENCH_WORKER_H
#define CLAIMBENCH_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "db/backend.h"
#include "model/config.h"
#include "measure/ledger.h"
#include "measure/metrics.h"
#include "engine/sql_template.h"
#include "engine/strategy.h"

/* Consecutive errors (other than lock contention) after which a worker gives up; the run is then incomplete. */
#define WORKER_MAX_CONSECUTIVE_ERRORS 100

/* The longest a worker sleeps (working, pausing) before it looks whether the run is stopping. */
#define WORKER_WAKE_NS 10000000

/* How long a worker keeps retrying lock contention (BUSY, 55P03 ...) without one success before it gives up. */
#define WORKER_STALL_NS (30 * 1000000000LL)

/*
 * What every worker and producer of one run shares; read-only during the run but for
 * stop, producers_running and the entries of enqueued_ns each producer owns.
 */
struct run_shared {
	const struct run_config *cfg;		/* the invocation's settings */
	const struct backend_ops *db;		/* the backend driver */
	const struct strategy_ops *strategy;	/* the strategy under test */
	const void *strategy_config;		/* its settings in cfg (strategy_config()) */
	enum claim_mode mode;			/* its claim mode in this run */
	char jobs_table[160];			/* quoted name of the queue table */
	char tickets_table[160];		/* quoted name of the ticket control table */
	char jobs_name[128];			/* the queue table's name, unquoted */
	char tickets_name[128];			/* the ticket control table's name, unquoted */
	char owner[512];			/* the note that marks the run's tables as its own (for cleanup) */
	bool created_jobs;			/* the run created the queue table: it drops it */
	bool created_tickets;			/* the run created the ticket table: it drops it */
	struct sql_names names;			/* what the SQL templates' placeholders stand for: the above */
	struct sql_recovery_text recovery_sql;	/* the lease's texts names points into */
	const int64_t *work_ns;			/* work time per job, backlog and arrivals, indexed id-1 */
	long backlog;				/* jobs 1..backlog are in the table before the start */
	long arrivals;				/* jobs backlog+1..backlog+arrivals: producers' */
	int64_t *enqueued_ns;			/* per job (id-1): ns after the start its insert
						 * committed; 0 for the backlog, INT64_MAX until
						 * inserted; each producer writes its own ids */
	atomic_int producers_running;		/* producers still inserting; 0: no more arrivals */
	int64_t start_ns;			/* the start barrier's instant (clock_now_ns), set when the gate opens */
	int64_t deadline_ns;			/* end of a timed run (absolute), 0 in a drain run */
	pthread_mutex_t gate_lock;		/* guards gate_open, start_ns and deadline_ns until the start */
	pthread_cond_t gate_opened;		/* broadcast when the gate opens */
	bool gate_open;				/* the start barrier: workers connected and ready wait for it */
	atomic_bool stop;			/* set to make every worker finish its job and stop */
	int pass;				/* 1, or 2 when --rerun-errors drains the cleared errors again; set before threads start */
	const char *target;			/* where workers and producers connect, again after a lost connection */
	atomic_long executions_started;		/* executions begun in the run, counted for --KIND-exec */
	atomic_uint *job_executions;		/* per job (id-1): its executions so far, for the per-execution draws */
	atomic_int next_identity;		/* the identity the next crashed worker's replacement takes */
};

struct worker {
	int index;				/* 0-based worker number: its seat, kept by a crashed worker's replacement */
	int identity;				/* who it is, written to claimed_by: index, or a replacement's new number */
	char identity_text[16];			/* identity as an SQL parameter */
	int64_t attempt;			/* the attempt number of the job in hand (its claim's), for fencing */
	char attempt_text[24];			/* attempt as an SQL parameter */
	const char *queue;			/* the task class it serves: queues[index % n_queues] */
	struct db_conn *conn;			/* its own connection */
	struct run_shared *shared;		/* the run it belongs to */
	struct worker_stats stats;		/* its counters and claim-latency histogram */
	struct ledger ledger;			/* its executions, empty claims and error instants */
	atomic_uint_fast64_t progress;		/* completed jobs, read by the progress line */
	atomic_bool finished;			/* set when its loop has ended */
	atomic_bool saw_stop;			/* it has seen the run's stop: it only gives back what it holds now */
	bool aborted;				/* stopped by an error rather than by the end of the run */
	bool ledger_full;			/* an error instant could not be recorded: out of memory */
	char abort_reason[256];			/* why, when aborted */
	atomic_int pending_fault;		/* a fault the monitor asks of it now: an enum fault_kind + 1, or 0 */
	atomic_bool kill_requested;		/* it asks the monitor to terminate its server process now */
	atomic_int server_pid;			/* its connection's server process, -1 while it has none */
	atomic_int_fast64_t job_in_hand;	/* the job it works on, 0 for none: a fault at an instant may strike it */
	void *strategy_data;			/* the strategy's own state for this worker (worker_init), or NULL */
	bool strategy_ready;			/* worker_init succeeded: worker_cleanup is due */
	pthread_t thread;			/* its thread */
};

/*
 * Creates w's connection (to shared->target) and prepares the harness's and the
 * strategy's statements, its ledger sized for expected_execs executions and
 * expected_empties empty claims. 0, or -1 with err.
 */
int worker_open(struct worker *w, struct run_shared *shared, int index, size_t expected_execs,
		size_t expected_empties, char *err, size_t errlen);

/* Closes w's connection and frees its ledger. */
void worker_close(struct worker *w);

/* Starts w's thread, which waits at the start gate. 0 or -1. */
int worker_start(struct worker *w);

/* Blocks until the start gate of s opens. */
void worker_wait_gate(struct run_shared *s);

/* Opens the start gate of s: records the start instant (and deadline, for a timed run) and releases the workers. */
void worker_open_gate(struct run_shared *s, int64_t duration_ns);

/*
 * Runs the prepared statement in slot with text params, counting any error by kind in
 * w's stats and its instant in w's ledger. The number of rows (the first row's first nout columns in out), or -1.
 */
int worker_exec(struct worker *w, int slot, int nparams, const char *const *params, int64_t *out, int nout);

/* Runs sql (BEGIN, COMMIT, ROLLBACK ...) counting any error. 0 or -1. */
int worker_sql(struct worker *w, const char *sql);

/* Begins a claim transaction the strategy's way in this dialect (plain BEGIN unless it says otherwise). 0 or -1. */
int worker_begin(struct worker *w);

/*
 * Commits w's transaction; when the COMMIT fails (SQLite may answer BUSY and keep the
 * transaction open) rolls it back. 0 when it committed, else -1.
 */
int worker_commit(struct worker *w);

/* Writes id as decimal text into buf (at least 24 bytes) and returns buf. */
const char *worker_id_text(char *buf, int64_t id);

/* Milliseconds as nanoseconds. */
#define MS_TO_NS(ms) ((int64_t)(ms) * 1000000)

/*
 * Sleeps duration_ns (working, backing off, polling), waking early when the run of s
 * stops. true when it slept the whole time, false when the run is stopping.
 */
bool run_pause_ns(const struct run_shared *s, int64_t duration_ns);

/* run_pause_ns for w's run. */
bool worker_pause_ns(struct worker *w, int64_t duration_ns);

/* Whether the run of s is stopping: a stop was requested, or a signal arrived. */
bool run_stopping(const struct run_shared *s);

/*
 * Flips job_id to active for w (SLOT_MARK_ACTIVE), noting the claim's attempt number.
 * The rows it updated (1), or -1 on an error.
 */
int worker_mark_active(struct worker *w, int64_t job_id);

/* Notes attempt as the attempt number of the job w has just claimed. */
void worker_note_attempt(struct worker *w, int64_t attempt);

/*
 * Runs slot (SLOT_COMPLETE: done, SLOT_FAIL: error) on w's job job_id with the parameters
 * the run's fence asks for. The rows it updated, or -1 on an error.
 */
int worker_outcome(struct worker *w, int slot, int64_t job_id);

/*
 * Whether the outcome slot (SLOT_COMPLETE or SLOT_FAIL) of w's claim on job_id is what
 * the table holds: a completion whose answer a lost connection swallowed may have
 * committed. 1 it is, 0 it is not, -1 on an error.
 */
int worker_finished_by_claim(struct worker *w, int slot, int64_t job_id);

/*
 * The default finish: worker_outcome, then a commit in hold mode. 0 when it committed,
 * 1 when it was refused (the job is no longer this claim's: fenced), -1 on an error.
 */
int worker_finish(struct worker *w, int64_t job_id, int slot);

/*
 * After w's connection was lost or dropped: connects anew, with a back-off from 50 ms
 * to 1 s, until the run's reconnect limit; prepares every statement and the strategy's
 * state afresh. 0, or -1 when it gave up (w then aborted) or the run is stopping.
 */
int worker_reconnect(struct worker *w);

/*
 * The crash of w: its connection dropped as a killed process's would be (no COMMIT, no
 * ROLLBACK); after the run's respawn delay its replacement, with a new identity, takes
 * its seat and connects. 0, or -1 when the replacement could not connect (w aborted) or
 * the run is stopping.
 */
int worker_respawn(struct worker *w);

/* Whether the last error on w's connection says the connection is gone. */
bool worker_lost_connection(const struct worker *w);

/* Stops w with reason; the run will be marked incomplete. */
void worker_abort(struct worker *w, const char *reason);

/*
 * Executes the job job_id that w claimed (the attempt began at claim_start, the job was in
 * hand at in_hand): works on it (its heartbeats, and the faults that strike it), completes
 * it, and notes the execution in w's ledger; or gives it back when the run stops. 0, or -1
 * when w must stop (the ledger cannot grow, or a lost connection could not be made anew).
 */
int worker_execute(struct worker *w, int64_t job_id, int64_t claim_start, int64_t in_hand);

#endif
