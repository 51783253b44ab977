/* The backend drivers claimbench knows: one per folder harness/db/NAME/ (scripts/gen-plugins). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/backend.h"
#include "generated/plugins.h"

#define DECLARE(name) extern const struct backend_ops backend_##name;
BACKEND_FILES(DECLARE)
#undef DECLARE

#define ENTRY(name) &backend_##name,
const struct backend_ops *const backend_registry[] = { BACKEND_FILES(ENTRY) };
#undef ENTRY

const size_t backend_registry_len = BACKEND_COUNT;

const char *const sql_dialect_names[DIALECT_COUNT] = {
	[DIALECT_POSTGRESQL] = "postgresql",
	[DIALECT_SQLITE] = "sqlite",
	[DIALECT_MARIADB] = "mariadb",
};

const char *backend_names(void)
{
	static char names[BACKEND_COUNT * 64];

	if (!names[0])
		for (size_t k = 0, used = 0; k < backend_registry_len && used < sizeof(names); k++)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", k ? ", " : "",
						 backend_registry[k]->name);
	return names;
}

const struct backend_ops *backend_named(const char *name)
{
	for (size_t k = 0; name && k < backend_registry_len; k++)
		if (strcmp(backend_registry[k]->name, name) == 0)
			return backend_registry[k];
	return NULL;
}

const struct backend_ops *backend_of_target(const char *text, const char **target)
{
	const struct backend_ops *unprefixed = NULL;

	for (size_t k = 0; k < backend_registry_len; k++) {
		const char *prefix = backend_registry[k]->target_prefix;

		if (!prefix) {
			unprefixed = backend_registry[k];
		} else if (strncmp(text, prefix, strlen(prefix)) == 0) {
			*target = text + strlen(prefix);
			return backend_registry[k];
		}
	}
	*target = text;
	return unprefixed;
}

const struct backend_ops *backend_for_throwaway(char *err, size_t errlen)
{
	for (int rank = 1; rank <= (int)backend_registry_len; rank++)
		for (size_t k = 0; k < backend_registry_len; k++) {
			const struct backend_throwaway *t = backend_registry[k]->throwaway;

			if (!t || t->default_rank != rank)
				continue;
			switch (t->available ? t->available(err, errlen) : 1) {
			case 1:
				return backend_registry[k];
			case 0:
				continue;
			default:
				return NULL;
			}
		}
	snprintf(err, errlen, "no backend can make a throwaway database here: give --db");
	return NULL;
}

const struct backend_ops *backend_preferred(void)
{
	for (size_t k = 0; k < backend_registry_len; k++)
		if (backend_registry[k]->throwaway && backend_registry[k]->throwaway->default_rank == 1)
			return backend_registry[k];
	return NULL;
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

bool plugin_runs_on(unsigned dialects, const unsigned needs_caps[DIALECT_COUNT], const struct backend_ops *db)
{
	return (dialects & DIALECT_BIT(db->dialect)) && !(needs_caps[db->dialect] & ~db->caps);
}
