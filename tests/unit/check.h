/*
 * The unit tests' assertions: each CHECK prints "ok - what" or "not ok - what"
 * with the failing expression, check_need() stops a test whose own setup failed, and
 * check_exit_status() tells the runner whether any check failed. tests/run counts the
 * lines of every test program and script.
 */
#ifndef CLAIMBENCH_CHECK_H
#define CLAIMBENCH_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

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

/* Checks that two doubles agree within tol. */
#define CHECK_NEAR(a, b, tol, ...) CHECK(fabs((double)(a) - (double)(b)) <= (tol), __VA_ARGS__)

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
