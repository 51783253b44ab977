#include <stdio.h>

#include "base/exit_status.h"
#include "cli/group_pooler.h"
#include "cli/pooler_checks.h"
#include "db/pooler.h"
#include "engine/signals.h"

int group_pooler_start(struct run_plan *plan, const struct run_config *cfg)
{
	char err[1024], server[3 * POOLER_CONNINFO_MAX];
	const char *target = plan->target;

	if (cfg->pooler == POOLER_NONE)
		return EXIT_DONE;
	if (!plan->pooler) {
		fprintf(stderr, "claimbench: --pooler runs with claimbench run\n");
		return EXIT_USAGE;
	}
	/* With a throwaway standby the target names both servers: pgbouncer is given the one that takes writes. */
	if (plan->standby_ready) {
		if (pooler_narrow_server(plan->target, server, sizeof(server), err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench: cannot start pgbouncer: %s\n", err);
			return EXIT_ENVIRONMENT;
		}
		target = server;
	}
	if (pooler_start(plan->pooler, target, pooler_mode_names[cfg->pooler], cfg->server_connections,
			 pooler_clients(cfg), signals_interrupted, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench: cannot start pgbouncer: %s\n", err);
		return EXIT_ENVIRONMENT;
	}
	fprintf(stderr, "claimbench: pgbouncer in %s, %s pooling over %d server connections\n", plan->pooler->dir,
		pooler_mode_names[cfg->pooler], cfg->server_connections);
	plan->client_target = plan->pooler->conninfo;
	return EXIT_DONE;
}

void group_pooler_stop(struct run_plan *plan)
{
	if (plan->pooler && plan->client_target)
		pooler_stop(plan->pooler);
	plan->client_target = NULL;
}
