#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/metric_table.h"
#include "store/store_sql.h"

int sql_fail(sqlite3 *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db));
	return -1;
}

int sql_exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t errlen)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_fail(db, what, err, errlen);
	return 0;
}

int sql_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, char *err, size_t errlen)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return sql_fail(db, "preparing a statement", err, errlen);
	return 0;
}

int sql_query_int(sqlite3 *db, const char *sql, long long *out, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sql_prepare(db, sql, &st, err, errlen) < 0)
		goto out;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sql_fail(db, "reading the store", err, errlen);
		goto out;
	}
	*out = sqlite3_column_int64(st, 0);
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

int sql_each_row(sqlite3 *db, const char *sql, long long id, sql_row_fn row, void *ctx, const char *what, char *err,
		 size_t errlen)
{
	struct reader c = { .next = 0 };
	int rc, ret = -1;

	if (sql_prepare(db, sql, &c.st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(c.st, 1, id);
	while ((rc = sqlite3_step(c.st)) == SQLITE_ROW) {
		c.next = 0;
		if (row(&c, ctx, err, errlen) < 0)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		sql_fail(db, what, err, errlen);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(c.st);
	return ret;
}

/* Records the result of binding parameter b->next and moves to the next one. */
static void bind_rc(struct binder *b, int rc)
{
	if (b->rc == SQLITE_OK)
		b->rc = rc;
	b->next++;
}

void bind_i64(struct binder *b, long long v)
{
	bind_rc(b, sqlite3_bind_int64(b->st, b->next, v));
}

void bind_u64(struct binder *b, uint64_t v)
{
	bind_i64(b, (long long)v);
}

void bind_count(struct binder *b, uint64_t v)
{
	if (v == METRIC_UNKNOWN)
		bind_rc(b, sqlite3_bind_null(b->st, b->next));
	else
		bind_u64(b, v);
}

void bind_dbl(struct binder *b, double v)
{
	if (isnan(v))
		bind_rc(b, sqlite3_bind_null(b->st, b->next));
	else
		bind_rc(b, sqlite3_bind_double(b->st, b->next, v));
}

void bind_text(struct binder *b, const char *s)
{
	if (s)
		bind_rc(b, sqlite3_bind_text(b->st, b->next, s, -1, SQLITE_TRANSIENT));
	else
		bind_rc(b, sqlite3_bind_null(b->st, b->next));
}

void bind_textn(struct binder *b, const char *s, size_t max)
{
	bind_rc(b, sqlite3_bind_text(b->st, b->next, s, (int)strnlen(s, max), SQLITE_TRANSIENT));
}

int insert_row(sqlite3 *db, struct binder *b, const char *what, char *err, size_t errlen)
{
	int rc = SQLITE_DONE;

	if (b->rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", what, sqlite3_errstr(b->rc));
		rc = b->rc;
	} else if (b->next - 1 != sqlite3_bind_parameter_count(b->st)) {
		snprintf(err, errlen, "%s: %d values for %d parameters", what, b->next - 1,
			 sqlite3_bind_parameter_count(b->st));
		rc = SQLITE_MISUSE;
	} else if ((rc = sqlite3_step(b->st)) != SQLITE_DONE) {
		sql_fail(db, what, err, errlen);
	}
	sqlite3_reset(b->st);
	sqlite3_clear_bindings(b->st);
	b->next = 1;
	b->rc = SQLITE_OK;
	return rc == SQLITE_DONE ? 0 : -1;
}

int sql_insert_each(sqlite3 *db, const char *sql, size_t n, sql_bind_fn bind, const void *ctx, const char *what,
		    char *err, size_t errlen)
{
	struct binder b = { .next = 1 };
	int ret = -1;

	if (sql_prepare(db, sql, &b.st, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (bind(&b, ctx, i) && insert_row(db, &b, what, err, errlen) < 0)
			goto out;
	ret = 0;
out:
	sqlite3_finalize(b.st);
	return ret;
}

long long col_i64(struct reader *c)
{
	return sqlite3_column_int64(c->st, c->next++);
}

uint64_t col_u64(struct reader *c)
{
	return (uint64_t)col_i64(c);
}

uint64_t col_count(struct reader *c)
{
	if (sqlite3_column_type(c->st, c->next) == SQLITE_NULL) {
		c->next++;
		return METRIC_UNKNOWN;
	}
	return col_u64(c);
}

double col_dbl(struct reader *c)
{
	int i = c->next++;

	if (sqlite3_column_type(c->st, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(c->st, i);
}

void col_copy(struct reader *c, char *buf, size_t size)
{
	const unsigned char *s = sqlite3_column_text(c->st, c->next++);

	snprintf(buf, size, "%s", s ? (const char *)s : "");
}

void col_clean(struct reader *c, char *buf, size_t size)
{
	const unsigned char *s = sqlite3_column_text(c->st, c->next++);

	text_clean(buf, size, s ? (const char *)s : "", SIZE_MAX);
}

int col_owned(struct reader *c, struct store_run *s, const char **out)
{
	const unsigned char *text = sqlite3_column_text(c->st, c->next++);
	char **grown, *copy;

	*out = NULL;
	if (!text)
		return 0;
	grown = realloc(s->strings, (s->n_strings + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	s->strings = grown;
	copy = strdup((const char *)text);
	if (!copy)
		return -1;
	s->strings[s->n_strings++] = copy;
	*out = copy;
	return 0;
}
