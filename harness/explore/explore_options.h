/*
 * What explore is asked to expect and show, from the command line and the scenario file,
 * and the checking of it. An expectation is "KIND OP N" over the schedules of one strategy
 * and mode, KIND a finding's name (the schedules with it), "violation" (with a duplicate,
 * lost, stuck or zombie job), "blocked" (with a step blocked in the server), "bounded",
 * "schedules", "redelivered" (a job handed out again after its holder lost it) or
 * "fenced"; OP one of == != < <= > >=: "duplicate > 0" asks for at least one duplicate
 * schedule. Explore's own options (--show, --expect: the parsers and printers of their rows
 * in cli/option_table.c, option_parse_fn and option_format_fn, the values in
 * command_settings.explore, the row's offset); the lines of a scenario's [explore-expect]
 * section, `name = STRATEGY[:MODE].KIND OP N`, checked against that strategy's explore (in
 * every mode explored, or in MODE alone) as --expect is against every one; each verdict
 * noted in the result.
 */
#ifndef CLAIMBENCH_EXPLORE_OPTIONS_H
#define CLAIMBENCH_EXPLORE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "explore/explore.h"
#include "model/config.h"
#include "model/option.h"

/* One expectation. */
struct explore_expect {
	char text[128];		/* as written */
	int kind;		/* an enum finding, or one of the EXPECT_* (explore/explore.h) */
	char op[3];		/* the comparison */
	long value;		/* the number compared with */
};

/* The kind (an enum finding or EXPECT_*) called name, len bytes of it; -1 when none is. */
int explore_kind_of(const char *name, size_t len);

/* The name of kind (an enum finding or EXPECT_*), as explore_kind_of reads it; "" for none. */
const char *explore_kind_name(int kind);

/* Parses text into e. 0, or -1 with err saying what is wrong. */
int explore_expect_parse(const char *text, struct explore_expect *e, char *err, size_t errlen);

/* The number of r's schedules e's kind counts (the value e compares). */
long explore_expect_count(const struct explore_expect *e, const struct explore_result *r);

/* Whether e holds for r; says on out when it does not. */
bool explore_expect_holds(const struct explore_expect *e, const struct explore_result *r, FILE *out);

/* The most --expect options explore takes, and the most schedules its depth-first search runs by default. */
#define EXPLORE_MAX_EXPECTS 8
#define EXPLORE_DEFAULT_MAX_SCHEDULES 20000

/* What explore's own options say. */
struct explore_options {
	long claims;						/* --claims: claims each worker makes */
	long sample;						/* --sample: 0 for every schedule */
	long max_steps;						/* --max-steps: per worker and schedule; 0: from the claims */
	long max_schedules;					/* --max-schedules: the depth-first search's limit */
	bool crashes;						/* --crash: a worker may crash between its statements */
	const char *schedule;					/* --schedule TRACE: replay it alone, or NULL */
	int show;						/* --show KIND: its kind (explore_kind_of), -1 when not given */
	struct explore_expect expects[EXPLORE_MAX_EXPECTS];	/* --expect, in order */
	int n_expects;						/* entries used in expects */
};

/* --show KIND into the struct explore_options at base + o->offset: a kind of --expect (explore_kind_of); NULL: none (-1). */
int parse_explore_show(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --show as text, "" when not given. */
void format_explore_show(const struct option_def *o, const void *base, char *buf, size_t len);

/* --expect 'KIND OP N': appends one expectation, at most EXPLORE_MAX_EXPECTS; NULL: none yet. */
int parse_explore_expect(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --expect as text: the expectations as written, joined by "; ". */
void format_explore_expect(const struct option_def *o, const void *base, char *buf, size_t len);

/* The most statements a worker sends in one schedule: --max-steps, by default 6C+6 for C claims. */
long explore_max_steps(const struct explore_options *es);

/*
 * Refuses what explore cannot do with cfg and es: several worker counts, several queue
 * classes, more jobs than every schedule can run, csv, a sample of a replay, a --max-steps
 * (given or made from --claims) with which a schedule could make more choices than a trace
 * holds (every worker's statements, one crash and one expiry of the leases). 0, or -1 with
 * err naming the option.
 */
int explore_check_options(const struct run_config *cfg, const struct explore_options *es, char *err, size_t errlen);

/* The scenario section explore's expectations are in (`run` leaves it to explore). */
#define EXPLORE_EXPECT_SECTION "explore-expect"

/* The most lines that section may hold. */
#define EXPLORE_SCENARIO_MAX_EXPECTS 32

/* One line of the section. */
struct explore_scenario_expect {
	char strategy[64];		/* the strategy it is about, as explored */
	int mode;			/* its enum claim_mode, or -1: every mode explored */
	struct explore_expect expect;	/* what must hold; its text is the line's name and assertion */
	char where[288];		/* "FILE:LINE" of the line */
};

/* The section's lines. */
struct explore_scenario_expects {
	struct explore_scenario_expect items[EXPLORE_SCENARIO_MAX_EXPECTS];	/* in file order */
	int n;									/* entries used */
	int left_out;								/* lines about strategies not explored
										   here that a replay (--schedule) left out */
};

/*
 * Adds the section's line `key = value`, line `line` of file path, to out, its strategy and
 * mode among cfg's; a line about another is refused, or with replay (one schedule replayed,
 * --schedule) left out and counted in out->left_out once its assertion reads. 0, or -1 with
 * "path:line: ..." in err (the section full included).
 */
int explore_scenario_add(struct explore_scenario_expects *out, const char *path, int line, const char *key,
			 const char *value, const struct run_config *cfg, bool replay, char *err, size_t errlen);

/*
 * Checks every --expect of es and every line of in_file about r against r, saying each
 * that fails on out and each that holds on passes ("  PASS  WHERE: TEXT  (it is N)",
 * flushed; passes NULL: not said), and notes each verdict in r (out of memory: said on
 * out, counted as failed). Whether all held.
 */
bool explore_check(struct explore_result *r, const struct explore_options *es,
		   const struct explore_scenario_expects *in_file, FILE *out, FILE *passes);

#endif
