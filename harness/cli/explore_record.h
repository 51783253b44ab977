/*
 * An explore's result as the result store keeps it (store/store_explore.h) and back: the
 * record `claimbench explore` appends, with its expectations' verdicts, and the result
 * `claimbench show` prints from a record read back, as explore printed it.
 */
#ifndef CLAIMBENCH_EXPLORE_RECORD_H
#define CLAIMBENCH_EXPLORE_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/explore_scenario.h"
#include "cli/option_table.h"
#include "explore/explore.h"
#include "store/store_explore.h"

/* The most verdicts one record holds: every --expect and every line of [explore-expect]. */
#define EXPLORE_RECORD_VERDICTS (EXPLORE_MAX_EXPECTS + EXPLORE_SCENARIO_MAX_EXPECTS)

/* A record being made, with room for its verdicts. */
struct explore_record {
	struct store_explore x;					/* the record; x.expects points into verdicts */
	struct store_explore_expect verdicts[EXPLORE_RECORD_VERDICTS];	/* the expectations' verdicts */
};

/*
 * Fills rec from r, the explore of plan: its figures, the shown schedule (its events in a
 * new array: explore_record_free), no verdicts yet. 0, or -1 when out of memory.
 */
int explore_record_make(const struct explore_plan *plan, const struct explore_result *r, struct explore_record *rec);

/*
 * Checks every --expect of es and every line of in_file about r against r, saying each
 * that fails on out and each that holds on passes ("  PASS  WHERE: TEXT  (it is N)",
 * flushed; passes NULL: not said), and notes each verdict in rec. Whether all held.
 */
bool explore_record_check(struct explore_record *rec, const struct explore_options *es,
			  const struct explore_scenario_expects *in_file, const struct explore_result *r, FILE *out,
			  FILE *passes);

/* Frees what explore_record_make allocated in rec. */
void explore_record_free(struct explore_record *rec);

/*
 * Fills r (zeroed first) from x, read back from the store, so that explore_print_table
 * prints it as explore did; r points into x, and its shown events are its own (release r
 * with explore_result_free). 0, or -1 with err.
 */
int explore_record_result(const struct store_explore *x, struct explore_result *r, char *err, size_t errlen);

/*
 * Whether the shown schedule of r, read back from the store, has a trace its events do
 * not follow: its steps, crashes and expiries, in order, are not the trace's choices (a
 * store changed by hand, or by another program). When so, says where in why.
 */
bool explore_record_disagrees(const struct explore_result *r, char *why, size_t len);

#endif
