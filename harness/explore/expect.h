/*
 * Explore's expectations: "KIND OP N" over the schedules of one strategy and mode, KIND a
 * finding's name (the schedules with it), "violation" (with a duplicate, lost, stuck or
 * zombie job), "blocked" (with a step blocked in the server), "bounded", "schedules",
 * "redelivered" (a job handed out again after its holder lost it) or "fenced";
 * OP one of == != < <= > >=. "duplicate > 0" asks for at least one duplicate schedule.
 */
#ifndef CLAIMBENCH_EXPLORE_EXPECT_H
#define CLAIMBENCH_EXPLORE_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct explore_result;
struct schedule_outcome;

/* One expectation. */
struct explore_expect {
	char text[128];		/* as written */
	int kind;		/* an enum finding, or one of the EXPECT_* below */
	char op[3];		/* the comparison */
	long value;		/* the number compared with */
};

/* The kinds of an expectation beyond the findings. */
enum { EXPECT_VIOLATION = 100, EXPECT_BLOCKED, EXPECT_BOUNDED, EXPECT_SCHEDULES, EXPECT_REDELIVERED, EXPECT_FENCED };

/* The kind (an enum finding or EXPECT_*) called name, len bytes of it; -1 when none is. */
int explore_kind_of(const char *name, size_t len);

/* The name of kind (an enum finding or EXPECT_*), as explore_kind_of reads it; "" for none. */
const char *explore_kind_name(int kind);

/* Whether schedule o has kind (as explore_kind_of gives it). */
bool explore_kind_in(int kind, const struct schedule_outcome *o);

/* Parses text into e. 0, or -1 with err saying what is wrong. */
int explore_expect_parse(const char *text, struct explore_expect *e, char *err, size_t errlen);

/* The number of r's schedules e's kind counts (the value e compares). */
long explore_expect_count(const struct explore_expect *e, const struct explore_result *r);

/* Whether e holds for r; says on out when it does not. */
bool explore_expect_holds(const struct explore_expect *e, const struct explore_result *r, FILE *out);

#endif
