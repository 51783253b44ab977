/*
 * Unit tests of the SQL templates (engine/sql_template.c): {jobs} and {tickets} replaced
 * by the quoted table names, {jobs:SUFFIX} naming an object inside the quotes, and
 * results that do not fit refused.
 */
#include <string.h>

#include "check.h"
#include "engine/sql_template.h"

/* Placeholders replaced, other braces kept, the buffer's limit respected. */
static void test_sql_template(void)
{
	char buf[128];

	CHECK(sql_expand("SELECT 1 FROM {jobs} JOIN {tickets} ON {jobs}.id = 1", "\"j\"", "\"t\"", buf,
			 sizeof(buf)) == 0 && strcmp(buf, "SELECT 1 FROM \"j\" JOIN \"t\" ON \"j\".id = 1") == 0,
	      "sql_expand replaces every {jobs} and {tickets}");
	CHECK(sql_expand("{job} {x}", "a", "b", buf, sizeof(buf)) == 0 && strcmp(buf, "{job} {x}") == 0,
	      "sql_expand leaves other braces alone");
	CHECK(sql_expand("SELECT * FROM {jobs}", "a_very_long_table_name", "t", buf, 20) == -1,
	      "sql_expand refuses a result that does not fit");
	CHECK(sql_expand("0123456789", "a", "b", buf, 11) == 0 && strcmp(buf, "0123456789") == 0,
	      "sql_expand fills a buffer exactly");
}

/* {jobs:SUFFIX} and {tickets:SUFFIX}, and the names that cannot take a suffix. */
static void test_suffixed_names(void)
{
	char buf[128];

	CHECK(sql_expand("CREATE INDEX {jobs:new} ON {jobs}", "\"j\"", "\"t\"", buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "CREATE INDEX \"j_new\" ON \"j\"") == 0,
	      "{jobs:SUFFIX} appends _SUFFIX inside the quotes");
	CHECK(sql_expand("{tickets:seq}", "\"j\"", "\"t\"", buf, sizeof(buf)) == 0 && strcmp(buf, "\"t_seq\"") == 0,
	      "{tickets:SUFFIX} appends _SUFFIX inside the quotes");
	CHECK(sql_expand("{jobs:new}", "j", "t", buf, sizeof(buf)) == -1,
	      "a suffix on a name that does not end in a quote is refused");
	CHECK(sql_expand("{jobs:new", "\"j\"", "\"t\"", buf, sizeof(buf)) == -1,
	      "a suffix without its closing brace is refused");
	CHECK(sql_expand("{jobs:new}", "\"j\"", "\"t\"", buf, 8) == 0 && strcmp(buf, "\"j_new\"") == 0,
	      "a suffixed name fills a buffer exactly");
	CHECK(sql_expand("{jobs:new}", "\"j\"", "\"t\"", buf, 7) == -1,
	      "a suffixed name one byte too long is refused");
	CHECK(sql_expand("", "\"j\"", "\"t\"", buf, 0) == -1, "a buffer of no bytes is refused");
}

int main(void)
{
	test_sql_template();
	test_suffixed_names();
	return check_exit_status();
}
