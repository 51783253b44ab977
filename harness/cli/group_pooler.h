/*
 * A run group's pgbouncer (--pooler): started in the invocation's pooler directory before
 * the group's runs, with the group's pool mode and size, between its workers and producers
 * and the server; stopped after them.
 */
#ifndef CLAIMBENCH_GROUP_POOLER_H
#define CLAIMBENCH_GROUP_POOLER_H

#include "engine/run_plan.h"
#include "model/config.h"

/*
 * Starts cfg's pgbouncer, when cfg asks for one, and points plan's workers and producers at
 * it (plan->client_target), saying so on stderr. EXIT_DONE; EXIT_USAGE when plan has no
 * pooler directory (a command that does not start one); EXIT_ENVIRONMENT when it would not
 * start; both with the reason on stderr.
 */
int group_pooler_start(struct run_plan *plan, const struct run_config *cfg);

/* Stops the group's pgbouncer, if one runs, and points the workers at the server again. */
void group_pooler_stop(struct run_plan *plan);

#endif
