/*
 * What every run of an invocation needs, whichever its workload (the queue's or a
 * guarded resource's): the plan the run loop (run/run_loop.h) hands the workloads, what
 * is said of a run on stderr (its label), whether its tables stay, how its result is
 * freed, and its tables: their names and the harness's own statements on them.
 */
#ifndef CLAIMBENCH_RUN_PLAN_H
#define CLAIMBENCH_RUN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/backend.h"
#include "engine/sql_template.h"
#include "model/config.h"
#include "model/result.h"

/* How long a statement of the harness's own may wait for a lock once the run is stopping. */
#define RUN_STOPPING_LOCK_WAIT_MS 500

/*
 * How the server is restarted for a restart fault: fn(ctx, stopping, run, err, errlen)
 * restarts it in immediate mode and returns once it accepts connections again, 0, or -1
 * with err; it gives up early once stopping(run) says the run stops (for any of the run's
 * reasons: a signal, no progress, the end of a timed run). fn NULL: it cannot be (the
 * invocation refuses --restart-at then).
 */
struct server_restart {
	int (*fn)(void *ctx, bool (*stopping)(const void *run), const void *run, char *err,
		  size_t errlen);			/* restarts the server */
	void *ctx;					/* what fn is given */
};

struct pooler;

/* What a run needs that stays the same across the runs of an invocation. */
struct run_plan {
	const struct run_config *cfg;		/* the invocation's settings */
	const struct backend_ops *db;		/* the backend driver */
	const char *target;			/* where to connect (conninfo or path) */
	struct pooler *pooler;			/* --pooler's pgbouncer, its directory made (db/pooler.h); NULL: none */
	const char *client_target;		/* where workers and producers connect: the pooler's conninfo while a
						 * group runs through it; NULL: target. The harness's own
						 * connections (admin, sampler, pressure) always use target */
	const int64_t *work_ns;			/* work time per job, backlog and arrivals, indexed id-1 */
	struct server_restart restart;		/* how the server restarts for --restart-at */
	struct server_restart failover;		/* how the primary fails over to its standby for --failover-at: as a
						 * restart, returning once the new primary accepts writes */
	int (*standby_ready)(void *ctx, int mode, char *err,
			     size_t errlen);	/* readies the throwaway pair for a run of standby mode mode (an enum
						 * standby_mode), 0 or -1 with err; NULL without a throwaway standby */
	int (*standby_cut)(void *ctx, char *err,
			   size_t errlen);	/* cuts the throwaway standby off its primary's WAL (--failover-lag-ms),
						 * 0 or -1 with err; NULL without a throwaway standby */
	void *standby_ctx;			/* what standby_ready and standby_cut are given */
	bool trust_scenario;			/* --trust-scenario: the scenario's SQL may do what the user may */
	bool (*server_gone)(void *ctx);		/* whether the throwaway server is gone (its postmaster
						 * died); NULL on a server of the user's, which cannot be told */
	void *server_ctx;			/* what server_gone and set_autovacuum are given */
	int (*set_autovacuum)(void *ctx, int mode, char *err,
			      size_t errlen);	/* sets the throwaway server's autovacuum for a run to mode (an enum
						 * autovacuum_mode) and returns once it is in force, 0 or -1 with err;
						 * NULL on a server of the user's, which keeps its own */
};

/*
 * Whether a run of plan leaves its tables where they are: it was interrupted, and its
 * server or SQLite file is the harness's throwaway (no --db), removed at exit with them.
 */
bool run_leaves_tables(const struct run_plan *plan);

/*
 * Writes into buf the label a run's messages on stderr begin with: its plugin's name (a
 * strategy or guard), mode (claim mode or workload), workers, repetition and, in a sweep,
 * cfg's sweep point: "skip-locked hold x4 #1 (tries=3)".
 */
void run_label(char *buf, size_t len, const struct run_config *cfg, const char *plugin, const char *mode,
	       int workers, int repeat);

/* Frees what a run allocated in r (its per-worker rows, series, samples, plans...). */
void run_result_free(struct run_result *r);

/*
 * The tables of a run, whichever its workload: their names (a prefix of the run's, then
 * what each is), and the harness's own statements on them (DDL, drops), expanded as the
 * run's names say. A table the run creates carries its owner's note from the transaction
 * that creates it (db/ownership.h): what claimbench did not create it never drops.
 */

/* Longest DDL statement of the harness's once its placeholders are filled. */
#define RUN_TABLES_SQL_MAX 4096

/* Writes into buf the prefix of the run's table names: configured (--table-prefix), or claimbench_<pid>_. */
void run_tables_prefix(const char *configured, char *buf, size_t len);

/*
 * Writes prefix + suffix into name and its quoted form on conn into quoted. 0, or -1 with
 * err ("cannot quote the table names of prefix ...").
 */
int run_table_name(const struct backend_ops *db, struct db_conn *conn, const char *prefix, const char *suffix,
		   char *name, size_t namelen, char *quoted, size_t quotedlen, char *err, size_t errlen);

/* Expands tmpl as names say and runs it on conn. 0, or -1 with err naming what. */
int run_tables_exec(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names,
		    const char *tmpl, const char *what, char *err, size_t errlen);

/*
 * Expands tmpl, which creates the table name with its note ({mark:...}), and runs it in
 * one transaction (owner_create_table). 0, or -1 with err naming what.
 */
int run_tables_create(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names,
		      const char *tmpl, const char *name, const char *what, char *err, size_t errlen);

#endif
