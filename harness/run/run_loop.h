/*
 * The run loop of an invocation, for `claimbench run` and `claimbench ab` (and explore's
 * describe_server): the server described, a scenario's SQL checked, then every run group
 * walked, each through its pgbouncer when it asks for one (--pooler), each strategy or
 * guard x worker count x repetition run by its workload (queue, guarded or adapter) and
 * stored as it comes, so that an interruption loses nothing already measured; what the
 * store refused is kept in a file of its own (explore's too).
 */
#ifndef CLAIMBENCH_RUN_LOOP_H
#define CLAIMBENCH_RUN_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "db/backend.h"
#include "engine/run_plan.h"
#include "model/config.h"
#include "model/result.h"
#include "plugin/strategy.h"
#include "store/store.h"

/* What the runs of one invocation share besides the report. */
struct run_session {
	struct invocation_result *report;	/* where results accumulate */
	struct store *store;			/* the result store */
	struct store_session stored;		/* the invocation's row in the store */
	struct store_context ctx;		/* host, version, revision, scenario text */
	int (*params_fill)(struct run_result *res, const struct run_config *cfg,
			   const struct strategy_ops *st); /* appends to res the parameters it ran under (the
							    * command's stored options, st's own; st NULL:
							    * a guarded run), 0 or -1 when out of memory */
	size_t unstored;			/* runs the store refused */
	char store_error[1024];			/* why it refused the first of them */
};

/*
 * Fills r's header: server version, settings, start time. 0, or -1 with err when the
 * server at target is unreachable.
 */
int describe_server(struct invocation_result *r, const struct backend_ops *db, const char *target,
		    const struct db_options *opts, char *err, size_t errlen);

/*
 * Prepares, with plan, the statements of every strategy the scenario defines in SQL
 * (groups[0].defined, as every group lists them) that one of the n groups runs, once each,
 * before anything runs. EXIT_DONE, or EXIT_USAGE with err ("FILE:LINE: claim of strategy
 * NAME: ..."), EXIT_UNCONFINED with err (the server does not let the harness make the
 * account that confines it: queue/run_account.h) or EXIT_ENVIRONMENT with err.
 */
int check_defined_statements(const struct run_config *groups, size_t n, struct run_plan *plan, char *err,
			     size_t errlen);

/*
 * Runs the n groups in order with plan, each through its pgbouncer when it asks for one,
 * appending each run to rs->report (room for count_runs(groups, n) more) and storing it;
 * stops after the group a signal interrupted. EXIT_DONE, EXIT_CONTRACT (an adapter broke its
 * contract), EXIT_INCOMPLETE, EXIT_ENVIRONMENT, or EXIT_USAGE (--pooler where plan->pooler
 * is NULL); what failed is said on stderr.
 */
int run_groups(const struct run_config *groups, size_t n, struct run_plan *plan, struct run_session *rs);

/* The number of runs the n groups ask for. */
size_t count_runs(const struct run_config *groups, size_t n);

/*
 * Creates the file that keeps what the result store refused, a new
 * claimbench-unstored-XXXXXX.json under $TMPDIR (or /tmp), its name in path (len bytes).
 * The file open for writing, or NULL after saying on stderr that the results are only in
 * the output.
 */
FILE *unstored_open(char *path, size_t len);

/* Closes f, the file at path. Whether it was written; when not, says so on stderr. */
bool unstored_close(FILE *f, const char *path);

/*
 * Writes rs's whole report as JSON into unstored_open's file when runs could not be stored
 * in store_path, and says where, so that nothing measured is lost. EXIT_ENVIRONMENT.
 */
int keep_unstored(const struct run_session *rs, const char *store_path);

/* The most clients (workers and producers) a run of cfg connects at once: what its pgbouncer serves. */
int pooler_clients(const struct run_config *cfg);

#endif
