/*
 * The unit tests' assertions: each CHECK prints "ok - what" or "not ok - what"
 * with the failing expression; CHECK_EQ, CHECK_STR_EQ and CHECK_NEAR print the two values
 * compared too ("got 3, want 4"). check_need() stops a test whose own setup failed, and
 * check_exit_status() tells the runner whether any check failed. tests/run counts the
 * lines of every test program and script.
 */
#ifndef CLAIMBENCH_CHECK_H
#define CLAIMBENCH_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

/* Prints the verdict of one check; what is a printf format describing it. */
#define CHECK(cond, ...)                                                          \
	do {                                                                      \
		if (cond) {                                                       \
			printf("ok - ");                                          \
		} else {                                                          \
			check_failures++;                                         \
			printf("not ok - %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		}                                                                 \
		printf(__VA_ARGS__);                                              \
		printf("\n");                                                     \
	} while (0)

/* Printers of one value of a failed check, chosen by CHECK_PRINT for its type. */
static inline void check_print_signed(long long v)
{
	printf("%lld", v);
}

static inline void check_print_unsigned(unsigned long long v)
{
	printf("%llu", v);
}

static inline void check_print_bool(bool v)
{
	printf("%s", v ? "true" : "false");
}

static inline void check_print_floating(long double v)
{
	printf("%.17Lg", v);
}

/* A string in double quotes, its quotes, backslashes and control characters escaped so that
 * the verdict stays one line; NULL unquoted. */
static inline void check_print_string(const char *s)
{
	if (!s) {
		printf("NULL");
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			printf("\\n");
		else if (c == '\t')
			printf("\\t");
		else if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static inline void check_print_pointer(const void *p)
{
	if (p)
		printf("%p", p);
	else
		printf("NULL");
}

/* Prints v by its type: integers signed or unsigned (an enum as its integer), bool, floating,
 * char pointers as strings, any other pointer as an address. */
#define CHECK_PRINT(v)                                                                      \
	_Generic((v),                                                                       \
		bool: check_print_bool,                                                     \
		char: check_print_signed,                                                   \
		signed char: check_print_signed,                                            \
		short: check_print_signed,                                                  \
		int: check_print_signed,                                                    \
		long: check_print_signed,                                                   \
		long long: check_print_signed,                                              \
		unsigned char: check_print_unsigned,                                        \
		unsigned short: check_print_unsigned,                                       \
		unsigned int: check_print_unsigned,                                         \
		unsigned long: check_print_unsigned,                                        \
		unsigned long long: check_print_unsigned,                                   \
		float: check_print_floating,                                                \
		double: check_print_floating,                                               \
		long double: check_print_floating,                                          \
		char *: check_print_string,                                                 \
		const char *: check_print_string,                                           \
		default: check_print_pointer)(v)

/* The end of a verdict line: "ok - " or the failure's place, what it compared and the two
 * values, then the description (a printf format and its arguments). */
#define CHECK_VERDICT(passed, what, got, want, ...)                                         \
	do {                                                                                \
		if (passed) {                                                               \
			printf("ok - ");                                                    \
		} else {                                                                    \
			check_failures++;                                                   \
			printf("not ok - %s:%d: %s: got ", __FILE__, __LINE__, what);       \
			CHECK_PRINT(got);                                                   \
			printf(", want ");                                                  \
			CHECK_PRINT(want);                                                  \
			printf(": ");                                                       \
		}                                                                           \
		printf(__VA_ARGS__);                                                        \
		printf("\n");                                                               \
	} while (0)

/*
 * Checks a == b, each side evaluated once, and on failure prints both values (got a, want b).
 * The sides are kept in their own types and compared as a == b compares them; the comparison
 * of the copies is made with -Wsign-compare off, since a literal such as 3 is a constant in
 * a == b but not in the copy, and the comparison as written is compiled, never run, so that
 * it still gets the compiler's diagnostics.
 */
#define CHECK_EQ(a, b, ...)                                                                 \
	do {                                                                                \
		__typeof__(a) check_got = (a);                                              \
		__typeof__(b) check_want = (b);                                             \
		if (0)                                                                      \
			(void)((a) == (b));                                                 \
		_Pragma("GCC diagnostic push");                                             \
		_Pragma("GCC diagnostic ignored \"-Wsign-compare\"");                       \
		bool check_equal = check_got == check_want;                                 \
		_Pragma("GCC diagnostic pop");                                              \
		CHECK_VERDICT(check_equal, #a " == " #b, check_got, check_want, __VA_ARGS__); \
	} while (0)

/* Checks that strings a and b are equal (two NULLs are; NULL and a string are not), each
 * evaluated once, and on failure prints both quoted. */
#define CHECK_STR_EQ(a, b, ...)                                                             \
	do {                                                                                \
		const char *check_got = (a);                                                \
		const char *check_want = (b);                                               \
		bool check_equal = check_got && check_want ? strcmp(check_got, check_want) == 0 \
							   : check_got == check_want;         \
		CHECK_VERDICT(check_equal, "strcmp(" #a ", " #b ") == 0", check_got, check_want, \
			      __VA_ARGS__);                                                 \
	} while (0)

/* Checks that two doubles agree within tol, each evaluated once; a failure prints both and
 * the tolerance. */
#define CHECK_NEAR(a, b, tol, ...)                                                          \
	do {                                                                                \
		double check_got = (double)(a);                                             \
		double check_want = (double)(b);                                            \
		double check_tol = (double)(tol);                                           \
		if (fabs(check_got - check_want) <= check_tol) {                            \
			printf("ok - ");                                                    \
		} else {                                                                    \
			check_failures++;                                                   \
			printf("not ok - %s:%d: %s: got %.17g, want %.17g (tolerance %g): ", \
			       __FILE__, __LINE__, #a " == " #b " within " #tol, check_got,  \
			       check_want, check_tol);                                      \
		}                                                                           \
		printf(__VA_ARGS__);                                                        \
		printf("\n");                                                               \
	} while (0)

/*
 * Stops the program with "Bail out! what failed" when a test's own setup fails (out of
 * memory): what follows could only crash or mislead.
 */
static inline void check_need(bool ok, const char *what)
{
	if (!ok) {
		printf("Bail out! %s failed\n", what);
		exit(1);
	}
}

/* The exit status of a test program: 0 when every check passed. */
static inline int check_exit_status(void)
{
	return check_failures ? 1 : 0;
}

#endif
