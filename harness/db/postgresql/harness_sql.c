/* The SQL the harness itself sends to PostgreSQL (db/backend_sql.h). */
#include "db/backend_sql.h"
#include "db/postgresql/parts.h"

/* The setting a session carries its identity in (db->name_session); unset reads as the harness's. */
#define IDENTITY_SETTING "claimbench.identity"

/* The status of a row as a jsonb (x) in the audit's numbers: enum job_status. */
#define STATUS_OF(x) \
	"CASE WHEN " x " IS NULL THEN 4 ELSE CASE " x "->>'status' WHEN 'new' THEN 0 WHEN 'active' THEN 1 " \
	"WHEN 'done' THEN 2 WHEN 'error' THEN 3 ELSE 5 END END"

/* Its owner: claimed_by, delete-returning's consumed_by, a line ticket's requester. */
#define OWNER_OF(x) "coalesce(" x "->>'claimed_by', " x "->>'consumed_by', " x "->>'requester')::integer"

/* Its claim's attempt number. */
#define ATTEMPT_OF(x) "coalesce(" x "->>'attempts', " x "->>'attempt')::integer"

/*
 * The trigger function reads the rows as jsonb, so that one function serves tables of
 * other shapes (the archive, the line): a column a table lacks reads as NULL. Its owner
 * note names the audit table, so that cleanup drops it with the table.
 */
static const struct backend_audit_sql audit = {
	.create_table =
		"CREATE TABLE {audit} ("
		" seq bigserial PRIMARY KEY,"
		" tab smallint NOT NULL,"
		" op smallint NOT NULL,"
		" id bigint,"
		" old_status smallint NOT NULL,"
		" new_status smallint NOT NULL,"
		" old_owner integer,"
		" new_owner integer,"
		" old_attempt integer,"
		" new_attempt integer,"
		" lease_expired boolean NOT NULL,"
		" writer integer,"
		" xid bigint NOT NULL DEFAULT txid_current(),"
		" at timestamptz NOT NULL DEFAULT clock_timestamp());"
		"{mark:audit}",
	.create_function =
		"CREATE FUNCTION %1$s() RETURNS trigger LANGUAGE plpgsql AS $audit$ "
		"DECLARE"
		" o jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;"
		" n jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;"
		" r jsonb := coalesce(n, o); "
		"BEGIN"
		" INSERT INTO %1$s (tab, op, id, old_status, new_status, old_owner, new_owner, old_attempt, new_attempt,"
		" lease_expired, writer) VALUES ("
		" CASE WHEN TG_ARGV[0] = 'jobs' THEN 0 WHEN r ? 'ticket' THEN 2 ELSE 1 END,"
		" CASE TG_OP WHEN 'INSERT' THEN 0 WHEN 'UPDATE' THEN 1 ELSE 2 END,"
		" coalesce(r->>'id', r->>'ticket')::bigint, "
		STATUS_OF("o") ", " STATUS_OF("n") ", " OWNER_OF("o") ", " OWNER_OF("n") ", " ATTEMPT_OF("o") ", "
		ATTEMPT_OF("n") ","
		" coalesce((o->>'lease_until')::timestamptz < clock_timestamp(), false),"
		" nullif(current_setting('" IDENTITY_SETTING "', true), '')::integer);"
		" RETURN NULL; "
		"END $audit$;"
		"COMMENT ON FUNCTION %1$s() IS '%2$s'",
	.create_trigger = "CREATE TRIGGER claimbench_audit AFTER INSERT OR UPDATE OR DELETE ON %1$s "
			  "FOR EACH ROW EXECUTE FUNCTION %2$s('%3$s')",
	.drop_function = "DROP FUNCTION IF EXISTS %s() CASCADE",
};

/* The queue table's rows read by scans and fetched through indexes; $1 its quoted name. */
#define ROWS_EXAMINED "(SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_all_tables " \
		      "WHERE relid = $1::regclass)"

