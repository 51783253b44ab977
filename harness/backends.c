/* The backend drivers claimbench knows. */
#include "backend.h"

const struct backend_ops *const backend_registry[BACKEND_COUNT] = {
	[BACKEND_POSTGRESQL] = &backend_postgresql,
	[BACKEND_SQLITE] = &backend_sqlite,
};
