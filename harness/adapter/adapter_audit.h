/*
 * --verify on an adapter's run: the server's own record of every committed change to the
 * rows of the adapter's state table (its manifest's state_table), written by a row trigger
 * of claimbench's into an audit table of the run's own, read back after the run as each
 * change's job and states. PostgreSQL's, as contract version 1 is (docs/adapters.md).
 */
#ifndef CLAIMBENCH_ADAPTER_AUDIT_H
#define CLAIMBENCH_ADAPTER_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter/manifest.h"
#include "db/backend.h"

/* One committed change to a row of the state table, as the trigger recorded it. */
struct adapter_event {
	int64_t seq;		/* its place in the record: a sequence taken as the change was made */
	int64_t job;		/* the job, the manifest's job_column of the row */
	int32_t op;		/* an enum audit_op (measure/verify.h) */
	int32_t old_status;	/* the row's state before, an enum job_status by the manifest's lists (JOB_MISSING:
				 * no row before, an insert's) */
	int32_t new_status;	/* after (no row after, a delete's: JOB_DONE under absent_state = done, else JOB_MISSING) */
};

/*
 * The record of one adapter run: its audit table and its trigger function. Each step connects
 * anew (a restart during the run cuts every session).
 */
struct adapter_audit {
	const struct backend_ops *db;	/* the run's backend */
	const char *target;		/* the server, as the run connects to it */
	const struct db_options *opts;	/* the run's connection settings */
	struct db_conn *conn;		/* the harness's session of the step under way; NULL between steps */
	bool installed;			/* adapter_audit_install was called: drop what it made */
	char name[112];			/* the audit table's and its function's name, unquoted: {queue}_audit */
	char quoted[200];		/* the same, quoted */
	char qualified[420];		/* the same in its schema, quoted: what the trigger function names, whatever
					 * search_path the library's sessions have */
	bool created;			/* this run made the audit table (and only then drops it) */
	bool function_made;		/* and its trigger function, whose trigger is on the state table */
};

/*
 * Makes au's record for m's run of queue on the server at target (connected through db as
 * opts says): the audit table {queue}_audit with claimbench's owner note, a trigger function
 * of its name, and its row trigger AFTER INSERT OR UPDATE OR DELETE on the state table,
 * which the adapter has made by then. Refuses a state table that is not a table whose rows
 * change (a view). 0, or -1 with err (what was made is still au's to drop).
 */
int adapter_audit_install(struct adapter_audit *au, const struct backend_ops *db, const char *target,
			  const struct db_options *opts, const struct adapter_manifest *m, const char *queue, char *err,
			  size_t errlen);

/*
 * Reads au's record, in its order, into *events (n of them, malloc'ed; the caller frees),
 * the states read by m's lists. 0, or -1 with err.
 */
int adapter_audit_read(struct adapter_audit *au, const struct adapter_manifest *m, struct adapter_event **events,
		       size_t *n, char *err, size_t errlen);

/* Drops what au made (the function with its trigger, then the table). 0, or -1 with err. */
int adapter_audit_drop(struct adapter_audit *au, char *err, size_t errlen);

#endif
