#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "db/ownership.h"
#include "engine/sql_template.h"
#include "queue/verify_audit.h"

/* PostgreSQL: the setting a session carries its identity in (db->name_session); unset reads as the harness's. */
#define IDENTITY_SETTING "claimbench.identity"

/* The status of a row as a jsonb (x) in the audit's numbers: enum job_status. */
#define STATUS_OF(x) \
	"CASE WHEN " x " IS NULL THEN 4 ELSE CASE " x "->>'status' WHEN 'new' THEN 0 WHEN 'active' THEN 1 " \
	"WHEN 'done' THEN 2 WHEN 'error' THEN 3 ELSE 5 END END"

/* Its owner: claimed_by, delete-returning's consumed_by, a line ticket's requester. */
#define OWNER_OF(x) "coalesce(" x "->>'claimed_by', " x "->>'consumed_by', " x "->>'requester')::integer"

/* Its claim's attempt number. */
#define ATTEMPT_OF(x) "coalesce(" x "->>'attempts', " x "->>'attempt')::integer"

/* PostgreSQL: the audit table, marked as the run's in its CREATE's transaction (sql_template.h). */
static const char *const create_table_sql =
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
	"{mark:audit}";

/*
 * The trigger function, named as the audit table (%1$s), carrying an owner note (%2$s) that
 * names that table, so that cleanup drops it with the table. Reading the rows as jsonb lets
 * one function serve tables of other shapes (the archive, the line): a column a table
 * lacks reads as NULL.
 */
static const char *const create_function_sql =
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
	"COMMENT ON FUNCTION %1$s() IS '%2$s'";

/* PostgreSQL: %1$s: the table watched, quoted; %2$s: the function; %3$s: which it is ('jobs' or 'tickets'). */
static const char *const create_trigger_sql =
	"CREATE TRIGGER claimbench_audit AFTER INSERT OR UPDATE OR DELETE ON %1$s "
	"FOR EACH ROW EXECUTE FUNCTION %2$s('%3$s')";

/* SQLite: the audit table, its owner note in its CREATE text as the run's other tables'. */
static const char *const sqlite_create_table_sql =
	"CREATE TABLE {audit} {mark:audit} ("
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
	" at REAL NOT NULL DEFAULT (julianday('now')))";

/* MariaDB: the audit table, InnoDB's so that a rollback takes its rows, its owner note a table option. */
static const char *const mariadb_create_table_sql =
	"CREATE TABLE {audit} ("
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
	") ENGINE = InnoDB {mark:audit}";

/* SQLite and MariaDB: a row's status (x: OLD.status or NEW.status) in the audit's numbers. */
#define ROW_STATUS(x) \
	"CASE " x " WHEN 'new' THEN 0 WHEN 'active' THEN 1 WHEN 'done' THEN 2 WHEN 'error' THEN 3 ELSE 5 END"

/* The shapes of the run's tables a trigger of SQLite's or MariaDB's names the columns of. */
enum table_shape {
	SHAPE_JOB_ROWS,	/* rows of jobs: the queue table, move-table's claimed jobs */
	SHAPE_ARCHIVE,	/* delete-returning's archive: id, consumed_by, attempt, no status */
	SHAPE_LINE,	/* the ticket strategy's line: ticket, requester */
	SHAPE_COUNT,
};

/*
 * SQLite and MariaDB: what one trigger inserts, per shape of table and operation, after the
 * table's number (%1$d): the operation, the row, its status, owner and attempt before and
 * after, whether the lease had run out by the dialect's now (%2$s), the session's identity
 * (%3$s: the function each SQLite connection's db->name_session registers, the user variable
 * MariaDB's sets).
 */
