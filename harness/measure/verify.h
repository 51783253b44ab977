/*
 * --verify: the integrity figures derived from the server's own record of a run (every
 * committed insert, update and delete on the run's tables, as row triggers wrote them),
 * and their comparison with the ledger's. docs/metrics.md ("Verifying against the
 * server") says what is derived how, and what the server cannot see.
 */
#ifndef CLAIMBENCH_VERIFY_H
#define CLAIMBENCH_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/ledger.h"
#include "model/result.h"

/* Which of the run's tables a recorded change was made to. */
enum audit_table {
	AUDIT_JOBS,	/* the queue table */
	AUDIT_MOVED,	/* the strategy's table of job rows (move-table's claimed jobs, delete-returning's archive) */
	AUDIT_LINE,	/* the ticket strategy's line: a row per ticket, its requester as owner */
};

/* What a recorded change did to its row. */
enum audit_op {
	AUDIT_INSERT,
	AUDIT_UPDATE,
	AUDIT_DELETE,
};

/*
 * The causes of a redelivery (docs/metrics.md) the server's record shows. A hold-mode
 * holder's transaction that ended without its completion leaves no trace; a flip-mode
 * claim that is its session's lock (advisory's) shows as a crash.
 */
enum verify_cause {
	VERIFY_CRASH,		/* the claim took a row its holder had marked but left new, never completed: its session
				 * ended (the ledger's crash, restart, killed backend or failover: the record cannot tell) */
	VERIFY_LEASE,		/* the claim took an active row whose lease had run out */
	VERIFY_REAPER,		/* the harness (the reaper, --rerun-stuck) gave the job back to new after the earlier claim */
	VERIFY_STALE_TICKET,	/* the earlier holder's ticket was deleted as stale by another worker */
	VERIFY_CAUSES,
};

/*
 * One committed change to one row of the run's tables, as its trigger recorded it. A
 * status is an enum job_status: JOB_MISSING for no row (an insert's old one, a delete's
 * new one), JOB_CONSUMED for a row of delete-returning's archive, which has none.
 */
struct audit_event {
	int64_t seq;		/* the record's order: a sequence taken as the change was made */
	int64_t id;		/* the job (a ticket's number in AUDIT_LINE) */
	int32_t table;		/* an enum audit_table */
	int32_t op;		/* an enum audit_op */
	int32_t old_status;	/* the row's status before the change */
	int32_t new_status;	/* after it */
	int32_t old_owner;	/* claimed_by (consumed_by, a ticket's requester) before, -1 for NULL */
	int32_t new_owner;	/* after, -1 for NULL */
	int32_t old_attempt;	/* attempts before, -1 for NULL */
	int32_t new_attempt;	/* after, -1 for NULL */
	int32_t lease_expired;	/* 1 when the row's lease_until before the change had passed when it was made */
	int32_t writer;		/* the identity of the worker whose session made it; -1: the harness's own */
};

/* What verify_run reads. */
struct verify_input {
	const struct audit_event *events;	/* the record, in seq order */
	size_t n_events;			/* entries in events */
	const struct ledger *ledger;		/* every worker's ledger merged */
	const struct job_state *final;		/* the final state the harness read, indexed id-1; NULL: unknown */
	const struct run_metrics *metrics;	/* the ledger's figures */
	size_t n_jobs;				/* jobs in the run; ids 1..n_jobs */
	size_t n_backlog;			/* jobs 1..n_backlog were in the table before the record began */
	bool hold;				/* hold mode: a claim commits with its completion */
	int claim_size;				/* the most jobs one claim statement hands out: a batch's, else 1 */
	int64_t lease_ns;			/* flip mode's lease when no reaper runs (the ledger's lease cause); 0: none */
	int64_t clock_tick_ns;			/* the resolution of the server's clock that sets and tests leases */
	bool drain;				/* a drain run: every job should have finished */
};

/*
 * Derives the integrity figures from in's record alone, compares each with the ledger's
 * and fills out (verified true) with the figures that differ, each with its jobs. 0, or
 * -1 when out of memory (out then says nothing was verified).
 */
int verify_run(const struct verify_input *in, struct verify_outcome *out);

/*
 * Prints on stderr, under label, each figure on which --verify found the ledger and the
 * server apart, and the claims and completions it left out as in doubt, whose doubt_cause
 * ("their answer lost with the connection") says why.
 */
void verify_report(const struct verify_outcome *v, const char *label, const char *doubt_cause);

#endif
