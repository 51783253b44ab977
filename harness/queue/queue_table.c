#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "db/ownership.h"
#include "engine/run_plan.h"
#include "engine/sql_template.h"
#include "queue/queue_table.h"
#include "queue/verify_audit.h"

/* Statements every engine takes as written; the queue table's DDL and the rest are the backend's (db/backend_sql.h). */
static const char *const final_state_sql =
	"SELECT id, CASE status WHEN 'new' THEN 0 WHEN 'active' THEN 1 WHEN 'done' THEN 2 ELSE 3 END,"
	" coalesce(claimed_by, -1) FROM {jobs}";

static const char *const drop_jobs_sql = "DROP TABLE IF EXISTS {jobs}";
static const char *const drop_tickets_sql = "DROP TABLE IF EXISTS {tickets}";
static const char *const drop_writer_sql = "DROP TABLE IF EXISTS {writer}";

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
	if (run_tables_create(s->db, conn, &s->names, s->db->sql->create_queue, s->jobs_name, "creating the queue table",
			      err, errlen) < 0)
		return -1;
	s->created_jobs = true;
	if (setup && (stopped_before(s, "creating the strategy's tables", err, errlen) ||
		      run_tables_create(s->db, conn, &s->names, setup, s->tickets_name, "creating the strategy's tables", err,
				errlen) < 0))
		return -1;
	s->created_tickets = setup != NULL;
	if (*s->writer_name) {
		if (owner_refuse_existing(s->db, conn, s->writer_name, err, errlen) < 0 ||
		    run_tables_create(s->db, conn, &s->names, s->db->sql->timeline->create_writer, s->writer_name,
				      "creating the long-writer's table", err, errlen) < 0)
			return -1;
		s->created_writer = true;
	}
	if (stopped_before(s, "loading the jobs", err, errlen))
		return -1;
	if (s->db->load_jobs(conn, s->jobs_table, s->cfg, n) < 0) {
		snprintf(err, errlen, "loading %ld jobs: %s", n, s->db->error_message(conn));
		return -1;
	}
	if (s->db->sql->publish_counters &&
	    run_tables_exec(s->db, conn, &s->names, s->db->sql->publish_counters, "publishing the load's counters", err,
			    errlen) < 0)
		return -1;
	if (stopped_before(s, "analysing the queue table", err, errlen))
		return -1;
	return run_tables_exec(s->db, conn, &s->names, s->db->sql->analyze_queue, "analysing the queue table", err,
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

	if (!s->db->sql->reap_begin)
		return give_back_rows(conn, s, reap_sql, "reaping", l, reaped, err, errlen);
	if (s->db->exec(conn, s->db->sql->reap_begin) < 0) {
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
	if (s->created_writer && run_tables_exec(s->db, conn, &s->names, drop_writer_sql, "dropping the long-writer's table",
						 err, errlen) < 0)
		return -1;
	s->created_writer = false;
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
