#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "db/ownership.h"
#include "engine/sql_template.h"
#include "queue/verify_audit.h"

/* Row triggers (SQLite's, MariaDB's): a row's status (x: OLD.status or NEW.status) in the audit's numbers. */
#define ROW_STATUS(x) \
	"CASE " x " WHEN 'new' THEN 0 WHEN 'active' THEN 1 WHEN 'done' THEN 2 WHEN 'error' THEN 3 ELSE 5 END"

/* The shapes of the run's tables a row trigger names the columns of. */
enum table_shape {
	SHAPE_JOB_ROWS,	/* rows of jobs: the queue table, move-table's claimed jobs */
	SHAPE_ARCHIVE,	/* delete-returning's archive: id, consumed_by, attempt, no status */
	SHAPE_LINE,	/* the ticket strategy's line: ticket, requester */
	SHAPE_COUNT,
};

/*
 * Row triggers: what one trigger inserts, per shape of table and operation, after the
 * table's number (%1$d): the operation, the row, its status, owner and attempt before and
 * after, whether the lease had run out by the backend's row_now (%2$s), the session's
 * identity (%3$s: its row_identity, what db->name_session sets).
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

/* Row triggers: the operations a trigger follows, in row_values' order, and the word its name ends in. */
static const char *const row_ops[3][2] = { { "INSERT", "insert" }, { "UPDATE", "update" }, { "DELETE", "delete" } };

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
 * Creates the audit table from tmpl (the backend's audit create_table) with its note in
 * one transaction; only once that committed is the table the run's to drop. 0, or
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
 * Row triggers: creates the three triggers (insert, update, delete) on table (quoted), the
 * run's table which (its word in the triggers' names) of shape, its changes recorded as
 * the audit's table number tab, written from d's row_ fields. 0, or -1 with err.
 */
static int row_triggers(struct db_conn *conn, const struct run_shared *s, const struct backend_audit_sql *d,
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
		snprintf(values, sizeof(values), row_values[shape][op], tab, d->row_now, d->row_identity);
		n = snprintf(sql, sizeof(sql), "CREATE TRIGGER %s AFTER %s ON %s %s INSERT INTO %s (tab, op, id, "
			     "old_status, new_status, old_owner, new_owner, old_attempt, new_attempt, lease_expired, "
			     "writer) VALUES (%s)%s", quoted, row_ops[op][0], table, d->row_body_open, s->audit_table, values,
			     d->row_body_close);
		if (n < 0 || (size_t)n >= sizeof(sql) || s->db->exec(conn, sql) < 0) {
			snprintf(err, errlen, "creating the audit trigger %s: %s", name, s->db->error_message(conn));
			return -1;
		}
	}
	return 0;
}

/*
 * Row triggers: the audit table and the triggers on the run's tables of s (see
 * verify_audit_install); the strategy's table's shape read from its columns. 0, or -1 with err.
 */
static int row_install(struct db_conn *conn, struct run_shared *s, const struct backend_audit_sql *d, char *err,
		       size_t errlen)
{
	char sql[512];
	int64_t shape = SHAPE_JOB_ROWS;

	if (create_audit_table(conn, s, d->create_table, err, errlen) < 0 ||
	    row_triggers(conn, s, d, s->jobs_table, "jobs", SHAPE_JOB_ROWS, AUDIT_JOBS, err, errlen) < 0)
		return -1;
	if (!s->created_tickets)
		return 0;
	snprintf(sql, sizeof(sql), d->row_shape, s->tickets_name);
	if (s->db->query(conn, sql, store_first, &shape) < 0 || shape < 0 || shape >= SHAPE_COUNT) {
		snprintf(err, errlen, "reading the strategy table's columns: %s", s->db->error_message(conn));
		return -1;
	}
	return row_triggers(conn, s, d, s->tickets_table, "tickets", (enum table_shape)shape,
			    shape == SHAPE_LINE ? AUDIT_LINE : AUDIT_MOVED, err, errlen);
}

/*
 * A trigger function (PostgreSQL's): the audit table, d's function and its triggers (see
 * verify_audit_install). 0, or -1 with err.
 */
static int function_install(struct db_conn *conn, struct run_shared *s, const struct backend_audit_sql *d, char *err,
			    size_t errlen)
{
	struct owner function_owner = s->owner;
	char note[512];

	snprintf(function_owner.table, sizeof(function_owner.table), "%s", s->audit_name);
	function_owner.oid = 0;
	owner_format(&function_owner, note, sizeof(note));
	if (create_audit_table(conn, s, d->create_table, err, errlen) < 0 ||
	    run(conn, s, d->create_function, s->audit_table, note, "", "creating the audit trigger function", err,
		errlen) < 0 ||
	    run(conn, s, d->create_trigger, s->jobs_table, s->audit_table, "jobs", "creating the queue table's trigger",
		err, errlen) < 0)
		return -1;
	if (s->created_tickets && run(conn, s, d->create_trigger, s->tickets_table, s->audit_table, "tickets",
				      "creating the strategy table's trigger", err, errlen) < 0)
		return -1;
	return 0;
}

int verify_audit_install(struct db_conn *conn, struct run_shared *s, char *err, size_t errlen)
{
	const struct backend_audit_sql *d = s->db->sql->audit;

	if (owner_refuse_existing(s->db, conn, s->audit_name, err, errlen) < 0)
		return -1;
	if ((d->create_function ? function_install(conn, s, d, err, errlen) : row_install(conn, s, d, err, errlen)) < 0)
		return -1;
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
	const char *drop_function = s->db->sql->audit->drop_function;

	if (!s->created_audit)
		return 0;
	if (drop_function &&
	    run(conn, s, drop_function, s->audit_table, "", "", "dropping the audit trigger function", err, errlen) < 0)
		return -1;
	if (run(conn, s, "DROP TABLE IF EXISTS %s", s->audit_table, "", "", "dropping the audit table", err, errlen) < 0)
		return -1;
	s->created_audit = false;
	return 0;
}
