#include <stdio.h>

#include "db/ownership.h"
#include "engine/run_tables.h"
#include "guarded/guarded_tables.h"

/* The DDL of the cache, per dialect: CACHE_SLOTS rows as of period 0, version 0. */
static const char *const create_cache_sql[DIALECT_COUNT] = {
	[DIALECT_POSTGRESQL] =
		"CREATE TABLE {cache} (slot integer PRIMARY KEY, version bigint NOT NULL, period bigint NOT NULL);"
		"{mark:cache};"
		"INSERT INTO {cache} SELECT g, 0, 0 FROM generate_series(1, 16) AS g",
	[DIALECT_SQLITE] =
		"CREATE TABLE {cache} {mark:cache} (slot INTEGER PRIMARY KEY, version INTEGER NOT NULL,"
		" period INTEGER NOT NULL);"
		"WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 16)"
		" INSERT INTO {cache} SELECT g, 0, 0 FROM s",
	[DIALECT_MARIADB] =
		"CREATE TABLE {cache} (slot integer PRIMARY KEY, version bigint NOT NULL, period bigint NOT NULL)"
		" ENGINE = InnoDB {mark:cache};"
		"INSERT INTO {cache} WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 16)"
		" SELECT g, 0, 0 FROM s",
};

/* The DDL of the status row (refresh, exclusive-use), per dialect: period 0, never refreshed. */
static const char *const create_status_sql[DIALECT_COUNT] = {
	[DIALECT_POSTGRESQL] =
		"CREATE TABLE {control} (slot integer PRIMARY KEY, period bigint NOT NULL, refreshed_ns bigint NOT NULL);"
		"{mark:control};"
		"INSERT INTO {control} VALUES (0, 0, -1)",
	[DIALECT_SQLITE] =
		"CREATE TABLE {control} {mark:control} (slot INTEGER PRIMARY KEY, period INTEGER NOT NULL,"
		" refreshed_ns INTEGER NOT NULL);"
		"INSERT INTO {control} VALUES (0, 0, -1)",
	[DIALECT_MARIADB] =
		"CREATE TABLE {control} (slot integer PRIMARY KEY, period bigint NOT NULL, refreshed_ns bigint NOT NULL)"
		" ENGINE = InnoDB {mark:control};"
		"INSERT INTO {control} VALUES (0, 0, -1)",
};

/* The DDL of the ticket line (resource), per dialect: the ticket's identity orders the line. */
static const char *const create_line_sql[DIALECT_COUNT] = {
	[DIALECT_POSTGRESQL] =
		"CREATE TABLE {control} (ticket bigserial PRIMARY KEY, resource integer NOT NULL,"
		" worker integer NOT NULL, writes integer NOT NULL, taken_ns bigint NOT NULL);"
		"{mark:control};"
		"CREATE INDEX ON {control} (resource, ticket)",
	[DIALECT_SQLITE] =
		"CREATE TABLE {control} {mark:control} (ticket INTEGER PRIMARY KEY AUTOINCREMENT,"
		" resource INTEGER NOT NULL, worker INTEGER NOT NULL, writes INTEGER NOT NULL,"
		" taken_ns INTEGER NOT NULL);"
		"CREATE INDEX {control:line} ON {control} (resource, ticket)",
	[DIALECT_MARIADB] =
		"CREATE TABLE {control} (ticket bigint AUTO_INCREMENT PRIMARY KEY, resource integer NOT NULL,"
		" worker integer NOT NULL, writes integer NOT NULL, taken_ns bigint NOT NULL,"
		" INDEX line (resource, ticket)) ENGINE = InnoDB {mark:control}",
};