/* pg_stat_statements' counters, or the database's and the WAL's (pg_stat_wal: 14 on). */
static const struct backend_costs_sql costs = {
	.plan = "SELECT current_setting('server_version_num'), "
		"(SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'), "
		"coalesce(current_setting('pg_stat_statements.track', true), ''), "
		"(SELECT rolsuper FROM pg_roles WHERE rolname = current_user)::int, "
		"CASE WHEN current_setting('server_version_num')::int >= 150000 "
		"THEN has_function_privilege('pg_stat_force_next_flush()', 'execute')::int ELSE 0 END",
	.min_version = 140000,
	.by_statement = "SELECT coalesce(sum(shared_blks_hit), 0), coalesce(sum(shared_blks_read), 0), "
			"coalesce(sum(wal_records), 0), coalesce(sum(wal_bytes), 0)::bigint, " ROWS_EXAMINED " "
			"FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = "
			"current_database())",
	.database_wide = "SELECT d.blks_hit, d.blks_read, w.wal_records, w.wal_bytes::bigint, " ROWS_EXAMINED " "
			 "FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()",
	.track_statements = "SET pg_stat_statements.track = 'top'",
	.flush = "SELECT pg_stat_force_next_flush()",
};

/* The phases hold an XID, a snapshot, readers' snapshots, or vacuum: PostgreSQL's MVCC pressure. */
static const struct backend_timeline_sql timeline = {
	.take_xid = "SELECT txid_current()",
	.xid_now = "SELECT coalesce(txid_current_if_assigned(), 0)",
	.reader_scan = "SELECT count(*), (current_setting('transaction_isolation') = 'repeatable read')::int FROM %s",
	.reader_name = "SET application_name = '%s_%d'",
	.readers_seen = "SELECT count(*) FROM pg_stat_activity WHERE application_name = '%s_%d' "
			"AND state IN ('active', 'idle in transaction') AND backend_xmin IS NOT NULL",
	.sessions_named = "SELECT count(*) FROM pg_stat_activity WHERE application_name = '%s_%d'",
	.create_writer = "CREATE TABLE {writer} (id bigserial PRIMARY KEY, written_at timestamptz NOT NULL DEFAULT "
			 "clock_timestamp(), pad text NOT NULL);{mark:writer}",
	.writer_insert = "INSERT INTO %s (pad) VALUES (repeat('w', 100))",
};

/* The guarded tables; the common statements serve, but for a truncating guard's TRUNCATE. */
static const struct backend_guarded_sql guarded = {
	.create_cache = "CREATE TABLE {cache} (slot integer PRIMARY KEY, version bigint NOT NULL, period bigint NOT NULL);"
			"{mark:cache};"
			"INSERT INTO {cache} SELECT g, 0, 0 FROM generate_series(1, 16) AS g",
	.create_status = "CREATE TABLE {control} (slot integer PRIMARY KEY, period bigint NOT NULL, refreshed_ns bigint "
			 "NOT NULL);"
			 "{mark:control};"
			 "INSERT INTO {control} VALUES (0, 0, -1)",
	.create_line = "CREATE TABLE {control} (ticket bigserial PRIMARY KEY, resource integer NOT NULL,"
		       " worker integer NOT NULL, writes integer NOT NULL, taken_ns bigint NOT NULL);"
		       "{mark:control};"
		       "CREATE INDEX ON {control} (resource, ticket)",
	.truncate_cache = "TRUNCATE {cache}",
};

