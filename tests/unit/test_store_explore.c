/*
 * Unit test of explore's records in the result store (store/store_explore.h, schema 13):
 * two hand-made records appended under one invocation and read back field by field; the
 * invocation read back alone, its command noted; history listing them; an append the file
 * refuses leaving nothing behind; a version 12 file with a run migrated to 13, its
 * invocation's command unknown and its run listed with "-" for a command, as show says it.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "store/store.h"
#include "store/store_explore.h"
#include "store_files.h"

#define BIG_SEED 0xfedcba9876543210ULL /* past INT64_MAX: the bits must survive */

/* The temporary directory every file of the test lives in. */
static char tmpdir[] = "/tmp/claimbench-unit-store-explore-XXXXXX";

/* Writes tmpdir/name into buf. */
static void tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

/* The schedule a record shows: a worker's step, a harness's check, a step that had not returned. */
static struct store_explore_event shown_events[] = {
	{ .worker = 0, .kind = "step", .blocked = true, .returned = true, .statement = "SELECT id FROM {jobs}",
	  .result = "1 row: 1" },
	{ .worker = -1, .kind = "check", .returned = true, .statement = "the claim took job 2",
	  .result = "job 1 was claimable before it and after it" },
	{ .worker = 1, .kind = "step", .statement = "UPDATE {jobs} SET status = 'done'" },
};

/* Two verdicts: an --expect that held and a scenario line that did not. */
static struct store_explore_expect verdicts[] = {
	{ .source = "--expect", .text = "duplicate > 0", .value = 6, .holds = true },
	{ .source = "ci.ini:7", .text = "safe (naive.violation == 0)", .value = 6, .holds = false },
};

/* A sampled record with a shown schedule, findings, events and verdicts. */
static void fill_sampled(struct store_explore *x)
{
	memset(x, 0, sizeof(*x));
	snprintf(x->strategy, sizeof(x->strategy), "naive");
	snprintf(x->mode, sizeof(x->mode), "flip");
	x->workers = 3;
	x->claims = 1;
	x->jobs = 2;
	x->crashes = true;
	x->max_steps = 12;
	snprintf(x->search, sizeof(x->search), "sample");
	x->schedules = 20;
	x->space = 1234.5;
	x->sampled = true;
	x->seed = BIG_SEED;
	x->bounded = 1;
	x->blocked = 2;
	x->violating = 6;
	x->redelivered = 3;
	x->fenced = 4;
	x->seconds = 0.25;
	x->n_findings = 2;
	x->findings[0] = (struct store_explore_finding){ .name = "duplicate", .violation = true, .schedules = 6,
							 .in_shown = 1 };
	x->findings[1] = (struct store_explore_finding){ .name = "fifo-inversion", .schedules = 5, .in_shown = 2 };
	snprintf(x->shown_trace, sizeof(x->shown_trace), "0.c1.e.1");
	snprintf(x->shown_why, sizeof(x->shown_why), "violation");
	x->shown_blocked = true;
	x->shown_redeliveries = 1;
	x->shown_fenced = UINT64_MAX;
	x->events = shown_events;
	x->n_events = sizeof(shown_events) / sizeof(shown_events[0]);
	x->expects = verdicts;
	x->n_expects = sizeof(verdicts) / sizeof(verdicts[0]);
}

/* Whether the events a and b (n each) are the same. */
static bool same_events(const struct store_explore_event *a, const struct store_explore_event *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].worker != b[i].worker || strcmp(a[i].kind, b[i].kind) || a[i].blocked != b[i].blocked ||
		    a[i].returned != b[i].returned || strcmp(a[i].statement, b[i].statement) ||
		    strcmp(a[i].result, b[i].result))
			return false;
	return true;
}

