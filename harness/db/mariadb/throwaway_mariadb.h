/* The throwaway MariaDB (struct backend_throwaway): a server of its own (tmp_mariadb.h). */
#ifndef CLAIMBENCH_THROWAWAY_MARIADB_H
#define CLAIMBENCH_THROWAWAY_MARIADB_H

#include "db/backend.h"

/* The throwaway MariaDB's life cycle, backend_mariadb's .throwaway. */
extern const struct backend_throwaway throwaway_mariadb;

#endif
