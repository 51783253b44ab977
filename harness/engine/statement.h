/*
 * Preparing a template statement on a connection of the run: its placeholders filled as
 * the run's names say (sql_expand), then prepared in its slot, with a message that names
 * the statement when either fails. The queue's workers and the guarded workers both
 * prepare theirs this way.
 */
#ifndef CLAIMBENCH_STATEMENT_H
#define CLAIMBENCH_STATEMENT_H

#include <stddef.h>

#include "db/backend.h"
#include "engine/sql_template.h"

/* Longest statement once its placeholders are filled. */
#define STATEMENT_SQL_MAX 2048

/*
 * Expands tmpl as names say and prepares it with nparams parameters in slot on conn.
 * origin (NULL: none) names the statement in the message (where a scenario file wrote
 * it, or what it is). 0, or -1 with err: "statement SLOT is too long", or the server's
 * message after origin or "preparing statement SLOT".
 */
int statement_prepare(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names, int slot,
		      const char *tmpl, int nparams, const char *origin, char *err, size_t errlen);

#endif