/* The harness's statements, by slot, as PostgreSQL and SQLite take them (and MariaDB, but for mariadb_statements). */
static const char *const statements[GSLOT_COUNT] = {
	[GSLOT_COMMIT] = "COMMIT",
	[GSLOT_ROLLBACK] = "ROLLBACK",
	[GSLOT_READ_STATUS] = "SELECT period, refreshed_ns FROM {control} WHERE slot = 0",
	[GSLOT_WRITE_HALF_1] = "UPDATE {cache} SET version = CAST($1 AS bigint), period = CAST($2 AS bigint)"
			       " WHERE slot <= 8",
	[GSLOT_WRITE_HALF_2] = "UPDATE {cache} SET version = CAST($1 AS bigint), period = CAST($2 AS bigint)"
			       " WHERE slot > 8",
	[GSLOT_MARK_STATUS] = "UPDATE {control} SET period = CAST($1 AS bigint), refreshed_ns = CAST($2 AS bigint)"
			      " WHERE slot = 0",
	[GSLOT_EMPTY_CACHE] = "DELETE FROM {cache}",
	[GSLOT_FILL_CACHE] = "WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 16)"
			     " INSERT INTO {cache} SELECT g, CAST($1 AS bigint), CAST($2 AS bigint) FROM s",
	[GSLOT_READ_CACHE] = "SELECT min(version), max(version), min(period), count(*) FROM {cache}",
	[GSLOT_TAKE_TICKET] = "INSERT INTO {control} (resource, worker, writes, taken_ns) VALUES (CAST($1 AS integer),"
			      " CAST($2 AS integer), CAST($3 AS integer), CAST($4 AS bigint)) RETURNING ticket",
	[GSLOT_POLL_LINE] = "SELECT count(*), coalesce(sum(writes), 0) FROM {control}"
			    " WHERE resource = CAST($1 AS integer) AND ticket < CAST($2 AS bigint)",
	[GSLOT_EXPIRE_TICKETS] = "DELETE FROM {control} WHERE taken_ns < CAST($1 AS bigint) RETURNING ticket",
	[GSLOT_DROP_TICKET] = "DELETE FROM {control} WHERE ticket = CAST($1 AS bigint) RETURNING ticket",
};

/*
 * MariaDB's own text of the statements whose shared text it does not take: it casts to
 * SIGNED (it has no CAST AS bigint) and puts a WITH after INSERT INTO. Its ROLLBACK also
 * releases the session's locks, which a guard's release would have (GET_LOCK's, LOCK
 * TABLES'), so that a worker that fails holding one does not keep the others waiting.
 */
static const char *const mariadb_statements[GSLOT_COUNT] = {
	[GSLOT_ROLLBACK] = "ROLLBACK; DO RELEASE_ALL_LOCKS(); UNLOCK TABLES",
	[GSLOT_WRITE_HALF_1] = "UPDATE {cache} SET version = CAST($1 AS SIGNED), period = CAST($2 AS SIGNED)"
			       " WHERE slot <= 8",
	[GSLOT_WRITE_HALF_2] = "UPDATE {cache} SET version = CAST($1 AS SIGNED), period = CAST($2 AS SIGNED)"
			       " WHERE slot > 8",
	[GSLOT_MARK_STATUS] = "UPDATE {control} SET period = CAST($1 AS SIGNED), refreshed_ns = CAST($2 AS SIGNED)"
			      " WHERE slot = 0",
	[GSLOT_FILL_CACHE] = "INSERT INTO {cache} WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s"
			     " WHERE g < 16) SELECT g, CAST($1 AS SIGNED), CAST($2 AS SIGNED) FROM s",
	[GSLOT_TAKE_TICKET] = "INSERT INTO {control} (resource, worker, writes, taken_ns) VALUES (CAST($1 AS SIGNED),"
			      " CAST($2 AS SIGNED), CAST($3 AS SIGNED), CAST($4 AS SIGNED)) RETURNING ticket",
	[GSLOT_POLL_LINE] = "SELECT count(*), coalesce(sum(writes), 0) FROM {control}"
			    " WHERE resource = CAST($1 AS SIGNED) AND ticket < CAST($2 AS SIGNED)",
	[GSLOT_EXPIRE_TICKETS] = "DELETE FROM {control} WHERE taken_ns < CAST($1 AS SIGNED) RETURNING ticket",
	[GSLOT_DROP_TICKET] = "DELETE FROM {control} WHERE ticket = CAST($1 AS SIGNED) RETURNING ticket",
};

