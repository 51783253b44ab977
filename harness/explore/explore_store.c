/* Explore's results in the result store, one row and one JSON document each; see explore_store.h. */
#include <stdlib.h>
#include <string.h>

#include "explore/explore_store.h"
#include "store/store_sql.h"

/* Inserts r's row, document doc, in explore_results under invocation_id. 0, or -1 with err. */
static int insert_result(sqlite3 *db, long long invocation_id, const struct explore_result *r, const char *doc,
			 char *err, size_t errlen)
{
	static const char sql[] = "INSERT INTO explore_results (invocation_id, strategy, claim_mode, workers, search,"
				  " schedules, violating, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
	struct binder b = { .next = 1 };
	int rc;

	if (sql_prepare(db, sql, &b.st, err, errlen) < 0)
		return -1;
	bind_i64(&b, invocation_id);
	bind_text(&b, r->strategy);
	bind_text(&b, r->mode);
	bind_i64(&b, r->workers);
	bind_text(&b, explore_search_names[explore_search_of(r)]);
	bind_i64(&b, r->explored);
	bind_i64(&b, r->violating);
	bind_text(&b, doc);
	rc = insert_row(db, &b, "storing the explore", err, errlen);
	sqlite3_finalize(b.st);
	return rc;
}

int explore_store_append(struct store *s, struct store_session *session, const struct store_context *ctx,
			 const struct invocation_result *header, const struct explore_result *r, char *err,
			 size_t errlen)
{
	json_object *doc = explore_json(r);
	long long invocation_id = session->invocation_id;
	sqlite3 *db = s->db;

	if (!doc) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (sql_exec(db, "BEGIN IMMEDIATE", "storing the explore", err, errlen) < 0)
		goto fail;
	if ((!invocation_id && store_insert_invocation(db, ctx, header, &invocation_id, err, errlen) < 0) ||
	    insert_result(db, invocation_id, r, json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN), err,
			  errlen) < 0 ||
	    sql_exec(db, "COMMIT", "storing the explore", err, errlen) < 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto fail;
	}
	session->invocation_id = invocation_id;
	json_object_put(doc);
	return 0;
fail:
	json_object_put(doc);
	return -1;
}

/* Notes in the bool at ctx that the invocation's row was read. Always 0. */
static int found_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	(void)c;
	(void)err;
	(void)errlen;
	*(bool *)ctx = true;
	return 0;
}

/* Adds the explore_results row c is on (id, document) to the struct explore_stored at ctx. 0, or -1 with err. */
static int result_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct explore_stored *list = ctx;
	struct explore_read *grown = realloc(list->items, (list->n + 1) * sizeof(*grown));
	long long id = col_i64(c);
	char why[256];

	if (!grown) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	list->items = grown;
	if (explore_json_read((const char *)sqlite3_column_text(c->st, c->next), &grown[list->n], why, sizeof(why)) < 0) {
		explore_result_free(&grown[list->n].result);
		snprintf(err, errlen, "explore_results row %lld: its document does not read: %s", id, why);
		return -1;
	}
	list->n++;
	return 0;
}

int explore_store_load(struct store *s, long long invocation_id, struct explore_stored *out, char *err,
		       size_t errlen)
{
	static const char invocation_sql[] = "SELECT id FROM invocations WHERE id = ?";
	static const char results_sql[] =
		"SELECT id, document FROM explore_results WHERE invocation_id = ? ORDER BY id";
	bool found = false;

	memset(out, 0, sizeof(*out));
	if (sql_each_row(s->db, invocation_sql, invocation_id, found_row, &found, "reading the invocation", err,
			 errlen) < 0)
		return -1;
	if (!found)
		return 1;
	if (sql_each_row(s->db, results_sql, invocation_id, result_row, out, "reading the explores", err, errlen) < 0) {
		explore_stored_free(out);
		return -1;
	}
	for (size_t i = 0; i < out->n; i++) {
		out->items[i].result.strategy = out->items[i].strategy;
		out->items[i].result.mode = out->items[i].mode;
	}
	return 0;
}

void explore_stored_free(struct explore_stored *list)
{
	for (size_t i = 0; i < list->n; i++)
		explore_result_free(&list->items[i].result);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

/* Counts the row c is on into the long long at ctx. Always 0. */
static int count_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	*(long long *)ctx = col_i64(c);
	return 0;
}

int explore_refusal(struct store *db, long long id, const char *command, char *err, size_t errlen)
{
	static const char sql[] = "SELECT count(*) FROM explore_results WHERE invocation_id = ?";
	long long n = 0;

	if (sql_each_row(db->db, sql, id, count_row, &n, "reading the explores", err, errlen) < 0)
		return -1;
	if (!n)
		return 0;
	snprintf(err, errlen, "invocation %lld is claimbench explore's (%lld strategy and mode%s): %s works on runs' "
		 "measurements, not explored schedules; claimbench show inv:%lld prints its tables", id, n,
		 n == 1 ? "" : "s", command, id);
	return 1;
}
