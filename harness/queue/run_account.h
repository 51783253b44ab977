/*
 * The account of a run's own that a scenario's SQL runs as, where the server's privileges
 * confine it (MariaDB: backend_ops.account_create): made on the harness's session once
 * the queue table exists, where the workers and producers then connect, dropped once they
 * have closed (docs/scenarios.md, "What a scenario file may do").
 */
#ifndef CLAIMBENCH_RUN_ACCOUNT_H
#define CLAIMBENCH_RUN_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/admin.h"
#include "engine/run_plan.h"
#include "queue/run_shared.h"

/* The run's account, once made. */
struct run_account {
	bool made;		/* the run made it, and drops it */
	char target[2048];	/* where its connections go, as the backend's connect takes it (holds its password) */
};

/*
 * Whether s's statements run as an account of the run's own: s's strategy is one a
 * scenario file wrote, plan lacks --trust-scenario and the backend confines by accounts.
 */
bool run_account_wanted(const struct run_plan *plan, const struct run_shared *s);

/*
 * Makes a for s's queue table on a's connection. 0; 1 when the server does not let the
 * harness's user make it, with err saying so, why and what --trust-scenario does; -1 with err.
 */
int run_account_make(struct run_account *acc, const struct run_shared *s, struct admin *a, char *err, size_t errlen);

/*
 * Drops acc when the run made it, on a's connection (connecting anew once after a lost
 * one); says on stderr, under label, when it cannot, unless the throwaway server is gone.
 */
void run_account_drop(struct run_account *acc, const struct run_shared *s, struct admin *a, const char *label);

#endif
