/*
 * What `claimbench explore` found, in the result store: a row of table explore_results
 * (store_schema.c 15) per strategy and mode explored, under its invocation's row, holding
 * the JSON document explore prints (explore_json, explore_print.h) and the few columns
 * history lists and selects by; written here, read back by explore_json_read.
 */
#ifndef CLAIMBENCH_EXPLORE_STORE_H
#define CLAIMBENCH_EXPLORE_STORE_H

#include <stddef.h>

#include "explore/explore_print.h"
#include "model/result.h"
#include "store/store.h"

/*
 * Appends r under the session's invocation, in one transaction: the invocation row first
 * when the session has none yet (ctx, and header's: server, settings, start, seed), then
 * r's row. 0, or -1 with err and nothing written.
 */
int explore_store_append(struct store *s, struct store_session *session, const struct store_context *ctx,
			 const struct invocation_result *header, const struct explore_result *r, char *err,
			 size_t errlen);

/* An invocation's explores, read back. */
struct explore_stored {
	struct explore_read *items;	/* in the order stored (owned, with their events and verdicts) */
	size_t n;			/* entries in items */
};

/*
 * Reads every explore of invocation invocation_id into out (emptied first). 0 (out->n 0
 * when it holds none); 1 when there is no such invocation; -1 with err (a row whose
 * document does not read: "explore_results row N: ...").
 */
int explore_store_load(struct store *s, long long invocation_id, struct explore_stored *out, char *err,
		       size_t errlen);

/* Frees what explore_store_load allocated in list and empties it; an empty list is fine. */
void explore_stored_free(struct explore_stored *list);

/*
 * The refusal of an explore invocation by the commands that work on runs' measurements
 * (compare, report; they exit 2, EXIT_USAGE, with it): whether invocation id of db holds
 * explores. 1 when it does, err then saying that command (its name) works on runs'
 * measurements and that claimbench show inv:N prints the tables; 0 when it holds none; -1
 * with err.
 */
int explore_refusal(struct store *db, long long id, const char *command, char *err, size_t errlen);

#endif
