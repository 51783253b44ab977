/*
 * The statements the harness sends a throwaway PostgreSQL of its own to set it up, each on
 * a connection of its own (standby.h, autovacuum.h): one statement or number, and a wait
 * until a number is what was wanted.
 */
#ifndef CLAIMBENCH_POSTGRESQL_SERVER_SQL_H
#define CLAIMBENCH_POSTGRESQL_SERVER_SQL_H

#include <stddef.h>

/*
 * Runs the statement sql on the server at conninfo, or, with out, the query sql whose
 * first row's first column is a number, into *out (0 when it has no row). 0, or -1 with err.
 */
int pg_server_sql(const char *conninfo, const char *sql, long *out, char *err, size_t errlen);

/*
 * Polls the number query sql on conninfo, a new connection each time, until it is want,
 * for limit_ms. 0, or -1 with err saying what did not happen ("<what> within N s").
 */
int pg_server_wait(const char *conninfo, const char *sql, long want, int limit_ms, const char *what, char *err,
		   size_t errlen);

#endif
