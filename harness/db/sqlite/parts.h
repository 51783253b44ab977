/*
 * The parts of the SQLite backend that its driver puts together in backend_sqlite (struct
 * backend_ops): the throwaway server's life cycle (throwaway_sqlite.c: a file in a temporary directory of its own) and the SQL the
 * harness itself sends (sqlite/harness_sql.c, struct backend_sql).
 */
#ifndef CLAIMBENCH_SQLITE_PARTS_H
#define CLAIMBENCH_SQLITE_PARTS_H

#include "db/backend.h"
#include "db/backend_sql.h"

/* The throwaway's life cycle, backend_sqlite's .throwaway. */
extern const struct backend_throwaway throwaway_sqlite;

/* The harness's own statements in SQLite's SQL, backend_sqlite's .sql. */
extern const struct backend_sql sqlite_harness_sql;

#endif
