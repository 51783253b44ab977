/* The SQL the harness itself sends to SQLite (db/backend_sql.h): its timestamps are julian days. */
#include <stddef.h>

#include "db/backend_sql.h"
#include "db/sqlite/parts.h"

/* A trigger is a block; the session's identity a function each connection registers (db->name_session). */
static const struct backend_audit_sql audit = {
	.create_table = "CREATE TABLE {audit} {mark:audit} ("
			" seq INTEGER PRIMARY KEY,"
			" tab INTEGER NOT NULL,"
			" op INTEGER NOT NULL,"
			" id INTEGER,"
			" old_status INTEGER NOT NULL,"
			" new_status INTEGER NOT NULL,"
			" old_owner INTEGER,"
			" new_owner INTEGER,"
			" old_attempt INTEGER,"
			" new_attempt INTEGER,"
			" lease_expired INTEGER NOT NULL,"
			" writer INTEGER,"
			" at REAL NOT NULL DEFAULT (julianday('now')))",
	.row_now = "julianday('now')",
	.row_identity = "claimbench_identity()",
	.row_body_open = "BEGIN",
	.row_body_close = "; END",
	.row_shape = "SELECT coalesce(max(CASE name WHEN 'consumed_by' THEN 1 WHEN 'ticket' THEN 2 END), 0)"
		     " FROM pragma_table_info('%s')",
};

/* The guarded tables, their indexes named; the common statements serve. */
static const struct backend_guarded_sql guarded = {
	.create_cache = "CREATE TABLE {cache} {mark:cache} (slot INTEGER PRIMARY KEY, version INTEGER NOT NULL,"
			" period INTEGER NOT NULL);"
			"WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 16)"
			" INSERT INTO {cache} SELECT g, 0, 0 FROM s",
	.create_status = "CREATE TABLE {control} {mark:control} (slot INTEGER PRIMARY KEY, period INTEGER NOT NULL,"
			 " refreshed_ns INTEGER NOT NULL);"
			 "INSERT INTO {control} VALUES (0, 0, -1)",
	.create_line = "CREATE TABLE {control} {mark:control} (ticket INTEGER PRIMARY KEY AUTOINCREMENT,"
		       " resource INTEGER NOT NULL, worker INTEGER NOT NULL, writes INTEGER NOT NULL,"
		       " taken_ns INTEGER NOT NULL);"
		       "CREATE INDEX {control:line} ON {control} (resource, ticket)",
};

const struct backend_sql sqlite_harness_sql = {
	.now = "julianday('now')",
	.lease_until = "julianday('now') + %d / 86400000.0",
	/* a comment in the CREATE TABLE, after the name */
	.mark = "/* %1$s */",
	/* 'now' is whole milliseconds */
	.clock_tick_ns = 1000000,
	.create_queue = "CREATE TABLE {jobs} {mark:jobs} ("
			" id INTEGER PRIMARY KEY,"
			" queue TEXT NOT NULL,"
			" status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'active', 'done', 'error')),"
			" payload TEXT,"
			" claimed_by INTEGER,"
			" claimed_at REAL,"
			" lease_until REAL,"
			" attempts INTEGER NOT NULL DEFAULT 0,"
			" enqueued_at REAL NOT NULL DEFAULT (julianday('now')),"
			" done_at REAL);"
			"CREATE INDEX {jobs:new} ON {jobs} (queue, id) WHERE status = 'new';"
			"CREATE INDEX {jobs:active} ON {jobs} (queue, lease_until) WHERE status = 'active'",
	.analyze_queue = "ANALYZE {jobs}",
	.insert_job = "INSERT INTO {jobs} (id, queue, payload) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
	.explain_head = "EXPLAIN QUERY PLAN "
			"SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} ORDER BY id LIMIT 1",
	/* a plan row: id, parent, notused, detail */
	.explain_column = 3,
	.wal_suffix = "-wal",
	.snapshot_begin = "BEGIN",
	.audit = &audit,
	.guarded = &guarded,
	.guard_wait = GUARD_WAIT_EACH_TAKE,
	.no_wait_by_zero_wait = true,
};
