/* The result store's listings: the runs and explores newest first (history), an invocation's runs, the latest invocation. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "store/store_sql.h"

/* Formats column col of st with decimals digits; "-" when NULL or not finite. */
static void fixed_text(char *buf, size_t size, sqlite3_stmt *st, int col, int decimals)
{
	double v = sqlite3_column_double(st, col);

	if (sqlite3_column_type(st, col) == SQLITE_NULL || !isfinite(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.*f", decimals, v);
}

/* Formats count column col of st; "-" when NULL (unknown). */
static void count_text(char *buf, size_t size, sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%" PRIu64, (uint64_t)sqlite3_column_int64(st, col));
}

/*
 * Formats the command column of a history line from st's columns 12 on: the command ("-"
 * when NULL, stored before schema 13, as show prints it), and an explore's schedules.
 */
static void command_text(char *buf, size_t size, sqlite3_stmt *st)
{
	char command[16];

	text_clean(command, sizeof(command), (const char *)sqlite3_column_text(st, 12), SIZE_MAX);
	if (sqlite3_column_type(st, 13) == SQLITE_NULL) {
		snprintf(buf, size, "%s", command);
		return;
	}
	snprintf(buf, size, "%s (%lld schedules%s, %lld with a violation)", command,
		 (long long)sqlite3_column_int64(st, 13), sqlite3_column_int(st, 10) ? ", every one" : "",
		 (long long)sqlite3_column_int64(st, 14));
}

/* Prints the history line of the row st is on (the columns of store_list's queries). */
static void print_line(FILE *out, sqlite3_stmt *st)
{
	char id[32], when[32], strategy[48], mode[16], makespan[32], thru[32], dup[32], lost[32], jain[32], command[128];
	char section[33];

	count_text(id, sizeof(id), st, 0);
	text_clean(when, sizeof(when), (const char *)sqlite3_column_text(st, 1), SIZE_MAX);
	text_clip(strategy, sizeof(strategy), (const char *)sqlite3_column_text(st, 2));
	text_clip(mode, sizeof(mode), (const char *)sqlite3_column_text(st, 3));
	fixed_text(makespan, sizeof(makespan), st, 5, 3);
	fixed_text(thru, sizeof(thru), st, 6, 1);
	count_text(dup, sizeof(dup), st, 7);
	count_text(lost, sizeof(lost), st, 8);
	fixed_text(jain, sizeof(jain), st, 9, 3);
	command_text(command, sizeof(command), st);
	text_clip(section, sizeof(section), (const char *)sqlite3_column_text(st, 15));
	fprintf(out, "%6s %6lld  %-20s  %-16s %-13s %4d %10s %10s %6s %6s %6s  %-8s  %-12s  %s\n", id,
		(long long)sqlite3_column_int64(st, 11), when, strategy, mode, sqlite3_column_int(st, 4), makespan, thru,
		dup, lost, jain, sqlite3_column_int(st, 10) ? "yes" : "no", section[0] ? section : "-", command);
}

/*
 * Whether the run row of runs goes before the explore row of explores in history: stored
 * later, or in the same second by a later invocation (invocation ids follow the order of
 * insertion; an invocation holds runs or explores, not both).
 */
static bool run_first(sqlite3_stmt *runs, sqlite3_stmt *explores)
{
	const char *run_at = (const char *)sqlite3_column_text(runs, 1);
	const char *explore_at = (const char *)sqlite3_column_text(explores, 1);
	int order = strcmp(run_at ? run_at : "", explore_at ? explore_at : "");

	if (order)
		return order > 0;
	return sqlite3_column_int64(runs, 11) >= sqlite3_column_int64(explores, 11);
}

/* Whether sqlite3_step's rc is a row or the end, not a failure. */
static bool stepped(int rc)
{
	return rc == SQLITE_ROW || rc == SQLITE_DONE;
}

int store_list(struct store *s, FILE *out, int limit, char *err, size_t errlen)
{
	static const char runs_sql[] =
		"SELECT r.id, r.recorded_at, r.strategy, r.claim_mode, r.workers, r.makespan_s,"
		" coalesce(r.throughput_jps, r.guarded_grants_per_s), r.duplicates, r.lost, r.jain, r.complete,"
		" r.invocation_id, (SELECT command FROM invocations WHERE id = r.invocation_id), NULL, NULL, r.run_group"
		" FROM runs r ORDER BY r.id DESC LIMIT ?";
	static const char explores_sql[] =
		"SELECT NULL, recorded_at, strategy, claim_mode, workers, NULL, NULL, NULL, NULL, NULL, search = 'every',"
		" invocation_id, 'explore', schedules, violating, NULL FROM explore_results ORDER BY id DESC LIMIT ?";
	sqlite3_stmt *runs = NULL, *explores = NULL;
	int run_rc, explore_rc, ret = -1;

	if (sql_prepare(s->db, runs_sql, &runs, err, errlen) < 0 ||
	    sql_prepare(s->db, explores_sql, &explores, err, errlen) < 0)
		goto out;
	sqlite3_bind_int(runs, 1, limit > 0 ? limit : -1);
	sqlite3_bind_int(explores, 1, limit > 0 ? limit : -1);
	fprintf(out, "%6s %6s  %-20s  %-16s %-13s %4s %10s %10s %6s %6s %6s  %-8s  %-12s  %s\n", "id", "inv", "when",
		"strategy", "mode", "wrk", "makespan_s", "thru_jps", "dup", "lost", "jain", "complete", "section",
		"command");
	run_rc = sqlite3_step(runs);
	explore_rc = sqlite3_step(explores);
	for (int printed = 0; (limit <= 0 || printed < limit) && (run_rc == SQLITE_ROW || explore_rc == SQLITE_ROW);
	     printed++) {
		if (run_rc == SQLITE_ROW && (explore_rc != SQLITE_ROW || run_first(runs, explores))) {
			print_line(out, runs);
			run_rc = sqlite3_step(runs);
		} else {
			print_line(out, explores);
			explore_rc = sqlite3_step(explores);
		}
	}
	if (!stepped(run_rc) || !stepped(explore_rc)) {
		sql_fail(s->db, "listing the runs and explores", err, errlen);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(runs);
	sqlite3_finalize(explores);
	return ret;
}

/* The ids of an invocation's runs as store_invocation_runs collects them. */
struct id_list {
	bool found;		/* the invocation exists */
	long long *ids;		/* its runs' ids (owned) */
	size_t n;		/* entries in ids */
};

/* Adds an (invocation id, run id or NULL) row to the struct id_list at ctx. 0, or -1 with err. */
static int id_row(struct reader *c, void *ctx, char *err, size_t errlen)
{
	struct id_list *list = ctx;
	long long *grown;

	list->found = true;
	if (sqlite3_column_type(c->st, 1) == SQLITE_NULL)
		return 0;
	grown = realloc(list->ids, (list->n + 1) * sizeof(*grown));
	if (!grown) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	list->ids = grown;
	list->ids[list->n++] = sqlite3_column_int64(c->st, 1);
	return 0;
}

int store_invocation_runs(struct store *s, long long invocation_id, long long **ids, size_t *n, char *err,
			  size_t errlen)
{
	static const char sql[] =
		"SELECT i.id, r.id FROM invocations i LEFT JOIN runs r ON r.invocation_id = i.id"
		" WHERE i.id = ? ORDER BY r.id";
	struct id_list list = { .found = false };

	*ids = NULL;
	*n = 0;
	if (sql_each_row(s->db, sql, invocation_id, id_row, &list, "reading the invocation's runs", err, errlen) < 0) {
		free(list.ids);
		return -1;
	}
	*ids = list.ids;
	*n = list.n;
	return list.found ? 0 : 1;
}

int store_latest_invocations(struct store *s, long long *ids, size_t want, size_t *found, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT invocation_id FROM runs GROUP BY invocation_id ORDER BY max(id) DESC LIMIT ?";
	sqlite3_stmt *st = NULL;
	int rc;

	*found = 0;
	if (sql_prepare(s->db, sql, &st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)want);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *found < want)
		ids[(*found)++] = sqlite3_column_int64(st, 0);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		sql_fail(s->db, "reading the store", err, errlen);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}
