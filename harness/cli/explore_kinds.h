/*
 * The kinds an explore's result falls in, one function each, and their words as the result
 * store keeps them (explores.search, explores.shown_why): explore's table says them in its
 * own words (explore_print.c), the store writes and reads these (explore_record.c).
 */
#ifndef CLAIMBENCH_EXPLORE_KINDS_H
#define CLAIMBENCH_EXPLORE_KINDS_H

#include "explore/explore.h"

/* How an explore searched its schedules. */
enum explore_search {
	SEARCH_INTERRUPTED,	/* a signal stopped it */
	SEARCH_EVERY,		/* every schedule was run */
	SEARCH_SAMPLE,		/* a seeded sample (--sample) */
	SEARCH_REPLAY,		/* the one schedule --schedule named */
	SEARCH_LIMIT,		/* stopped at --max-schedules */
	SEARCH_KINDS		/* the number of kinds: no search's */
};

/* Why an explore's shown schedule was shown. */
enum explore_shown {
	SHOWN_ASKED,		/* it has the kind --show asked for */
	SHOWN_VIOLATION,	/* it has a violation */
	SHOWN_FINDING,		/* it has a finding */
	SHOWN_REDELIVERY,	/* it has a redelivery or a fenced completion */
	SHOWN_BLOCKED,		/* it has a blocked step */
	SHOWN_FIRST,		/* nothing was found: the first schedule */
	SHOWN_KINDS		/* the number of kinds: no schedule's */
};

/* The words of the searches, as explores.search names them, indexed by enum explore_search. */
extern const char *const explore_search_names[SEARCH_KINDS];

/* The words of the reasons, as explores.shown_why names them, indexed by enum explore_shown. */
extern const char *const explore_shown_names[SHOWN_KINDS];

/* How r searched (its first flag of interrupted, complete, sampled, replayed; else the limit). */
enum explore_search explore_search_of(const struct explore_result *r);

/* Why r's shown schedule was shown: the first of asked, violation, finding, redelivery, blocked. */
enum explore_shown explore_shown_of(const struct explore_result *r);

#endif
