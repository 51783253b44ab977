/*
 * --verify on an adapter's run: the server's record of the library's state table
 * (adapter/adapter_audit.h) replayed job by job, its claims and completions compared with
 * the ledger the adapter's lines made. docs/adapters.md ("--verify") says the rules.
 */
#ifndef CLAIMBENCH_ADAPTER_VERIFY_H
#define CLAIMBENCH_ADAPTER_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "adapter/adapter_audit.h"
#include "measure/ledger.h"
#include "model/result.h"

/* What adapter_verify_run compares. */
struct adapter_verify_input {
	const struct adapter_event *events;	/* the record, in its order */
	size_t n_events;			/* entries in events */
	const struct ledger *ledger;		/* every replica's ledger merged */
	const struct job_state *final;		/* the state table's final state the harness read, indexed id-1; NULL:
						 * unknown (final_state is not compared) */
	size_t n_jobs;				/* jobs in the run: ids 1..n_jobs, every one enqueued before the record began */
	bool hold;				/* claim_mode hold: a claim commits with its completion, a claim that did not
						 * leaves no trace */
	size_t unsaid_claims_max;		/* the most claims that may have committed with no line: a seat's for each
						 * death of its replica, every seat's for a restart, one for a killed
						 * backend (the claim's answer lost with its process or connection) */
};

/*
 * Derives from in's record each job's claims, completions and final state, compares them
 * job by job with the ledger's and fills out (verified true) with the figures that differ,
 * each with its jobs; what a dead replica may have committed with no line is left out as
 * in doubt (out->in_doubt). 0, or -1 when out of memory (out then says nothing was verified).
 */
int adapter_verify_run(const struct adapter_verify_input *in, struct verify_outcome *out);

#endif
