/*
 * Unit tests of the SQL templates (engine/sql_template.c): {jobs} and {tickets} replaced
 * by the quoted table names, {jobs:SUFFIX} naming an object inside the quotes, {now} the
 * dialect's clock, {mark:TABLE} the note of that table alone (a comment on SQLite, a
 * COMMENT ON with the oid on PostgreSQL), {channel} the queue table's name as a string
 * literal, and results that do not fit refused.
 */
#include <string.h>

#include "check.h"
#include "db/postgresql/parts.h"
#include "db/sqlite/parts.h"
#include "engine/sql_template.h"

/* The process whose notes mark the tables. */
static const struct owner run_owner = { .pid = 42, .host = "h", .started = 7 };

/* The names of a PostgreSQL run, with an owner. */
static const struct sql_names pg = {
	.jobs = "\"j\"", .tickets = "\"t\"", .owner = &run_owner, .sql = &postgresql_harness_sql,
};

/* The names of an SQLite run. */
static const struct sql_names lite = {
	.jobs = "\"j\"", .tickets = "\"t\"", .owner = &run_owner, .sql = &sqlite_harness_sql,
};

/* Placeholders replaced, other braces kept, the buffer's limit respected. */
static void test_sql_template(void)
{
	const struct sql_names long_name = { .jobs = "a_very_long_table_name", .tickets = "t" };
	char buf[128];

	CHECK(sql_expand("SELECT 1 FROM {jobs} JOIN {tickets} ON {jobs}.id = 1", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "SELECT 1 FROM \"j\" JOIN \"t\" ON \"j\".id = 1") == 0,
	      "sql_expand replaces every {jobs} and {tickets}");
	CHECK(sql_expand("{job} {x} {jobsx} {now", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "{job} {x} {jobsx} {now") == 0, "sql_expand leaves other braces alone");
	CHECK_EQ(sql_expand("SELECT * FROM {jobs}", &long_name, buf, 20), -1,
	      "sql_expand refuses a result that does not fit");
	CHECK(sql_expand("0123456789", &pg, buf, 11) == 0 && strcmp(buf, "0123456789") == 0,
	      "sql_expand fills a buffer exactly");
}

/* {now} per dialect. */
static void test_clock(void)
{
	char buf[128];

	CHECK(sql_expand("SET done_at = {now}", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "SET done_at = clock_timestamp()") == 0, "{now} is clock_timestamp() on PostgreSQL");
	CHECK(sql_expand("SET done_at = {now}", &lite, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "SET done_at = julianday('now')") == 0, "{now} is julianday('now') on SQLite");
	CHECK_EQ(sql_expand("x{now}", &pg, buf, 18), -1, "{now} that does not fit is refused");
}

/* {jobs:SUFFIX} and {tickets:SUFFIX}, and the names that cannot take a suffix. */
static void test_suffixed_names(void)
{
	const struct sql_names bare = { .jobs = "j", .tickets = "t" };
	char buf[128];

	CHECK(sql_expand("CREATE INDEX {jobs:new} ON {jobs}", &lite, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "CREATE INDEX \"j_new\" ON \"j\"") == 0,
	      "{jobs:SUFFIX} appends _SUFFIX inside the quotes");
	CHECK(sql_expand("{tickets:seq}", &lite, buf, sizeof(buf)) == 0 && strcmp(buf, "\"t_seq\"") == 0,
	      "{tickets:SUFFIX} appends _SUFFIX inside the quotes");
	CHECK_EQ(sql_expand("{jobs:new}", &bare, buf, sizeof(buf)), -1,
	      "a suffix on a name that does not end in a quote is refused");
	CHECK_EQ(sql_expand("{jobs:new", &lite, buf, sizeof(buf)), -1, "a suffix without its closing brace is refused");
	CHECK(sql_expand("{jobs:new}", &lite, buf, 8) == 0 && strcmp(buf, "\"j_new\"") == 0,
	      "a suffixed name fills a buffer exactly");
	CHECK_EQ(sql_expand("{jobs:new}", &lite, buf, 7), -1, "a suffixed name one byte too long is refused");
	CHECK_EQ(sql_expand("", &lite, buf, 0), -1, "a buffer of no bytes is refused");
}

/*
 * {mark:TABLE}: the note of that one table, naming it and no other; on PostgreSQL a
 * COMMENT ON it that adds its oid. Refused for a table the run has none of, without an
 * owner, or for a name a note could not carry.
 */