static const char *const row_values[SHAPE_COUNT][3] = {
	[SHAPE_JOB_ROWS] = {
		"%1$d, 0, NEW.id, 4, " ROW_STATUS("NEW.status") ", NULL, NEW.claimed_by, NULL, NEW.attempts, 0, %3$s",
		"%1$d, 1, NEW.id, " ROW_STATUS("OLD.status") ", " ROW_STATUS("NEW.status") ", OLD.claimed_by,"
		" NEW.claimed_by, OLD.attempts, NEW.attempts, coalesce(OLD.lease_until < %2$s, 0), %3$s",
		"%1$d, 2, OLD.id, " ROW_STATUS("OLD.status") ", 4, OLD.claimed_by, NULL, OLD.attempts, NULL, 0, %3$s",
	},
	[SHAPE_ARCHIVE] = {
		"%1$d, 0, NEW.id, 4, 5, NULL, NEW.consumed_by, NULL, NEW.attempt, 0, %3$s",
		"%1$d, 1, NEW.id, 5, 5, OLD.consumed_by, NEW.consumed_by, OLD.attempt, NEW.attempt, 0, %3$s",
		"%1$d, 2, OLD.id, 5, 4, OLD.consumed_by, NULL, OLD.attempt, NULL, 0, %3$s",
	},
	[SHAPE_LINE] = {
		"%1$d, 0, NEW.ticket, 4, 5, NULL, NEW.requester, NULL, NULL, 0, %3$s",
		"%1$d, 1, NEW.ticket, 5, 5, OLD.requester, NEW.requester, NULL, NULL, 0, %3$s",
		"%1$d, 2, OLD.ticket, 5, 4, OLD.requester, NULL, NULL, NULL, 0, %3$s",
	},
};

/* SQLite and MariaDB: the operations a trigger follows, in row_values' order, and the word its name ends in. */
static const char *const row_ops[3][2] = { { "INSERT", "insert" }, { "UPDATE", "update" }, { "DELETE", "delete" } };

/* What SQLite's and MariaDB's row triggers differ in. */
struct trigger_dialect {
	const char *create_table;	/* the audit table's CREATE */
	const char *now;		/* the time a lease is compared with: MariaDB's, the triggering statement's start */
	const char *identity;		/* the writing session's identity */
	const char *body_open;		/* what follows "CREATE TRIGGER name AFTER op ON table" before the INSERT */
	const char *body_close;		/* what follows the INSERT */
	const char *shape_sql;		/* a table's enum table_shape from its columns, %s its name */
};

/* SQLite: a trigger is a block; its session's identity a function. */
static const struct trigger_dialect sqlite_dialect = {
	.create_table = sqlite_create_table_sql,
	.now = "julianday('now')",
	.identity = "claimbench_identity()",
	.body_open = "BEGIN",
	.body_close = "; END",
	.shape_sql = "SELECT coalesce(max(CASE name WHEN 'consumed_by' THEN 1 WHEN 'ticket' THEN 2 END), 0)"
		     " FROM pragma_table_info('%s')",
};

/*
 * MariaDB: one statement FOR EACH ROW; the session's identity a user variable (unset, NULL,
 * in a session that never named itself: the harness's). NOW(6) in a trigger is the
 * triggering statement's start, the now the claim's own lease test used.
 */
static const struct trigger_dialect mariadb_dialect = {
	.create_table = mariadb_create_table_sql,
	.now = "NOW(6)",
	.identity = "@claimbench_identity",
	.body_open = "FOR EACH ROW",
	.body_close = "",
	.shape_sql = "SELECT coalesce(max(CASE COLUMN_NAME WHEN 'consumed_by' THEN 1 WHEN 'ticket' THEN 2 END), 0)"
		     " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '%s'",
};

/* Runs the statement fmt makes of a, b and c on conn. 0, or -1 with err naming what. */
static int run(struct db_conn *conn, const struct run_shared *s, const char *fmt, const char *a, const char *b,
	       const char *c, const char *what, char *err, size_t errlen)
{
	char sql[8192];
	int n = snprintf(sql, sizeof(sql), fmt, a, b, c);

	if (n < 0 || (size_t)n >= sizeof(sql)) {
		snprintf(err, errlen, "%s: statement too long", what);
		return -1;
	}
	if (s->db->exec(conn, sql) < 0) {
		snprintf(err, errlen, "%s: %s", what, s->db->error_message(conn));
		return -1;
	}
	return 0;
}

/*
 * Creates the audit table from tmpl (create_table_sql or a trigger_dialect's) with its
 * note in one transaction; only once that committed is the table the run's to drop. 0, or
 * -1 with err.
 */
