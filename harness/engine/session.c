#include <stdio.h>

#include "engine/session.h"
#include "engine/signals.h"

int session_open(const struct backend_ops *db, const char *target, const struct db_options *opts,
		 const atomic_bool *stopped, struct db_conn **conn, char *err, size_t errlen)
{
	if (db->connect(target, opts, conn, err, errlen) < 0)
		return -1;
	if (signals_watch(db, *conn, stopped) < 0) {
		snprintf(err, errlen, "out of memory");
		db->disconnect(*conn);
		*conn = NULL;
		return -1;
	}
	return 0;
}

void session_close(const struct backend_ops *db, struct db_conn **conn, bool abandon)
{
	if (!*conn)
		return;
	signals_unwatch(*conn);
	if (abandon)
		db->abandon(*conn);
	else
		db->disconnect(*conn);
	*conn = NULL;
}

enum error_kind session_count_error(const struct backend_ops *db, struct db_conn *conn,
				    uint64_t counts[ERR_KIND_COUNT])
{
	enum error_kind kind = db->error_kind(conn);

	counts[kind]++;
	return kind;
}

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
