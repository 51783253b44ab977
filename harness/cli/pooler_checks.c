/* The checks of --pooler against a run group: what cannot run through a pooler is refused before anything starts. */
#include <stdio.h>

#include "cli/pooler_checks.h"
#include "db/pooler.h"
#include "plugin/strategy.h"
#include "run/run_loop.h"

/* Whether cfg injects faults of kind. */
static bool injects(const struct run_config *cfg, enum fault_kind kind)
{
	const struct fault_trigger *t = &cfg->faults.when[kind];

	return t->n_at || t->n_exec || t->rate > 0;
}

/*
 * Under transaction pooling: refuses a strategy that needs a session's state, and says on
 * stderr what becomes of each need the others have. 0, or -1 with err.
 */
static int check_needs(const struct run_config *cfg, char *err, size_t errlen)
{
	bool prepared = false;

	for (size_t i = 0; i < cfg->n_strategies; i++) {
		const struct strategy_ops *st = cfg->strategies[i].ops;

		if (st->session_needs & SESSION_NEEDS_STATE) {
			snprintf(err, errlen, "strategy %s cannot run through --pooler transaction: its claims read "
				 "state a session keeps across transactions, which a server connection given out per "
				 "transaction does not keep", st->name);
			return -1;
		}
		if (st->session_needs & SESSION_NEEDS_ADVISORY)
			fprintf(stderr, "claimbench: %s through --pooler transaction runs as written: its session "
				"advisory lock outlives the claim's transaction on a server connection the next client "
				"may get, who can take the same lock again; the ledger counts the duplicates\n", st->name);
		if (st->session_needs & SESSION_NEEDS_LISTEN)
			fprintf(stderr, "claimbench: %s through --pooler transaction runs as written: its LISTEN is "
				"made on whichever server connection the worker had, so notifications do not reach it; "
				"idle workers wake by --listen-fallback-ms instead\n", st->name);
		prepared |= (st->session_needs & SESSION_NEEDS_PREPARED) != 0;
	}
	if (prepared)
		fprintf(stderr, "claimbench: --pooler transaction: every statement is sent unnamed (its text with "
			"each execution), since pgbouncer keeps no named prepared statement across transactions\n");
	return 0;
}

int pooler_check_group(struct run_config *cfg, const struct backend_ops *db, char *err, size_t errlen)
{
	int clients = pooler_clients(cfg);

	if (cfg->pooler == POOLER_NONE)
		return 0;
	if (!(db->caps & CAP_POOLER)) {
		snprintf(err, errlen, "--pooler cannot run on %s: pgbouncer does not pool its connections", db->name);
		return -1;
	}
	if (cfg->guarded.workload != WORKLOAD_QUEUE) {
		snprintf(err, errlen, "--pooler runs the queue workload; the %s workload connects to the server itself",
			 workload_name((enum workload)cfg->guarded.workload));
		return -1;
	}
	if (cfg->target && pooler_check_server(cfg->target, err, errlen) < 0)
		return -1;
	if (injects(cfg, FAULT_FAILOVER)) {
		snprintf(err, errlen, "--failover-at cannot run through --pooler: pgbouncer is given one server, and "
			 "after the failover it would go on sending the workers to the old primary; fail over in a "
			 "section without a pooler");
		return -1;
	}
	if (injects(cfg, FAULT_KILL_BACKEND)) {
		snprintf(err, errlen, "--kill-backend-* cannot run through --pooler: a worker's server process is "
			 "pgbouncer's, not the worker's");
		return -1;
	}
	if (cfg->pooler == POOLER_SESSION && clients > cfg->server_connections) {
		snprintf(err, errlen, "--pooler session gives each client a server connection for its whole session: "
			 "%d workers%s need %d, more than --server-connections %d (the rest would wait for ever); "
			 "use --pooler transaction to share fewer", clients - (run_config_arrivals(cfg) ? cfg->producers :
			 0), run_config_arrivals(cfg) ? " and producers" : "", clients, cfg->server_connections);
		return -1;
	}
	if (cfg->pooler != POOLER_TRANSACTION)
		return 0;
	if (cfg->verify) {
		snprintf(err, errlen, "--verify cannot run through --pooler transaction: its audit trigger reads the "
			 "worker's identity from a setting of its session, which transaction pooling does not keep");
		return -1;
	}
	if (cfg->db_opts.lock_timeout_ms || cfg->db_opts.statement_timeout_ms) {
		snprintf(err, errlen, "--lock-timeout-ms and --statement-timeout-ms cannot run through --pooler "
			 "transaction: each connection SETs them once, and transaction pooling keeps a session's "
			 "settings on whichever server connection it had, for whichever client gets it next");
		return -1;
	}
	cfg->db_opts.unnamed_statements = true;
	return check_needs(cfg, err, errlen);
}
