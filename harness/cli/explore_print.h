/* Prints explore's results: a table per strategy and mode with its shown schedule, or JSON. */
#ifndef CLAIMBENCH_EXPLORE_PRINT_H
#define CLAIMBENCH_EXPLORE_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "explore/explore.h"

/* The names of the event kinds, as the shown schedule, the JSON and the result store give them. */
extern const char *const explore_event_names[EVENT_KINDS];

/* Prints r as a table, then its shown schedule worker by worker, statement by statement. */
void explore_print_table(FILE *out, const struct explore_result *r);

/* Opens the JSON array of results. */
void explore_print_json_begin(FILE *out);

/* Prints r as one element of the JSON array (first: no comma before it). */
void explore_print_json(FILE *out, const struct explore_result *r, bool first);

/* Closes the JSON array. */
void explore_print_json_end(FILE *out);

#endif
