#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "db/ownership.h"
#include "engine/run_tables.h"
#include "engine/sql_template.h"
#include "queue/queue_table.h"
#include "queue/verify_audit.h"

/*
 * How the reaper's transaction begins on PostgreSQL: its statement waits for a row lock
 * 100 ms at most and its commit waits for no synchronous standby, so that the monitor
 * thread that runs it is never held by a commit waiting on a standby that is cut off.
 */
#define REAP_BEGIN_PG "BEGIN; SET LOCAL lock_timeout = '100ms'; SET LOCAL synchronous_commit = local"

/*
 * The queue table and the indexes a real queue uses, per dialect (SQLite's timestamps are
 * julian days): new jobs in claim order, and active ones by the end of their lease, which
 * makes claiming or reaping an expired lease cheap.
 */
static const char *const create_sql[DIALECT_COUNT] = {
	[DIALECT_POSTGRESQL] =
		"CREATE TABLE {jobs} ("
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
	[DIALECT_SQLITE] =
		"CREATE TABLE {jobs} {mark:jobs} ("
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
	/* InnoDB has no partial indexes: the status leads after the queue, and the id or lease follows it. */
	[DIALECT_MARIADB] =
		"CREATE TABLE {jobs} ("
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
};

/*
 * PostgreSQL 15 and later: publish the load's table counters when this statement ends
 * (a backend does so at most once a second otherwise), before ANALYZE sets the live
 * tuples, so that the server's samples start from them rather than see them arrive (and
 * counted twice) in the run's first second.
 */
static const char *const publish_counters_sql[DIALECT_COUNT] = {
	[DIALECT_POSTGRESQL] = "DO $$ BEGIN IF current_setting('server_version_num')::int >= 150000 THEN "
			       "PERFORM pg_stat_force_next_flush(); END IF; END $$",
};

static const char *const analyze_sql[DIALECT_COUNT] = {
	[DIALECT_POSTGRESQL] = "ANALYZE {jobs}",
	[DIALECT_SQLITE] = "ANALYZE {jobs}",
	[DIALECT_MARIADB] = "ANALYZE TABLE {jobs}",
};

static const char *const final_state_sql =
	"SELECT id, CASE status WHEN 'new' THEN 0 WHEN 'active' THEN 1 WHEN 'done' THEN 2 ELSE 3 END,"
	" coalesce(claimed_by, -1) FROM {jobs}";

static const char *const drop_jobs_sql = "DROP TABLE IF EXISTS {jobs}";
static const char *const drop_tickets_sql = "DROP TABLE IF EXISTS {tickets}";

/*
 * Whether the run of s was stopped before the setup's next step (which a signal that came
 * after the last cancel could not cancel): true with err saying so.
 */
static bool stopped_before(const struct run_shared *s, const char *step, char *err, size_t errlen)
{
	if (!run_stopping(&s->gate))
		return false;
	snprintf(err, errlen, "stopped before %s", step);
	return true;
}

int queue_table_create(struct db_conn *conn, struct run_shared *s, long n, char *err, size_t errlen)
{
	const char *setup = s->strategy->setup_sql[s->db->dialect];

	if (owner_refuse_existing(s->db, conn, s->jobs_name, err, errlen) < 0 ||
	    owner_refuse_existing(s->db, conn, s->tickets_name, err, errlen) < 0)
		return -1;
	if (run_tables_create(s->db, conn, &s->names, create_sql[s->db->dialect], s->jobs_name, "creating the queue table",
			      err, errlen) < 0)
		return -1;
	s->created_jobs = true;
	if (setup && (stopped_before(s, "creating the strategy's tables", err, errlen) ||
		      run_tables_create(s->db, conn, &s->names, setup, s->tickets_name, "creating the strategy's tables", err,
				errlen) < 0))
		return -1;
	s->created_tickets = setup != NULL;
	if (stopped_before(s, "loading the jobs", err, errlen))
		return -1;
	if (s->db->load_jobs(conn, s->jobs_table, s->cfg, n) < 0) {
		snprintf(err, errlen, "loading %ld jobs: %s", n, s->db->error_message(conn));
		return -1;
	}
	if (publish_counters_sql[s->db->dialect] &&
	    run_tables_exec(s->db, conn, &s->names, publish_counters_sql[s->db->dialect], "publishing the load's counters",
			    err, errlen) < 0)
		return -1;
	if (stopped_before(s, "analysing the queue table", err, errlen))
		return -1;
	return run_tables_exec(s->db, conn, &s->names, analyze_sql[s->db->dialect], "analysing the queue table", err,
			       errlen);
}

