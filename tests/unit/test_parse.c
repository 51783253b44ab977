/*
 * Unit tests of the value parsers (base/parse.c): whole and real numbers in a range, with
 * every malformed form refused with the option's message and the output left alone; words
 * from a list; result-store ids.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "base/parse.h"

/* The value a refused parse must leave in its output. */
#define UNTOUCHED 4242

/* Checks that parse_long takes text in [min, max] as want. */
static void check_long(const char *text, long min, long max, long want)
{
	char err[128] = "";
	long v = UNTOUCHED;

	CHECK(parse_long("n", text, min, max, &v, err, sizeof(err)) == 0 && v == want,
	      "parse_long \"%s\" in [%ld, %ld] is %ld (got %ld, %s)", text, min, max, want, v, err);
}

/* Checks that parse_long refuses text in [min, max] with the message and leaves the output alone. */
static void check_long_refused(const char *text, long min, long max, const char *why)
{
	char err[128] = "", want[128];
	long v = UNTOUCHED;
	int rc = parse_long("n", text, min, max, &v, err, sizeof(err));

	snprintf(want, sizeof(want), "--n: expected a whole number from %ld to %ld, got \"%s\"", min, max, text);
	CHECK(rc == -1 && v == UNTOUCHED && strcmp(err, want) == 0, "parse_long refuses %s: \"%s\" (%s)", why, text,
	      err);
}

/* Whole numbers: the range's edges, signs, and every malformed form. */
static void test_long(void)
{
	check_long("0", 0, 10, 0);
	check_long("10", 0, 10, 10);
	check_long("-3", -5, 5, -3);
	check_long("007", 0, 10, 7);
	check_long("9223372036854775807", 0, LONG_MAX, LONG_MAX);
	check_long_refused("", 0, 10, "an empty value");
	check_long_refused(" ", 0, 10, "a space");
	check_long_refused(" 5", 0, 10, "a leading space");
	check_long_refused("5 ", 0, 10, "a trailing space");
	check_long_refused("\t5", 0, 10, "a leading tab");
	check_long_refused("5\n", 0, 10, "a trailing newline");
	check_long_refused("1 0", 0, 100, "a space inside");
	check_long_refused("12x", 0, 100, "trailing text");
	check_long_refused("abc", 0, 100, "a word");
	check_long_refused("0x10", 0, 100, "hexadecimal");
	check_long_refused("1e3", 0, 10000, "an exponent");
	check_long_refused("5.0", 0, 10, "a fraction");
	check_long_refused("-", 0, 10, "a lone sign");
	check_long_refused("--5", -10, 10, "two signs");
	check_long_refused("11", 0, 10, "one above the range");
	check_long_refused("-1", 0, 10, "one below the range");
	check_long_refused("9223372036854775808", 0, LONG_MAX, "a number past LONG_MAX");
	check_long_refused("-99999999999999999999", LONG_MIN, 0, "a number past LONG_MIN");
}

/* Checks that parse_double takes text in [min, max] as want. */
static void check_double(const char *text, double min, double max, double want)
{
	char err[128] = "";
	double v = UNTOUCHED;

	CHECK(parse_double("x", text, min, max, &v, err, sizeof(err)) == 0 && v == want,
	      "parse_double \"%s\" in [%g, %g] is %g (got %g, %s)", text, min, max, want, v, err);
}

/* Checks that parse_double refuses text in [min, max] with the message and leaves the output alone. */
static void check_double_refused(const char *text, double min, double max, const char *why)
{
	char err[128] = "", want[128];
	double v = UNTOUCHED;
	int rc = parse_double("x", text, min, max, &v, err, sizeof(err));

	snprintf(want, sizeof(want), "--x: expected a number from %g to %g, got \"%s\"", min, max, text);
	CHECK(rc == -1 && v == UNTOUCHED && strcmp(err, want) == 0, "parse_double refuses %s: \"%s\" (%s)", why,
	      text, err);
}

