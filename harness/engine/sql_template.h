/*
 * SQL templates: the statements of the harness and of the strategies, written once per
 * dialect (or once for both), with placeholders for what only the run knows.
 */
#ifndef CLAIMBENCH_SQL_TEMPLATE_H
#define CLAIMBENCH_SQL_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"
#include "db/ownership.h"

/* What a template's placeholders stand for in one run. */
struct sql_names {
	const char *jobs;		/* {jobs}: the queue table's quoted name */
	const char *tickets;		/* {tickets}: the ticket control table's quoted name */
	const char *cache;		/* {cache}: a guarded run's cache, quoted; NULL in a queue run */
	const char *control;		/* {control}: a guarded run's control table, quoted; NULL in a queue run */
	const char *audit;		/* {audit}: --verify's audit table, quoted; NULL without --verify */
	const char *writer;		/* {writer}: a long-writer phase's table, quoted; NULL without one */
	const struct owner *owner;	/* {mark:TABLE}: the process whose note marks each table it makes */
	const struct backend_sql *sql;	/* the backend's SQL: {now}, {mark:TABLE} and the leases in its dialect */
	const char *claimable;		/* {claimable}: the condition on a row that a claim may take; NULL: new rows */
	const char *unfinished;		/* {unfinished}: the condition on a row still to be done; NULL: new rows */
	const char *lease_until;	/* {lease_until}: when a claim made now runs out; NULL: never (SQL NULL) */
	const char *wait_limit_s;	/* {wait_limit_s}: a guarded run's wait limit in whole seconds; NULL elsewhere */
};

/* Room for the recovery texts of sql_names, in the dialect's SQL. */
struct sql_recovery_text {
	char claimable[160];	/* see sql_names.claimable */
	char unfinished[64];	/* see sql_names.unfinished */
	char lease_until[96];	/* see sql_names.lease_until */
};

/*
 * Writes into text, and points names' claimable, unfinished and lease_until at, what
 * leases of lease_ms (0: none) make of them in names' sql: with a lease, active jobs
 * are not finished, and one whose lease ran out is claimable again, unless a reaper
 * (reaped true) alone gives such jobs back.
 */
void sql_names_lease(struct sql_names *names, struct sql_recovery_text *text, int lease_ms, bool reaped);

/*
 * Writes tmpl into buf with {jobs}, {tickets}, {cache}, {control} and {audit} replaced by the quoted
 * table names, {jobs:SUFFIX} (and so on) by the name with "_SUFFIX" appended inside the quotes
 * (for dialects, such as SQLite, where an index must be named), {channel} by the queue
 * table's name as a string literal (the run's notification channel: the one LISTEN {jobs}
 * listens on), {mark:jobs} (and so on) by what marks that table alone as the owner's
 * (db/ownership.h: its note names it, and on PostgreSQL its oid), as the backend's mark
 * writes it (db/backend_sql.h: on SQLite a comment in the CREATE TABLE after the name, on
 * MariaDB a table option after its columns, on PostgreSQL a COMMENT ON TABLE to run after
 * the CREATE in its transaction); {now} by the backend's current time, and {claimable},
 * {unfinished}, {lease_until} and
 * {wait_limit_s} as names says. 0, or -1 when it does not fit, a suffixed name's quoted form
 * does not end in '"', the name of {channel} holds a quote, the name of {mark:...} holds anything but
 * letters, digits, '_', '.' and '-' (or names has no owner), or tmpl names a table names
 * has none of, or a {wait_limit_s} names has none of, or a {now} or {mark:...} where names
 * has no sql.
 */
int sql_expand(const char *tmpl, const struct sql_names *names, char *buf, size_t len);

#endif
