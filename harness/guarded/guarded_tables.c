#include <stdio.h>

#include "db/ownership.h"
#include "engine/run_plan.h"
#include "guarded/guarded_tables.h"

/* The harness's statements, by slot, in their common text: a backend's struct backend_guarded_sql may replace some. */
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

static const int statement_params[GSLOT_COUNT] = {
	[GSLOT_WRITE_HALF_1] = 2, [GSLOT_WRITE_HALF_2] = 2, [GSLOT_MARK_STATUS] = 2, [GSLOT_FILL_CACHE] = 2,
	[GSLOT_TAKE_TICKET] = 4, [GSLOT_POLL_LINE] = 2, [GSLOT_EXPIRE_TICKETS] = 1, [GSLOT_DROP_TICKET] = 1,
};

/* The backend's own text of the statement in slot, or NULL where the common text serves. */
static const char *own_statement(enum guarded_slot slot, const struct backend_guarded_sql *g, bool truncates)
{
	switch (slot) {
	case GSLOT_ROLLBACK:
		return g->rollback;
	case GSLOT_WRITE_HALF_1:
		return g->write_half_1;
	case GSLOT_WRITE_HALF_2:
		return g->write_half_2;
	case GSLOT_MARK_STATUS:
		return g->mark_status;
	case GSLOT_EMPTY_CACHE:
		return truncates ? g->truncate_cache : NULL;
	case GSLOT_FILL_CACHE:
		return g->fill_cache;
	case GSLOT_TAKE_TICKET:
		return g->take_ticket;
	case GSLOT_POLL_LINE:
		return g->poll_line;
	case GSLOT_EXPIRE_TICKETS:
		return g->expire_tickets;
	case GSLOT_DROP_TICKET:
		return g->drop_ticket;
	default:
		return NULL;
	}
}

const char *guarded_statement(enum guarded_slot slot, const struct backend_sql *sql, bool truncates)
{
	const char *own;

	if (slot >= GSLOT_COUNT)
		return NULL;
	own = own_statement(slot, sql->guarded, truncates);
	return own ? own : statements[slot];
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
		.cache = t->cache, .control = t->control, .owner = &t->owner, .sql = t->db->sql,
		.wait_limit_s = t->wait_limit_s,
	};
	return 0;
}

int guarded_tables_create(struct guarded_tables *t, struct db_conn *conn, char *err, size_t errlen)
{
	const struct backend_guarded_sql *sql = t->db->sql->guarded;

	if (owner_refuse_existing(t->db, conn, t->cache_name, err, errlen) < 0 ||
	    owner_refuse_existing(t->db, conn, t->control_name, err, errlen) < 0)
		return -1;
	if (run_tables_create(t->db, conn, &t->names, sql->create_cache, t->cache_name, "creating the cache", err,
			      errlen) < 0)
		return -1;
	t->created_cache = true;
	if (run_tables_create(t->db, conn, &t->names,
			      t->workload == WORKLOAD_RESOURCE ? sql->create_line : sql->create_status,
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
