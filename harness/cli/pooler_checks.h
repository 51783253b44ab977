/*
 * The checks of --pooler against a run group (cli/group_checks.c calls them): where a
 * pooler can stand, what its pool mode lets run, and, per strategy, what transaction
 * pooling does with what its claims need of a session (strategy_ops.session_needs),
 * said on stderr. docs/pooler.md is their account.
 */
#ifndef CLAIMBENCH_POOLER_CHECKS_H
#define CLAIMBENCH_POOLER_CHECKS_H

#include <stddef.h>

#include "db/backend.h"
#include "model/config.h"

/*
 * Checks cfg's --pooler against driver db and the rest of cfg: refuses it on SQLite, in a
 * guarded workload, with a fault that needs the worker's own server process, in session
 * mode with more clients than server connections, and under transaction pooling what needs
 * a session's state (--verify, --lock-timeout-ms, --statement-timeout-ms, a strategy with
 * SESSION_NEEDS_STATE); otherwise turns on
 * unnamed statements under transaction pooling and notes on stderr, per strategy, what
 * runs adapted and what as written. 0, or -1 with err.
 */
int pooler_check_group(struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen);

#endif
