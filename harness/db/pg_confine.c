#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/pg_confine.h"

/* Longest EXPLAIN ... EXECUTE stmt(NULL, ...) command. */
#define EXPLAIN_MAX 512

/*
 * What the statement does beyond the confinement, from its plan ($1, EXPLAIN's JSON) and the
 * run's table ($2, unquoted): a row per finding, the first in the order below reported. Every expression of
 * the plan is deparsed by the server, a function, operator or type it cannot find by name
 * written with its schema; each of the catalogs' objects outside pg_catalog is looked for
 * in that text, a function as "name(", a type after "::", an operator on pg_catalog's types
 * as itself (an operator on other types needs a value of such a type, found as one).
 */
static const char judge_sql[] =
	"WITH plan AS (SELECT $1::jsonb AS j),"
	" own AS (SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
	"         WHERE c.oid = to_regclass(quote_ident($2))),"
	" nodes AS (SELECT v FROM plan, jsonb_path_query(plan.j, 'strict $.**') v WHERE jsonb_typeof(v) = 'object'),"
	" said AS (SELECT coalesce(string_agg(v #>> '{}', E'\\n'), '') AS t"
	"          FROM plan, jsonb_path_query(plan.j, 'strict $.**') v WHERE jsonb_typeof(v) = 'string'),"
	" other AS (SELECT oid, nspname FROM pg_namespace WHERE nspname <> 'pg_catalog')"
	" SELECT what FROM ("
	" SELECT 1 AS rank, 'is not a SELECT, INSERT, UPDATE or DELETE (a utility statement)' AS what FROM plan"
	"  WHERE NOT jsonb_path_exists(plan.j, 'lax $[0].Plan')"
	" UNION ALL SELECT 2, 'is a ' || upper(v->>'Operation') || ', not a SELECT, INSERT, UPDATE or DELETE' FROM nodes"
	"  WHERE v->>'Operation' NOT IN ('Insert', 'Update', 'Delete')"
	" UNION ALL SELECT 3, CASE v->>'Operation' WHEN 'Insert' THEN 'inserts into' WHEN 'Update' THEN 'updates'"
	"  WHEN 'Delete' THEN 'deletes from' ELSE 'reads' END || ' table ' || quote_ident(v->>'Schema') || '.'"
	"  || quote_ident(v->>'Relation Name') FROM nodes"
	"  WHERE v ? 'Relation Name' AND NOT EXISTS (SELECT FROM own WHERE own.nspname = v->>'Schema'"
	"                                            AND own.relname = v->>'Relation Name')"
	" UNION ALL SELECT 4, 'calls ' || p.oid::regprocedure::text || ', a function outside pg_catalog'"
	"  FROM pg_proc p JOIN other n ON n.oid = p.pronamespace, said"
	"  WHERE strpos(said.t, p.proname || '(') > 0 OR strpos(said.t, quote_ident(p.proname) || '(') > 0"
	" UNION ALL SELECT 5, 'uses type ' || quote_ident(n.nspname) || '.' || quote_ident(t.typname) || ', outside pg_catalog'"
	"  FROM pg_type t JOIN other n ON n.oid = t.typnamespace, said"
	"  WHERE t.typtype <> 'c' AND (strpos(said.t, '::' || quote_ident(t.typname)) > 0"
	"        OR strpos(said.t, '::' || quote_ident(n.nspname) || '.' || quote_ident(t.typname)) > 0)"
	" UNION ALL SELECT 6, 'uses operator ' || o.oid::regoperator::text || ', outside pg_catalog'"
	"  FROM pg_operator o JOIN other n ON n.oid = o.oprnamespace, said"
	"  WHERE strpos(said.t, o.oprname) > 0"
	"    AND NOT EXISTS (SELECT FROM pg_type t JOIN other tn ON tn.oid = t.typnamespace"
	"                    WHERE t.oid IN (o.oprleft, o.oprright))"
	" UNION ALL SELECT 7, 'calls ' || m[1] || '(), which reaches beyond the run''s rows' FROM said,"
	"  regexp_match(said.t, '\\m(query_to_xml\\w*|table_to_xml\\w*|schema_to_xml\\w*|database_to_xml\\w*|"
	"cursor_to_xml\\w*|ts_stat|nextval|setval|set_config|pg_terminate_backend|pg_cancel_backend|pg_reload_conf|"
	"pg_rotate_logfile|pg_switch_wal|pg_promote|pg_create_restore_point|pg_read_file|pg_read_binary_file|pg_ls_\\w+|"
	"pg_stat_file|pg_stat_reset\\w*|lo_\\w+|lowrite|loread|pg_\\w*replication_slot\\w*|pg_replication_origin_\\w+|"
	"pg_logical_\\w+|pg_import_system_collations|pg_log_backend_memory_contexts)\\(') m WHERE m IS NOT NULL"
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
 * Explains stmt with NULL parameters and a generic plan (whose relations do not depend on
 * the values), in a read-only transaction rolled back. The plan's JSON (free it), or NULL
 * with err.
 */
static char *explain(PGconn *pg, const char *stmt, int nparams, char *err, size_t errlen)
{
	char sql[EXPLAIN_MAX];
	size_t used = (size_t)snprintf(sql, sizeof(sql), "EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE %s", stmt);
	PGresult *res = NULL;
	char *plan = NULL;

	for (int i = 0; i < nparams && used < sizeof(sql); i++)
		used += (size_t)snprintf(sql + used, sizeof(sql) - used, "%sNULL", i ? ", " : "(");
	if (nparams && used < sizeof(sql))
		used += (size_t)snprintf(sql + used, sizeof(sql) - used, ")");
	if (used >= sizeof(sql)) {
		snprintf(err, errlen, "too many parameters to explain");
		return NULL;
	}
	if (run(pg, "BEGIN READ ONLY", err, errlen) < 0)
		return NULL;
	if (run(pg, "SET LOCAL plan_cache_mode = force_generic_plan", err, errlen) < 0)
		goto out;
	res = PQexec(pg, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		snprintf(err, errlen, "%s", PQresultErrorMessage(res));
		goto out;
	}
	plan = strdup(PQgetvalue(res, 0, 0));
	if (!plan)
		snprintf(err, errlen, "out of memory");
out:
	PQclear(res);
	if (run(pg, "ROLLBACK", sql, sizeof(sql)) < 0 && plan) {
		snprintf(err, errlen, "%s", sql);
		free(plan);
		plan = NULL;
	}
	return plan;
}

int pg_confine_check(PGconn *pg, const char *stmt, int nparams, const char *own_table, char *why, size_t whylen,
		     char *err, size_t errlen)
{
	char *plan = explain(pg, stmt, nparams, err, errlen);
	const char *params[2] = { plan, own_table };
	PGresult *res;
	int rc = -1;

	if (!plan)
		return -1;
	res = PQexecParams(pg, judge_sql, 2, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		snprintf(err, errlen, "%s", PQresultErrorMessage(res));
		goto out;
	}
	rc = PQntuples(res) > 0;
	if (rc)
		snprintf(why, whylen, "%s", PQgetvalue(res, 0, 0));
out:
	PQclear(res);
	free(plan);
	return rc;
}
