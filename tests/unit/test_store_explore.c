/*
 * Unit test of explore's results in the result store (explore/explore_store.h, table
 * explore_results of schema 15): two hand-made results appended under one invocation and
 * read back field by field from their JSON documents; the invocation read back alone, its
 * command noted; history listing them; an append the file refuses leaving nothing behind;
 * a document that is not explore's JSON refused with the row named; a version 14 file with
 * explores in the four tables of 13 migrated to 15, every field read back as it was; a
 * version 12 file with a run migrated, its invocation's command unknown and its run listed
 * with "-" for a command, as show says it.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "explore/explore_store.h"
#include "store/store.h"
#include "store_files.h"

#define BIG_SEED 0xfedcba9876543210ULL /* past INT64_MAX: the bits must survive */

/* The temporary directory every file of the test lives in. */
static char tmpdir[] = "/tmp/claimbench-unit-store-explore-XXXXXX";

/* Writes tmpdir/name into buf. */
static void tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

/* The schedule a result shows: a worker's step, a harness's check, a step that had not returned. */
static const struct step_event shown_events[] = {
	{ .worker = 0, .kind = EVENT_STEP, .blocked = true, .returned = true, .statement = "SELECT id FROM {jobs}",
	  .result = "1 row: 1" },
	{ .worker = -1, .kind = EVENT_CHECK, .returned = true, .statement = "the claim took job 2",
	  .result = "job 1 was claimable before it and after it" },
	{ .worker = 1, .kind = EVENT_STEP, .statement = "UPDATE {jobs} SET status = 'done'" },
};

/* A sampled result with a shown schedule, findings, events and two verdicts (x frees with explore_result_free). */
static void fill_sampled(struct explore_result *x)
{
	char err[128];

	memset(x, 0, sizeof(*x));
	x->strategy = "naive";
	x->mode = "flip";
	x->workers = 3;
	x->claims = 1;
	x->jobs = 2;
	x->crashes = true;
	x->max_steps = 12;
	x->explored = 20;
	x->estimated = 1234.5;
	x->sampled = true;
	x->seed = BIG_SEED;
	x->bounded = 1;
	x->blocked = 2;
	x->violating = 6;
	x->redelivered = 3;
	x->fenced = 4;
	x->seconds = 0.25;
	x->with[FINDING_DUPLICATE] = 6;
	x->with[FINDING_FIFO] = 5;
	x->shown.count[FINDING_DUPLICATE] = 1;
	x->shown.count[FINDING_FIFO] = 2;
	x->shown_violates = true;
	check_need(trace_parse("0.c1.e.1", &x->shown.trace, err, sizeof(err)) == 0, "the trace reads");
	x->shown.blocked = true;
	x->shown.redeliveries = 1;
	x->shown.fenced = 7;
	x->shown.events = calloc(3, sizeof(*x->shown.events));
	check_need(x->shown.events != NULL, "room for the events");
	memcpy(x->shown.events, shown_events, sizeof(shown_events));
	x->shown.n_events = 3;
	check_need(explore_result_note(x, "--expect", "duplicate > 0", 6, true) == 0 &&
		   explore_result_note(x, "ci.ini:7", "safe (naive.violation == 0)", 6, false) == 0,
		   "noting two verdicts");
}

/* Whether the events a and b (n each) are the same. */
static bool same_events(const struct step_event *a, const struct step_event *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].worker != b[i].worker || a[i].kind != b[i].kind || a[i].blocked != b[i].blocked ||
		    a[i].returned != b[i].returned || strcmp(a[i].statement, b[i].statement) ||
		    strcmp(a[i].result, b[i].result))
			return false;
	return true;
}

