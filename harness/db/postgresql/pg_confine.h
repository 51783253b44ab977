/*
 * Confinement of a statement a scenario file wrote, on PostgreSQL: the server itself parses
 * the prepared statement once more, as the body of a throwaway SQL function (BEGIN ATOMIC,
 * PostgreSQL 14 and later: parse analysis only, nothing planned or run), and what it
 * resolved (the body's node tree and pg_depend, by oid) says what the statement is, which
 * tables it reads and writes and which functions, operators and types it uses, so that a
 * scenario's SQL reads and writes the run's table alone.
 */
#ifndef CLAIMBENCH_PG_CONFINE_H
#define CLAIMBENCH_PG_CONFINE_H

#include <stddef.h>

#include <libpq-fe.h>

/*
 * Checks the statement prepared as stmt on pg, outside a transaction, in a transaction
 * always rolled back that creates pg_temp.claimbench_probe with the statement as its body.
 * Confined is: only SELECT, INSERT, UPDATE or DELETE queries (WITH allowed; a utility
 * statement or MERGE is not); every table of them, and every relation a regclass constant
 * names (nextval('seq') anywhere, LIMIT included), is own_table (unquoted, found through
 * the search path); every function called, directly or as an operator's, is pg_catalog's
 * and either immutable or stable but not one that runs a query (query_to_xml,
 * table_to_xml ...), or volatile and on a short allow-list (random, clock_timestamp,
 * timeofday, gen_random_uuid, pg_sleep*, the transaction-level advisory locks); an operator
 * outside pg_catalog is judged by its function and estimators; a type is pg_catalog's or
 * own_table's row type; other objects (a text search configuration ...) are pg_catalog's.
 * 0 when it is; 1 when not (or when the server cannot take it as a function's body, or is
 * older than 14), with what it does in why; -1 with the server's message in err.
 */
int pg_confine_check(PGconn *pg, const char *stmt, const char *own_table, char *why, size_t whylen, char *err,
		     size_t errlen);

#endif
