/*
 * Explore's results in words and in JSON, both ways: the table per strategy and mode with
 * its shown schedule, the violating step marked (explore_print.c); the JSON document
 * `explore --json` prints and the result store keeps (explore_store.h), and that document
 * read back into a result that prints as explore printed it (explore_json.c).
 */
#ifndef CLAIMBENCH_EXPLORE_PRINT_H
#define CLAIMBENCH_EXPLORE_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

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

/* The words of the searches, as the document's "search" names them, indexed by enum explore_search. */
extern const char *const explore_search_names[SEARCH_KINDS];

/* The words of the reasons, as the document's "shown"."why" names them, indexed by enum explore_shown. */
extern const char *const explore_shown_names[SHOWN_KINDS];

/* The names of the event kinds, as the shown schedule and the document give them. */
extern const char *const explore_event_names[EVENT_KINDS];

/* How r searched (its first flag of interrupted, complete, sampled, replayed; else the limit). */
enum explore_search explore_search_of(const struct explore_result *r);

/* Why r's shown schedule was shown: the first of asked, violation, finding, redelivery, blocked. */
enum explore_shown explore_shown_of(const struct explore_result *r);

/*
 * The index in o->events of the first step that claims a job another worker holds, with
 * what it violated in why (size bytes): "duplicate: job 2, already held by w0 since step
 * 3" (steps numbered from 1, as printed); -1 (why "") when o has no duplicate or no such
 * step is seen.
 */
long explore_mark_duplicate(const struct schedule_outcome *o, char *why, size_t size);

/* Prints r as a table, then its shown schedule worker by worker, statement by statement. */
void explore_print_table(FILE *out, const struct explore_result *r);

/*
 * Prints r read back from the store as show prints it: its table, a line when its trace
 * and its events disagree (a store changed by hand), and its verdicts, one a line.
 */
void explore_print_stored(FILE *out, const struct explore_result *r);

/*
 * The JSON document of r (docs/explore.md): what explore printed and found, its plan's
 * choices (crashes, lease expiry, max_steps, the sample's seed), its shown schedule event
 * by event and its expectations' verdicts. NULL when out of memory; the caller puts it.
 */
json_object *explore_json(const struct explore_result *r);

/* Opens the JSON array of results. */
void explore_print_json_begin(FILE *out);

/* Prints r's document (explore_json) as one element of the JSON array (first: no comma before it). */
void explore_print_json(FILE *out, const struct explore_result *r, bool first);

/* Closes the JSON array. */
void explore_print_json_end(FILE *out);

/* A result read back from its document, with the room its names live in. */
struct explore_read {
	char strategy[64];		/* the strategy, control characters as '?' */
	char mode[16];			/* its claim mode, so */
	struct explore_result result;	/* the result; its strategy and mode point at the two above */
};

/*
 * Reads document text (explore_json's, as stored) into out (zeroed first), its texts'
 * control characters shown as '?' (what a file holds is not to reach a terminal raw); a
 * finding or an event kind this binary does not know is left out, or read as a check.
 * Release with explore_result_free(&out->result); after moving out, point its result's
 * strategy and mode again. 0, or -1 with what is wrong with the document in err.
 */
int explore_json_read(const char *text, struct explore_read *out, char *err, size_t errlen);

#endif
