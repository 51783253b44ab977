#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/postgresql/pg_confine.h"

/* The first PostgreSQL whose SQL functions take a body the server parses at creation (BEGIN ATOMIC). */
#define PG_ATOMIC_BODY_VERSION 140000

/* The statement's text and its parameters' types as a function's argument list, from the server ($1: the name). */
static const char statement_sql[] =
	"SELECT s.statement, coalesce((SELECT string_agg(t::text, ', ' ORDER BY i)"
	" FROM unnest(s.parameter_types) WITH ORDINALITY AS a(t, i)), '')"
	" FROM pg_prepared_statements s WHERE s.name = $1";

/*
 * What the probe function's body does beyond the confinement ($1: the run's table, unquoted): a
 * row per finding, the first in the order below reported. The server parsed the statement
 * into the body (prosqlbody, its node tree, where every object is named by its oid, and LIMIT,
 * RETURNING and WITH are there as much as the rest); the kinds of its queries, the tables of
 * its range tables (:relid, with the rights they need), its functions (:funcid, :aggfnoid ...)
 * and operators (:opno ...) are read from it, and pg_depend adds every object the body names
 * that initdb did not make (a sequence or table reached through a regclass constant, a type, a
 * text search configuration ...). A function is allowed when it is pg_catalog's and immutable
 * or stable (but those that run a query), or volatile and on the allow-list; an operator when
 * its function is (and, outside pg_catalog, its estimators); a type when it is pg_catalog's
 * or the run's table's row type; a collation always; anything else when in pg_catalog.
 */
