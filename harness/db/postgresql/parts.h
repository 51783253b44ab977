/*
 * The parts of the PostgreSQL backend that its driver puts together in backend_postgresql (struct
 * backend_ops): the throwaway server's life cycle (throwaway_pg.c: a cluster of its own (tmp_postgres.h) and its standby (standby.h)) and the SQL the
 * harness itself sends (postgresql/harness_sql.c, struct backend_sql).
 */
#ifndef CLAIMBENCH_POSTGRESQL_PARTS_H
#define CLAIMBENCH_POSTGRESQL_PARTS_H

#include "db/backend.h"
#include "db/backend_sql.h"

/* The throwaway's life cycle, backend_postgresql's .throwaway. */
extern const struct backend_throwaway throwaway_postgresql;

/* The harness's own statements in PostgreSQL's SQL, backend_postgresql's .sql. */
extern const struct backend_sql postgresql_harness_sql;

#endif
