/*
 * Confinement of a statement a scenario file wrote, on SQLite: an authorizer set while it
 * is prepared, which SQLite calls for every table read or written and every kind of
 * statement, so that a scenario's SQL reads and writes the run's table alone.
 */
#ifndef CLAIMBENCH_SQLITE_CONFINE_H
#define CLAIMBENCH_SQLITE_CONFINE_H

#include <stdbool.h>

/* What the authorizer allows, and the first thing it refused. */
struct sqlite_confinement {
	const char *own_table;	/* the one table, unquoted, the statement may read and write */
	char refused[256];	/* what it refused: the first kind of statement, else the first table ("reads table audit_log"); "" when nothing */
	bool kind_refused;	/* refused holds a kind of statement ("drops a table"), which a table's refusal does not replace */
};

/*
 * A sqlite3_set_authorizer callback (ctx a struct sqlite_confinement): allows a SELECT,
 * INSERT, UPDATE or DELETE (WITH and WITH RECURSIVE too) of own_table in the main
 * database, and SQLite's functions but load_extension (claimbench registers none of its
 * own); denies anything else, noting it in refused. A write to the
 * schema table is noted but let through, so that the DDL behind it is named: a statement
 * is confined only when refused is empty after it was prepared.
 */
int sqlite_confine_authorize(void *ctx, int action, const char *arg1, const char *arg2, const char *database,
			     const char *trigger);

#endif
