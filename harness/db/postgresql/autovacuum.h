/*
 * The throwaway PostgreSQL's autovacuum for a run (--autovacuum, enum autovacuum_mode;
 * docs/phases.md#autovacuum): its settings written with ALTER SYSTEM into the cluster's own
 * postgresql.auto.conf, reloaded, and in force once a new session runs with them.
 */
#ifndef CLAIMBENCH_POSTGRESQL_AUTOVACUUM_H
#define CLAIMBENCH_POSTGRESQL_AUTOVACUUM_H

#include <stddef.h>

#include "db/postgresql/tmp_postgres.h"

/* Sets pg's autovacuum to mode and waits until a new session sees every setting of it. 0, or -1 with err. */
int autovacuum_set(const struct tmp_postgres *pg, int mode, char *err, size_t errlen);

#endif
