#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/adapter_audit.h"
#include "adapter/final_state.h"
#include "adapter/run_marker.h"
#include "db/ownership.h"
#include "measure/verify.h"
#include "model/result.h"

/* The dollar quote of the trigger function's body; a manifest column naming it is refused. */
#define BODY_QUOTE "$claimbench_audit$"

/*
 * The trigger function, a format of %1$s its name (quoted, the audit table's), %2$s the
 * manifest's job_column, %3$s its state_column, %4$s its owner note. It reads the row's job
 * and state by the manifest's own SQL over the row before and after the change, and writes
 * one row of the record for a row that names a job.
 */
static const char function_sql[] =
	"CREATE FUNCTION %1$s() RETURNS trigger LANGUAGE plpgsql AS " BODY_QUOTE "\n"
	"#variable_conflict use_column\n"
	"DECLARE cb_job bigint; cb_old text; cb_new text; "
	"BEGIN"
	" IF TG_OP <> 'INSERT' THEN"
	" SELECT (%2$s)::bigint, (%3$s)::text INTO cb_job, cb_old FROM (SELECT OLD.*) AS cb_row; END IF;"
	" IF TG_OP <> 'DELETE' THEN"
	" SELECT (%2$s)::bigint, (%3$s)::text INTO cb_job, cb_new FROM (SELECT NEW.*) AS cb_row; END IF;"
	" IF cb_job IS NOT NULL THEN"
	" INSERT INTO %1$s (op, job, old_state, new_state)"
	" VALUES (CASE TG_OP WHEN 'INSERT' THEN 0 WHEN 'UPDATE' THEN 1 ELSE 2 END, cb_job, cb_old, cb_new); END IF;"
	" RETURN NULL; "
	"END " BODY_QUOTE ";"
	"COMMENT ON FUNCTION %1$s() IS '%4$s'";

/* Runs sql on au's session. 0, or -1 with err saying what failed. */
static int run(struct adapter_audit *au, const char *sql, const char *what, char *err, size_t errlen)
{
	if (au->db->exec(au->conn, sql) == 0)
		return 0;
	snprintf(err, errlen, "--verify: %s: %s", what, au->db->error_message(au->conn));
	return -1;
}

/* Stores the first column of a row, as text, into the buffer of 8 bytes at ctx. 0. */
static int store_kind(void *ctx, const char *const *cols, int ncols)
{
	snprintf(ctx, 8, "%s", ncols >= 1 && cols[0] ? cols[0] : "");
	return 0;
}

/*
 * Refuses a state table (its name as SQL, {queue} replaced) that is not a table of rows:
 * a view's rows change by nothing the server records. 0, or -1 with err.
 */
static int check_state_table(struct adapter_audit *au, const struct adapter_manifest *m, const char *table, char *err,
			     size_t errlen)
{
	const char *params[1] = { table };
	char kind[8] = "";

	if (au->db->query_text(au->conn, "SELECT relkind::text FROM pg_class WHERE oid = to_regclass($1)", 1, params,
			       store_kind, kind) < 0) {
		snprintf(err, errlen, "--verify: reading what the state table %s is: %s", table,
			 au->db->error_message(au->conn));
		return -1;
	}
	if (strcmp(kind, "r") == 0 || strcmp(kind, "p") == 0)
		return 0;
	if (!*kind)
		snprintf(err, errlen, "adapter %s: --verify cannot check it: its state table %s is not there once its "
			 "replicas are ready", m->name, table);
	else
		snprintf(err, errlen, "adapter %s: --verify cannot check it: its state table %s is %s, whose rows change "
			 "by nothing the server records", m->name, table, strcmp(kind, "v") == 0 ? "a view"
			 : strcmp(kind, "m") == 0 ? "a materialized view" : "no table of rows");
	return -1;
}

/* Makes the audit table, marked as this run's, in one transaction. 0, or -1 with err. */
static int create_table(struct adapter_audit *au, char *err, size_t errlen)
{
	if (adapter_create_noted_table(au->db, au->conn, au->name, au->quoted,
				       "(seq bigserial PRIMARY KEY, op smallint NOT NULL, job bigint NOT NULL, old_state "
				       "text, new_state text, xid bigint NOT NULL DEFAULT txid_current(), at timestamptz "
				       "NOT NULL DEFAULT clock_timestamp())", "", "--verify: creating the audit table", err,
				       errlen) < 0)
		return -1;
	au->created = true;
	return 0;
}

/* Makes the trigger function with its owner note and its trigger on the state table. 0, or -1 with err. */
static int create_trigger(struct adapter_audit *au, const struct adapter_manifest *m, const char *table, char *err,
			  size_t errlen)
{
	struct owner o;
	char note[512], sql[4600];
	int n;

	if (strstr(m->job_column, BODY_QUOTE) || strstr(m->state_column, BODY_QUOTE)) {
		snprintf(err, errlen, "adapter %s: --verify cannot check it: its job_column or state_column holds %s",
			 m->name, BODY_QUOTE);
		return -1;
	}
	owner_self(&o);
	snprintf(o.table, sizeof(o.table), "%s", au->name);
	owner_format(&o, note, sizeof(note));
	n = snprintf(sql, sizeof(sql), function_sql, au->qualified, m->job_column, m->state_column, note);
	if (n < 0 || (size_t)n >= sizeof(sql)) {
		snprintf(err, errlen, "--verify: creating the audit trigger function: statement too long");
		return -1;
	}
	if (run(au, sql, "creating the audit trigger function", err, errlen) < 0)
		return -1;
	au->function_made = true;
	snprintf(sql, sizeof(sql), "CREATE TRIGGER claimbench_audit AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW "
		 "EXECUTE FUNCTION %s()", table, au->qualified);
	return run(au, sql, "creating the state table's trigger", err, errlen);
}