static const int statement_params[GSLOT_COUNT] = {
	[GSLOT_WRITE_HALF_1] = 2, [GSLOT_WRITE_HALF_2] = 2, [GSLOT_MARK_STATUS] = 2, [GSLOT_FILL_CACHE] = 2,
	[GSLOT_TAKE_TICKET] = 4, [GSLOT_POLL_LINE] = 2, [GSLOT_EXPIRE_TICKETS] = 1, [GSLOT_DROP_TICKET] = 1,
};

const char *guarded_statement(enum guarded_slot slot, enum sql_dialect dialect, bool truncates)
{
	if (slot >= GSLOT_COUNT)
		return NULL;
	if (slot == GSLOT_EMPTY_CACHE && truncates && dialect == DIALECT_POSTGRESQL)
		return "TRUNCATE {cache}";
	if (dialect == DIALECT_MARIADB && mariadb_statements[slot])
		return mariadb_statements[slot];
	return statements[slot];
}

int guarded_statement_params(enum guarded_slot slot)
{
	return slot < GSLOT_COUNT ? statement_params[slot] : 0;
}

int guarded_tables_name(struct guarded_tables *t, struct db_conn *conn, const char *prefix, int wait_limit_ms,
			char *err, size_t errlen)
{
	char own[64];

	run_tables_prefix(prefix, own, sizeof(own));
	if (run_table_name(t->db, conn, own, "cache", t->cache_name, sizeof(t->cache_name), t->cache, sizeof(t->cache),
			   err, errlen) < 0 ||
	    run_table_name(t->db, conn, own, "control", t->control_name, sizeof(t->control_name), t->control,
			   sizeof(t->control), err, errlen) < 0)
		return -1;
	owner_self(&t->owner);
	snprintf(t->wait_limit_s, sizeof(t->wait_limit_s), "%d", wait_limit_ms / 1000);
	t->names = (struct sql_names){
		.cache = t->cache, .control = t->control, .owner = &t->owner, .dialect = t->db->dialect,
		.wait_limit_s = t->wait_limit_s,
	};
	return 0;
}

int guarded_tables_create(struct guarded_tables *t, struct db_conn *conn, char *err, size_t errlen)
{
	enum sql_dialect k = t->db->dialect;

	if (owner_refuse_existing(t->db, conn, t->cache_name, err, errlen) < 0 ||
	    owner_refuse_existing(t->db, conn, t->control_name, err, errlen) < 0)
		return -1;
	if (run_tables_create(t->db, conn, &t->names, create_cache_sql[k], t->cache_name, "creating the cache", err,
			      errlen) < 0)
		return -1;
	t->created_cache = true;
	if (run_tables_create(t->db, conn, &t->names,
			      t->workload == WORKLOAD_RESOURCE ? create_line_sql[k] : create_status_sql[k],
			      t->control_name, "creating the control table", err, errlen) < 0)
		return -1;
	t->created_control = true;
	return 0;
}

int guarded_tables_drop(struct guarded_tables *t, struct db_conn *conn, char *err, size_t errlen)
{
	if (t->created_control &&
	    run_tables_exec(t->db, conn, &t->names, "DROP TABLE IF EXISTS {control}", "dropping the control table", err,
			    errlen) < 0)
		return -1;
	t->created_control = false;
	if (t->created_cache && run_tables_exec(t->db, conn, &t->names, "DROP TABLE IF EXISTS {cache}",
						"dropping the cache", err, errlen) < 0)
		return -1;
	t->created_cache = false;
	return 0;
}