/* Checks that a, read back, is fill_sampled's result field by field; what says where it came from. */
static void check_sampled(const struct explore_result *a, const char *what)
{
	char trace[64];

	trace_format(&a->shown.trace, trace, sizeof(trace));
	CHECK(strcmp(a->strategy, "naive") == 0 && strcmp(a->mode, "flip") == 0 && a->workers == 3 && a->claims == 1 &&
	      a->jobs == 2 && a->crashes && !a->lease_expiry && a->max_steps == 12,
	      "%s: its strategy (%s), mode, K, C, J, faults and bound", what, a->strategy);
	CHECK(a->sampled && !a->complete && !a->interrupted && !a->replayed && a->explored == 20 &&
	      a->estimated == 1234.5 && a->seed == BIG_SEED,
	      "%s: its search: sampled, 20 of ~1234.5 (%g), the seed past INT64_MAX kept (%llx)", what, a->estimated,
	      (unsigned long long)a->seed);
	CHECK(a->bounded == 1 && a->blocked == 2 && a->violating == 6 && a->redelivered == 3 && a->fenced == 4 &&
	      a->seconds == 0.25, "%s: its tallies and time", what);
	CHECK(a->with[FINDING_DUPLICATE] == 6 && a->with[FINDING_FIFO] == 5 && a->with[FINDING_LOST] == 0 &&
	      a->shown.count[FINDING_DUPLICATE] == 1 && a->shown.count[FINDING_FIFO] == 2 && a->shown_violates,
	      "%s: its findings, and the shown schedule's violation", what);
	CHECK(strcmp(trace, "0.c1.e.1") == 0 && !a->shown_asked && a->shown.blocked && a->shown.redeliveries == 1 &&
	      a->shown.fenced == 7, "%s: its shown schedule's trace (%s) and counts", what, trace);
	CHECK(a->shown.n_events == 3 && same_events(a->shown.events, shown_events, 3),
	      "%s: its events, the harness's worker and a step that had not returned included", what);
	CHECK(a->n_verdicts == 2 && strcmp(a->verdicts[1].source, "ci.ini:7") == 0 && !a->verdicts[1].holds &&
	      a->verdicts[0].holds && a->verdicts[0].value == 6 && strcmp(a->verdicts[0].text, "duplicate > 0") == 0,
	      "%s: its verdicts, where each came from (%zu of them)", what, a->n_verdicts);
}

/* Two results appended under one invocation read back as they were; history lists both. */
static void test_round_trip(void)
{
	const struct store_context ctx = { .host = "h", .version = "test", .git_revision = "abc",
					   .scenario_text = "claimbench explore --strategy naive", .command = "explore" };
	struct invocation_result header = { .scenario = "command line", .backend = "postgresql", .seed = 9,
					    .started_at = "2026-01-02T03:04:05Z", .server_version = "16.1" };
	struct store_session session = { 0 };
	struct explore_result first, second = { .strategy = "skip-locked", .mode = "hold", .workers = 2, .claims = 2,
						.jobs = 2, .explored = 3000, .seed = 5 };
	struct explore_stored list = { 0 };
	struct store_run inv = { 0 };
	struct store *st;
	char path[256], err[512], *history;
	int rc;

	tmp_path(path, sizeof(path), "round.db");
	rc = store_open(path, &st, err, sizeof(err));
	CHECK_EQ(rc, 0, "a new store opens (%s)", rc ? err : "");
	check_need(rc == 0, "opening a new store");
	fill_sampled(&first);
	CHECK(explore_store_append(st, &session, &ctx, &header, &first, err, sizeof(err)) == 0 &&
	      session.invocation_id > 0, "a result is appended with its invocation (%s)", err);
	CHECK(explore_store_append(st, &session, &ctx, &header, &second, err, sizeof(err)) == 0,
	      "a second one lands in the same invocation (%s)", err);
	explore_result_free(&first);

	rc = explore_store_load(st, session.invocation_id, &list, err, sizeof(err));
	CHECK(rc == 0 && list.n == 2, "the invocation's results read back, two of them (%s)", rc ? err : "");
	check_need(rc == 0 && list.n == 2, "reading the results back");
	check_sampled(&list.items[0].result, "the first, stored");
	const struct explore_result *b = &list.items[1].result;
	CHECK(strcmp(b->strategy, "skip-locked") == 0 && !b->complete && !b->sampled && !b->replayed &&
	      explore_search_of(b) == SEARCH_LIMIT && b->estimated == 0 && b->seed == 0 && !b->shown.events &&
	      b->n_verdicts == 0, "the second: searched to the limit, no space known, no seed (not sampled), nothing shown");
	explore_stored_free(&list);

	CHECK(explore_store_load(st, session.invocation_id + 1, &list, err, sizeof(err)) == 1 && list.n == 0,
	      "an invocation that is not there: 1");
	rc = store_invocation_load(st, session.invocation_id, &inv, err, sizeof(err));
	CHECK(rc == 0 && inv.ctx.command && strcmp(inv.ctx.command, "explore") == 0 && inv.report.seed == 9 &&
	      strcmp(inv.report.server_version, "16.1") == 0 && inv.report.n_results == 0,
	      "the invocation reads back alone, made by explore (%s)", rc ? err : "");
	store_run_free(&inv);
	history = history_text(st, 0);
	CHECK(history && strstr(history, "naive") && strstr(history, "explore (20 schedules, 6 with a violation)") &&
	      strstr(history, "explore (3000 schedules, 0 with a violation)") && strstr(history, "command"),
	      "history lists both explores, each with its command and schedules:\n%s", history ? history : "");
	CHECK(history && strstr(history, "skip-locked") < strstr(history, "naive"), "newest first");
	free(history);
	CHECK(explore_refusal(st, session.invocation_id, "compare", err, sizeof(err)) == 1 &&
	      strstr(err, "(2 strategy and modes): compare works on runs' measurements"),
	      "compare's refusal counts the invocation's two explores (%s)", err);
	store_close(st);
	remove_store(path);
}

