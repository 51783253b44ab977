/* One queue run: one strategy at one worker count, from an empty table to its metrics. */
#ifndef CLAIMBENCH_RUN_H
#define CLAIMBENCH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/backend.h"
#include "engine/run_plan.h"
#include "model/config.h"
#include "model/result.h"

/*
 * Creates the run's tables, connects and prepares the workers, opens the start gate,
 * waits for them (drawing progress, passing on Ctrl-C), reads the table's final state,
 * computes the metrics into out and drops the tables. 0 when the run took place (out->complete
 * says whether it ran to its end), or -1 with err on a database or environment error.
 */
int run_one(const struct run_plan *plan, const struct strategy_choice *choice, int workers, int repeat,
	    struct run_result *out, char *err, size_t errlen);

/*
 * Prepares choice's own statements on a connection of their own against an empty queue
 * table of plan's, made and dropped for it: a statement the server cannot prepare (a
 * syntax error, an unknown column), one a scenario file wrote that cannot return what the
 * harness reads from it or, without plan->trust_scenario, that does more than read and
 * write that table (worker_check_strategy) is found before any worker starts; where the
 * server's privileges confine that SQL (queue/run_account.h) it is prepared as the
 * run's own account, made and dropped for it. 0; 1 with err naming that statement (its
 * origin when it has one) and what is wrong; 2 with err when the server does not let the
 * harness make that account; -1 with err when the table could not be made or the
 * connection failed.
 */
int run_check_statements(const struct run_plan *plan, const struct strategy_choice *choice, char *err, size_t errlen);

#endif
