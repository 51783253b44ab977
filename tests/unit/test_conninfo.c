/*
 * Unit tests of connection-string redaction (db/conninfo.c): passwords masked in the
 * conninfo and URI forms, other text left alone.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "db/conninfo.h"

/* Checks that redacting text gives want. */
static void check_redacted(const char *text, const char *want)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", text);
	conninfo_redact(buf);
	CHECK(strcmp(buf, want) == 0, "redacted \"%s\" is \"%s\" (got \"%s\")", text, want, buf);
}

/* Passwords in keyword=value and URI form, quoted and not, and text that only looks like one. */
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
	return check_exit_status();
}
