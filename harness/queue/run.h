/* One run: one strategy at one worker count, from an empty table to its metrics. */
#ifndef CLAIMBENCH_RUN_H
#define CLAIMBENCH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/backend.h"
#include "queue/monitor.h"
#include "model/config.h"
#include "model/result.h"

/* How long a statement of the harness's own may wait for a lock once the run is stopping. */
#define RUN_STOPPING_LOCK_WAIT_MS 500

/* What a run needs that stays the same across the runs of an invocation. */
struct run_plan {
	const struct run_config *cfg;		/* the invocation's settings */
	const struct backend_ops *db;		/* the backend driver */
	const char *target;			/* where to connect (conninfo or path) */
	const int64_t *work_ns;			/* work time per job, backlog and arrivals, indexed id-1 */
	struct server_restart restart;		/* how the server restarts for --restart-at */
	bool trust_scenario;			/* --trust-scenario: the scenario's SQL may do what the user may */
	bool (*server_gone)(void *ctx);		/* whether the throwaway server is gone (its postmaster
						 * died); NULL on a server of the user's, which cannot be told */
	void *server_ctx;			/* what server_gone is given */
};

/*
 * Whether a run of plan leaves its tables where they are: it was interrupted, and its
 * server or SQLite file is the harness's throwaway (no --db), removed at exit with them.
 */
bool run_leaves_tables(const struct run_plan *plan);

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
 * write that table (worker_check_strategy) is found before any worker starts. 0; 1 with
 * err naming that statement (its origin when it has one) and what is wrong; -1 with err
 * when the table could not be made or the connection failed.
 */
int run_check_statements(const struct run_plan *plan, const struct strategy_choice *choice, char *err, size_t errlen);

/* Frees what run_one allocated in r. */
void run_result_free(struct run_result *r);

#endif