static int create_audit_table(struct db_conn *conn, struct run_shared *s, const char *tmpl, char *err, size_t errlen)
{
	char sql[2048];

	if (sql_expand(tmpl, &s->names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "creating the audit table: statement too long");
		return -1;
	}
	if (owner_create_table(s->db, conn, sql, s->audit_name, "creating the audit table", err, errlen) < 0)
		return -1;
	s->created_audit = true;
	return 0;
}

/* Stores the first column of a one-row query into the int64_t at ctx. */
static int store_first(void *ctx, const int64_t *cols, int ncols)
{
	if (ncols >= 1)
		*(int64_t *)ctx = cols[0];
	return 0;
}

/*
 * SQLite and MariaDB: creates the three triggers (insert, update, delete) on table
 * (quoted), the run's table which (its word in the triggers' names) of shape, its changes
 * recorded as the audit's table number tab. 0, or -1 with err.
 */
static int row_triggers(struct db_conn *conn, const struct run_shared *s, const struct trigger_dialect *d,
			const char *table, const char *which, enum table_shape shape, int tab, char *err, size_t errlen)
{
	for (int op = 0; op < 3; op++) {
		char name[200], quoted[260], values[1024], sql[2048];
		int n;

		snprintf(name, sizeof(name), "%s_%s_%s", s->audit_name, which, row_ops[op][1]);
		if (s->db->quote_identifier(conn, name, quoted, sizeof(quoted)) < 0) {
			snprintf(err, errlen, "cannot quote the trigger name %s", name);
			return -1;
		}
		snprintf(values, sizeof(values), row_values[shape][op], tab, d->now, d->identity);
		n = snprintf(sql, sizeof(sql), "CREATE TRIGGER %s AFTER %s ON %s %s INSERT INTO %s (tab, op, id, "
			     "old_status, new_status, old_owner, new_owner, old_attempt, new_attempt, lease_expired, "
			     "writer) VALUES (%s)%s", quoted, row_ops[op][0], table, d->body_open, s->audit_table, values,
			     d->body_close);
		if (n < 0 || (size_t)n >= sizeof(sql) || s->db->exec(conn, sql) < 0) {
			snprintf(err, errlen, "creating the audit trigger %s: %s", name, s->db->error_message(conn));
			return -1;
		}
	}
	return 0;
}

/*
 * SQLite and MariaDB: the audit table and the triggers on the run's tables of s (see
 * verify_audit_install); the strategy's table's shape read from its columns. 0, or -1 with err.
 */
static int row_install(struct db_conn *conn, struct run_shared *s, const struct trigger_dialect *d, char *err,
		       size_t errlen)
{
	char sql[512];
	int64_t shape = SHAPE_JOB_ROWS;

	if (create_audit_table(conn, s, d->create_table, err, errlen) < 0 ||
	    row_triggers(conn, s, d, s->jobs_table, "jobs", SHAPE_JOB_ROWS, AUDIT_JOBS, err, errlen) < 0)
		return -1;
	if (!s->created_tickets)
		return 0;
	snprintf(sql, sizeof(sql), d->shape_sql, s->tickets_name);
	if (s->db->query(conn, sql, store_first, &shape) < 0 || shape < 0 || shape >= SHAPE_COUNT) {
		snprintf(err, errlen, "reading the strategy table's columns: %s", s->db->error_message(conn));
		return -1;
	}
	return row_triggers(conn, s, d, s->tickets_table, "tickets", (enum table_shape)shape,
			    shape == SHAPE_LINE ? AUDIT_LINE : AUDIT_MOVED, err, errlen);
}

