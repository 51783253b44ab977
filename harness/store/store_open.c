/*
 * Opening the result store: the file created when missing, migrated through
 * store_migrations, then given a column in runs for every metric of the metric table
 * it lacks (REAL or INTEGER, NULL in the rows already there: unknown), so that a new
 * metric needs no migration of its own.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/metric_table.h"
#include "store/store_sql.h"

/* How long a statement waits for another process's lock on the store. */
#define STORE_BUSY_TIMEOUT_MS 10000

/* Creates the directory part of path when it is missing. 0, or -1 with err. */
static int make_parent(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (!slash || slash == path)
		return 0;
	if ((size_t)(slash - path) >= sizeof(dir)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create directory %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Applies the migrations db lacks, each in its own transaction that re-reads the
 * version under the write lock, so two processes opening one new file do not both
 * migrate it. Refuses a newer file and an SQLite file that is not a store.
 * 0, or -1 with err.
 */
static int migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char what[64];
	long long version, objects;

	for (;;) {
		if (sql_exec(db, "BEGIN IMMEDIATE", path, err, errlen) < 0)
			return -1;
		if (sql_query_int(db, "PRAGMA user_version", &version, err, errlen) < 0)
			goto rollback;
		if (version > store_schema_version) {
			snprintf(err, errlen,
				 "%s was written by a newer claimbench (schema version %lld; this one knows up to %d)",
				 path, version, store_schema_version);
			goto rollback;
		}
		if (version == store_schema_version)
			break;
		if (version == 0) {
			if (sql_query_int(db, "SELECT count(*) FROM sqlite_master", &objects, err, errlen) < 0)
				goto rollback;
			if (objects) {
				snprintf(err, errlen, "%s is an SQLite database but not a claimbench result store",
					 path);
				goto rollback;
			}
		}
		snprintf(what, sizeof(what), "migrating to schema version %lld", version + 1);
		if (sql_exec(db, store_migrations[version], what, err, errlen) < 0 ||
		    sql_exec(db, "COMMIT", what, err, errlen) < 0)
			goto rollback;
	}
	return sql_exec(db, "COMMIT", path, err, errlen);
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Sets has[i] to whether runs has metric_table[i]'s column. 0, or -1 with err. */
static int find_metric_columns(sqlite3 *db, bool *has, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	const char *name;
	int rc;

	if (sql_prepare(db, "SELECT name FROM pragma_table_info('runs')", &st, err, errlen) < 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(st, 0);
		for (size_t i = 0; name && i < metric_table_len; i++)
			has[i] |= strcmp(name, metric_table[i].column) == 0;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_fail(db, "reading the runs table's columns", err, errlen);
	return 0;
}

/* Adds to runs, in one transaction, a column for every metric it lacks. 0, or -1 with err. */
static int add_metric_columns(sqlite3 *db, char *err, size_t errlen)
{
	bool has[METRIC_MAX] = { false };
	char sql[256];

	if (sql_exec(db, "BEGIN IMMEDIATE", "adding metric columns", err, errlen) < 0)
		return -1;
	if (find_metric_columns(db, has, err, errlen) < 0)
		goto rollback;
	for (size_t i = 0; i < metric_table_len; i++) {
		if (has[i])
			continue;
		snprintf(sql, sizeof(sql), "ALTER TABLE runs ADD COLUMN \"%s\" %s", metric_table[i].column,
			 metric_table[i].type == METRIC_DOUBLE ? "REAL" : "INTEGER");
		if (sql_exec(db, sql, "adding a metric column", err, errlen) < 0)
			goto rollback;
	}
	return sql_exec(db, "COMMIT", "adding metric columns", err, errlen);
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_open(const char *path, struct store **out, char *err, size_t errlen)
{
	struct store *s;

	*out = NULL;
	if (strcmp(path, STORE_DEFAULT_PATH) == 0 && make_parent(path, err, errlen) < 0)
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	/* Foreign keys go on after the migrations: a migration that rebuilds a table must not cascade. */
	if (migrate(s->db, path, err, errlen) < 0 || add_metric_columns(s->db, err, errlen) < 0 ||
	    sql_exec(s->db, "PRAGMA foreign_keys = ON", path, err, errlen) < 0 ||
	    sql_exec(s->db, "PRAGMA journal_mode = WAL", path, err, errlen) < 0)
		goto fail;
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

int store_open_existing(const char *path, struct store **out, char *err, size_t errlen)
{
	*out = NULL;
	if (access(path, F_OK) < 0) {
		if (errno == ENOENT)
			snprintf(err, errlen, "no result store at %s (claimbench run creates it)", path);
		else
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	return store_open(path, out, err, errlen);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}
