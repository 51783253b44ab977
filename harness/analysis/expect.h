/*
 * Expectations: named assertions over a scenario's results, such as
 *   skip-locked.duplicates == 0
 *   for-update.makespan_s >= 5 * skip-locked.makespan_s
 *   max(naive@10.duplicates) > 0
 * A reference is STRATEGY[:MODE][@WORKERS][[SECTION]].METRIC (skip-locked:flip[lease].lost);
 * it stands for the mean of that metric over the matching runs (repeats, sweep points, and
 * every section unless one is named), or min(...)/max(...) of it. A METRIC
 * phase[NAME].FIELD is a field of the run's timeline phase NAME (model/timeline.h:
 * skip-locked.phase[idle-in-tx].throughput_median); a run without that phase does not
 * match. Numbers,
 * + - * / (binary minus needs spaces around it) and parentheses combine them; one of
 * == != < <= > >= compares two sides. Numbers are decimal (12, 0.5, 2e3) and finite; a
 * division by a constant 0 is refused, and a side that evaluates to no finite number
 * fails. An assertion holds at most EXPECT_MAX_TERMS numbers, references and operators,
 * and at most EXPECT_MAX_DEPTH levels of ( and unary - inside each other.
 */
#ifndef CLAIMBENCH_EXPECT_H
#define CLAIMBENCH_EXPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/result.h"
#include "model/timeline.h"

struct expr;

/* The most numbers, references and operators an assertion may hold. */
#define EXPECT_MAX_TERMS 256
/* The most levels of ( and unary - inside each other. */
#define EXPECT_MAX_DEPTH 32

enum compare_op { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };

struct expectation {
	char *name;		/* its name (the key in [expect]) */
	char *text;		/* the assertion as written */
	struct expr *lhs;	/* left side */
	enum compare_op op;	/* the comparison */
	struct expr *rhs;	/* right side */
};

/* Parses text into out. 0, or -1 with err saying what was expected where. */
int expect_parse(const char *name, const char *text, struct expectation *out, char *err, size_t errlen);

/* Frees what e holds. */
void expect_free(struct expectation *e);

/* A strategy a scenario runs, and the section it runs in. */
struct expect_target {
	const char *strategy;			/* the strategy's name */
	const char *group;			/* the scenario section, NULL or "" for none */
	const struct timeline *timeline;	/* the section's timeline (--phase); NULL: none */
};

/*
 * Checks, before anything runs, that every reference of e names a strategy among the n
 * targets (in the section it names, if it names one) and a known metric, or a phase that
 * one of those targets' timelines has. 0, or -1 with err.
 */
int expect_check(const struct expectation *e, const struct expect_target *targets, size_t n, char *err,
		 size_t errlen);

/* Whether a reference of e names the strategy (or guard) called name. */
bool expect_references(const struct expectation *e, const char *name);

/*
 * Evaluates e over the n runs: both sides into *lhs and *rhs and the verdict into *pass.
 * 0, or -1 with err when a reference matches no run.
 */
int expect_eval(const struct expectation *e, const struct run_result *runs, size_t n, double *lhs, double *rhs,
		bool *pass, char *err, size_t errlen);

#endif