/* Stores the first column of a row, as text, into the buffer of 200 bytes at ctx. 0. */
static int store_schema(void *ctx, const char *const *cols, int ncols)
{
	snprintf(ctx, 200, "%s", ncols >= 1 && cols[0] ? cols[0] : "");
	return 0;
}

/* Writes au->qualified: the audit table's name in the schema it is made in (the session's current one). 0, or -1 with err. */
static int qualify(struct adapter_audit *au, char *err, size_t errlen)
{
	char schema[200] = "";

	if (au->db->query_text(au->conn, "SELECT quote_ident(current_schema())", 0, NULL, store_schema, schema) < 0) {
		snprintf(err, errlen, "--verify: reading the schema the audit table goes in: %s",
			 au->db->error_message(au->conn));
		return -1;
	}
	if (!*schema) {
		snprintf(err, errlen, "--verify: the session has no current schema for the audit table (its search_path)");
		return -1;
	}
	snprintf(au->qualified, sizeof(au->qualified), "%s.%s", schema, au->quoted);
	return 0;
}

int adapter_audit_install(struct adapter_audit *au, const struct backend_ops *db, const char *target,
			  const struct db_options *opts, const struct adapter_manifest *m, const char *queue, char *err,
			  size_t errlen)
{
	char table[512];

	int rc = -1;

	*au = (struct adapter_audit){ .db = db, .target = target, .opts = opts, .installed = true };
	snprintf(au->name, sizeof(au->name), "%.100s" ADAPTER_AUDIT_SUFFIX, queue);
	if (adapter_expand(m->state_table, queue, table, sizeof(table)) < 0) {
		snprintf(err, errlen, "--verify: the state table's name is too long");
		return -1;
	}
	if (!(au->conn = adapter_connect(db, target, opts, err, errlen)))
		return -1;
	if (db->quote_identifier(au->conn, au->name, au->quoted, sizeof(au->quoted)) < 0)
		snprintf(err, errlen, "--verify: cannot quote the audit table's name %s", au->name);
	else if (qualify(au, err, errlen) == 0 && check_state_table(au, m, table, err, errlen) == 0 &&
		 create_table(au, err, errlen) == 0)
		rc = create_trigger(au, m, table, err, errlen);
	db->disconnect(au->conn);
	au->conn = NULL;
	return rc;
}

/* Where read_event puts the record's rows. */
struct event_sink {
	const struct adapter_manifest *m;	/* whose lists say what a state is */
	struct adapter_event *events;		/* the rows so far */
	size_t n;				/* entries used */
	size_t cap;				/* entries allocated */
	bool out_of_memory;			/* the rows did not fit in memory */
};

/* Stores one row of the record (seq, op, job, old_state, new_state). 0, or -1 when out of memory. */
static int read_event(void *ctx, const char *const *c, int ncols)
{
	struct event_sink *sink = ctx;
	int op;

	if (ncols < 5 || !c[0] || !c[1] || !c[2])
		return -1;
	if (sink->n == sink->cap) {
		size_t cap = sink->cap ? 2 * sink->cap : 4096;
		struct adapter_event *grown = realloc(sink->events, cap * sizeof(*grown));

		if (!grown) {
			sink->out_of_memory = true;
			return -1;
		}
		sink->events = grown;
		sink->cap = cap;
	}
	op = atoi(c[1]);
	sink->events[sink->n++] = (struct adapter_event){
		.seq = strtoll(c[0], NULL, 10),
		.job = strtoll(c[2], NULL, 10),
		.op = op,
		.old_status = op == AUDIT_INSERT ? JOB_MISSING : adapter_state_status(sink->m, c[3] ? c[3] : ""),
		.new_status = op == AUDIT_DELETE ? (sink->m->absent_done ? JOB_DONE : JOB_MISSING)
						 : adapter_state_status(sink->m, c[4] ? c[4] : ""),
	};
	return 0;
}

int adapter_audit_read(struct adapter_audit *au, const struct adapter_manifest *m, struct adapter_event **events,
		       size_t *n, char *err, size_t errlen)
{
	struct event_sink sink = { .m = m };
	char sql[512];

	int rc = 0;

	snprintf(sql, sizeof(sql), "SELECT seq, op, job, old_state, new_state FROM %s ORDER BY seq", au->quoted);
	if (!(au->conn = adapter_connect(au->db, au->target, au->opts, err, errlen)))
		return -1;
	if (au->db->query_text(au->conn, sql, 0, NULL, read_event, &sink) < 0) {
		snprintf(err, errlen, "--verify: reading the audit table: %s",
			 sink.out_of_memory ? "out of memory" : au->db->error_message(au->conn));
		free(sink.events);
		rc = -1;
	} else {
		*events = sink.events;
		*n = sink.n;
	}
	au->db->disconnect(au->conn);
	au->conn = NULL;
	return rc;
}

int adapter_audit_drop(struct adapter_audit *au, char *err, size_t errlen)
{
	char sql[512];
	int rc = 0;

	if (!au->created && !au->function_made)
		return 0;
	if (!(au->conn = adapter_connect(au->db, au->target, au->opts, err, errlen)))
		return -1;
	snprintf(sql, sizeof(sql), "DROP FUNCTION IF EXISTS %s() CASCADE", au->quoted);
	if (au->function_made && run(au, sql, "dropping the audit trigger function", err, errlen) < 0)
		rc = -1;
	snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS %s", au->quoted);
	if (rc == 0 && au->created && run(au, sql, "dropping the audit table", err, errlen) < 0)
		rc = -1;
	au->db->disconnect(au->conn);
	au->conn = NULL;
	return rc;
}