/* Two records appended under one invocation read back as they were; history lists both. */
static void test_round_trip(void)
{
	const struct store_context ctx = { .host = "h", .version = "test", .git_revision = "abc",
					   .scenario_text = "claimbench explore --strategy naive", .command = "explore" };
	struct invocation_result header = { .scenario = "command line", .backend = "postgresql", .seed = 9,
					    .started_at = "2026-01-02T03:04:05Z", .server_version = "16.1" };
	struct store_session session = { 0 };
	struct store_explore first, second;
	struct store_explore_list list = { 0 };
	struct store_run inv = { 0 };
	struct store *st;
	char path[256], err[512], *history;
	int rc;

	tmp_path(path, sizeof(path), "round.db");
	rc = store_open(path, &st, err, sizeof(err));
	CHECK_EQ(rc, 0, "a new store opens (%s)", rc ? err : "");
	check_need(rc == 0, "opening a new store");
	fill_sampled(&first);
	memset(&second, 0, sizeof(second));
	snprintf(second.strategy, sizeof(second.strategy), "skip-locked");
	snprintf(second.mode, sizeof(second.mode), "hold");
	second.workers = 2;
	second.claims = 2;
	second.jobs = 2;
	snprintf(second.search, sizeof(second.search), "limit");
	second.schedules = 3000;
	second.space = NAN;
	second.seed = 5;
	CHECK(store_explore_append(st, &session, &ctx, &header, &first, err, sizeof(err)) == 0 && first.id > 0 &&
	      session.invocation_id > 0 && first.invocation_id == session.invocation_id,
	      "a record is appended with its invocation (%s)", err);
	CHECK(store_explore_append(st, &session, &ctx, &header, &second, err, sizeof(err)) == 0 &&
	      second.invocation_id == first.invocation_id && second.id > first.id,
	      "a second one lands in the same invocation");

	rc = store_explore_load(st, session.invocation_id, &list, err, sizeof(err));
	CHECK(rc == 0 && list.n == 2, "the invocation's records read back, two of them (%s)", rc ? err : "");
	check_need(rc == 0 && list.n == 2, "reading the records back");
	const struct store_explore *a = &list.items[0], *b = &list.items[1];
	CHECK(strcmp(a->strategy, "naive") == 0 && strcmp(a->mode, "flip") == 0 && a->workers == 3 && a->claims == 1 &&
	      a->jobs == 2 && a->crashes && !a->lease_expiry && a->max_steps == 12,
	      "the first: its strategy, mode, K, C, J, faults and bound");
	CHECK(strcmp(a->search, "sample") == 0 && a->schedules == 20 && a->space == 1234.5 && a->sampled &&
	      a->seed == BIG_SEED, "its search: sampled, 20 of ~1234.5, the seed past INT64_MAX kept");
	CHECK(a->bounded == 1 && a->blocked == 2 && a->violating == 6 && a->redelivered == 3 && a->fenced == 4 &&
	      a->seconds == 0.25 && a->recorded_at[0], "its tallies and time");
	CHECK(a->n_findings == 2 && strcmp(a->findings[0].name, "duplicate") == 0 && a->findings[0].violation &&
	      a->findings[0].schedules == 6 && a->findings[0].in_shown == 1 &&
	      strcmp(a->findings[1].name, "fifo-inversion") == 0 && !a->findings[1].violation &&
	      a->findings[1].in_shown == 2, "its findings, violations told apart");
	CHECK(strcmp(a->shown_trace, "0.c1.e.1") == 0 && strcmp(a->shown_why, "violation") == 0 && a->shown_blocked &&
	      a->shown_redeliveries == 1 && a->shown_fenced == UINT64_MAX, "its shown schedule's trace and counts");
	CHECK(a->n_events == 3 && same_events(a->events, shown_events, 3),
	      "its events, the harness's worker and a step that had not returned included");
	CHECK(a->n_expects == 2 && strcmp(a->expects[1].source, "ci.ini:7") == 0 && !a->expects[1].holds &&
	      a->expects[0].holds && a->expects[0].value == 6 && strcmp(a->expects[0].text, "duplicate > 0") == 0,
	      "its verdicts, where each came from");
	CHECK(strcmp(b->search, "limit") == 0 && isnan(b->space) && !b->sampled && b->shown_trace[0] == 0 &&
	      b->n_events == 0 && b->n_expects == 0 && b->n_findings == 0,
	      "the second: no space known, no seed (not sampled), nothing shown");
	store_explore_list_free(&list);

	CHECK(store_explore_load(st, session.invocation_id + 1, &list, err, sizeof(err)) == 1 && list.n == 0,
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
	store_close(st);
	remove_store(path);
}

/* An append the file refuses (a trigger of the test's) leaves nothing behind, not even the invocation. */
static void test_refused(void)
{
	const struct store_context ctx = { .host = "h", .version = "test", .git_revision = "abc", .command = "explore" };
	struct invocation_result header = { .backend = "postgresql" };
	struct store_session session = { 0 };
	struct store_explore x;
	struct store *st;
	sqlite3 *db;
	char path[256], err[512];

	tmp_path(path, sizeof(path), "refused.db");
	check_need(store_open(path, &st, err, sizeof(err)) == 0, "a new store opens");
	check_need(sqlite3_open(path, &db) == SQLITE_OK, "the test opens it too");
	sqlite3_exec(db, "CREATE TRIGGER no_events BEFORE INSERT ON explore_events BEGIN SELECT RAISE(ABORT, 'no'); END",
		     NULL, NULL, NULL);
	fill_sampled(&x);
	CHECK(store_explore_append(st, &session, &ctx, &header, &x, err, sizeof(err)) < 0 && strstr(err, "no") &&
	      session.invocation_id == 0, "an event the file refuses fails the append, saying why (%s)", err);
	CHECK_EQ(query_int(db, "SELECT (SELECT count(*) FROM invocations) + (SELECT count(*) FROM explores) +"
			    " (SELECT count(*) FROM explore_findings)"), 0, "and nothing of it is left");
	sqlite3_close(db);
	store_close(st);
	remove_store(path);
}

/* A version 12 file with a run migrates to 13: its command unknown, listed as "-" (not run's), no explores. */
static void test_migration_v12(void)
{
	static const char run_sql[] =
		"INSERT INTO invocations (id, started_at, host, claimbench_version, git_revision, server_version, seed)"
		" VALUES (1, '2025-01-02T03:04:05Z', 'oldhost', '0.0.9', 'unknown', '16.1', 1);"
		"INSERT INTO runs (id, invocation_id, strategy, claim_mode, workers, jobs, repeat, complete)"
		" VALUES (4, 1, 'for-update', 'hold', 2, 10, 1, 1);";
	struct store_explore_list list = { 0 };
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
	CHECK(query_int(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('explores', 'explore_findings',"
			    " 'explore_events', 'explore_expects')") == 4 &&
	      query_int(db, "SELECT count(*) FROM invocations WHERE command IS NULL") == 1,
	      "migration 13 added explore's tables; the old invocation's command is unknown (NULL)");
	CHECK(store_explore_load(st, 1, &list, err, sizeof(err)) == 0 && list.n == 0, "the old invocation has no explores");
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
	test_migration_v12();
	rmdir(tmpdir);
	return check_exit_status();
}
