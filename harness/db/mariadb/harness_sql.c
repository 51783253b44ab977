/* The SQL the harness itself sends to MariaDB (db/backend_sql.h), read with ANSI_QUOTES; its tables are InnoDB's. */
#include <stddef.h>

#include "db/backend_sql.h"
#include "db/mariadb/parts.h"

/* A MariaDB global status counter's value, by its name in upper case. */
#define MARIADB_STATUS(name) "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '" name "')"

/*
 * The server's own counters (the throwaway's are the run's alone): the buffer pool's
 * logical reads less those that went to disk, and those; no WAL records (NULL: not known);
 * the redo log's bytes written; the rows every statement read (Rows_read); InnoDB's row
 * lock waits, their time (ms) and its deadlocks. $1 is not used.
 */
static const struct backend_costs_sql costs = {
	.live = "SELECT " MARIADB_STATUS("INNODB_BUFFER_POOL_READ_REQUESTS") " - " MARIADB_STATUS("INNODB_BUFFER_POOL_READS")
		", " MARIADB_STATUS("INNODB_BUFFER_POOL_READS") ", NULL, " MARIADB_STATUS("INNODB_OS_LOG_WRITTEN") ", "
		MARIADB_STATUS("ROWS_READ") ", " MARIADB_STATUS("INNODB_ROW_LOCK_WAITS") ", "
		MARIADB_STATUS("INNODB_ROW_LOCK_TIME") ", " MARIADB_STATUS("INNODB_DEADLOCKS"),
};

/*
 * The audit table InnoDB's, so that a rollback takes its rows; one trigger statement FOR
 * EACH ROW; the session's identity a user variable (unset, NULL, in a session that never
 * named itself: the harness's). NOW(6) in a trigger is the triggering statement's start,
 * the now the claim's own lease test used.
 */
static const struct backend_audit_sql audit = {
	.create_table = "CREATE TABLE {audit} ("
			" seq bigint AUTO_INCREMENT PRIMARY KEY,"
			" tab smallint NOT NULL,"
			" op smallint NOT NULL,"
			" id bigint,"
			" old_status smallint NOT NULL,"
			" new_status smallint NOT NULL,"
			" old_owner integer,"
			" new_owner integer,"
			" old_attempt integer,"
			" new_attempt integer,"
			" lease_expired smallint NOT NULL,"
			" writer integer,"
			" at datetime(6) NOT NULL DEFAULT NOW(6)"
			") ENGINE = InnoDB {mark:audit}",
	.row_now = "NOW(6)",
	.row_identity = "@claimbench_identity",
	.row_body_open = "FOR EACH ROW",
	.row_body_close = "",
	.row_shape = "SELECT coalesce(max(CASE COLUMN_NAME WHEN 'consumed_by' THEN 1 WHEN 'ticket' THEN 2 END), 0)"
		     " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '%s'",
};

/*
 * The guarded tables, and the statements whose common text MariaDB does not take: it casts
 * to SIGNED (it has no CAST AS bigint) and puts a WITH after INSERT INTO. Its ROLLBACK also
 * releases the session's locks, which a guard's release would have (GET_LOCK's, LOCK
 * TABLES'), so that a worker that fails holding one does not keep the others waiting.
 */
static const struct backend_guarded_sql guarded = {
	.create_cache = "CREATE TABLE {cache} (slot integer PRIMARY KEY, version bigint NOT NULL, period bigint NOT NULL)"
			" ENGINE = InnoDB {mark:cache};"
			"INSERT INTO {cache} WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 16)"
			" SELECT g, 0, 0 FROM s",
	.create_status = "CREATE TABLE {control} (slot integer PRIMARY KEY, period bigint NOT NULL, refreshed_ns bigint "
			 "NOT NULL)"
			 " ENGINE = InnoDB {mark:control};"
			 "INSERT INTO {control} VALUES (0, 0, -1)",
	.create_line = "CREATE TABLE {control} (ticket bigint AUTO_INCREMENT PRIMARY KEY, resource integer NOT NULL,"
		       " worker integer NOT NULL, writes integer NOT NULL, taken_ns bigint NOT NULL,"
		       " INDEX line (resource, ticket)) ENGINE = InnoDB {mark:control}",
	.rollback = "ROLLBACK; DO RELEASE_ALL_LOCKS(); UNLOCK TABLES",
	.write_half_1 = "UPDATE {cache} SET version = CAST($1 AS SIGNED), period = CAST($2 AS SIGNED) WHERE slot <= 8",
	.write_half_2 = "UPDATE {cache} SET version = CAST($1 AS SIGNED), period = CAST($2 AS SIGNED) WHERE slot > 8",
	.mark_status = "UPDATE {control} SET period = CAST($1 AS SIGNED), refreshed_ns = CAST($2 AS SIGNED)"
		       " WHERE slot = 0",
	.fill_cache = "INSERT INTO {cache} WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s"
		      " WHERE g < 16) SELECT g, CAST($1 AS SIGNED), CAST($2 AS SIGNED) FROM s",
	.take_ticket = "INSERT INTO {control} (resource, worker, writes, taken_ns) VALUES (CAST($1 AS SIGNED),"
		       " CAST($2 AS SIGNED), CAST($3 AS SIGNED), CAST($4 AS SIGNED)) RETURNING ticket",
	.poll_line = "SELECT count(*), coalesce(sum(writes), 0) FROM {control}"
		     " WHERE resource = CAST($1 AS SIGNED) AND ticket < CAST($2 AS SIGNED)",
	.expire_tickets = "DELETE FROM {control} WHERE taken_ns < CAST($1 AS SIGNED) RETURNING ticket",
	.drop_ticket = "DELETE FROM {control} WHERE ticket = CAST($1 AS SIGNED) RETURNING ticket",
};

