/*
 * Confinement of a statement a scenario file wrote, on PostgreSQL: the server's own
 * account of the prepared statement (its plan, EXPLAIN VERBOSE in a read-only transaction
 * rolled back, and its catalogs) says what it is, which tables it reads and writes and
 * which functions it calls, so that a scenario's SQL reads and writes the run's table alone.
 */
#ifndef CLAIMBENCH_PG_CONFINE_H
#define CLAIMBENCH_PG_CONFINE_H

#include <stddef.h>

#include <libpq-fe.h>

/*
 * Checks the statement prepared as stmt (nparams parameters) on pg, outside a
 * transaction: one SELECT, INSERT, UPDATE or DELETE, WITH allowed, whose plan reads and
 * writes own_table (unquoted, found through the search path) alone, and names no function,
 * operator or type outside pg_catalog, nor a function of pg_catalog that reaches beyond the
 * transaction's rows (runs SQL given as text, moves a sequence, signals a backend, sets a
 * setting ...). 0 when it is; 1 when not, with what it does in why; -1 with the server's
 * message in err.
 */
int pg_confine_check(PGconn *pg, const char *stmt, int nparams, const char *own_table, char *why, size_t whylen,
		     char *err, size_t errlen);

#endif
