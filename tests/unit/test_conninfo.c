/*
 * Unit tests of connection strings' secrets (db/conninfo.c): a conninfo written anew with
 * its passwords masked through libpq's parser, in every syntax; passwords scrubbed from a
 * message; and what looks like a password masked in any text, other text left alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "db/conninfo.h"

/* Checks that redacting text gives want. */
static void check_redacted(const char *text, const char *want)
{
	char *got = conninfo_redacted(text);

	CHECK(got && strcmp(got, want) == 0, "redacted \"%s\" is \"%s\" (got \"%s\")", text, want,
	      got ? got : "(null)");
	free(got);
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
	check_redacted("host=h password = s3cr3t port=1", "host=h password = *** port=1");
	check_redacted("postgresql:///q?pass%77ord=s3cr3t&x=1", "postgresql:///q?pass%77ord=***&x=1");
	check_redacted("host=h sslpassword=s3cr3t", "host=h sslpassword=***");
	check_redacted("password=*** again", "password=*** again");
}

/* Text of n copies of unit; a static buffer. */
static const char *repeated(const char *unit, int n)
{
	static char text[4096];

	text[0] = '\0';
	for (int i = 0; i < n; i++)
		strcat(text, unit);
	return text;
}

/* Secrets shorter than the mask grow the text: the copy is made for it (an exact-size buffer overflowed). */
static void test_short_secrets(void)
{
	char want[4096];

	check_redacted("password=a", "password=***");
	check_redacted("PGPASSWORD=a pg_ctl restart", "PGPASSWORD=*** pg_ctl restart");
	check_redacted("password=ab&sslpassword=c", "password=***&sslpassword=***");
	check_redacted("postgresql://u:a@h/q", "postgresql://u:***@h/q");
	check_redacted("; password=a password=b postgresql://u:c@h", "; password=*** password=*** postgresql://u:***@h");
	snprintf(want, sizeof(want), "%s", repeated("password=*** ", 300));
	check_redacted(repeated("password=a ", 300), want);
}

/* Checks that conninfo_masked(text) is want and holds no "s3cr3t". */
static void check_masked(const char *text, const char *want)
{
	char *got = conninfo_masked(text);

	CHECK(got && strcmp(got, want) == 0 && !strstr(got, "s3cr3t"), "\"%s\" is kept as \"%s\" (got \"%s\")", text,
	      want, got ? got : "(null)");
	free(got);
}

/* Every syntax libpq reads, parsed by libpq and written anew with the passwords masked. */
static void test_masked(void)
{
	check_masked("host=h password=s3cr3t dbname=q", "password=*** dbname=q host=h");
	check_masked("host=h password = 's3cr3t' port=5", "password=*** host=h port=5");
	check_masked("host=h sslpassword=s3cr3t", "host=h sslpassword=***");
	check_masked("postgresql://alice:s3cr3t@db:5432/q", "user=alice password=*** dbname=q host=db port=5432");
	check_masked("postgresql://alice@db/q?pass%77ord=s3cr3t", "user=alice password=*** dbname=q host=db");
	check_masked("host='a b' dbname=q", "dbname=q host='a b'");
	check_masked("host=h password=s3cr3t pass%77ord", "***");
	check_masked("postgresql://alice:s3cr3t@[::1/q", "***");
	check_masked("sqlite:/tmp/q.db", "sqlite:/tmp/q.db");
}

/* A message that repeats a password has it starred out. */
static void test_scrub(void)
{
	char message[] = "could not connect as alice with s3cr3t to host h";

	conninfo_scrub(message, "host=h user=alice password=s3cr3t");
	CHECK_STR_EQ(message, "could not connect as alice with ****** to host h", "scrubbed: %s", message);
}

int main(void)
{
	test_redaction();
	test_short_secrets();
	test_masked();
	test_scrub();
	return check_exit_status();
}
