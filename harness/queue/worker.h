/*
 * A worker: one connection, its counters, histogram and ledger, and what the strategies
 * and the life of a job (queue/job.c) do through it: statements, transactions, the
 * claim's attempt, outcomes, reconnecting, a crash's respawn. Its thread, the claim loop,
 * is queue/worker_loop.c's. Nothing on the claim path locks, allocates (but for a rare
 * ledger growth) or prints.
 */
#ifndef CLAIMBENCH_WORKER_H
#define CLAIMBENCH_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "db/backend.h"
#include "engine/sql_template.h"
#include "measure/ledger.h"
#include "measure/metrics.h"
#include "model/config.h"
#include "plugin/strategy.h"
#include "queue/empty_groups.h"
#include "queue/live_counters.h"
#include "queue/run_shared.h"

/* Consecutive errors (other than lock contention) after which a worker gives up; the run is then incomplete. */
#define WORKER_MAX_CONSECUTIVE_ERRORS 100
/* How long a worker keeps retrying lock contention (BUSY, 55P03 ...) without one success before it gives up. */
#define WORKER_STALL_NS (30 * 1000000000LL)

struct worker {
	int index;				/* 0-based worker number: its seat, kept by a crashed worker's replacement */
	int identity;				/* who it is, written to claimed_by: index, or a replacement's new number */
	char identity_text[16];			/* identity as an SQL parameter */
	bool begin_pending;			/* --pipeline: its BEGIN waits to be sent with the next statement */
	int64_t completion_sent_ns;		/* when it began to complete the job (or batch) in hand (clock_now_ns):
						 * a hold transaction failing from here (InnoDB's deadlock victim, a
						 * COMMIT refused) may have let its locks go from this instant */
	int64_t settle_sent_ns;			/* when it last sent a COMMIT, or a ROLLBACK not after a failed COMMIT
						 * (clock_now_ns): a transaction's locks went no earlier */
	int64_t attempt;			/* the attempt number of the job in hand (its claim's), for fencing */
	int32_t held_flags;			/* what the strategy learned of the claim in hand (EXEC_TICKET_EXPIRED), for
						 * its executions' flags; cleared before each claim */
	char attempt_text[24];			/* attempt as an SQL parameter */
	const char *queue;			/* the task class it serves: queues[index % n_queues] */
	struct db_conn *conn;			/* its own connection */
	int64_t connected_ns;			/* when conn was made (clock_now_ns): its executions' conn_ns */
	struct run_shared *shared;		/* the run it belongs to */
	struct worker_stats stats;		/* its counters and claim-latency histogram */
	struct ledger ledger;			/* its executions, empty claims and error instants */
	struct empty_groups empty_groups;	/* how its empty claims in a row are being grouped in ledger */
	struct live_counters live;		/* its running totals, read by the progress and interval lines */
	struct db_waits waits_seen;		/* what its connection had waited and checkpointed when last counted */
	atomic_bool finished;			/* set when its loop has ended */
	atomic_bool saw_stop;			/* it has seen the run's stop: it only gives back what it holds now */
	bool aborted;				/* stopped by an error rather than by the end of the run */
	bool aborted_by_strategy;		/* (aborted) by the strategy's own statements, not its environment:
						 * errors in a row, contention it never got through, a claim
						 * that broke its contract with the harness */
	bool ledger_full;			/* an error instant could not be recorded: out of memory */
	char abort_reason[256];			/* why, when aborted */
	atomic_int pending_fault;		/* a fault the monitor asks of it now: an enum fault_kind + 1, or 0 */
	atomic_bool kill_requested;		/* it asks the monitor to terminate its server process now */
	atomic_int server_pid;			/* its connection's server process, -1 while it has none */
	atomic_int killed_pid;			/* the server process of its the monitor last terminated and saw gone,
						 * -1 for none */
	atomic_int_fast64_t job_in_hand;	/* the job it works on, 0 for none: a fault at an instant may strike it */
	struct batch_job *batch;		/* a batch strategy's claimed jobs, batch_max of them; else NULL */
	struct execution *batch_execs;		/* the executions of batch's jobs, noted once its completion is over */
	int batch_max;				/* the most jobs one of its claims takes; 0 for a one-job strategy */
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

/* Adds to w's stats what its connection has waited and checkpointed since last counted; w's own thread only. */
void worker_count_waits(struct worker *w);

/* Closes w's connection and frees its ledger. */
void worker_close(struct worker *w);

/*
 * Runs the prepared statement in slot with text params (after a BEGIN held back for it,
 * in the same round trip), counting any error by kind in w's stats and its instant in
 * w's ledger. The number of rows (the first row's first nout columns in out), or -1.
 */
int worker_exec(struct worker *w, int slot, int nparams, const char *const *params, int64_t *out, int nout);

/*
 * Waits up to timeout_ns for a notification on w's connection (db wait_notification),
 * counting an error: 1 notified, 0 not, -1.
 */
int worker_wait_notification(struct worker *w, int64_t timeout_ns);

/*
 * As worker_exec, but copies the first ncols columns of up to maxrows rows into out,
 * row-major (the backend's exec_rows). The number of rows, or -1.
 */
int worker_exec_rows(struct worker *w, int slot, int nparams, const char *const *params, int64_t *out, int ncols,
		     int maxrows);

/*
 * Begins a claim transaction the strategy's way in this dialect (plain BEGIN unless it
 * says otherwise). With --pipeline the BEGIN is held back and sent with the transaction's
 * first statement. 0 or -1.
 */
int worker_begin(struct worker *w);

/*
 * Commits w's transaction; when the COMMIT fails (SQLite may answer BUSY and keep the
 * transaction open) rolls it back. 0 when it committed, else -1. Either way
 * settle_sent_ns is when the COMMIT was sent.
 */
int worker_commit(struct worker *w);

/* Rolls w's transaction back (nothing happens when none is open), settle_sent_ns when it was sent. 0 or -1. */
int worker_rollback(struct worker *w);

/*
 * worker_exec, then worker_commit; with --pipeline both (and a BEGIN held back) in one
 * round trip. When the statement fails the transaction is rolled back. Its rows, or -1
 * when it or the COMMIT failed.
 */
int worker_exec_commit(struct worker *w, int slot, int nparams, const char *const *params, int64_t *out, int nout);

/* Writes id as decimal text into buf (at least 24 bytes) and returns buf. */
const char *worker_id_text(char *buf, int64_t id);

/* Milliseconds as nanoseconds. */
#define MS_TO_NS(ms) ((int64_t)(ms) * 1000000)

/* run_pause_ns for w's run. */
bool worker_pause_ns(struct worker *w, int64_t duration_ns);

/*
 * Flips job_id to active for w (SLOT_MARK_ACTIVE), noting the claim's attempt number, and
 * commits with it when commit is true (worker_exec_commit). The rows it updated (1), or -1
 * on an error.
 */
int worker_mark_active(struct worker *w, int64_t job_id, bool commit);

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
 * Ends a completion statement that updated rows rows (-1: failed), as worker_finish does:
 * in hold mode commits when it updated one, else rolls back. 0 committed, 1 refused, -1 error.
 */
int worker_settle(struct worker *w, int rows);

/*
 * Prepares s's strategy's own statements on conn as a worker does, to find one the server
 * cannot prepare before any worker starts: 0, or -1 with err naming the statement (its
 * origin when it has one).
 */
int worker_prepare_strategy(const struct run_shared *s, struct db_conn *conn, char *err, size_t errlen);

/*
 * Prepares s's strategy's own statements on conn and checks those a scenario file wrote
 * (they have an origin): each must return the columns the harness reads from it and, when
 * confined, keep to the run's queue table (backend_ops.prepare_checked). 0; 1 with err
 * naming the statement's origin and what is wrong with it (a refusal, or the server's
 * message); -1 with err when the connection failed.
 */
int worker_check_strategy(const struct run_shared *s, struct db_conn *conn, bool confined, char *err, size_t errlen);

/*
 * After w's connection was lost or dropped: counts the loss toward the run's limit of
 * losses without progress (run_note_loss), then connects anew, with a back-off from 50 ms
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

/*
 * Whether the monitor has terminated w's current server process and seen it gone: a
 * statement w sends now reaches no session, and cannot commit.
 */
bool worker_session_killed(const struct worker *w);

/* Stops w with reason; the run will be marked incomplete. */
void worker_abort(struct worker *w, const char *reason);

/* Stops w with reason as worker_abort does, the strategy's own statements the cause (aborted_by_strategy). */
void worker_abort_strategy(struct worker *w, const char *reason);

#endif
