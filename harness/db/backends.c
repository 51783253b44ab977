/* The backend drivers claimbench knows. */
#include <stdlib.h>
#include <string.h>

#include "db/backend.h"

const struct backend_ops *const backend_registry[DIALECT_COUNT] = {
	[DIALECT_POSTGRESQL] = &backend_postgresql,
	[DIALECT_SQLITE] = &backend_sqlite,
	[DIALECT_MARIADB] = &backend_mariadb,
};

const struct backend_ops *backend_named(const char *name)
{
	for (int k = 0; name && k < DIALECT_COUNT; k++)
		if (strcmp(backend_registry[k]->name, name) == 0)
			return backend_registry[k];
	return NULL;
}

const struct backend_ops *backend_of_target(const char *text, const char **target)
{
	if (strncmp(text, BACKEND_SQLITE_PREFIX, strlen(BACKEND_SQLITE_PREFIX)) == 0) {
		*target = text + strlen(BACKEND_SQLITE_PREFIX);
		return &backend_sqlite;
	}
	if (strncmp(text, BACKEND_MARIADB_PREFIX, strlen(BACKEND_MARIADB_PREFIX)) == 0) {
		*target = text + strlen(BACKEND_MARIADB_PREFIX);
		return &backend_mariadb;
	}
	*target = text;
	return &backend_postgresql;
}

void db_first_line(char *dst, size_t len, const char *message)
{
	size_t n = strcspn(message, "\n");

	if (n >= len)
		n = len - 1;
	memcpy(dst, message, n);
	dst[n] = '\0';
}

int db_rows_as_ints(void *ctx, const char *const *cols, int ncols)
{
	const struct db_int_rows *to = ctx;
	int64_t values[16];

	if (ncols > 16)
		ncols = 16;
	for (int c = 0; c < ncols; c++)
		values[c] = cols[c] ? strtoll(cols[c], NULL, 10) : -1;
	return to->row(to->ctx, values, ncols);
}

int db_quote_double(struct db_conn *conn, const char *name, char *buf, size_t len)
{
	size_t used = 0;

	(void)conn;
	if (len < 3)
		return -1;
	buf[used++] = '"';
	for (; *name; name++) {
		if (used + (*name == '"' ? 2 : 1) + 2 > len)
			return -1;
		if (*name == '"')
			buf[used++] = '"';
		buf[used++] = *name;
	}
	buf[used++] = '"';
	buf[used] = '\0';
	return 0;
}