static const char judge_sql[] =
	"WITH fn AS (SELECT p.oid, p.prosqlbody::text AS body FROM pg_proc p"
	"            WHERE p.pronamespace = pg_my_temp_schema() AND p.proname = 'claimbench_probe'),"
	" own AS (SELECT to_regclass(quote_ident($1)) AS oid),"
	" kinds AS (SELECT m[1]::int AS kind FROM fn, regexp_matches(fn.body, '\\{QUERY :commandType (\\d+)', 'g') m),"
	" rels AS (SELECT m[1]::oid AS rel, coalesce(m[2]::int, 0) AS perms"
	"          FROM fn, regexp_matches(fn.body, ' :relid (\\d+)(?: [^{}]* :requiredPerms (\\d+))?', 'g') m),"
	" deps AS (SELECT d.refclassid AS cls, d.refobjid AS obj FROM pg_depend d, fn"
	"          WHERE d.classid = 'pg_proc'::regclass AND d.objid = fn.oid"
	"            AND d.refclassid NOT IN ('pg_namespace'::regclass, 'pg_language'::regclass)),"
	" oprs AS (SELECT m[2]::oid AS opr FROM fn, regexp_matches(fn.body, ' :(opno|eqop|sortop) (\\d+)', 'g') m"
	"          UNION SELECT unnest(string_to_array(m[1], ' '))::oid"
	"                FROM fn, regexp_matches(fn.body, ' :opnos \\(o ([\\d ]*)\\)', 'g') m"
	"          UNION SELECT obj FROM deps WHERE cls = 'pg_operator'::regclass),"
	" procs AS (SELECT m[2]::oid AS proc, 0::oid AS opr FROM fn, regexp_matches(fn.body,"
	"            ' :(funcid|aggfnoid|winfnoid|tsmhandler|opfuncid|hashfuncid|negfuncid|startInRangeFunc|endInRangeFunc)"
	" (\\d+)', 'g') m"
	"           UNION SELECT obj, 0 FROM deps WHERE cls = 'pg_proc'::regclass"
	"           UNION SELECT o.oprcode::oid, o.oid FROM oprs JOIN pg_operator o ON o.oid = oprs.opr"
	"           UNION SELECT f::oid, o.oid FROM oprs JOIN pg_operator o ON o.oid = oprs.opr,"
	"                 unnest(ARRAY[o.oprrest, o.oprjoin]) f WHERE o.oprnamespace <> 'pg_catalog'::regnamespace),"
	" relname AS (SELECT c.oid, CASE c.relkind WHEN 'S' THEN 'sequence ' WHEN 'v' THEN 'view '"
	"             WHEN 'm' THEN 'materialized view ' WHEN 'f' THEN 'foreign table ' ELSE 'table ' END"
	"             || quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name"
	"             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace)"
	" SELECT what FROM ("
	" SELECT 1 AS rank, CASE kind WHEN 5 THEN 'is a MERGE, not a SELECT, INSERT, UPDATE or DELETE'"
	"  ELSE 'is not a SELECT, INSERT, UPDATE or DELETE' END AS what FROM kinds WHERE kind NOT IN (1, 2, 3, 4)"
	" UNION ALL SELECT 2, CASE WHEN perms & 8 <> 0 THEN 'deletes from ' WHEN perms & 4 <> 0 THEN 'updates '"
	"  WHEN perms & 1 <> 0 THEN 'inserts into ' ELSE 'reads ' END || relname.name"
	"  FROM rels JOIN relname ON relname.oid = rels.rel, own WHERE rels.rel IS DISTINCT FROM own.oid"
	" UNION ALL SELECT 3, CASE WHEN procs.opr = 0 AND p.pronamespace <> 'pg_catalog'::regnamespace"
	"  THEN 'calls ' || p.oid::regprocedure::text || ', a function outside pg_catalog'"
	"  WHEN procs.opr = 0 THEN 'calls ' || p.proname || '(), which reaches beyond the run''s rows'"
	"  ELSE 'uses operator ' || procs.opr::regoperator::text || ', whose function ' || p.oid::regprocedure::text"
	"       || CASE WHEN p.pronamespace <> 'pg_catalog'::regnamespace THEN ' is outside pg_catalog'"
	"          ELSE ' reaches beyond the run''s rows' END"
	"  END FROM procs JOIN pg_proc p ON p.oid = procs.proc"
	"  WHERE p.pronamespace <> 'pg_catalog'::regnamespace"
	"     OR p.proname ~ '^(query|cursor|table|schema|database)_to_xml'"
	"     OR (p.provolatile = 'v' AND p.proname NOT IN ('random', 'clock_timestamp', 'timeofday', 'gen_random_uuid',"
	"         'pg_sleep', 'pg_sleep_for', 'pg_sleep_until', 'pg_advisory_xact_lock', 'pg_advisory_xact_lock_shared',"
	"         'pg_try_advisory_xact_lock', 'pg_try_advisory_xact_lock_shared'))"
	" UNION ALL SELECT 4, 'uses ' || relname.name FROM deps JOIN relname ON relname.oid = deps.obj, own"
	"  WHERE deps.cls = 'pg_class'::regclass AND deps.obj IS DISTINCT FROM own.oid"
	" UNION ALL SELECT 4, 'uses type ' || t.oid::regtype::text || ', outside pg_catalog'"
	"  FROM deps JOIN pg_type t ON t.oid = deps.obj LEFT JOIN pg_type e ON e.oid = t.typelem, own"
	"  WHERE deps.cls = 'pg_type'::regclass AND t.typnamespace <> 'pg_catalog'::regnamespace"
	"    AND t.typrelid IS DISTINCT FROM own.oid AND e.typrelid IS DISTINCT FROM own.oid"
	" UNION ALL SELECT 4, 'uses ' || pg_describe_object(deps.cls, deps.obj, 0) || ', outside pg_catalog' FROM deps"
	"  WHERE deps.cls NOT IN ('pg_class'::regclass, 'pg_proc'::regclass, 'pg_operator'::regclass,"
	"                        'pg_type'::regclass, 'pg_collation'::regclass)"
	"    AND (pg_identify_object(deps.cls, deps.obj, 0)).schema IS DISTINCT FROM 'pg_catalog'"
	" ) found ORDER BY rank LIMIT 1";

/* Runs sql with no parameters, discarding its result. 0, or -1 with the server's message in err. */
static int run(PGconn *pg, const char *sql, char *err, size_t errlen)
{
	PGresult *res = PQexec(pg, sql);
	int rc = PQresultStatus(res) == PGRES_COMMAND_OK ? 0 : -1;

	if (rc < 0)
		snprintf(err, errlen, "%s", PQresultErrorMessage(res));
	PQclear(res);
	return rc;
}