const struct backend_sql postgresql_harness_sql = {
	.now = "clock_timestamp()",
	.lease_until = "clock_timestamp() + interval '%d milliseconds'",
	/* a statement after the CREATE in its transaction, through DO for the table's oid */
	.mark = "DO $mark$BEGIN EXECUTE format('COMMENT ON TABLE %%s IS %%L', '%2$s'::regclass, '%1$s oid ' || "
		"'%2$s'::regclass::oid); END$mark$",
	.clock_tick_ns = 1000,
	.create_queue = "CREATE TABLE {jobs} ("
			" id bigint PRIMARY KEY,"
			" queue text NOT NULL,"
			" status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'active', 'done', 'error')),"
			" payload text,"
			" claimed_by integer,"
			" claimed_at timestamptz,"
			" lease_until timestamptz,"
			" attempts integer NOT NULL DEFAULT 0,"
			" enqueued_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
			" done_at timestamptz);"
			"{mark:jobs};"
			"CREATE INDEX ON {jobs} (queue, id) WHERE status = 'new';"
			"CREATE INDEX ON {jobs} (queue, lease_until) WHERE status = 'active'",
	/*
	 * 15 and later: publish the load's table counters when this statement ends (a backend
	 * does so at most once a second otherwise), before ANALYZE sets the live tuples, so
	 * that the server's samples start from them rather than see them arrive (and counted
	 * twice) in the run's first second.
	 */
	.publish_counters = "DO $$ BEGIN IF current_setting('server_version_num')::int >= 150000 THEN "
			    "PERFORM pg_stat_force_next_flush(); END IF; END $$",
	.analyze_queue = "ANALYZE {jobs}",
	/* a row lock waited for 100 ms at most, a commit that waits for no synchronous standby */
	.reap_begin = "BEGIN; SET LOCAL lock_timeout = '100ms'; SET LOCAL synchronous_commit = local",
	.insert_job = "INSERT INTO {jobs} (id, queue, payload) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
	.explain_head = "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) "
			"SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} ORDER BY id LIMIT 1",
	.explain_column = 0,
	.table_sizes = "SELECT pg_table_size('%s'::regclass), pg_indexes_size('%s'::regclass), "
		       "(SELECT count(*) FROM pg_locks WHERE relation = '%s'::regclass AND pid <> pg_backend_pid())",
	.terminate_session = "SELECT pg_terminate_backend(%d)",
	.session_alive = "SELECT 1 FROM pg_stat_activity WHERE pid = %d",
	/* an idle backend, or one waiting to read from the client, is the harness's side of the time */
	.sample = "WITH w AS (SELECT "
		  "count(*) FILTER (WHERE state = 'active' AND wait_event_type IS NULL) AS cpu, "
		  "count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock') AS lock, "
		  "count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'LWLock') AS lwlock, "
		  "count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'IO') AS io, "
		  "count(*) FILTER (WHERE state IS DISTINCT FROM 'active' OR wait_event_type = 'Client') AS client, "
		  "count(*) FILTER (WHERE state = 'active' AND wait_event_type NOT IN ('Lock', 'LWLock', 'IO', 'Client')) "
		  "AS other FROM pg_stat_activity WHERE pid = ANY ('{%s}'::int[])), "
		  "t AS (SELECT s.n_live_tup AS live, s.n_dead_tup AS dead, "
		  "coalesce(io.heap_blks_read, 0) + coalesce(io.heap_blks_hit, 0) AS heap, "
		  "coalesce(io.idx_blks_read, 0) + coalesce(io.idx_blks_hit, 0) AS idx, "
		  "s.vacuum_count + s.autovacuum_count AS vacuums, s.autovacuum_count AS autovacuums "
		  "FROM pg_stat_user_tables s JOIN pg_statio_user_tables io USING (relid) WHERE s.relid = '%s'::regclass), "
		  "x AS (SELECT coalesce(max(greatest(age(backend_xmin), age(backend_xid))), -1) AS age FROM "
		  "pg_stat_activity) "
		  "SELECT w.cpu, w.lock, w.lwlock, w.io, w.client, w.other, coalesce(t.live, -1), coalesce(t.dead, -1), "
		  "coalesce(t.heap, -1), coalesce(t.idx, -1), coalesce(t.vacuums, -1), coalesce(t.autovacuums, -1), "
		  "x.age "
		  "FROM w CROSS JOIN x LEFT JOIN t ON true",
	.snapshot_begin = "BEGIN ISOLATION LEVEL REPEATABLE READ",
	.vacuum = "VACUUM %s",
	.timeline = &timeline,
	.costs = &costs,
	.audit = &audit,
	.guarded = &guarded,
	.guard_wait = GUARD_WAIT_SESSION,
};
