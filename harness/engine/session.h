/*
 * A connection of a run's own (a worker's, a producer's, the harness's): made to the
 * run's target and watched by the signal thread, so that a stop cancels the statement it
 * is blocked in; the errors met on it counted by kind; its statements prepared from their
 * templates; and closed, unwatched first.
 */
#ifndef CLAIMBENCH_SESSION_H
#define CLAIMBENCH_SESSION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/backend.h"
#include "engine/sql_template.h"
#include "model/error_kind.h"

/*
 * Connects *conn to target with opts and has a signal cancel its statements until
 * *stopped (NULL: after the first signal only; see signals_watch). 0, or -1 with err
 * (the driver's message, or out of memory) and nothing left open.
 */
int session_open(const struct backend_ops *db, const char *target, const struct db_options *opts,
		 const atomic_bool *stopped, struct db_conn **conn, char *err, size_t errlen);

/*
 * Closes *conn, if open, and sets it NULL: abruptly (abandon: no goodbye, as a killed
 * process's connection ends) or not.
 */
void session_close(const struct backend_ops *db, struct db_conn **conn, bool abandon);

/*
 * Counts the error just met on conn in counts, by its kind (the driver's error_kind), and
 * returns that kind. Nothing else: what more a thread notes of an error is its own.
 */
enum error_kind session_count_error(const struct backend_ops *db, struct db_conn *conn,
				    uint64_t counts[ERR_KIND_COUNT]);

/*
 * Preparing a template statement on a connection of the run: its placeholders filled as
 * the run's names say (sql_expand), then prepared in its slot, with a message that names
 * the statement when either fails. The queue's workers and the guarded workers both
 * prepare theirs this way.
 */

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