/* PostgreSQL: the audit table, its trigger function and the triggers (see verify_audit_install). 0, or -1 with err. */
static int pg_install(struct db_conn *conn, struct run_shared *s, char *err, size_t errlen)
{
	struct owner function_owner = s->owner;
	char note[512];

	snprintf(function_owner.table, sizeof(function_owner.table), "%s", s->audit_name);
	function_owner.oid = 0;
	owner_format(&function_owner, note, sizeof(note));
	if (create_audit_table(conn, s, create_table_sql, err, errlen) < 0 ||
	    run(conn, s, create_function_sql, s->audit_table, note, "", "creating the audit trigger function", err,
		errlen) < 0 ||
	    run(conn, s, create_trigger_sql, s->jobs_table, s->audit_table, "jobs", "creating the queue table's trigger",
		err, errlen) < 0)
		return -1;
	if (s->created_tickets && run(conn, s, create_trigger_sql, s->tickets_table, s->audit_table, "tickets",
				      "creating the strategy table's trigger", err, errlen) < 0)
		return -1;
	return 0;
}

int verify_audit_install(struct db_conn *conn, struct run_shared *s, char *err, size_t errlen)
{
	if (owner_refuse_existing(s->db, conn, s->audit_name, err, errlen) < 0)
		return -1;
	if (s->db->dialect == DIALECT_POSTGRESQL) {
		if (pg_install(conn, s, err, errlen) < 0)
			return -1;
	} else if (row_install(conn, s, s->db->dialect == DIALECT_SQLITE ? &sqlite_dialect : &mariadb_dialect, err,
			       errlen) < 0) {
		return -1;
	}
	if (s->db->name_session(conn, -1) < 0) {
		snprintf(err, errlen, "naming the session for the audit: %s", s->db->error_message(conn));
		return -1;
	}
	return 0;
}

/* Where the record's rows go. */
struct event_sink {
	struct audit_event *events;	/* the rows so far */
	size_t n;			/* entries used */
	size_t cap;			/* entries allocated */
	bool out_of_memory;		/* the rows did not fit in memory */
};

/* Stores one row of the record (its columns in struct audit_event's order). 0, or -1 when out of memory. */
static int store_event(void *ctx, const int64_t *c, int ncols)
{
	struct event_sink *sink = ctx;

	if (ncols < 12)
		return -1;
	if (sink->n == sink->cap) {
		size_t cap = sink->cap ? 2 * sink->cap : 4096;
		struct audit_event *grown = realloc(sink->events, cap * sizeof(*grown));

		if (!grown) {
			sink->out_of_memory = true;
			return -1;
		}
		sink->events = grown;
		sink->cap = cap;
	}
	sink->events[sink->n++] = (struct audit_event){
		.seq = c[0], .id = c[1], .table = (int32_t)c[2], .op = (int32_t)c[3],
		.old_status = (int32_t)c[4], .new_status = (int32_t)c[5], .old_owner = (int32_t)c[6],
		.new_owner = (int32_t)c[7], .old_attempt = (int32_t)c[8], .new_attempt = (int32_t)c[9],
		.lease_expired = (int32_t)c[10], .writer = (int32_t)c[11],
	};
	return 0;
}

int verify_audit_read(struct db_conn *conn, const struct run_shared *s, struct audit_event **events, size_t *n,
		      char *err, size_t errlen)
{
	struct event_sink sink = { 0 };
	char sql[512];

	snprintf(sql, sizeof(sql), "SELECT seq, id, tab, op, old_status, new_status, old_owner, new_owner, old_attempt,"
		 " new_attempt, CAST(lease_expired AS integer), writer FROM %s ORDER BY seq", s->audit_table);
	if (s->db->query(conn, sql, store_event, &sink) < 0) {
		snprintf(err, errlen, "reading the audit table: %s",
			 sink.out_of_memory ? "out of memory" : s->db->error_message(conn));
		free(sink.events);
		return -1;
	}
	*events = sink.events;
	*n = sink.n;
	return 0;
}

int verify_audit_drop(struct db_conn *conn, struct run_shared *s, char *err, size_t errlen)
{
	if (!s->created_audit)
		return 0;
	if (s->db->dialect == DIALECT_POSTGRESQL && run(conn, s, "DROP FUNCTION IF EXISTS %s() CASCADE", s->audit_table, "",
						    "", "dropping the audit trigger function", err, errlen) < 0)
		return -1;
	if (run(conn, s, "DROP TABLE IF EXISTS %s", s->audit_table, "", "", "dropping the audit table", err, errlen) < 0)
		return -1;
	s->created_audit = false;
	return 0;
}