/* Where final-state rows go. */
struct final_state_sink {
	struct job_state *states;	/* one per job, indexed id-1 */
	long n;				/* entries in states */
	long unexpected;		/* rows whose id is outside 1..n */
};

/* Stores one (id, status, claimed_by) row. */
static int store_state(void *ctx, const int64_t *cols, int ncols)
{
	struct final_state_sink *sink = ctx;

	if (ncols < 3 || cols[0] < 1 || cols[0] > sink->n) {
		sink->unexpected++;
		return 0;
	}
	sink->states[cols[0] - 1].status = (int32_t)cols[1];
	sink->states[cols[0] - 1].claimed_by = (int32_t)cols[2];
	return 0;
}

int queue_table_final_state(struct db_conn *conn, const struct run_shared *s, struct job_state *states, long n,
			    char *err, size_t errlen)
{
	struct final_state_sink sink = { .states = states, .n = n };
	char sql[1024];
	const char *tmpl = s->strategy->final_state_sql[s->db->dialect];

	for (long i = 0; i < n; i++)
		states[i] = (struct job_state){ .status = JOB_MISSING, .claimed_by = -1 };
	if (sql_expand(tmpl ? tmpl : final_state_sql, &s->names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "reading the final state: statement too long");
		return -1;
	}
	if (s->db->query(conn, sql, store_state, &sink) < 0) {
		snprintf(err, errlen, "reading the final state: %s", s->db->error_message(conn));
		return -1;
	}
	if (sink.unexpected) {
		snprintf(err, errlen, "the queue table holds %ld rows with unexpected ids", sink.unexpected);
		return -1;
	}
	return 0;
}

/* Stores the first column of a one-row count. */
static int store_count(void *ctx, const int64_t *cols, int ncols)
{
	if (ncols >= 1)
		*(int64_t *)ctx = cols[0];
	return 0;
}

int queue_table_leftovers(struct db_conn *conn, const struct run_shared *s, int64_t *count, char *err, size_t errlen)
{
	const char *tmpl = s->strategy->leftover_sql[s->db->dialect];
	char sql[1024];

	*count = 0;
	if (!tmpl)
		return 0;
	if (sql_expand(tmpl, &s->names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "counting the %s left: statement too long", s->strategy->leftover_what);
		return -1;
	}
	if (s->db->query(conn, sql, store_count, count) < 0) {
		snprintf(err, errlen, "counting the %s left: %s", s->strategy->leftover_what, s->db->error_message(conn));
		return -1;
	}
	return 0;
}

int queue_table_clear_errors(struct db_conn *conn, const struct run_shared *s, char *err, size_t errlen)
{
	return run_tables_exec(s->db, conn, &s->names,
			       "UPDATE {jobs} SET status = 'new', claimed_by = NULL WHERE status = 'error'",
			       "clearing the errors", err, errlen);
}

/* Where give_back_rows notes each job a statement gave back. */
struct returns_ctx {
	struct ledger *ledger;	/* the returns go here */
	int64_t start_ns;	/* when the statement began, ns since the start barrier */
	uint64_t rows;		/* jobs it gave back */
	bool full;		/* a return could not be noted: out of memory */
};

/* Notes the job of a row (its id) as given back by the statement of ctx, a struct returns_ctx. */
static int note_return(void *ctx, const int64_t *cols, int ncols)
{
	struct returns_ctx *r = ctx;
	struct job_return ret = { .job_id = ncols > 0 ? cols[0] : 0, .start_ns = r->start_ns };

	r->rows++;
	if (ledger_add_return(r->ledger, &ret) < 0)
		r->full = true;
	return 0;
}

