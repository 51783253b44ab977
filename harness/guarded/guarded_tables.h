/*
 * The tables of a guarded-resource run and the harness's statements on them: the cache
 * (CACHE_SLOTS rows, each with the version and stale period of the refresh that wrote it)
 * and the control table (the status row of refresh and exclusive-use; the ticket line of
 * the resource workload), made, marked as the run's own and dropped, one pair per run.
 */
#ifndef CLAIMBENCH_GUARDED_TABLES_H
#define CLAIMBENCH_GUARDED_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"
#include "db/ownership.h"
#include "engine/sql_template.h"
#include "model/config.h"

/* Rows of the cache; a use that reads fewer, or rows of different refreshes, read it half-written. */
#define CACHE_SLOTS 16

/* The statements the harness prepares on each guarded worker's connection, by slot. */
enum guarded_slot {
	GSLOT_BEGIN_USER,	/* the guard's user begin_sql */
	GSLOT_LOCK_USER,	/* its user lock_sql */
	GSLOT_BEGIN_WRITER,	/* its writer begin_sql (exclusive-use's refresher) */
	GSLOT_LOCK_WRITER,	/* its writer lock_sql */
	GSLOT_RELEASE_USER,	/* its user release_sql, when it has one */
	GSLOT_RELEASE_WRITER,	/* its writer release_sql, when it has one */
	GSLOT_COMMIT,		/* () COMMIT */
	GSLOT_ROLLBACK,		/* () ROLLBACK; on MariaDB the session's locks released too (GET_LOCK's, LOCK TABLES) */
	GSLOT_READ_STATUS,	/* () the status row: period, refreshed_ns */
	GSLOT_WRITE_HALF_1,	/* ($1 version, $2 period) the first half of the cache's rows */
	GSLOT_WRITE_HALF_2,	/* ($1 version, $2 period) the second half */
	GSLOT_MARK_STATUS,	/* ($1 period, $2 refreshed_ns) the status row says the cache is of period */
	GSLOT_EMPTY_CACHE,	/* () DELETE FROM the cache, or TRUNCATE it */
	GSLOT_FILL_CACHE,	/* ($1 version, $2 period) inserts the CACHE_SLOTS rows */
	GSLOT_READ_CACHE,	/* () min(version), max(version), min(period), count(*) of the cache */
	GSLOT_TAKE_TICKET,	/* ($1 resource, $2 worker, $3 1 write or 0 read, $4 taken_ns) RETURNING ticket */
	GSLOT_POLL_LINE,	/* ($1 resource, $2 ticket) tickets ahead, writes ahead */
	GSLOT_EXPIRE_TICKETS,	/* ($1 taken_ns) deletes the tickets taken before it, RETURNING ticket */
	GSLOT_DROP_TICKET,	/* ($1 ticket) deletes it, RETURNING ticket: no row when it was expired */
	GSLOT_COUNT
};

/* The run's two tables: names, quoted names, and whether the run made them. */
struct guarded_tables {
	const struct backend_ops *db;	/* the backend driver */
	enum workload workload;		/* which tables: the status row, or the ticket line */
	char cache_name[128];		/* the cache's name, unquoted */
	char control_name[128];		/* the control table's name, unquoted */
	char cache[160];		/* the cache's quoted name, {cache} in SQL */
	char control[160];		/* the control table's quoted name, {control} in SQL */
	struct owner owner;		/* this process, whose note marks each of them (for cleanup) */
	char wait_limit_s[16];		/* the run's wait limit in whole seconds, {wait_limit_s} in SQL */
	struct sql_names names;		/* what {cache}, {control}, {mark:...} and {wait_limit_s} stand for: the above */
	bool created_cache;		/* the run made the cache: it drops it */
	bool created_control;		/* the run made the control table: it drops it */
};

/*
 * Names t's tables (prefix, or claimbench_<pid>_, + "cache" and "control") on conn, keeps
 * the owner whose note will mark each, and what {wait_limit_s} stands for: wait_limit_ms
 * in whole seconds (cut: guard_refuses_wait_limit refused a limit that is no multiple of
 * 1000 where a guard's form wants one). 0, or -1 with err.
 */
int guarded_tables_name(struct guarded_tables *t, struct db_conn *conn, const char *prefix, int wait_limit_ms,
			char *err, size_t errlen);

/*
 * Creates t's tables for its workload, each marked with its own note in the transaction
 * that creates it, refusing when either exists already, with the status row at period 0
 * and the cache filled as of period 0 (stale at once). Notes in t each table it created
 * (once its CREATE succeeded, never before). 0, or -1 with err.
 */
int guarded_tables_create(struct guarded_tables *t, struct db_conn *conn, char *err, size_t errlen);

/* Drops those of t's tables the run made, and only those. 0, or -1 with err. */
int guarded_tables_drop(struct guarded_tables *t, struct db_conn *conn, char *err, size_t errlen);

/*
 * The harness's statement of slot (GSLOT_COMMIT and above) in sql's dialect (its guarded
 * statement where it has one, else the common text), {cache} and {control} not yet
 * expanded; truncates: the cache is emptied by sql's truncate_cache where it has one
 * (DELETE elsewhere). NULL: none.
 */
const char *guarded_statement(enum guarded_slot slot, const struct backend_sql *sql, bool truncates);

/* Parameters of the statement of slot. */
int guarded_statement_params(enum guarded_slot slot);

#endif
