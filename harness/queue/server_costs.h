/*
 * The server's side of a run's costs (measure/costs.h): which counters tell them, read
 * just before the start gate opens and once the workers have stopped, so that set-up and
 * verification are outside the two readings. PostgreSQL 14 on; MariaDB's global status
 * (the server's, database-wide); SQLite's pages are the workers' own connections' counts
 * (db_waits).
 */
#ifndef CLAIMBENCH_SERVER_COSTS_H
#define CLAIMBENCH_SERVER_COSTS_H

#include <stdbool.h>

#include "db/backend.h"
#include "measure/costs.h"

struct admin;
struct run_shared;

/* How the run's server costs are read, decided once before the workers connect. */
struct server_costs {
	bool readable;			/* the server's counters can be read (PostgreSQL 14 on) */
	bool by_statement;		/* from pg_stat_statements, where only the workers' sessions are tracked;
					 * else the database's (buffers) and the cluster's (WAL) deltas */
	const char *worker_sql;		/* what a worker's session runs once connected (tracks its statements); NULL: none */
	const char *flush_sql;		/* what makes a session's table statistics visible at once; NULL: none, the rows
					 * figure is then not known unless live */
	bool live;			/* the counters move as statements run (MariaDB's global status): nothing to flush */
	bool read_before;		/* before was read */
	bool read_after;		/* after was read */
	struct server_counts before;	/* the counters just before the start gate opened */
	struct server_counts after;	/* and once the workers had stopped */
};

/*
 * Decides, on the admin connection a, how the server costs of s are read, into s->costs:
 * pg_stat_statements by statement when the extension is installed in the database, its
 * tracking is off by default (pg_stat_statements.track = none, as on the throwaway server)
 * and a's role may turn it on in the workers' sessions (a superuser); else database-wide.
 * Nothing is readable on SQLite or before PostgreSQL 14, or when the question fails.
 */
void server_costs_plan(struct admin *a, struct run_shared *s);

/*
 * Reads the server's counters for s into out: first makes a's own pending statistics
 * visible (flush_sql), then one statement. true when read; false (with out all -1) when
 * not readable or the statement failed.
 */
bool server_costs_read(struct admin *a, const struct run_shared *s, struct server_counts *out);

/*
 * A worker's session's part: on conn, makes its pending statistics visible now (flush_sql),
 * once its last statement of the run is over. Errors are ignored: the rows figure lags.
 */
void server_costs_flush(const struct run_shared *s, struct db_conn *conn);

#endif