/*
 * InnoDB's MVCC pressure is a read view: while a transaction keeps one, purge may not
 * remove the undo of what committed after it, and the history list length (the sampler's
 * oldest-transaction column) grows. Held-snapshot and active-readers hold views; InnoDB
 * gives a transaction an id only with its first write, and an id alone holds back no purge,
 * so idle-in-tx and long-writer, PostgreSQL's XID holders, are refused. MariaDB shows no
 * session's name: the readers' sessions are not counted, and pool-exhaustion (which counts
 * its sessions by name) is refused.
 */
static const struct backend_timeline_sql timeline = {
	.xid_now = "SELECT IF(@@in_transaction, 0, -1)",
	/* inside a transaction begun under the isolation snapshot_begin set for the session */
	.reader_scan = "SELECT count(*), @@tx_isolation = 'REPEATABLE-READ' AND @@in_transaction FROM %s",
	.refusals = {
		[TIMELINE_IDLE_IN_TX] = "InnoDB gives a transaction an id only with its first write, and what holds "
					"back its purge is a read view, not an id: --phase held-snapshot holds one",
		[TIMELINE_LONG_WRITER] = "InnoDB's writing transaction holds back no purge without a read view (--phase "
					 "held-snapshot holds one), and the writer's table is not built for MariaDB",
	},
};

const struct backend_sql mariadb_harness_sql = {
	.now = "NOW(6)",
	/* the milliseconds written as microseconds: %d and three zeros */
	.lease_until = "NOW(6) + INTERVAL %d000 MICROSECOND",
	/* a table option after the columns: the table exists marked or not at all, DDL committing by itself */
	.mark = "COMMENT = '%1$s'",
	.clock_tick_ns = 1000,
	/* InnoDB has no partial indexes: the status leads after the queue, and the id or lease follows it */
	.create_queue = "CREATE TABLE {jobs} ("
			" id bigint PRIMARY KEY,"
			" queue varchar(64) NOT NULL,"
			" status varchar(8) NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'active', 'done', 'error')),"
			" payload text,"
			" claimed_by integer,"
			" claimed_at datetime(6),"
			" lease_until datetime(6),"
			" attempts integer NOT NULL DEFAULT 0,"
			" enqueued_at datetime(6) NOT NULL DEFAULT NOW(6),"
			" done_at datetime(6),"
			" INDEX claim_order (queue, status, id),"
			" INDEX lease_order (queue, status, lease_until)"
			") ENGINE = InnoDB {mark:jobs}",
	.analyze_queue = "ANALYZE TABLE {jobs}",
	.insert_job = "INSERT INTO {jobs} (id, queue, payload) VALUES ($1, $2, $3) ON DUPLICATE KEY UPDATE id = id",
	.explain_head = "ANALYZE FORMAT=JSON "
			"SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} ORDER BY id LIMIT 1",
	.explain_column = 0,
	/* the name comes quoted ("name"): its quotes are trimmed; InnoDB lists only the locks waited for, so none */
	.table_sizes = "SELECT DATA_LENGTH, INDEX_LENGTH, NULL FROM information_schema.TABLES WHERE TABLE_SCHEMA = "
		       "DATABASE() AND TABLE_NAME = TRIM(BOTH '\"' FROM '%s') AND '%s' = '%s'",
	.terminate_session = "KILL CONNECTION %d",
	.session_alive = "SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = %d",
	/*
	 * A connection waiting for a row lock (InnoDB's LOCK WAIT) or a user lock (GET_LOCK) is
	 * in lock, one running another statement (a query, a prepared statement's execution) in
	 * cpu, an idle one (Sleep) the harness's side; InnoDB has no LWLock or I/O wait to tell.
	 * The table's rows are InnoDB's estimate; it has no dead tuples, block counts or vacuums
	 * to read (its versions are in the undo log). The oldest-transaction column holds
	 * InnoDB's history list length: the committed transactions whose undo is not purged
	 * yet, its MVCC pressure.
	 */
	.sample = "WITH w AS (SELECT p.COMMAND AS command, coalesce(p.STATE, '') AS state, "
		  "(SELECT t.trx_state FROM information_schema.INNODB_TRX t WHERE t.trx_mysql_thread_id = p.ID LIMIT 1) "
		  "AS trx "
		  "FROM information_schema.PROCESSLIST p WHERE p.ID IN (%s)) "
		  "SELECT coalesce(sum(command IN ('Query', 'Execute') AND coalesce(trx, '') <> 'LOCK WAIT' "
		  "AND state <> 'User lock'), 0), coalesce(sum(trx = 'LOCK WAIT' OR state = 'User lock'), 0), 0, 0, "
		  "coalesce(sum(command = 'Sleep'), 0), coalesce(sum(command NOT IN ('Sleep', 'Query', 'Execute')), 0), "
		  "coalesce((SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
		  "AND TABLE_NAME = TRIM(BOTH '\"' FROM '%s')), -1), -1, -1, -1, -1, -1, "
		  "coalesce((SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
		  "WHERE VARIABLE_NAME = 'INNODB_HISTORY_LIST_LENGTH'), -1) FROM w",
	/* IN () would not parse */
	.sample_no_sessions = "-1",
	/*
	 * REPEATABLE READ whatever --isolation set, for a consistent snapshot to be kept: the
	 * session is the harness's own (a holder's, a reader's), no worker's
	 */
	.snapshot_begin = "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ; START TRANSACTION WITH CONSISTENT "
			  "SNAPSHOT",
	.timeline = &timeline,
	.costs = &costs,
	.audit = &audit,
	.guarded = &guarded,
	.guard_wait = GUARD_WAIT_UNSET,
};
