/*
 * The parts of the MariaDB backend that its driver puts together in backend_mariadb (struct
 * backend_ops): the throwaway server's life cycle (throwaway_mariadb.c: a server of its own (tmp_mariadb.h)) and the SQL the
 * harness itself sends (mariadb/harness_sql.c, struct backend_sql).
 */
#ifndef CLAIMBENCH_MARIADB_PARTS_H
#define CLAIMBENCH_MARIADB_PARTS_H

#include "db/backend.h"
#include "db/backend_sql.h"

/* The throwaway's life cycle, backend_mariadb's .throwaway. */
extern const struct backend_throwaway throwaway_mariadb;

/* The harness's own statements in MariaDB's SQL, backend_mariadb's .sql. */
extern const struct backend_sql mariadb_harness_sql;

#endif
