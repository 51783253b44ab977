/*
 * The database the runs of one invocation share, as `claimbench run` and `claimbench ab`
 * open it: the user's (--db), what a run changes in it noted before and put back after
 * where its driver notes that (SQLite's file), or else the backend's throwaway server, its
 * standby and its pgbouncer, all guarded by the throwaway's watchdog.
 */
#ifndef CLAIMBENCH_RUN_DATABASE_H
#define CLAIMBENCH_RUN_DATABASE_H

#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"
#include "db/throwaway.h"
#include "engine/run_plan.h"

/* One invocation's database, from run_database_prepare to run_database_close. */
struct run_database {
	const struct backend_ops *db;	/* the backend the runs talk to */
	const char *target;		/* the user's database (--db's target), or NULL: the throwaway */
	struct throwaway throwaway;	/* the throwaway server and the pooler, when the runs need them */
	bool throwaway_ready;		/* throwaway's watchdog runs: run_database_close closes it */
	void *user_note;		/* what a run changes in the user's database, as its driver noted it */
	bool user_noted;		/* user_note was taken: run_database_close puts it back */
};

/*
 * Readies d for runs on db at target (NULL: a throwaway server), starting the throwaway's
 * watchdog when there is no target or with_pooler (a pgbouncer of the harness's own, which
 * the watchdog guards). Call it while the process has one thread. 0, or -1 with err.
 */
int run_database_prepare(struct run_database *d, const struct backend_ops *db, const char *target, bool with_pooler,
			 char *err, size_t errlen);

/*
 * Opens d's database and points plan at it (plan->db is d's backend): the user's, noted
 * first when its driver notes what a run changes; or the throwaway server, made for
 * connections sessions at once, said on stderr (defaulted: no --db chose its backend), with
 * a streaming standby when with_standby, and plan's restart, server_gone, set_autovacuum
 * (and with the standby failover, standby_ready and standby_cut) set to the throwaway's.
 * 0, or -1 with err, which says in the driver's words why the server could not be made and
 * gives the driver's hint on a line of its own.
 */
int run_database_open(struct run_database *d, struct run_plan *plan, int connections, bool with_standby,
		      bool defaulted, char *err, size_t errlen);

/* Puts back what d noted of the user's database (saying on stderr when it cannot) and closes d's throwaway. */
void run_database_close(struct run_database *d);

#endif
