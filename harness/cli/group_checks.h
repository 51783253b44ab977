/*
 * The rules a run group (struct run_config) is checked by before anything runs: what needs
 * no server (each strategy's claim mode, options that go together or exclude each other,
 * what the group's workload runs), and what the driver it will run on can do (its
 * strategies or guards, faults, timeouts, connections). invocation.c applies them to every
 * group of an invocation.
 */
#ifndef CLAIMBENCH_GROUP_CHECKS_H
#define CLAIMBENCH_GROUP_CHECKS_H

#include <stddef.h>

#include "db/backend.h"
#include "model/config.h"

/*
 * Gives each strategy of cfg its claim mode (its own, --claim-mode's or its default) and
 * checks what cfg's options ask together, without a server. 0, or -1 with err.
 */
int group_check_alone(struct run_config *cfg, char *err, size_t errlen);

/*
 * Checks cfg against driver db: keeps the strategies (or the guards of its workload) db can
 * run, refusing one asked for by name that it cannot and noting on stderr each that "all"
 * leaves out; refuses faults and timeouts db cannot take. 0, or -1 with err.
 */
int group_check_on(struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen);

/*
 * The sessions cfg's runs open on the server at once, at most: its largest worker count (or,
 * through a pooler, the pooler's server connections), the producers of its arrivals, its
 * timeline's holder and readers, and
 * GROUP_OWN_SESSIONS of the harness's own. A throwaway server is sized to the largest over
 * the invocation's groups.
 */
int group_connections(const struct run_config *cfg);

/* The harness's own sessions beside a run's workers, producers and timeline (whose holder and
 * readers group_connections counts apart), with room to spare: the admin's, the sampler's, the
 * monitor's and reaper's, the pressure phases', a pooler's admin, a standby's replication. */
#define GROUP_OWN_SESSIONS 16

#endif
