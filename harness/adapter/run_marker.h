/*
 * An adapter run's marker: a table of claimbench's own, {queue}_adapter, with its owner
 * note and one row naming the adapter, made before replica 0 starts and dropped once the
 * library's tables, schemas and cleanup are gone. What the library makes for a run carries
 * no note of claimbench's; the marker is how `claimbench cleanup --db` knows, after a
 * claimbench was killed, which run's queue the library's objects are named after and whose
 * manifest says how to drop them.
 */
#ifndef CLAIMBENCH_ADAPTER_RUN_MARKER_H
#define CLAIMBENCH_ADAPTER_RUN_MARKER_H

#include <stdbool.h>
#include <stddef.h>

#include "adapter/manifest.h"
#include "db/backend.h"

/* What a marker's name adds to its run's queue name. */
#define ADAPTER_MARKER_SUFFIX "_adapter"

/*
 * Creates the table name (unquoted; quoted its quoted form) on conn with columns (SQL, "(...)")
 * and then rows (SQL after the CREATE, "" none), marked with this process's owner note, in one
 * transaction, refusing a table of that name that exists. 0 when the run made it, or -1 with
 * err beginning with what.
 */
int adapter_create_noted_table(const struct backend_ops *db, struct db_conn *conn, const char *name,
			       const char *quoted, const char *columns, const char *rows, const char *what, char *err,
			       size_t errlen);

/*
 * Makes the marker of m's run of queue on the server at target (connected through db as
 * opts says). 0, or -1 with err (no marker made).
 */
int adapter_marker_create(const struct backend_ops *db, const char *target, const struct db_options *opts,
			  const struct adapter_manifest *m, const char *queue, char *err, size_t errlen);

/* Drops the marker of queue's run on the server at target. 0, or -1 with err. */
int adapter_marker_drop(const struct backend_ops *db, const char *target, const struct db_options *opts,
			const char *queue, char *err, size_t errlen);

/* What --verify's audit table's name adds to its run's queue name (adapter/adapter_audit.h). */
#define ADAPTER_AUDIT_SUFFIX "_audit"

/*
 * Whether queue is a name a run gives its queue (adapter_run.c's name_queue: its tables' prefix,
 * then 'a' and a number): letters, digits, '_', '-' and '.' only (as --table-prefix allows;
 * safe inside the quotes of the manifest's SQL), ending in 'a' and a number.
 */
bool adapter_queue_name_ok(const char *queue);

/* Whether table (unquoted) is named as a run's marker; its queue name, then, into queue (of len). */
bool adapter_marker_queue(const char *table, char *queue, size_t len);

/*
 * Reads the adapter the marker table (unquoted) names, on conn, into name (of len). 0, or -1
 * with err (no row, or a name that is no adapter's folder name).
 */
int adapter_marker_read(const struct backend_ops *db, struct db_conn *conn, const char *table, char *name,
			size_t len, char *err, size_t errlen);

#endif
