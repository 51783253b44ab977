#include <stdio.h>
#include <string.h>

#include "adapter/final_state.h"
#include "adapter/run_marker.h"
#include "db/ownership.h"

int adapter_create_noted_table(const struct backend_ops *db, struct db_conn *conn, const char *name,
			       const char *quoted, const char *columns, const char *rows, const char *what, char *err,
			       size_t errlen)
{
	struct owner o;
	char note[512], sql[2048];
	int n;

	owner_self(&o);
	snprintf(o.table, sizeof(o.table), "%s", name);
	owner_format(&o, note, sizeof(note));
	n = snprintf(sql, sizeof(sql), "CREATE TABLE %s %s;%s", quoted, columns, rows);
	if (n < 0 || (size_t)n >= sizeof(sql) ||
	    snprintf(sql + n, sizeof(sql) - (size_t)n, db->sql->mark, note, quoted) >= (int)(sizeof(sql) - (size_t)n)) {
		snprintf(err, errlen, "%s: statement too long", what);
		return -1;
	}
	if (owner_refuse_existing(db, conn, name, err, errlen) < 0)
		return -1;
	return owner_create_table(db, conn, sql, name, what, err, errlen);
}

/* Whether name is an adapter's folder name as the manifest allows it: letters, digits, '-', '_' and '.'. */
static bool adapter_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n < 64 && name[0] != '.' &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.") == n;
}

/* Writes the marker's name and its quoted form for queue, on conn. 0, or -1 with err. */
static int marker_names(const struct backend_ops *db, struct db_conn *conn, const char *queue, char *name,
			size_t len, char *quoted, size_t qlen, char *err, size_t errlen)
{
	if ((size_t)snprintf(name, len, "%s%s", queue, ADAPTER_MARKER_SUFFIX) >= len ||
	    db->quote_identifier(conn, name, quoted, qlen) < 0) {
		snprintf(err, errlen, "the run's marker table: its name is too long");
		return -1;
	}
	return 0;
}

int adapter_marker_create(const struct backend_ops *db, const char *target, const struct db_options *opts,
			  const struct adapter_manifest *m, const char *queue, char *err, size_t errlen)
{
	char name[128], quoted[160], rows[256];
	struct db_conn *conn;
	int rc = -1;

	if (!adapter_name_ok(m->name)) {
		snprintf(err, errlen, "adapter %s: its name is not one the run's marker can carry", m->name);
		return -1;
	}
	if (!(conn = adapter_connect(db, target, opts, err, errlen)))
		return -1;
	if (marker_names(db, conn, queue, name, sizeof(name), quoted, sizeof(quoted), err, errlen) == 0) {
		snprintf(rows, sizeof(rows), " INSERT INTO %s VALUES ('%s');", quoted, m->name);
		rc = adapter_create_noted_table(db, conn, name, quoted, "(adapter text NOT NULL)", rows,
						"making the run's marker table", err, errlen);
	}
	db->disconnect(conn);
	return rc;
}

int adapter_marker_drop(const struct backend_ops *db, const char *target, const struct db_options *opts,
			const char *queue, char *err, size_t errlen)
{
	char name[128], quoted[160], sql[200];
	struct db_conn *conn = adapter_connect(db, target, opts, err, errlen);
	int rc = -1;

	if (!conn)
		return -1;
	if (marker_names(db, conn, queue, name, sizeof(name), quoted, sizeof(quoted), err, errlen) == 0) {
		snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS %s", quoted);
		rc = db->exec(conn, sql);
		if (rc < 0)
			snprintf(err, errlen, "cannot drop the run's marker table %s: %s", name, db->error_message(conn));
	}
	db->disconnect(conn);
	return rc;
}

bool adapter_queue_name_ok(const char *queue)
{
	size_t n = strlen(queue), digits = 0;

	if (strspn(queue, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.") != n)
		return false;
	while (digits < n && queue[n - 1 - digits] >= '0' && queue[n - 1 - digits] <= '9')
		digits++;
	return digits > 0 && digits < n && queue[n - 1 - digits] == 'a';
}

bool adapter_marker_queue(const char *table, char *queue, size_t len)
{
	size_t n = strlen(table), suffix = strlen(ADAPTER_MARKER_SUFFIX);

	if (n <= suffix || strcmp(table + n - suffix, ADAPTER_MARKER_SUFFIX) != 0 || n - suffix >= len)
		return false;
	memcpy(queue, table, n - suffix);
	queue[n - suffix] = '\0';
	return true;
}

/* Stores the first column of the first row, as text, into the buffer of 64 bytes at ctx. 0. */
static int store_name(void *ctx, const char *const *cols, int ncols)
{
	char *name = ctx;

	if (!*name)
		snprintf(name, 64, "%s", ncols >= 1 && cols[0] ? cols[0] : "");
	return 0;
}

int adapter_marker_read(const struct backend_ops *db, struct db_conn *conn, const char *table, char *name,
			size_t len, char *err, size_t errlen)
{
	char quoted[160], sql[200], found[64] = "";

	if (db->quote_identifier(conn, table, quoted, sizeof(quoted)) < 0) {
		snprintf(err, errlen, "its name cannot be quoted");
		return -1;
	}
	snprintf(sql, sizeof(sql), "SELECT adapter FROM %s", quoted);
	if (db->query_text(conn, sql, 0, NULL, store_name, found) < 0) {
		snprintf(err, errlen, "it cannot be read: %s", db->error_message(conn));
		return -1;
	}
	if (!adapter_name_ok(found) || strlen(found) >= len) {
		snprintf(err, errlen, "it names no adapter");
		return -1;
	}
	snprintf(name, len, "%s", found);
	return 0;
}
