/*
 * --verify's replay: the server's record of a run replayed job by job (claims, completions,
 * give-backs, redeliveries by cause, zombies, claims in doubt), and the ledger's executions
 * counted job by job as the server could see them; verify.c compares the two. The rules
 * are in verify_replay.c's opening comment.
 */
#ifndef CLAIMBENCH_VERIFY_REPLAY_H
#define CLAIMBENCH_VERIFY_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/verify.h"

/* One claim not yet completed by its holder, in a job's list. */
struct open_claim {
	int32_t holder;		/* the identity that claimed */
	bool taken_again;	/* a redelivery claim took the job while this claim was open */
	bool in_doubt;		/* the ledger has no execution of the job by its holder */
	bool completion_in_doubt; /* the ledger has its holder's completion, whose answer a lost connection may have
				 * carried without its commit: the claim is left open in the record */
	int32_t next;		/* the job's next open claim in the pool, -1 for none */
};

/* One job as the record replays it, and the server's figures of it. */
struct job_replay {
	int32_t in_jobs;		/* its status in the queue table, JOB_MISSING for no row */
	int32_t moved;			/* its status in the strategy's table of job rows, JOB_MISSING for none */
	int32_t holder;			/* the identity of its latest claim, -1 for none */
	int64_t holder_seq;		/* that claim's place in the record */
	int32_t holder_ticket;		/* the line ticket that holder held when it claimed, -1 for none */
	bool holder_in_doubt;		/* that claim is in no ledger */
	bool holder_done;		/* that claim's holder completed the job since */
	bool returned;			/* the harness gave it back to new since that claim */
	int32_t open;			/* its first open claim in the pool, -1 for none */
	uint32_t claims;		/* committed claims, a worker's own give-back taken off */
	uint32_t completions;		/* committed completions, done or error */
	uint32_t failed;		/* of them, error */
	bool done;			/* a completion wrote done */
	uint32_t redeliveries[VERIFY_CAUSES]; /* claims that were redeliveries, by cause */
	uint32_t doubt_claims;		/* of the claims, those in no ledger */
	uint32_t doubt_completions;	/* of the completions, those beyond the ledger's committed executions of the
					 * job by their writer, each of an execution whose connection was lost */
	uint32_t doubt_redeliveries[VERIFY_CAUSES]; /* of the redeliveries, those from a holder whose claim is in no ledger */
	uint32_t zombies;		/* zombie completions */
	uint32_t reaps;			/* the reaper's give-backs: the harness's, of a row whose lease had run out */
};

/* One job as the ledger has it, counted as the server could see it. */
struct job_ledger {
	uint32_t visible;	/* executions whose claim committed: flip every one but interrupted, hold the committed */
	uint32_t committed;	/* executions done or failed */
	uint32_t doubt_committed; /* of them, those the record has no completion of, each of an execution whose
				   * connection was lost (its table read after reconnecting was another's completion) */
	uint32_t failed;	/* executions failed */
	uint32_t unfinished;	/* executions crashed, uncommitted or fenced */
	bool done;		/* an execution was done */
};

/* A job and an identity: the ledger's executions of the job by it, the record's claims of it by it. */
struct job_identity {
	int64_t job;		/* the job */
	int32_t identity;	/* the identity */
	int32_t executions;	/* the ledger's executions of the job by the identity */
	int32_t claims;		/* the record's claims of the job by the identity */
	int32_t doubt_left;	/* of those claims, how many of the next are beyond the ledger's: in doubt */
	int32_t committed;	/* the ledger's executions of the job by the identity done or failed */
	int32_t reconnected;	/* of its executions of the job, those whose connection was lost and made anew
				 * during them: a completion's answer may have been lost */
	int32_t completions;	/* the record's completions of the job by the identity */
	int32_t open_doubt_left; /* of the identity's claims of the job left open, how many are yet to be marked
				  * completion_in_doubt */
};

/* A ticket of the ticket strategy's line. */
struct line_ticket {
	int64_t number;		/* its number in the line */
	int64_t expired_seq;	/* where it was deleted as stale (by another worker, or by its requester before a claim
				 * held it: its own poll's expiry); 0: never */
	bool held;		/* a claim of its requester's held it */
};

/* The replay's working state. */
struct replay {
	const struct verify_input *in;	/* what is verified */
	struct job_replay *jobs;	/* per job, indexed id-1 */
	struct job_ledger *ledger;	/* per job, indexed id-1 */
	struct open_claim *pool;	/* the open claims' entries */
	size_t n_pool;			/* entries used in pool */
	struct line_ticket *tickets;	/* the line's tickets, in the order they were taken */
	size_t n_tickets;		/* entries used in tickets */
	int32_t *latest_ticket;		/* per identity, its latest ticket in tickets, -1 for none */
	int32_t n_identities;		/* entries in latest_ticket: every identity in the record is below it */
	struct job_identity *pairs;	/* every job and identity of the ledger's executions and the record's claims and
					 * completions, sorted */
	size_t n_pairs;			/* entries in pairs */
	size_t n_doubt;			/* claims in no ledger */
	size_t n_doubt_completions;	/* completions in doubt, either side's: doubt_completions and doubt_committed */
	uint32_t *doubt_by_identity;	/* per identity, its claims in no ledger */
	size_t doubt_statements;	/* the claim statements those claims take at the least (claim_size jobs each),
					 * plus the completions in doubt */
	bool doubt_allowed;		/* the run lost as many connections: they are left out as in doubt */
};

/*
 * Replays in's record into rp (its own allocations, freed by replay_close): every job's
 * figures, the ledger's counts, the claims in doubt and whether they may be left out.
 * 0, or -1 when out of memory (rp then holds nothing).
 */
int replay_open(struct replay *rp, const struct verify_input *in);

/* Frees what replay_open allocated in rp. */
void replay_close(struct replay *rp);

#endif
