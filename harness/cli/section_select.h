/*
 * `claimbench run --section NAME[,NAME...]`: only those sections of the scenario file run.
 * Every section is read and checked first, as without the option, so that a mistake in a
 * section left out is still found; then the groups of the other sections are dropped, and
 * with them the expectations that name a strategy or section no longer run.
 */
#ifndef CLAIMBENCH_SECTION_SELECT_H
#define CLAIMBENCH_SECTION_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/invocation.h"

/* Whether the comma-separated list names section name (a whole item); NULL or "" never is. */
bool section_listed(const char *list, const char *name);

/*
 * Checks the comma-separated list of --section (run's and report's): no empty name, none
 * named twice. 0, or -1 with err saying which.
 */
int section_list_check(const char *list, char *err, size_t errlen);

/*
 * Keeps of inv's groups those of the sections named in list (comma-separated), in the
 * file's order, and of its expectations those that still name what runs (the others are
 * freed; their number in *left_out). 0, or -1 with err: a name that is no section of the
 * file (err lists those there are), an empty name, or no scenario file with sections.
 */
int section_select(struct run_invocation *inv, const char *list, size_t *left_out, char *err, size_t errlen);

#endif
