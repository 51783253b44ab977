/* The store unit tests' shared helpers: a store's files removed, one integer read back, history as text. */
#ifndef CLAIMBENCH_STORE_FILES_H
#define CLAIMBENCH_STORE_FILES_H

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "store/store.h"

/* Removes the store at path and the WAL files SQLite may leave beside it. */
static inline void remove_store(const char *path)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	char name[512];

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", path, suffixes[i]);
		unlink(name);
	}
}

/* The one integer sql returns on db; -1 when it fails. */
static inline long long query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* What history (store_list) prints of s for limit, as a string the caller frees; NULL when it failed. */
static inline char *history_text(struct store *s, int limit)
{
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		return NULL;
	rc = store_list(s, f, limit, err, sizeof(err));
	fclose(f);
	if (rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

#endif
