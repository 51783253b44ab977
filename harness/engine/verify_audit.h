/*
 * --verify's record on the server: an audit table of the run's own, named and marked like
 * its other tables, and row triggers on the run's tables that write every insert, update
 * and delete into it inside the writing transaction, so that it holds exactly what
 * committed. Created after the jobs are loaded, read after the run, dropped with the tables.
 */
#ifndef CLAIMBENCH_VERIFY_AUDIT_H
#define CLAIMBENCH_VERIFY_AUDIT_H

#include <stddef.h>

#include "engine/run_shared.h"
#include "measure/verify.h"

/*
 * Creates the audit table of s (refusing, creating nothing, when a table of its name
 * exists), its trigger function and the triggers on the queue table and, when the run
 * created one, the strategy's table; notes in s that it created them. PostgreSQL only.
 * 0, or -1 with err.
 */
int verify_audit_install(struct db_conn *conn, struct run_shared *s, char *err, size_t errlen);

/*
 * Reads the record of s in its order into a new array *events (free it) of *n entries.
 * 0, or -1 with err.
 */
int verify_audit_read(struct db_conn *conn, const struct run_shared *s, struct audit_event **events, size_t *n,
		      char *err, size_t errlen);

/* Drops the trigger function (and with it the triggers) and the audit table, if s created them. 0, or -1 with err. */
int verify_audit_drop(struct db_conn *conn, struct run_shared *s, char *err, size_t errlen);

/*
 * The statement that names a worker's session as identity's in what its triggers record
 * (a custom setting the trigger reads), written into buf. 0, or -1 when it does not fit.
 */
int verify_audit_identity_sql(int identity, char *buf, size_t len);

#endif
