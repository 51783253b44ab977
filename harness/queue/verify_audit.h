/*
 * --verify's record on the server: an audit table of the run's own, named and marked like
 * its other tables, and row triggers on the run's tables that write every insert, update
 * and delete into it inside the writing transaction, so that it holds exactly what
 * committed. Created after the jobs are loaded, read after the run, dropped with the tables.
 */
#ifndef CLAIMBENCH_VERIFY_AUDIT_H
#define CLAIMBENCH_VERIFY_AUDIT_H

#include <stddef.h>

#include "measure/verify.h"
#include "queue/run_shared.h"

/*
 * Creates the audit table of s (refusing, creating nothing, when a table of its name
 * exists), on PostgreSQL its trigger function, and the triggers on the queue table and,
 * when the run created one, the strategy's table; notes in s that it created them, and
 * names conn's session as the harness's. Every other connection that writes to the run's
 * tables names its session (db->name_session) before it does. 0, or -1 with err.
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


#endif
