#include <stdio.h>

#include "engine/statement.h"

int statement_prepare(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names, int slot,
		      const char *tmpl, int nparams, const char *origin, char *err, size_t errlen)
{
	char sql[STATEMENT_SQL_MAX];

	if (sql_expand(tmpl, names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "statement %d is too long", slot);
		return -1;
	}
	if (db->prepare(conn, slot, sql, nparams) < 0) {
		if (origin)
			snprintf(err, errlen, "%s: %s", origin, db->error_message(conn));
		else
			snprintf(err, errlen, "preparing statement %d: %s", slot, db->error_message(conn));
		return -1;
	}
	return 0;
}
