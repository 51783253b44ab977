/* The throwaway SQLite database (struct backend_throwaway): a file in a temporary directory of its own. */
#ifndef CLAIMBENCH_THROWAWAY_SQLITE_H
#define CLAIMBENCH_THROWAWAY_SQLITE_H

#include "db/backend.h"

/* The throwaway SQLite file's life cycle, backend_sqlite's .throwaway. */
extern const struct backend_throwaway throwaway_sqlite;

#endif
