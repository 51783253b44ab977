/*
 * The server faults of an adapter's run (docs/adapters.md): --restart-at restarts the server
 * (the throwaway, or --restart-command), --kill-backend-at terminates one of the adapter's
 * own sessions (those named by PGAPPNAME, the run's queue name), each noted as a fault in the
 * run's own ledger when it struck.
 */
#ifndef CLAIMBENCH_ADAPTER_SERVER_FAULTS_H
#define CLAIMBENCH_ADAPTER_SERVER_FAULTS_H

#include <stdint.h>

#include "engine/run_plan.h"
#include "measure/ledger.h"
#include "queue/fault.h"

/* How often a kill that found none of the adapter's sessions looks again. */
#define ADAPTER_KILL_LOOK_NS 100000000

/* The server faults one adapter run strikes. */
struct adapter_faults {
	const struct run_plan *plan;	/* the invocation's plan: the server, its restart */
	const char *label;		/* the run's label on stderr */
	const char *queue;		/* the run's queue name: the adapter's sessions' application_name */
	struct ledger *own;		/* where the faults are noted */
	struct fault_clock restarts;	/* --restart-at's instants */
	struct fault_clock kills;	/* --kill-backend-at's instants */
	int64_t next_kill_look_ns;	/* a kill due that found no session looks again from then (ns since the start) */
	char failed[400];		/* why a fault could not be struck, which stops the run; "": none failed */
};

/* Prepares f for a run of plan labelled label, its queue queue, noting faults in own. */
void adapter_faults_init(struct adapter_faults *f, const struct run_plan *plan, const char *label, const char *queue,
			 struct ledger *own);

/*
 * Strikes each fault due at now_ns (ns since the start): a restart at once, a kill of a
 * backend once one of the adapter's sessions is there to kill (looked for every
 * ADAPTER_KILL_LOOK_NS). 0, or -1 with f->failed said.
 */
int adapter_faults_strike(struct adapter_faults *f, int64_t now_ns);

#endif