/*
 * Runs sql, a statement that gives active jobs back to new RETURNING their ids, noting
 * each in l's returns with the statement's instants, and adds their number to *count
 * (NULL: not counted). 0; -1 with err (doing what); -2 when out of memory for the returns.
 */
static int give_back_rows(struct db_conn *conn, const struct run_shared *s, const char *sql_template,
			  const char *doing, struct ledger *l, uint64_t *count, char *err, size_t errlen)
{
	struct returns_ctx ctx = { .ledger = l, .start_ns = clock_now_ns() - s->gate.start_ns };
	size_t first = l->n_returns;
	char sql[1024];
	int64_t end;

	if (sql_expand(sql_template, &s->names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "%s: statement too long", doing);
		return -1;
	}
	if (s->db->query(conn, sql, note_return, &ctx) < 0) {
		snprintf(err, errlen, "%s: %s", doing, s->db->error_message(conn));
		return -1;
	}
	end = clock_now_ns() - s->gate.start_ns;
	for (size_t i = first; i < l->n_returns; i++)
		l->returns[i].end_ns = end;
	if (count)
		*count += ctx.rows;
	if (ctx.full) {
		snprintf(err, errlen, "%s: out of memory for the jobs given back", doing);
		return -2;
	}
	return 0;
}

int queue_table_free_stuck(struct db_conn *conn, const struct run_shared *s, struct ledger *l, char *err,
			   size_t errlen)
{
	return give_back_rows(conn, s, "UPDATE {jobs} SET status = 'new', claimed_by = NULL, lease_until = NULL "
			      "WHERE status = 'active' RETURNING id", "giving the stuck jobs back", l, NULL, err, errlen) < 0 ?
		       -1 : 0;
}

int queue_table_reap(struct db_conn *conn, const struct run_shared *s, struct ledger *l, uint64_t *reaped, char *err,
		     size_t errlen)
{
	static const char reap_sql[] = "UPDATE {jobs} SET status = 'new', claimed_by = NULL, lease_until = NULL "
				       "WHERE status = 'active' AND lease_until < {now} RETURNING id";
	size_t first = l->n_returns;
	uint64_t count = 0;
	int rc;

	if (s->db->dialect != DIALECT_POSTGRESQL)
		return give_back_rows(conn, s, reap_sql, "reaping", l, reaped, err, errlen);
	if (s->db->exec(conn, REAP_BEGIN_PG) < 0) {
		snprintf(err, errlen, "reaping: %s", s->db->error_message(conn));
		s->db->exec(conn, "ROLLBACK");
		return -1;
	}
	rc = give_back_rows(conn, s, reap_sql, "reaping", l, &count, err, errlen);
	if (rc != -1 && s->db->exec(conn, "COMMIT") < 0) {
		snprintf(err, errlen, "reaping: committing: %s", s->db->error_message(conn));
		rc = -1;
	}
	if (rc == -1) {
		s->db->exec(conn, "ROLLBACK");
		l->n_returns = first;
		return -1;
	}
	*reaped += count;
	return rc;
}

int queue_table_drop(struct db_conn *conn, struct run_shared *s, char *err, size_t errlen)
{
	if (verify_audit_drop(conn, s, err, errlen) < 0)
		return -1;
	if (s->created_tickets && run_tables_exec(s->db, conn, &s->names, drop_tickets_sql, "dropping the ticket table",
						  err, errlen) < 0)
		return -1;
	s->created_tickets = false;
	if (s->created_jobs &&
	    run_tables_exec(s->db, conn, &s->names, drop_jobs_sql, "dropping the queue table", err, errlen) < 0)
		return -1;
	s->created_jobs = false;
	return 0;
}

int queue_table_read_final(struct admin *a, const struct run_shared *s, struct job_state *final, long total,
			   char *err, size_t errlen)
{
	if (a->conn && queue_table_final_state(a->conn, s, final, total, err, errlen) == 0)
		return 0;
	if (admin_reconnected(a))
		return queue_table_final_state(a->conn, s, final, total, err, errlen);
	if (!a->conn)
		snprintf(err, errlen, "reading the final state: %s", a->failure);
	return -1;
}
