/*
 * The stepping driver: every call forwarded, a worker's statements stopped at the
 * scheduler (see step_driver.h); and the words of a counterexample's step: a statement's
 * bound values after its text, and what it returned with each value labelled by its
 * column's name, read from the statement's RETURNING list or, without one, its SELECT list.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explore/step_driver.h"

/* Room for one column's name, NUL included. */
#define COLUMN_NAME 48

/* Appends to text (len bytes, holding a string) " with $1 = 'v1', $2 = 'v2'" for the nparams params; nothing for none. */
static void step_text_bound(char *text, size_t len, int nparams, const char *const *params)
{
	size_t used = strlen(text);

	for (int i = 0; i < nparams && used + 1 < len; i++) {
		snprintf(text + used, len - used, "%s$%d = '%s'", i ? ", " : " with ", i + 1,
			 params && params[i] ? params[i] : "NULL");
		used = strlen(text);
	}
}

/* The last occurrence in sql of the keyword word (a whole word, any case), or NULL. */
static const char *last_keyword(const char *sql, const char *word)
{
	const size_t n = strlen(word);
	const char *found = NULL;

	for (const char *p = sql; *p; p++)
		if (strncasecmp(p, word, n) == 0 && (p == sql || (!isalnum((unsigned char)p[-1]) && p[-1] != '_')) &&
		    !isalnum((unsigned char)p[n]) && p[n] != '_')
			found = p;
	return found;
}

/*
 * Copies the name of the k-th (from 0) item of the list at list into name: the item's
 * last word (its alias, or its column without a table's prefix). The list ends at a FROM,
 * a ';' or the text's end outside parentheses. Whether it had a k-th item with a name.
 */