/* An append the file refuses (a trigger of the test's) leaves nothing behind, not even the invocation. */
static void test_refused(void)
{
	const struct store_context ctx = { .host = "h", .version = "test", .git_revision = "abc", .command = "explore" };
	struct invocation_result header = { .backend = "postgresql" };
	struct store_session session = { 0 };
	struct explore_result x;
	struct store *st;
	sqlite3 *db;
	char path[256], err[512];

	tmp_path(path, sizeof(path), "refused.db");
	check_need(store_open(path, &st, err, sizeof(err)) == 0, "a new store opens");
	check_need(sqlite3_open(path, &db) == SQLITE_OK, "the test opens it too");
	sqlite3_exec(db, "CREATE TRIGGER no_rows BEFORE INSERT ON explore_results BEGIN SELECT RAISE(ABORT, 'no'); END",
		     NULL, NULL, NULL);
	fill_sampled(&x);
	CHECK(explore_store_append(st, &session, &ctx, &header, &x, err, sizeof(err)) < 0 && strstr(err, "no") &&
	      session.invocation_id == 0, "a row the file refuses fails the append, saying why (%s)", err);
	CHECK_EQ(query_int(db, "SELECT (SELECT count(*) FROM invocations) + (SELECT count(*) FROM explore_results)"), 0,
		 "and nothing of it is left");
	explore_result_free(&x);
	sqlite3_close(db);
	store_close(st);
	remove_store(path);
}

/* A row whose document is not explore's JSON: the load fails, naming the row and what is wrong. */
static void test_crafted(void)
{
	static const struct {
		const char *document;	/* what the row holds */
		const char *said;	/* what the error must say */
	} cases[] = {
		{ "{\"strategy\": \"naive\", ", "row 1: its document does not read: it is not a JSON object" },
		{ "[1, 2]", "it is not a JSON object" },
		{ "{\"strategy\": 7}", "its \"strategy\" is not a string" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct explore_stored list = { 0 };
		struct store *st;
		sqlite3 *db;
		char path[256], err[512] = "", sql[768];
		int rc;

		tmp_path(path, sizeof(path), "crafted.db");
		check_need(store_open(path, &st, err, sizeof(err)) == 0, "a new store opens");
		check_need(sqlite3_open(path, &db) == SQLITE_OK, "the test opens it too");
		snprintf(sql, sizeof(sql),
			 "INSERT INTO invocations (id, started_at, host, claimbench_version, git_revision, server_version, seed, command)"
			 " VALUES (1, 'now', 'h', 'v', 'r', '16.1', 1, 'explore');"
			 "INSERT INTO explore_results (id, invocation_id, strategy, claim_mode, workers, search, schedules,"
			 " violating, document) VALUES (1, 1, 'naive', 'flip', 2, 'every', 1, 0, '%s')",
			 cases[i].document);
		CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "a crafted row (%s)", sqlite3_errmsg(db));
		rc = explore_store_load(st, 1, &list, err, sizeof(err));
		CHECK(rc == -1 && list.n == 0 && strstr(err, "explore_results row 1") && strstr(err, cases[i].said),
		      "document %s is refused: %d, \"%s\" (want it to say \"%s\")", cases[i].document, rc, err,
		      cases[i].said);
		sqlite3_close(db);
		store_close(st);
		remove_store(path);
	}
}

