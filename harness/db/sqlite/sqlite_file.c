#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/sqlite/sqlite_file.h"

/* How long the restore waits for another connection's lock on the file. */
#define RESTORE_BUSY_TIMEOUT_MS 5000

/* Runs a one-row, one-column statement on db and copies its value as text into buf. 0 or -1. */
static int single_text(sqlite3 *db, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *stmt;
	int rc = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(stmt, 0);

		snprintf(buf, len, "%s", v ? (const char *)v : "");
		rc = 0;
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* Whether db holds the internal table name (sqlite_stat1, sqlite_sequence): 1, 0, or -1 when it cannot be read. */
static int has_table(sqlite3 *db, const char *name)
{
	char sql[128], count[24];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'", name);
	if (single_text(db, sql, count, sizeof(count)) < 0)
		return -1;
	return strcmp(count, "0") != 0;
}

int sqlite_file_note(const char *path, struct sqlite_file *f, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int stats, sequence, rc = -1;

	snprintf(f->journal, sizeof(f->journal), "delete");
	f->had_stats = false;
	f->had_sequence = false;
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(db, RESTORE_BUSY_TIMEOUT_MS);
	stats = has_table(db, "sqlite_stat1");
	sequence = has_table(db, "sqlite_sequence");
	if (stats < 0 || sequence < 0 || single_text(db, "PRAGMA journal_mode", f->journal, sizeof(f->journal)) < 0) {
		snprintf(err, errlen, "%s: reading its journal mode: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	f->had_stats = stats;
	f->had_sequence = sequence;
	rc = 0;
out:
	sqlite3_close(db);
	return rc;
}

/*
 * Drops sqlite_stat1 from db when it holds no statistics (the run's were dropped with its
 * tables): in one write transaction, so that nobody's ANALYZE lands between the look and
 * the drop. 0, or -1.
 */
static int drop_empty_stats(sqlite3 *db)
{
	char rows[24] = "";
	int stats;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	stats = has_table(db, "sqlite_stat1");
	if (stats < 0 || (stats && single_text(db, "SELECT count(*) FROM sqlite_stat1", rows, sizeof(rows)) < 0))
		goto rollback;
	if (stats && strcmp(rows, "0") == 0 && sqlite3_exec(db, "DROP TABLE sqlite_stat1", NULL, NULL, NULL) != SQLITE_OK)
		goto rollback;
	return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int sqlite_file_restore(const char *path, const struct sqlite_file *f, char *err, size_t errlen)
{
	char sql[64], mode[16] = "";
	sqlite3 *db = NULL;
	int rc = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(db, RESTORE_BUSY_TIMEOUT_MS);
	if (!f->had_stats && drop_empty_stats(db) < 0) {
		snprintf(err, errlen, "%s: the run's ANALYZE left a table sqlite_stat1 behind: %s", path,
			 sqlite3_errmsg(db));
		goto out;
	}
	if (strspn(f->journal, "abcdefghijklmnopqrstuvwxyz") != strlen(f->journal)) {
		snprintf(err, errlen, "%s: unknown journal mode %s", path, f->journal);
		goto out;
	}
	snprintf(sql, sizeof(sql), "PRAGMA journal_mode = %s", f->journal);
	if (single_text(db, sql, mode, sizeof(mode)) < 0 || strcasecmp(mode, f->journal) != 0) {
		snprintf(err, errlen, "%s stays in journal mode %s, not %s as before the run (another connection may "
			 "hold it open)", path, mode[0] ? mode : "wal", f->journal);
		goto out;
	}
	rc = 0;
	if (!f->had_sequence && has_table(db, "sqlite_sequence") == 1) {
		snprintf(err, errlen, "%s keeps SQLite's internal table sqlite_sequence (empty), which SQLite made for "
			 "the run's AUTOINCREMENT ticket numbers and lets nobody drop", path);
		rc = 1;
	}
out:
	sqlite3_close(db);
	return rc;
}
