/*
 * Explore's expectations in a scenario file: its [explore-expect] section, one line each,
 * `name = STRATEGY[:MODE].KIND OP N` (KIND and OP as --expect takes them, explore/expect.h),
 * checked against that strategy's explore (in every mode explored, or in MODE alone) as
 * --expect is against every one. `run` leaves the section to explore.
 */
#ifndef CLAIMBENCH_EXPLORE_SCENARIO_H
#define CLAIMBENCH_EXPLORE_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/scenario.h"
#include "explore/explore.h"
#include "model/config.h"

/* The section explore's expectations are in. */
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
 * Reads sc's [explore-expect] section (none: no expectations) into out, each line's strategy
 * and mode among cfg's strategies; a line about another is refused, or with replay (one
 * schedule replayed, --schedule) left out and counted in out->left_out once its assertion
 * reads. 0, or -1 with "file:line: ..." in err.
 */
int explore_scenario_load(const struct scenario *sc, const struct run_config *cfg, bool replay,
			  struct explore_scenario_expects *out, char *err, size_t errlen);

/* Whether line x is about r's strategy and mode (it is checked against r). */
bool explore_scenario_applies(const struct explore_scenario_expect *x, const struct explore_result *r);

#endif
