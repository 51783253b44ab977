#include <stdio.h>
#include <unistd.h>

#include "db/ownership.h"
#include "engine/run_tables.h"

void run_tables_prefix(const char *configured, char *buf, size_t len)
{
	if (configured)
		snprintf(buf, len, "%s", configured);
	else
		snprintf(buf, len, "claimbench_%ld_", (long)getpid());
}

int run_table_name(const struct backend_ops *db, struct db_conn *conn, const char *prefix, const char *suffix,
		   char *name, size_t namelen, char *quoted, size_t quotedlen, char *err, size_t errlen)
{
	snprintf(name, namelen, "%s%s", prefix, suffix);
	if (db->quote_identifier(conn, name, quoted, quotedlen) < 0) {
		snprintf(err, errlen, "cannot quote the table names of prefix %s", prefix);
		return -1;
	}
	return 0;
}

int run_tables_exec(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names,
		    const char *tmpl, const char *what, char *err, size_t errlen)
{
	char sql[RUN_TABLES_SQL_MAX];

	if (sql_expand(tmpl, names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "%s: statement too long", what);
		return -1;
	}
	if (db->exec(conn, sql) < 0) {
		snprintf(err, errlen, "%s: %s", what, db->error_message(conn));
		return -1;
	}
	return 0;
}

int run_tables_create(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names,
		      const char *tmpl, const char *name, const char *what, char *err, size_t errlen)
{
	char sql[RUN_TABLES_SQL_MAX];

	if (sql_expand(tmpl, names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "%s: statement too long", what);
		return -1;
	}
	return owner_create_table(db, conn, sql, name, what, err, errlen);
}
