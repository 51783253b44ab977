/* The kinds of database error a run counts (docs/metrics.md lists them with their codes). */
#ifndef CLAIMBENCH_ERROR_KIND_H
#define CLAIMBENCH_ERROR_KIND_H

#include <stdbool.h>

enum error_kind {
	ERR_LOCK_NOT_AVAILABLE,	/* PostgreSQL 55P03, e.g. FOR UPDATE NOWAIT on a locked row; MariaDB's NOWAIT */
	ERR_DEADLOCK,		/* PostgreSQL 40P01, MariaDB 1213 */
	ERR_SERIALIZATION,	/* PostgreSQL 40001 */
	ERR_SQLITE_BUSY,	/* SQLITE_BUSY: the database file is locked */
	ERR_SQLITE_BUSY_SNAPSHOT, /* SQLITE_BUSY_SNAPSHOT: a WAL read snapshot went stale */
	ERR_CONNECTION_LOST,	/* the connection to the server broke */
	ERR_STATEMENT_TIMEOUT,	/* PostgreSQL 57014 by the server's statement_timeout, not a cancel; MariaDB 1969 */
	ERR_LOCK_WAIT_TIMEOUT,	/* MariaDB 1205: a wait for a row lock outlasted innodb_lock_wait_timeout */
	ERR_OTHER,		/* anything else */
	ERR_KIND_COUNT
};

/* The stable snake_case name of kind, as it appears in JSON and CSV output. */
const char *error_kind_name(enum error_kind kind);

/* True for the kinds that mean another transaction got there first: worth a retry after a pause. */
bool error_kind_is_contention(enum error_kind kind);

#endif
