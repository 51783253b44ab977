/*
 * Unit tests of the strategy and guard registries (strategies/registry.c, guards/registry.c):
 * every strategy's declaration checked as a registration check would, each name once, the
 * order list uses, and lookups by name; every guard's forms on MariaDB, and the wait limits
 * a form counting whole seconds refuses.
 */
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "plugin/guard.h"
#include "plugin/strategy.h"

/* Whether a per-dialect query is given for some dialect. */
static bool query_given(const char *const sql[DIALECT_COUNT])
{
	for (int k = 0; k < DIALECT_COUNT; k++)
		if (sql[k])
			return true;
	return false;
}

/* Whether a per-dialect query is given for some dialect but not for every one in dialects. */
static bool query_missing(const char *const sql[DIALECT_COUNT], unsigned dialects)
{
	for (int k = 0; k < DIALECT_COUNT; k++)
		if ((dialects & DIALECT_BIT(k)) && !sql[k])
			return query_given(sql);
	return false;
}

/* Checks one strategy's declaration the way a registration check would. */
static void check_strategy(const struct strategy_ops *st)
{
	unsigned slots = 0;
	bool sql_ok = true, slots_ok = true;

	CHECK(st->name && st->summary && (st->claim != NULL) != (st->claim_batch != NULL),
	      "%s: has a name, a summary and one claim hook (claim or claim_batch)", st->name);
	CHECK(!st->claim_batch || (st->batch_max && st->finish_batch && !st->finish),
	      "%s: a batch claim comes with batch_max and finish_batch", st->name);
	CHECK(st->modes & MODE_BIT(st->default_mode), "%s: its default mode is one it supports", st->name);
	CHECK(st->dialects != 0, "%s: runs on at least one backend", st->name);
	CHECK_EQ(strategy_find(st->name), st, "%s: strategy_find finds it by name", st->name);
	for (size_t i = 0; i < st->n_statements; i++) {
		const struct strategy_statement *s = &st->statements[i];

		if (s->slot == SLOT_COMPLETE || s->slot == SLOT_FAIL || s->slot >= DB_MAX_STATEMENTS ||
		    (slots & (1u << s->slot)))
			slots_ok = false;
		else
			slots |= 1u << s->slot;
		for (int k = 0; k < DIALECT_COUNT; k++)
			if ((st->dialects & DIALECT_BIT(k)) && !s->sql[k])
				sql_ok = false;
	}
	if (query_missing(st->final_state_sql, st->dialects) || query_missing(st->leftover_sql, st->dialects))
		sql_ok = false;
	CHECK(slots_ok, "%s: statement slots are distinct, in range, and replace no completion", st->name);
	CHECK(sql_ok, "%s: every statement and query has SQL for every backend it claims", st->name);
	CHECK_EQ(query_given(st->leftover_sql), (st->leftover_what != NULL),
	      "%s: what its leftover query counts is named", st->name);
}

/* Every registered strategy, and a name that is not one. */
static void test_registry(void)
{
	CHECK(strategy_registry_len >= 10, "the registry holds the six seed strategies and the four of real queues");
	for (size_t i = 0; i < strategy_registry_len; i++)
		check_strategy(strategy_registry[i]);
	CHECK_EQ(strategy_find("no-such-strategy"), NULL, "strategy_find returns NULL for an unknown name");
	for (size_t i = 1; i < strategy_registry_len; i++) {
		const struct strategy_ops *a = strategy_registry[i - 1], *b = strategy_registry[i];

		CHECK(a->order < b->order || (a->order == b->order && strcmp(a->name, b->name) < 0),
		      "%s comes before %s: by order, then by name, and no name twice", a->name, b->name);
	}
	for (size_t i = 0; i < strategy_registry_len; i++)
		CHECK(strategy_find(strategy_registry[i]->name) == strategy_registry[i] &&
			      strategy_index(strategy_registry[i]) == i,
		      "%s is found by its name at its place", strategy_registry[i]->name);
}

/* Every registered guard: in order, each name once, found by its name at its place. */
static void test_guard_registry(void)
{
	CHECK(guard_registry_len >= 10, "the registry holds the ten guards of seeds 003 and 004");
	for (size_t i = 1; i < guard_registry_len; i++) {
		const struct guard_ops *a = guard_registry[i - 1], *b = guard_registry[i];

		CHECK(a->order < b->order || (a->order == b->order && strcmp(a->name, b->name) < 0),
		      "%s comes before %s: by order, then by name, and no name twice", a->name, b->name);
	}
	for (size_t i = 0; i < guard_registry_len; i++)
		CHECK(guard_find(guard_registry[i]->name) == guard_registry[i] && guard_index(guard_registry[i]) == i,
		      "%s is found by its name at its place", guard_registry[i]->name);
	CHECK_EQ(guard_find("no-such-guard"), NULL, "guard_find returns NULL for an unknown name");
}

/* Every guard on MariaDB; a release only where a begin is; the wait limits InnoDB's WAIT n can and cannot count. */
static void test_guard_forms(void)
{
	const struct guard_ops *wait = guard_find("row-lock-wait"), *row = guard_find("row-lock");
	const struct backend_ops *mariadb = backend_named("mariadb"), *postgresql = backend_named("postgresql");
	char why[256] = "";

	CHECK(mariadb && postgresql, "the registry holds mariadb and postgresql");
	if (!mariadb || !postgresql)
		return;
	for (size_t i = 0; i < guard_registry_len; i++) {
		const struct guard_ops *g = guard_registry[i];

		CHECK(guard_runs_on(g, mariadb), "%s has a form on MariaDB", g->name);
		for (size_t k = 0; k < backend_registry_len; k++) {
			enum sql_dialect d = backend_registry[k]->dialect;

			CHECK((!g->user.release_sql[d] || g->user.begin_sql[d]) &&
			      (!g->writer.release_sql[d] || g->writer.begin_sql[d]),
			      "%s on %s: a release is given only with a begin, the one it would end", g->name,
			      backend_registry[k]->name);
		}
	}
	CHECK(wait && row, "row-lock-wait and row-lock are registered");
	if (!wait || !row)
		return;
	CHECK(guard_refuses_wait_limit(wait, mariadb, 50, why, sizeof(why)) &&
	      strstr(why, "--wait-limit-ms 50 is not a multiple of 1000"),
	      "row-lock-wait on MariaDB refuses a limit of 50 ms, saying why (%s)", why);
	CHECK(!guard_refuses_wait_limit(wait, mariadb, 2000, why, sizeof(why)),
	      "row-lock-wait on MariaDB takes a limit of 2000 ms, WAIT 2");
	CHECK(!guard_refuses_wait_limit(wait, postgresql, 50, why, sizeof(why)),
	      "row-lock-wait on PostgreSQL takes 50 ms (lock_timeout counts milliseconds)");
	CHECK(!guard_refuses_wait_limit(row, mariadb, 50, why, sizeof(why)),
	      "row-lock, which has no wait limit, is not refused for one");
}

int main(void)
{
	test_registry();
	test_guard_registry();
	test_guard_forms();
	return check_exit_status();
}
