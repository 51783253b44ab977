/* The kinds of an explore's result and their stored words; see explore_kinds.h. */
#include "cli/explore_kinds.h"

const char *const explore_search_names[SEARCH_KINDS] = {
	[SEARCH_INTERRUPTED] = "interrupted", [SEARCH_EVERY] = "every", [SEARCH_SAMPLE] = "sample",
	[SEARCH_REPLAY] = "replay", [SEARCH_LIMIT] = "limit",
};

const char *const explore_shown_names[SHOWN_KINDS] = {
	[SHOWN_ASKED] = "asked", [SHOWN_VIOLATION] = "violation", [SHOWN_FINDING] = "finding",
	[SHOWN_REDELIVERY] = "redelivery", [SHOWN_BLOCKED] = "blocked", [SHOWN_FIRST] = "first",
};

enum explore_search explore_search_of(const struct explore_result *r)
{
	if (r->interrupted)
		return SEARCH_INTERRUPTED;
	if (r->complete)
		return SEARCH_EVERY;
	if (r->sampled)
		return SEARCH_SAMPLE;
	if (r->replayed)
		return SEARCH_REPLAY;
	return SEARCH_LIMIT;
}

enum explore_shown explore_shown_of(const struct explore_result *r)
{
	if (r->shown_asked)
		return SHOWN_ASKED;
	if (r->shown_violates)
		return SHOWN_VIOLATION;
	for (int f = 0; f < FINDING_COUNT; f++)
		if (r->shown.count[f])
			return SHOWN_FINDING;
	if (r->shown.redeliveries || r->shown.fenced)
		return SHOWN_REDELIVERY;
	return r->shown.blocked ? SHOWN_BLOCKED : SHOWN_FIRST;
}