static void test_marks(void)
{
	const struct sql_names guarded = {
		.cache = "\"app_c\"", .control = "\"k\"", .owner = &run_owner, .sql = &sqlite_harness_sql,
	};
	const struct sql_names no_owner = { .jobs = "\"j\"", .sql = &sqlite_harness_sql };
	const struct sql_names odd = { .jobs = "\"j x\"", .owner = &run_owner, .sql = &sqlite_harness_sql };
	char buf[512];

	CHECK(sql_expand("CREATE TABLE {tickets} {mark:tickets} (", &lite, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "CREATE TABLE \"t\" /* claimbench run: pid 42 on h started 7; table t */ (") == 0,
	      "{mark:tickets} on SQLite is a comment with the note of the ticket table alone (%s)", buf);
	CHECK(sql_expand("{mark:jobs}", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "DO $mark$BEGIN EXECUTE format('COMMENT ON TABLE %s IS %L', '\"j\"'::regclass, "
		     "'claimbench run: pid 42 on h started 7; table j oid ' || '\"j\"'::regclass::oid); END$mark$") == 0,
	      "{mark:jobs} on PostgreSQL comments the queue table with its name and oid (%s)", buf);
	CHECK(sql_expand("{mark:cache}", &guarded, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "/* claimbench run: pid 42 on h started 7; table app_c */") == 0, "{mark:cache} (%s)", buf);
	CHECK_EQ(sql_expand("{mark:cache}", &lite, buf, sizeof(buf)), -1, "{mark:cache} in a queue run is refused");
	CHECK_EQ(sql_expand("{mark:payroll}", &lite, buf, sizeof(buf)), -1, "{mark:} of no table of the run is refused");
	CHECK_EQ(sql_expand("{mark:jobs", &lite, buf, sizeof(buf)), -1, "{mark: without its closing brace is refused");
	CHECK_EQ(sql_expand("{mark:jobs}", &no_owner, buf, sizeof(buf)), -1, "{mark:} without an owner is refused");
	CHECK_EQ(sql_expand("{mark:jobs}", &odd, buf, sizeof(buf)), -1,
	      "{mark:} of a name a note cannot carry (a space) is refused");
	CHECK_EQ(sql_expand("{mark:jobs}", &pg, buf, 60), -1, "{mark:} that does not fit is refused");
}

/* {cache} and {control}: a guarded run's tables, suffixed or not; refused in a queue run, which has none. */
static void test_guarded_names(void)
{
	const struct sql_names guarded = { .cache = "\"c\"", .control = "\"k\"" };
	char buf[128];

	CHECK(sql_expand("LOCK TABLE {cache}; CREATE INDEX {control:line} ON {control}", &guarded, buf,
			 sizeof(buf)) == 0 &&
	      strcmp(buf, "LOCK TABLE \"c\"; CREATE INDEX \"k_line\" ON \"k\"") == 0,
	      "{cache}, {control} and {control:SUFFIX} are the guarded run's quoted names");
	CHECK_EQ(sql_expand("SELECT 1 FROM {cache}", &lite, buf, sizeof(buf)), -1,
	      "{cache} in a queue run, which has no cache, is refused");
}

/* {channel}: the quoted queue table name as a string literal, refused when the name holds a quote. */
static void test_channel(void)
{
	const struct sql_names bare = { .jobs = "j" };
	const struct sql_names quote_inside = { .jobs = "\"j'x\"" };
	const struct sql_names doubled = { .jobs = "\"j\"\"x\"" };
	char buf[128];

	CHECK(sql_expand("LISTEN {jobs}; SELECT pg_notify({channel}, '')", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "LISTEN \"j\"; SELECT pg_notify('j', '')") == 0, "{channel} is the table's name as a literal");
	CHECK_EQ(sql_expand("{channel}", &bare, buf, sizeof(buf)), -1, "{channel} of an unquoted name is refused");
	CHECK_EQ(sql_expand("{channel}", &quote_inside, buf, sizeof(buf)), -1,
	      "{channel} of a name holding a single quote is refused");
	CHECK_EQ(sql_expand("{channel}", &doubled, buf, sizeof(buf)), -1,
	      "{channel} of a name holding a double quote is refused");
	CHECK_EQ(sql_expand("{channel}", &pg, buf, 3), -1, "{channel} that does not fit is refused");
}

/* What a lease makes of {claimable}, {unfinished} and {lease_until}, with and without a reaper. */
static void test_lease(void)
{
	struct sql_names pg = { .jobs = "\"j\"", .sql = &postgresql_harness_sql };
	struct sql_names lite = { .jobs = "\"j\"", .sql = &sqlite_harness_sql };
	struct sql_recovery_text text, lite_text;
	char buf[512];

	sql_names_lease(&pg, &text, 0, false);
	CHECK(sql_expand("{claimable}|{unfinished}|{lease_until}", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "status = 'new'|status = 'new'|NULL") == 0, "no lease: new rows only, no lease end (%s)", buf);
	sql_names_lease(&pg, &text, 1500, false);
	CHECK(sql_expand("{claimable}|{unfinished}|{lease_until}", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "(status = 'new' OR (status = 'active' AND lease_until < clock_timestamp()))|"
		     "status IN ('new', 'active')|clock_timestamp() + interval '1500 milliseconds'") == 0,
	      "a lease: an expired active row is claimable, active rows are unfinished (%s)", buf);
	sql_names_lease(&pg, &text, 1500, true);
	CHECK(sql_expand("{claimable}|{unfinished}", &pg, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "status = 'new'|status IN ('new', 'active')") == 0,
	      "a lease with a reaper: only the reaper gives expired rows back (%s)", buf);
	sql_names_lease(&lite, &lite_text, 250, false);
	CHECK(sql_expand("{lease_until}", &lite, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "julianday('now') + 250 / 86400000.0") == 0, "SQLite's lease end is a julian day (%s)", buf);
}

int main(void)
{
	test_sql_template();
	test_clock();
	test_marks();
	test_suffixed_names();
	test_guarded_names();
	test_channel();
	test_lease();
	return check_exit_status();
}
