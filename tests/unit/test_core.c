/* Unit tests of the small core pieces: SQL templates, the work-time draw, the strategy registry. */
#include <stdlib.h>
#include <string.h>

#include "db/conninfo.h"
#include "cli/args.h"
#include "check.h"
#include "engine/sql_template.h"
#include "engine/strategy.h"
#include "engine/workload.h"

static void test_sql_template(void)
{
	const struct sql_names pg = { .jobs = "\"j\"", .tickets = "\"t\"", .owner = "claimbench run: x",
				      .dialect = BACKEND_POSTGRESQL };
	const struct sql_names lite = { .jobs = "\"j\"", .tickets = "\"t\"", .owner = "",
					.dialect = BACKEND_SQLITE };
	const struct sql_names long_name = { .jobs = "a_very_long_table_name", .tickets = "t", .owner = "" };
	char buf[128];

	CHECK(sql_expand("SELECT 1 FROM {jobs} JOIN {tickets} ON {jobs}.id = 1", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "SELECT 1 FROM \"j\" JOIN \"t\" ON \"j\".id = 1") == 0,
	      "sql_expand replaces every {jobs} and {tickets}");
	CHECK(sql_expand("{job} {x} {jobsx}", &pg, buf, sizeof(buf)) == 0 && strcmp(buf, "{job} {x} {jobsx}") == 0,
	      "sql_expand leaves other braces alone");
	CHECK(sql_expand("CREATE INDEX {jobs:new}", &lite, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "CREATE INDEX \"j_new\"") == 0, "{jobs:SUFFIX} names a suffixed object inside the quotes");
	CHECK(sql_expand("SET done_at = {now}", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "SET done_at = clock_timestamp()") == 0, "{now} is clock_timestamp() on PostgreSQL");
	CHECK(sql_expand("SET done_at = {now}", &lite, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "SET done_at = julianday('now')") == 0, "{now} is julianday('now') on SQLite");
	CHECK(sql_expand("COMMENT ON TABLE {jobs} IS '{owner}'", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "COMMENT ON TABLE \"j\" IS 'claimbench run: x'") == 0, "{owner} is the owner note");
	CHECK(sql_expand("SELECT * FROM {jobs}", &long_name, buf, 20) == -1,
	      "sql_expand refuses a result that does not fit");
	CHECK(sql_expand("0123456789", &pg, buf, 11) == 0 && strcmp(buf, "0123456789") == 0,
	      "sql_expand fills a buffer exactly");
}

/* Mean of n work times in ms. */
static double mean_ms(const int64_t *w, long n)
{
	double sum = 0;

	for (long i = 0; i < n; i++)
		sum += (double)w[i] / 1e6;
	return sum / (double)n;
}

static void test_workload(void)
{
	const long n = 20000;
	int64_t *fixed = workload_make(n, 100, WORK_FIXED, 1);
	int64_t *uni = workload_make(n, 10, WORK_UNIFORM, 7);
	int64_t *uni_again = workload_make(n, 10, WORK_UNIFORM, 7);
	int64_t *uni_other = workload_make(n, 10, WORK_UNIFORM, 8);
	int64_t *expo = workload_make(n, 10, WORK_EXP, 7);
	int64_t lo = INT64_MAX, hi = 0;
	long equal_fixed = 0, over_mean = 0;

	CHECK(fixed && uni && uni_again && uni_other && expo, "workload_make allocates");
	if (!fixed || !uni || !uni_again || !uni_other || !expo)
		goto out;
	for (long i = 0; i < n; i++) {
		equal_fixed += fixed[i] == 100000000;
		lo = uni[i] < lo ? uni[i] : lo;
		hi = uni[i] > hi ? uni[i] : hi;
		over_mean += expo[i] > 10000000;
	}
	CHECK(equal_fixed == n, "fixed: every job works exactly work_ms");
	CHECK(memcmp(uni, uni_again, (size_t)n * sizeof(*uni)) == 0, "the same seed draws the same work times");
	CHECK(memcmp(uni, uni_other, (size_t)n * sizeof(*uni)) != 0, "another seed draws other work times");
	CHECK(lo >= 0 && hi <= 20000000, "uniform: every draw within [0, 2 x mean] (%lld..%lld ns)",
	      (long long)lo, (long long)hi);
	CHECK_NEAR(mean_ms(uni, n), 10, 0.2, "uniform: mean within 2%% of 10 ms (%.3f)", mean_ms(uni, n));
	CHECK_NEAR(mean_ms(expo, n), 10, 0.4, "exp: mean within 4%% of 10 ms (%.3f)", mean_ms(expo, n));
	CHECK_NEAR((double)over_mean / (double)n, exp(-1), 0.02,
		   "exp: share above the mean is e^-1 (%.3f)", (double)over_mean / (double)n);
out:
	free(fixed);
	free(uni);
	free(uni_again);
	free(uni_other);
	free(expo);
}

/* Checks one strategy's declaration the way a registration check would. */
static void check_strategy(const struct strategy_ops *st)
{
	unsigned slots = 0;
	bool sql_ok = true, slots_ok = true;

	CHECK(st->name && st->summary && st->claim, "%s: has a name, a summary and a claim hook", st->name);
	CHECK(st->modes & MODE_BIT(st->default_mode), "%s: its default mode is one it supports", st->name);
	CHECK(st->backends != 0, "%s: runs on at least one backend", st->name);
	CHECK(strategy_find(st->name) == st, "%s: strategy_find finds it by name", st->name);
	for (size_t i = 0; i < st->n_statements; i++) {
		const struct strategy_statement *s = &st->statements[i];

		if (s->slot < SLOT_STRATEGY || s->slot >= DB_MAX_STATEMENTS || (slots & (1u << s->slot)))
			slots_ok = false;
		else
			slots |= 1u << s->slot;
		for (int k = 0; k < BACKEND_COUNT; k++)
			if ((st->backends & BACKEND_BIT(k)) && !s->sql[k])
				sql_ok = false;
	}
	CHECK(slots_ok, "%s: statement slots are its own, distinct and in range", st->name);
	CHECK(sql_ok, "%s: every statement has SQL for every backend it claims", st->name);
}

static void test_registry(void)
{
	CHECK(strategy_registry_len >= 5, "the registry holds the five seed strategies");
	for (size_t i = 0; i < strategy_registry_len; i++)
		check_strategy(strategy_registry[i]);
	CHECK(strategy_find("no-such-strategy") == NULL, "strategy_find returns NULL for an unknown name");
}

/* Checks that redacting text gives want. */
static void check_redacted(const char *text, const char *want)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", text);
	conninfo_redact(buf);
	CHECK(strcmp(buf, want) == 0, "redacted \"%s\" is \"%s\" (got \"%s\")", text, want, buf);
}

static void test_redaction(void)
{
	check_redacted("claimbench run --db host=h password=s3cr3t dbname=q", "claimbench run --db host=h password=*** dbname=q");
	check_redacted("--db 'host=h PASSWORD='a b\\' c' user=u'", "--db 'host=h PASSWORD=*** user=u'");
	check_redacted("postgresql://alice:pw@db:5432/q", "postgresql://alice:***@db:5432/q");
	check_redacted("postgresql://alice@db/q?password=x&sslmode=require", "postgresql://alice@db/q?password=***&sslmode=require");
	check_redacted("db = sqlite:/tmp/x.db; jobs = 3", "db = sqlite:/tmp/x.db; jobs = 3");
	check_redacted("see http://example/a:b@c", "see http://example/a:b@c");
}

int main(void)
{
	test_redaction();
	test_sql_template();
	test_workload();
	test_registry();
	return check_exit_status();
}