static bool list_name(const char *list, int k, char *name)
{
	int depth = 0, item = 0;
	const char *start = list, *p, *end;

	for (p = list; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		if (depth)
			continue;
		if (*p == ',' || *p == ';' || (strncasecmp(p, " FROM ", 6) == 0)) {
			if (item == k)
				break;
			if (*p != ',')
				return false;
			item++;
			start = p + 1;
		}
	}
	if (item != k)
		return false;
	while (p > start && isspace((unsigned char)p[-1]))
		p--;
	end = p;
	while (p > start && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		p--;
	if (p == end || isdigit((unsigned char)*p))
		return false;
	snprintf(name, COLUMN_NAME, "%.*s", (int)(end - p), p);
	return true;
}

/* The name of sql's k-th result column into name (COLUMN_NAME bytes), "column K+1" when it cannot be read. */
static void column_name(const char *sql, int k, char *name)
{
	const char *list = last_keyword(sql, "RETURNING");

	if (list)
		list += strlen("RETURNING");
	else if ((list = strstr(sql, "SELECT")) || (list = strstr(sql, "select")))
		list += strlen("SELECT");
	if (!list || !list_name(list, k, name))
		snprintf(name, COLUMN_NAME, "column %d", k + 1);
}

/*
 * Writes into out (len bytes) what the statement sql returned: rc rows (-1: not written),
 * the first row's ncols values from values labelled by sql's column names, "1 row: id=2,
 * attempts=1" (a column whose name cannot be read is "column N"), "2 rows: id=1, ... (first)"
 * for several; "0 rows" for none, or with no values.
 */
static void step_text_result(char *out, size_t len, const char *sql, int rc, const int64_t *values, int ncols)
{
	size_t used;

	used = (size_t)snprintf(out, len, "%d row%s", rc, rc == 1 ? "" : "s");
	if (rc <= 0 || !values || ncols <= 0)
		return;
	for (int c = 0; c < ncols && used + 1 < len; c++) {
		char name[COLUMN_NAME];

		column_name(sql, c, name);
		snprintf(out + used, len - used, "%s%s=%lld", c ? ", " : ": ", name, (long long)values[c]);
		used = strlen(out);
	}
	if (rc > 1 && used + 1 < len)
		snprintf(out + used, len - used, " (the first)");
}

/* A connection of the stepping driver: the real one under it and the seat it serves. */
struct db_conn {
	void *inner;					/* the real driver's connection; NULL once crashed */
	int seat;					/* the worker seat, -1 for the harness's own */
	bool crashed;					/* the scheduler crashed it: every call fails as lost */
	char slot_text[DB_MAX_STATEMENTS][EXPLORE_TEXT];	/* each prepared slot's statement, shortened */
};

/* What the driver forwards to and reports to; set by step_driver_start. */
static struct {
	const struct backend_ops *real;			/* the real driver */
	struct scheduler *sched;			/* the schedule's scheduler */
	int seat_next;					/* the seat of the next connection */
	struct db_conn *seated[EXPLORE_MAX_WORKERS];	/* the connection of each seat, NULL when none */
	char names[2][160];				/* table names to shorten in texts */
	char shown[2][16];				/* what each is shown as */
} drv = { .seat_next = -1 };

/* The driver's own operations, filled from the real driver's by step_driver_start. */
static struct backend_ops stepping;

/* The real connection under c (for the real driver's calls). */
static struct db_conn *real_of(const struct db_conn *c)
{
	return c->inner;
}

/* Writes sql into out on one line, blanks squeezed, the run's tables shown short. */
static void shorten(char *out, size_t len, const char *sql)
{
	size_t n = 0;
	bool blank = false;

	while (*sql && n + 1 < len) {
		bool matched = false;

		for (int k = 0; k < 2 && !matched; k++) {
			size_t l = strlen(drv.names[k]);

			if (l && strncmp(sql, drv.names[k], l) == 0) {
				if (blank && n + 1 < len)
					out[n++] = ' ';
				for (const char *p = drv.shown[k]; *p && n + 1 < len; p++)
					out[n++] = *p;
				sql += l;
				matched = true;
			}
		}
		if (matched) {
			blank = false;
			continue;
		}
		if (isspace((unsigned char)*sql)) {
			blank = n > 0;
			sql++;
			continue;
		}
		if (blank && n + 2 < len)
			out[n++] = ' ';
		blank = false;
		if (n + 1 < len)
			out[n++] = *sql;
		sql++;
	}
	out[n] = '\0';
}

/* Stops c's statement text at the scheduler. STEP_SEND, or STEP_CRASHED (c is then lost). */
static enum step_go step_in(struct db_conn *c, const char *text)
{
	enum step_go go;

	if (c->crashed)
		return STEP_CRASHED;
	go = scheduler_step_begin(drv.sched, c->seat, text);
	if (go == STEP_CRASHED)
		c->crashed = true;
	return go;
}

/*
 * Notes what c's step of statement sql returned: rc (rows, or -1) and, with rows, the first
 * row's ncols values in out, each labelled by its column's name.
 */
static void step_out(struct db_conn *c, const char *sql, int rc, const int64_t *out, int ncols)
{
	char result[EXPLORE_TEXT];

	if (c->seat < 0)
		return;
	if (rc < 0)
		snprintf(result, sizeof(result), "error: %s", c->inner ? drv.real->error_message(real_of(c)) : "lost");
	else
		step_text_result(result, sizeof(result), sql, rc, out, ncols);
	scheduler_step_end(drv.sched, c->seat, result);
}

/* The statement text of c's slot, "?" for a slot out of range. */
static const char *slot_sql(const struct db_conn *c, int slot)
{
	return slot >= 0 && slot < DB_MAX_STATEMENTS ? c->slot_text[slot] : "?";
}

/* backend_ops.connect: the real connection, seated as step_driver_seat_next said. */
static int st_connect(const char *target, const struct db_options *opts, struct db_conn **conn, char *err,
		      size_t errlen)
{
	struct db_conn *c = calloc(1, sizeof(*c));
	struct db_conn *inner = NULL;

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (drv.real->connect(target, opts, &inner, err, errlen) < 0) {
		free(c);
		return -1;
	}
	c->inner = inner;
	c->seat = drv.seat_next;
	if (c->seat >= 0) {
		drv.seated[c->seat] = c;
		drv.sched->seats[c->seat].pid = drv.real->server_pid(inner);
	}
	drv.seat_next = -1;
	*conn = c;
	return 0;
}

/* Forgets c as its seat's connection. */
static void unseat(struct db_conn *c)
{
	if (c->seat >= 0 && drv.seated[c->seat] == c)
		drv.seated[c->seat] = NULL;
}

/* backend_ops.disconnect, forwarded; c is freed. */
static void st_disconnect(struct db_conn *c)
{
	if (!c)
		return;
	unseat(c);
	if (c->inner)
		drv.real->disconnect(real_of(c));
	free(c);
}

/* backend_ops.abandon, forwarded; c is freed. */
static void st_abandon(struct db_conn *c)
{
	if (!c)
		return;
	unseat(c);
	if (c->inner)
		drv.real->abandon(real_of(c));
	free(c);
}

/* backend_ops.prepare, forwarded; the statement's text kept for the events. */
static int st_prepare(struct db_conn *c, int slot, const char *sql, int nparams)
{
	if (!c->inner)
		return -1;
	if (slot >= 0 && slot < DB_MAX_STATEMENTS)
		shorten(c->slot_text[slot], EXPLORE_TEXT, sql);
	return drv.real->prepare(real_of(c), slot, sql, nparams);
}

/* backend_ops.prepare_checked, forwarded; the statement's text kept for the events. */
static int st_prepare_checked(struct db_conn *c, int slot, const char *sql, int nparams, const char *own_table,
			      struct db_result_shape *shape, char *why, size_t whylen)
{
	if (!c->inner)
		return -1;
	if (slot >= 0 && slot < DB_MAX_STATEMENTS)
		shorten(c->slot_text[slot], EXPLORE_TEXT, sql);
	return drv.real->prepare_checked(real_of(c), slot, sql, nparams, own_table, shape, why, whylen);
}

/* backend_ops.exec_pipeline: a step; forwarded once the scheduler grants it, what it returned noted. */
static int st_exec_pipeline(struct db_conn *c, const struct db_step *steps, int n, int result, int64_t *out, int ncols,
			    int maxrows)
{
	char text[EXPLORE_TEXT] = "";
	int rc;

	for (int i = 0; i < n; i++) {
		size_t used = strlen(text);

		snprintf(text + used, sizeof(text) - used, "%s%s", i ? "; " : "", slot_sql(c, steps[i].slot));
		step_text_bound(text, sizeof(text), steps[i].nparams, steps[i].params);
	}
	if (step_in(c, text) == STEP_CRASHED)
		return -1;
	rc = drv.real->exec_pipeline(real_of(c), steps, n, result, out, ncols, maxrows);
	step_out(c, result >= 0 && result < n ? slot_sql(c, steps[result].slot) : "", rc, out, ncols);
	return rc;
}

/* backend_ops.exec_rows: a step; forwarded once the scheduler grants it, what it returned noted. */
static int st_exec_rows(struct db_conn *c, int slot, int nparams, const char *const *params, int64_t *out, int ncols,
			int maxrows)
{
	char text[EXPLORE_TEXT];
	int rc;

	snprintf(text, sizeof(text), "%s", slot_sql(c, slot));
	step_text_bound(text, sizeof(text), nparams, params);
	if (step_in(c, text) == STEP_CRASHED)
		return -1;
	rc = drv.real->exec_rows(real_of(c), slot, nparams, params, out, ncols, maxrows);
	step_out(c, slot_sql(c, slot), rc, out, ncols);
	return rc;
}

/* backend_ops.exec: a step; forwarded once the scheduler grants it, what it returned noted. */
static int st_exec(struct db_conn *c, const char *sql)
{
	char text[EXPLORE_TEXT];
	int rc;

	shorten(text, sizeof(text), sql);
	if (step_in(c, text) == STEP_CRASHED)
		return -1;
	rc = drv.real->exec(real_of(c), sql);
	step_out(c, text, rc < 0 ? -1 : 0, NULL, 0);
	return rc;
}

/* backend_ops.query: a step; forwarded once the scheduler grants it, what it returned noted. */
static int st_query(struct db_conn *c, const char *sql, db_row_fn row, void *ctx)
{
	char text[EXPLORE_TEXT];
	int rc;

	shorten(text, sizeof(text), sql);
	if (step_in(c, text) == STEP_CRASHED)
		return -1;
	rc = drv.real->query(real_of(c), sql, row, ctx);
	step_out(c, text, rc, NULL, 0);
	return rc;
}

/* backend_ops.query_text: a step; forwarded once the scheduler grants it, what it returned noted. */
static int st_query_text(struct db_conn *c, const char *sql, int nparams, const char *const *params,
			 db_text_row_fn row, void *ctx)
{
	char text[EXPLORE_TEXT];
	int rc;

	shorten(text, sizeof(text), sql);
	step_text_bound(text, sizeof(text), nparams, params);
	if (step_in(c, text) == STEP_CRASHED)
		return -1;
	rc = drv.real->query_text(real_of(c), sql, nparams, params, row, ctx);
	step_out(c, text, rc, NULL, 0);
	return rc;
}

/* backend_ops.load_jobs, forwarded (fails once crashed). */
static int st_load_jobs(struct db_conn *c, const char *table, const struct run_config *cfg, long n)
{
	return c->inner ? drv.real->load_jobs(real_of(c), table, cfg, n) : -1;
}

/* backend_ops.error_kind: a crashed connection's is a lost connection's. */
static enum error_kind st_error_kind(const struct db_conn *c)
{
	return c->crashed || !c->inner ? ERR_CONNECTION_LOST : drv.real->error_kind(real_of(c));
}

/* backend_ops.error_message: a crashed connection says so. */
static const char *st_error_message(const struct db_conn *c)
{
	return c->crashed || !c->inner ? "the worker crashed (a step of the schedule)"
				       : drv.real->error_message(real_of(c));
}

/* backend_ops.server_version, forwarded (fails once crashed). */
static int st_server_version(struct db_conn *c, char *buf, size_t len)
{
	return c->inner ? drv.real->server_version(real_of(c), buf, len) : -1;
}

/* backend_ops.table_exists, forwarded (fails once crashed). */
static int st_table_exists(struct db_conn *c, const char *name)
{
	return c->inner ? drv.real->table_exists(real_of(c), name) : -1;
}

/* backend_ops.marked_tables, forwarded (fails once crashed). */
static int st_marked_tables(struct db_conn *c, db_marked_fn found, void *ctx)
{
	return c->inner ? drv.real->marked_tables(real_of(c), found, ctx) : -1;
}

/* backend_ops.quote_identifier, forwarded (fails once crashed). */
static int st_quote_identifier(struct db_conn *c, const char *name, char *buf, size_t len)
{
	return c->inner ? drv.real->quote_identifier(real_of(c), name, buf, len) : -1;
}

/* backend_ops.settings, forwarded (fails once crashed). */
static int st_settings(struct db_conn *c, struct db_setting *out, int max)
{
	return c->inner ? drv.real->settings(real_of(c), out, max) : -1;
}

/* backend_ops.set_lock_wait, forwarded (fails once crashed). */
static int st_set_lock_wait(struct db_conn *c, int ms)
{
	return c->inner ? drv.real->set_lock_wait(real_of(c), ms) : -1;
}

/* backend_ops.name_session, forwarded (fails once crashed). */
static int st_name_session(struct db_conn *c, int identity)
{
	return c->inner ? drv.real->name_session(real_of(c), identity) : -1;
}

/* backend_ops.server_pid, forwarded (fails once crashed). */
static int st_server_pid(const struct db_conn *c)
{
	return c->inner ? drv.real->server_pid(real_of(c)) : -1;
}

/* backend_ops.cancel, forwarded (fails once crashed). */
static void st_cancel(struct db_conn *c)
{
	if (c->inner)
		drv.real->cancel(real_of(c));
}

/* backend_ops.waits, forwarded (fails once crashed). */
static void st_waits(const struct db_conn *c, struct db_waits *out)
{
	if (c->inner)
		drv.real->waits(real_of(c), out);
	else
		memset(out, 0, sizeof(*out));
}

/* backend_ops.wait_notification, forwarded (fails once crashed). */
static int st_wait_notification(struct db_conn *c, int64_t timeout_ns)
{
	return c->inner ? drv.real->wait_notification(real_of(c), timeout_ns) : -1;
}

const struct backend_ops *step_driver_start(const struct backend_ops *real, struct scheduler *s)
{
	drv.real = real;
	drv.sched = s;
	drv.seat_next = -1;
	memset(drv.seated, 0, sizeof(drv.seated));
	stepping = (struct backend_ops){
		.name = real->name,
		.dialect = real->dialect,
		.sql = real->sql,
		.caps = real->caps,
		.locking = real->locking,
		.connect = st_connect,
		.disconnect = st_disconnect,
		.prepare = st_prepare,
		.prepare_checked = st_prepare_checked,
		.exec_pipeline = real->exec_pipeline ? st_exec_pipeline : NULL,
		.exec_rows = st_exec_rows,
		.exec = st_exec,
		.query = st_query,
		.query_text = st_query_text,
		.load_jobs = st_load_jobs,
		.error_kind = st_error_kind,
		.error_message = st_error_message,
		.server_version = st_server_version,
		.table_exists = st_table_exists,
		.marked_tables = st_marked_tables,
		.quote_identifier = st_quote_identifier,
		.settings = st_settings,
		.set_lock_wait = st_set_lock_wait,
		.name_session = st_name_session,
		.abandon = st_abandon,
		.server_pid = st_server_pid,
		.cancel = st_cancel,
		.waits = real->waits ? st_waits : NULL,
		.wait_notification = real->wait_notification ? st_wait_notification : NULL,
	};
	return &stepping;
}

void step_driver_stop(void)
{
	drv.real = NULL;
	drv.sched = NULL;
	memset(drv.names, 0, sizeof(drv.names));
}

void step_driver_seat_next(int seat)
{
	drv.seat_next = seat;
}

void step_driver_shorten(int which, const char *name, const char *shown)
{
	snprintf(drv.names[which], sizeof(drv.names[which]), "%s", name ? name : "");
	snprintf(drv.shown[which], sizeof(drv.shown[which]), "%s", shown ? shown : "");
}

void step_driver_abandon(int seat)
{
	struct db_conn *c = drv.seated[seat];

	if (!c || !c->inner)
		return;
	drv.real->abandon(real_of(c));
	c->inner = NULL;
	c->crashed = true;
}

struct db_conn *step_driver_real_conn(struct db_conn *conn)
{
	return conn->inner;
}