/*
 * A version 14 file holding explores in 13's four tables (findings, shown events and
 * verdicts, inserted out of order) migrates to 15: one explore_results row each, whose
 * document reads back every field as it was; the four tables are gone.
 */
static void test_migration_v14(void)
{
	static const char explore_sql[] =
		"INSERT INTO invocations (id, started_at, host, claimbench_version, git_revision, server_version, seed, command)"
		" VALUES (1, '2026-01-02T03:04:05Z', 'h', '0.1.0', 'd411741', '16.1', 9, 'explore');"
		"INSERT INTO explores VALUES (5, 1, '2026-01-02T03:04:06Z', 'naive', 'flip', 3, 1, 2, 1, 0, 12, 'sample',"
		" 20, 1234.5, -81985529216486896, 1, 2, 6, 3, 4, 0.25, '0.c1.e.1', 'violation', 1, 1, 7);"
		"INSERT INTO explores VALUES (6, 1, '2026-01-02T03:04:07Z', 'skip-locked', 'hold', 2, 2, 2, 0, 0, 8,"
		" 'limit', 3000, NULL, NULL, 0, 0, 0, 0, 0, 1.5, NULL, NULL, 0, 0, 0);"
		"INSERT INTO explore_findings VALUES (5, 'duplicate', 1, 6, 1), (5, 'fifo-inversion', 0, 5, 2),"
		" (5, 'lost', 1, 0, 0);"
		"INSERT INTO explore_events VALUES (5, 2, 1, 'step', 'UPDATE {jobs} SET status = ''done''', 0, NULL),"
		" (5, 0, 0, 'step', 'SELECT id FROM {jobs}', 1, '1 row: 1'),"
		" (5, 1, NULL, 'check', 'the claim took job 2', 0, 'job 1 was claimable before it and after it');"
		"INSERT INTO explore_expects VALUES (5, 1, 'ci.ini:7', 'safe (naive.violation == 0)', 6, 0),"
		" (5, 0, '--expect', 'duplicate > 0', 6, 1);";
	struct explore_stored list = { 0 };
	struct store *st;
	sqlite3 *db;
	char path[256], err[512], *history;
	int rc = SQLITE_OK;

	tmp_path(path, sizeof(path), "v14.db");
	check_need(sqlite3_open(path, &db) == SQLITE_OK, "a file for version 14 opens");
	for (int v = 0; v < 14 && rc == SQLITE_OK; v++)
		rc = sqlite3_exec(db, store_migrations[v], NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, explore_sql, NULL, NULL, NULL);
	CHECK(rc == SQLITE_OK && query_int(db, "PRAGMA user_version") == 14,
	      "a version 14 file with two explores in the four tables (%s)", sqlite3_errmsg(db));
	rc = store_open(path, &st, err, sizeof(err));
	CHECK_EQ(rc, 0, "it opens (%s)", rc ? err : "");
	check_need(rc == 0, "opening the version 14 file");
	CHECK(query_int(db, "PRAGMA user_version") == store_schema_version &&
	      query_int(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('explores', 'explore_findings',"
			    " 'explore_events', 'explore_expects')") == 0 &&
	      query_int(db, "SELECT count(*) FROM explore_results") == 2 &&
	      query_int(db, "SELECT count(*) FROM explore_results WHERE id = 5 AND invocation_id = 1 AND workers = 3"
			    " AND search = 'sample' AND schedules = 20 AND violating = 6"
			    " AND recorded_at = '2026-01-02T03:04:06Z'") == 1,
	      "migrated to 15 (at %lld): two explore_results rows, their columns the old rows', the four tables gone",
	      query_int(db, "PRAGMA user_version"));
	rc = explore_store_load(st, 1, &list, err, sizeof(err));
	CHECK(rc == 0 && list.n == 2, "the migrated explores read back (%s)", rc ? err : "");
	check_need(rc == 0 && list.n == 2, "reading the migrated explores");
	check_sampled(&list.items[0].result, "the first, migrated");
	CHECK(list.items[1].result.explored == 3000 && explore_search_of(&list.items[1].result) == SEARCH_LIMIT &&
	      !list.items[1].result.shown.events && list.items[1].result.seconds == 1.5 &&
	      list.items[1].result.max_steps == 8, "the second, migrated: to the limit, 3000 schedules, nothing shown");
	explore_stored_free(&list);
	history = history_text(st, 0);
	CHECK(history && strstr(history, "explore (20 schedules, 6 with a violation)") &&
	      strstr(history, "explore (3000 schedules, 0 with a violation)"),
	      "history lists both migrated explores:\n%s", history ? history : "");
	free(history);
	store_close(st);
	sqlite3_close(db);
	remove_store(path);
}

/* A version 12 file with a run migrates through 13 to 15: its command unknown, listed as "-" (not run's), no explores. */
static void test_migration_v12(void)
{
	static const char run_sql[] =
		"INSERT INTO invocations (id, started_at, host, claimbench_version, git_revision, server_version, seed)"
		" VALUES (1, '2025-01-02T03:04:05Z', 'oldhost', '0.0.9', 'unknown', '16.1', 1);"
		"INSERT INTO runs (id, invocation_id, strategy, claim_mode, workers, jobs, repeat, complete)"
		" VALUES (4, 1, 'for-update', 'hold', 2, 10, 1, 1);";
	struct explore_stored list = { 0 };
	struct store *st;
	sqlite3 *db;
	char path[256], err[512], *history;
	int rc = SQLITE_OK;

	tmp_path(path, sizeof(path), "v12.db");
	check_need(sqlite3_open(path, &db) == SQLITE_OK, "a file for version 12 opens");
	for (int v = 0; v < 12 && rc == SQLITE_OK; v++)
		rc = sqlite3_exec(db, store_migrations[v], NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, run_sql, NULL, NULL, NULL);
	CHECK(rc == SQLITE_OK && query_int(db, "PRAGMA user_version") == 12, "a version 12 file with a run (%s)",
	      sqlite3_errmsg(db));
	rc = store_open(path, &st, err, sizeof(err));
	CHECK_EQ(rc, 0, "it opens (%s)", rc ? err : "");
	check_need(rc == 0, "opening the version 12 file");
	CHECK(query_int(db, "PRAGMA user_version") == store_schema_version && store_schema_version >= 13,
	      "it is migrated through 13 to the current version (%d, the file at %lld)", store_schema_version,
	      query_int(db, "PRAGMA user_version"));
	CHECK(query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'explore_results'") == 1 &&
	      query_int(db, "SELECT count(*) FROM invocations WHERE command IS NULL") == 1,
	      "migration 15 made explore_results; the old invocation's command is unknown (NULL)");
	CHECK(explore_store_load(st, 1, &list, err, sizeof(err)) == 0 && list.n == 0, "the old invocation has no explores");
	history = history_text(st, 0);
	CHECK(history && strstr(history, "for-update") && strstr(history, "yes       -             -\n") &&
	      !strstr(history, "run\n"),
	      "history lists the old run with its command unknown (-), not as run's:\n%s", history ? history : "");
	free(history);
	store_close(st);
	sqlite3_close(db);
	remove_store(path);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_round_trip();
	test_refused();
	test_crafted();
	test_migration_v14();
	test_migration_v12();
	rmdir(tmpdir);
	return check_exit_status();
}
