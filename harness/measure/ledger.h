/*
 * The ledger: the harness's own record of every execution of every job and of
 * every claim attempt that came back empty (those in a row grouped as they may be). One ledger per worker thread, written
 * only by that thread, merged after the run; metrics are computed from it alone.
 */
#ifndef CLAIMBENCH_LEDGER_H
#define CLAIMBENCH_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "model/result.h"

/* How an execution ended. */
enum exec_outcome {
	EXEC_DONE,		/* the completion committed: the job is done */
	EXEC_FAILED,		/* the job was deliberately marked error, and that committed */
	EXEC_UNCOMMITTED,	/* the work ran but neither completion nor error committed */
	EXEC_INTERRUPTED,	/* the run was stopped during the work: the job was given back, not completed */
	EXEC_CRASHED,		/* the worker crashed during the work: its connection dropped, the job abandoned */
	EXEC_FENCED,		/* the work was done, but the completion was refused: the job was no longer this claim's */
};

/* execution.flags */
#define EXEC_STALLED (1 << 0)		/* the worker stalled (froze) during this execution */
#define EXEC_TICKET_EXPIRED (1 << 1)	/* the ticket strategy found this claim's ticket deleted as stale under it */
#define EXEC_UNBEGUN (1 << 2)		/* handed out in a batch whose end came before this job's work began */
#define EXEC_PROCESS_DIED (1 << 3)	/* crashed with the process that held it (an adapter's replica): its completion may
					 * have committed with no word of it */
#define EXEC_CONNECTION_LOST (1 << 4)	/* an adapter's worker said its connection was lost with the job in hand (a lost
					 * line): the session its claim lived in, or its row's claim's holder, is gone */

/*
 * One execution of one job by one worker; times are ns since the start barrier. A job is
 * in hand from the end of the claim that handed it out: for a batch, the batch's claim,
 * for every job of the batch, whenever its own work began.
 */
struct execution {
	int64_t job_id;		/* the job's id (ids are 1..jobs) */
	int64_t claim_start_ns;	/* when the claim attempt that returned this job began */
	int64_t start_ns;	/* when the job was in hand: the claim that returned it had ended */
	int64_t end_ns;		/* when its completion (or failure) returned */
	int64_t released_ns;	/* hold mode: when the COMMIT or ROLLBACK ending its transaction, and with it its
				 * hold on the job, was sent (the job may have gone any time after); 0: at end_ns */
	int64_t conn_ns;	/* when the connection its outcome returned on was made (a failover's server tells) */
	int32_t worker;		/* the seat of the worker that executed it (its index, kept by a replacement) */
	int32_t outcome;	/* an enum exec_outcome */
	int32_t identity;	/* the worker's identity, the job's claimed_by (a crashed worker's replacement has a new one) */
	int32_t flags;		/* EXEC_STALLED, EXEC_TICKET_EXPIRED, EXEC_UNBEGUN, EXEC_PROCESS_DIED, EXEC_CONNECTION_LOST */
};

/*
 * A job the harness itself gave back to new while it was active: the reaper's pass over
 * expired leases, or --rerun-stuck's free of the jobs left active. Times are ns since the
 * start barrier, on the harness's clock: the statement that did it began at start_ns and
 * returned at end_ns, so the server changed the row in between.
 */
struct job_return {
	int64_t job_id;		/* the job given back */
	int64_t start_ns;	/* when the statement that gave it back began */
	int64_t end_ns;		/* when that statement returned */
};

/*
 * Claim attempts that returned no job, count of them in a row by one worker: one, or a
 * group no critical instant falls within (queue/empty_groups.h), whose empty claims every
 * metric judges alike. Times are ns since the start barrier.
 */
struct empty_claim {
	int64_t start_ns;	/* when the (first) attempt began */
	int64_t end_ns;		/* when the (last) one returned empty; every one in the series bucket of it */
	int32_t worker;		/* index of the worker that made them */
	uint32_t count;		/* the attempts: 1, or a group's */
};

/* A growable array of executions, empty claims, error instants, faults and returns owned by one thread. */
struct ledger {
	struct execution *execs;	/* executions in the order added (a worker's: the order they ended) */
	size_t n_execs;			/* entries used in execs */
	size_t cap_execs;		/* entries allocated in execs */
	struct empty_claim *empties;	/* empty claims in order */
	size_t n_empties;		/* entries used in empties */
	size_t cap_empties;		/* entries allocated in empties */
	int64_t *errors;		/* when each database error was met, ns since the start barrier, in order */
	size_t n_errors;		/* entries used in errors */
	size_t cap_errors;		/* entries allocated in errors */
	struct fault_record *faults;	/* the faults injected, in order */
	size_t n_faults;		/* entries used in faults */
	size_t cap_faults;		/* entries allocated in faults */
	struct job_return *returns;	/* the jobs the harness gave back to new (the monitor's ledger only), in order */
	size_t n_returns;		/* entries used in returns */
	size_t cap_returns;		/* entries allocated in returns */
	size_t growths;			/* times an array had to grow during the run (0 when sized well) */
};

/*
 * Preallocates room for expected_execs executions, expected_empties empty claims and
 * expected_errors error instants. 0 or -1.
 */
int ledger_init(struct ledger *l, size_t expected_execs, size_t expected_empties, size_t expected_errors);

/* Frees what l holds. */
void ledger_free(struct ledger *l);

/* Appends one execution; grows (rarely) when full. 0, or -1 when out of memory. */
int ledger_add_execution(struct ledger *l, const struct execution *e);

/* Appends one empty claim; grows (rarely) when full. 0, or -1 when out of memory. */
int ledger_add_empty(struct ledger *l, const struct empty_claim *e);

/* Appends one error instant (ns since the start barrier); grows (rarely) when full. 0, or -1 when out of memory. */
int ledger_add_error(struct ledger *l, int64_t at_ns);

/* Appends one fault; grows when full. 0, or -1 when out of memory. */
int ledger_add_fault(struct ledger *l, const struct fault_record *f);

/* Appends one job the harness gave back to new; grows when full. 0, or -1 when out of memory. */
int ledger_add_return(struct ledger *l, const struct job_return *r);

/*
 * Appends every entry of the n ledgers in parts to into (which ledger_init prepared),
 * part after part, and adds their growths to into's. 0 or -1.
 */
int ledger_merge(struct ledger *into, const struct ledger *parts, size_t n);

/* Sorts n faults by the instant they struck. */
void ledger_sort_faults(struct fault_record *faults, size_t n);

/* Copies the faults of merged, in the order they struck, into out (out->faults, n_faults). 0, or -1 when out of memory. */
int ledger_keep_faults(const struct ledger *merged, struct run_result *out);

#endif
