#include "model/error_kind.h"

const char *error_kind_name(enum error_kind kind)
{
	static const char *const names[ERR_KIND_COUNT] = {
		[ERR_LOCK_NOT_AVAILABLE] = "lock_not_available",
		[ERR_DEADLOCK] = "deadlock",
		[ERR_SERIALIZATION] = "serialization",
		[ERR_SQLITE_BUSY] = "sqlite_busy",
		[ERR_SQLITE_BUSY_SNAPSHOT] = "sqlite_busy_snapshot",
		[ERR_CONNECTION_LOST] = "connection_lost",
		[ERR_STATEMENT_TIMEOUT] = "statement_timeout",
		[ERR_LOCK_WAIT_TIMEOUT] = "lock_wait_timeout",
		[ERR_OTHER] = "other",
	};

	return (unsigned)kind < ERR_KIND_COUNT ? names[kind] : "unknown";
}

bool error_kind_is_contention(enum error_kind kind)
{
	return kind == ERR_LOCK_NOT_AVAILABLE || kind == ERR_DEADLOCK || kind == ERR_SERIALIZATION ||
	       kind == ERR_SQLITE_BUSY || kind == ERR_SQLITE_BUSY_SNAPSHOT || kind == ERR_LOCK_WAIT_TIMEOUT;
}
