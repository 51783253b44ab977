/*
 * The steps of `claimbench run` (cli/cmd_run.c) that `claimbench ab` (cli/cmd_ab.c) takes
 * too: choosing and checking the database, describing the server, checking a scenario's
 * SQL, running an invocation's groups into its results and the result store.
 */
#ifndef CLAIMBENCH_RUN_STEPS_H
#define CLAIMBENCH_RUN_STEPS_H

#include <stddef.h>

#include "cli/invocation.h"
#include "db/backend.h"
#include "db/throwaway.h"
#include "engine/run_plan.h"
#include "model/result.h"
#include "store/store.h"

/* What the runs of one invocation share besides the report. */
struct run_session {
	struct invocation_result *report;		/* where results accumulate */
	struct store *store;		/* the result store */
	struct store_session stored;	/* the invocation's row in the store */
	struct store_context ctx;	/* host, version, revision, scenario text */
	size_t unstored;		/* runs the store refused */
	char store_error[1024];		/* why it refused the first of them */
};


/*
 * Fills r's header: server version, settings, start time. 0, or -1 with err when the
 * server at target is unreachable.
 */
int describe_server(struct invocation_result *r, const struct backend_ops *db, const char *target,
		    const struct db_options *opts, char *err, size_t errlen);

/*
 * Prepares the statements of every strategy inv's scenario defines in SQL, once each,
 * with plan. EXIT_DONE, or EXIT_USAGE with err ("FILE:LINE: claim of strategy NAME: ...")
 * or EXIT_ENVIRONMENT with err.
 */
int check_defined_statements(const struct run_invocation *inv, struct run_plan *plan, char *err, size_t errlen);

/*
 * Runs every group of inv with plan, each through its pooler when it asks for one
 * (cli/group_pooler.h), appending each run to rs->report (room for count_runs(inv) more)
 * and storing it. EXIT_DONE, EXIT_INCOMPLETE, EXIT_ENVIRONMENT, or EXIT_USAGE (--pooler
 * where plan->pooler is NULL).
 */
int run_groups(const struct run_invocation *inv, struct run_plan *plan, struct run_session *rs);

/* The number of runs inv asks for. */
size_t count_runs(const struct run_invocation *inv);

/*
 * Writes rs's whole report as JSON into a new file under $TMPDIR (or /tmp) when runs could
 * not be stored in store_path, and says where, so that nothing measured is lost.
 * EXIT_ENVIRONMENT.
 */
int keep_unstored(const struct run_session *rs, const char *store_path);

#endif
