/*
 * An adapter's own table read after a run: each job's state as the manifest says to read
 * it (state_table, job_column, state_column and the state lists), and the run's tables
 * dropped, through the run's backend driver (db/backend.h).
 */
#ifndef CLAIMBENCH_ADAPTER_FINAL_STATE_H
#define CLAIMBENCH_ADAPTER_FINAL_STATE_H

#include <stddef.h>

#include "adapter/manifest.h"
#include "db/backend.h"
#include "model/result.h"

/* The job_status a state of m's table stands for by its lists (any state in none is JOB_NEW). */
int adapter_state_status(const struct adapter_manifest *m, const char *state);

/*
 * A connection to target through db, set up as opts says but for the run's lock and
 * statement timeouts, which are the workers' (the adapter's tables are read and dropped
 * without them, as a DROP may wait for a replica's session to go), or NULL with err.
 */
struct db_conn *adapter_connect(const struct backend_ops *db, const char *target, const struct db_options *opts,
			       char *err, size_t errlen);

/*
 * Fills final[0..n_jobs-1] from m's state table for queue on the server at target, connected
 * through db as opts says: a job with no row is JOB_MISSING, or JOB_DONE when m says
 * absent_state = done. 0, or -1 with err.
 */
int adapter_final_state(const struct backend_ops *db, const char *target, const struct db_options *opts,
			const struct adapter_manifest *m, const char *queue, struct job_state *final, long n_jobs,
			char *err, size_t errlen);

/*
 * Drops m's tables, then its schemas, for queue on conn (db's), those that exist, then runs
 * its cleanup SQL. 0, or -1 with err.
 */
int adapter_drop_on(const struct backend_ops *db, struct db_conn *conn, const struct adapter_manifest *m,
		    const char *queue, char *err, size_t errlen);

/*
 * Drops m's tables, then its schemas, for queue on the server at target (those that exist),
 * connected through db as opts says, then runs its cleanup SQL. 0, or -1 with err.
 */
int adapter_drop_tables(const struct backend_ops *db, const char *target, const struct db_options *opts,
			const struct adapter_manifest *m, const char *queue, char *err, size_t errlen);

#endif