/*
 * The CREATE FUNCTION of the probe: a function of pg_temp taking the parameters of the
 * statement prepared as stmt and whose body (BEGIN ATOMIC) is that statement (free it).
 * NULL with err.
 */
static char *probe_sql(PGconn *pg, const char *stmt, char *err, size_t errlen)
{
	static const char head[] = "CREATE FUNCTION pg_temp.claimbench_probe(";
	static const char middle[] = ") RETURNS void LANGUAGE sql BEGIN ATOMIC\n";
	static const char tail[] = "\n; END";
	const char *params[1] = { stmt };
	PGresult *res = PQexecParams(pg, statement_sql, 1, NULL, params, NULL, NULL, 0);
	char *sql = NULL;
	size_t len;

	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		snprintf(err, errlen, "%s", PQresultStatus(res) == PGRES_TUPLES_OK ? "the prepared statement is gone" :
					    PQresultErrorMessage(res));
		goto out;
	}
	len = strlen(head) + strlen(PQgetvalue(res, 0, 1)) + strlen(middle) + strlen(PQgetvalue(res, 0, 0)) +
	      strlen(tail) + 1;
	sql = malloc(len);
	if (!sql) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	snprintf(sql, len, "%s%s%s%s%s", head, PQgetvalue(res, 0, 1), middle, PQgetvalue(res, 0, 0), tail);
out:
	PQclear(res);
	return sql;
}

/*
 * Creates the probe (probe_sql) in the open transaction, as one command of the extended
 * protocol (which takes no second command). 0; 1 when the server will not take the statement
 * as a function's body, with why; -1 with err.
 */
static int create_probe(PGconn *pg, const char *sql, char *why, size_t whylen, char *err, size_t errlen)
{
	PGresult *res = PQexecParams(pg, sql, 0, NULL, NULL, NULL, NULL, 0);
	const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *said = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	int rc = 0;

	if (PQresultStatus(res) == PGRES_COMMAND_OK)
		goto out;
	rc = 1;
	if (state && !strncmp(state, "0A", 2))
		snprintf(why, whylen, "is not a SELECT, INSERT, UPDATE or DELETE (a utility statement)");
	else if (state && !strncmp(state, "42", 2))
		snprintf(why, whylen, "cannot be checked (as a function's body, the server says: %s)", said ? said : "");
	else {
		snprintf(err, errlen, "%s", PQresultErrorMessage(res));
		rc = -1;
	}
out:
	PQclear(res);
	return rc;
}

/* Runs judge_sql on the probe of the open transaction. 0; 1 with why; -1 with err. */
static int judge(PGconn *pg, const char *own_table, char *why, size_t whylen, char *err, size_t errlen)
{
	const char *params[1] = { own_table };
	PGresult *res = PQexecParams(pg, judge_sql, 1, NULL, params, NULL, NULL, 0);
	int rc = -1;

	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		snprintf(err, errlen, "%s", PQresultErrorMessage(res));
		goto out;
	}
	rc = PQntuples(res) > 0;
	if (rc)
		snprintf(why, whylen, "%s", PQgetvalue(res, 0, 0));
out:
	PQclear(res);
	return rc;
}

int pg_confine_check(PGconn *pg, const char *stmt, const char *own_table, char *why, size_t whylen, char *err,
		     size_t errlen)
{
	char rollback_err[256];
	char *sql;
	int rc;

	if (PQserverVersion(pg) < PG_ATOMIC_BODY_VERSION) {
		snprintf(why, whylen, "cannot be checked on PostgreSQL %d (the check needs 14 or later)",
			 PQserverVersion(pg) / 10000);
		return 1;
	}
	sql = probe_sql(pg, stmt, err, errlen);
	if (!sql)
		return -1;
	rc = run(pg, "BEGIN", err, errlen);
	if (rc < 0)
		goto out;
	rc = create_probe(pg, sql, why, whylen, err, errlen);
	if (rc == 0)
		rc = judge(pg, own_table, why, whylen, err, errlen);
	if (run(pg, "ROLLBACK", rollback_err, sizeof(rollback_err)) < 0 && rc >= 0) {
		snprintf(err, errlen, "%s", rollback_err);
		rc = -1;
	}
out:
	free(sql);
	return rc;
}