/* Real numbers: decimal forms, the range's edges, and every malformed or non-finite form. */
static void test_double(void)
{
	check_double("0", 0, 1, 0.0);
	check_double("1", 0, 1, 1.0);
	check_double("0.25", 0, 1, 0.25);
	check_double(".5", 0, 1, 0.5);
	check_double("-2.5", -3, 3, -2.5);
	check_double("1e3", 0, 10000, 1000.0);
	check_double("2.5E-1", 0, 1, 0.25);
	{
		char err[128] = "";
		double v = UNTOUCHED;

		CHECK(parse_double("x", "-0", 0, 1, &v, err, sizeof(err)) == 0 && v == 0 && !signbit(v),
		      "parse_double \"-0\" is 0 without its sign, printed \"0\" (got %g, %s)", v, err);
	}
	check_double_refused("", 0, 1, "an empty value");
	check_double_refused(" ", 0, 1, "a space");
	check_double_refused(" 0.5", 0, 1, "a leading space");
	check_double_refused("0.5 ", 0, 1, "a trailing space");
	check_double_refused("0.5ms", 0, 1, "trailing text");
	check_double_refused("fast", 0, 1, "a word");
	check_double_refused("0x10", 0, 100, "hexadecimal");
	check_double_refused("0x1p-2", 0, 1, "a hexadecimal float");
	check_double_refused("0,5", 0, 1, "a decimal comma");
	check_double_refused("1..5", 0, 2, "two points");
	check_double_refused("e3", 0, 10000, "an exponent without digits");
	check_double_refused("nan", 0, 1, "nan");
	check_double_refused("NAN", 0, 1, "NAN");
	check_double_refused("-nan", -1, 1, "-nan");
	check_double_refused("inf", 0, 1e308, "inf");
	check_double_refused("-inf", -1e308, 0, "-inf");
	check_double_refused("Infinity", 0, 1e308, "Infinity");
	check_double_refused("1e999", 0, 1e308, "a number past the largest double");
	check_double_refused("1.5", 0, 1, "a number above the range");
	check_double_refused("-0.001", 0, 1, "a number below the range");
}

/* Words: the index of a known one; an unknown one refused with the list. */
static void test_word(void)
{
	static const char *const formats[] = { "table", "csv", "json", NULL };
	static const char *const none[] = { NULL };
	char err[128] = "", small[24];

	CHECK_EQ(parse_word("format", "table", formats, err, sizeof(err)), 0, "parse_word finds the first word");
	CHECK_EQ(parse_word("format", "json", formats, err, sizeof(err)), 2, "parse_word finds the last word");
	CHECK(parse_word("format", "xml", formats, err, sizeof(err)) == -1 &&
	      strcmp(err, "--format: expected one of table, csv, json, got \"xml\"") == 0,
	      "parse_word refuses an unknown word and lists the known ones (%s)", err);
	CHECK_EQ(parse_word("format", "JSON", formats, err, sizeof(err)), -1, "parse_word is case-sensitive");
	CHECK_EQ(parse_word("format", "", formats, err, sizeof(err)), -1, "parse_word refuses an empty word");
	CHECK_EQ(parse_word("format", " csv", formats, err, sizeof(err)), -1, "parse_word refuses a leading space");
	CHECK_EQ(parse_word("format", "csv ", formats, err, sizeof(err)), -1, "parse_word refuses a trailing space");
	CHECK_EQ(parse_word("format", "csv,json", formats, err, sizeof(err)), -1, "parse_word refuses a list");
	CHECK_EQ(parse_word("format", "table", none, err, sizeof(err)), -1, "parse_word with no words refuses all");
	CHECK(parse_word("format", "xml", formats, small, sizeof(small)) == -1 && strlen(small) == sizeof(small) - 1 &&
	      strncmp(small, "--format: expected one", 22) == 0,
	      "parse_word cuts its message to the room it is given (%s)", small);
}

/* Checks parse_id on text: want_ok, and when true the id want. */
static void check_id(const char *text, bool want_ok, long long want)
{
	long long id = UNTOUCHED;
	bool ok = parse_id(text, &id);

	CHECK(ok == want_ok && (!ok || id == want), "parse_id \"%s\" is %s (got %s, %lld)", text,
	      want_ok ? "an id" : "not an id", ok ? "an id" : "not an id", id);
}

/* Store ids: digits only, from 1. */
static void test_id(void)
{
	check_id("1", true, 1);
	check_id("42", true, 42);
	check_id("007", true, 7);
	check_id("9223372036854775807", true, 9223372036854775807LL);
	check_id("", false, 0);
	check_id("0", false, 0);
	check_id("000", false, 0);
	check_id("-1", false, 0);
	check_id("+1", false, 0);
	check_id(" 1", false, 0);
	check_id("1 ", false, 0);
	check_id("12a", false, 0);
	check_id("0x1", false, 0);
	check_id("1.0", false, 0);
	check_id("inv:1", false, 0);
	check_id("9223372036854775808", false, 0);
}

int main(void)
{
	test_long();
	test_double();
	test_word();
	test_id();
	return check_exit_status();
}
