/* The throwaway PostgreSQL (struct backend_throwaway): a cluster of its own (tmp_postgres.h) and its standby (standby.h). */
#ifndef CLAIMBENCH_THROWAWAY_PG_H
#define CLAIMBENCH_THROWAWAY_PG_H

#include "db/backend.h"

/* The throwaway PostgreSQL's life cycle, backend_postgresql's .throwaway. */
extern const struct backend_throwaway throwaway_postgresql;

#endif
