/*
 * The parsers and printers (option_parse_fn, option_format_fn) of explore's rows whose
 * values are more than a number or a word: --show (a kind of finding) and --expect (one
 * more expectation each time it is given). option_table.c's rows name them; the values land
 * in command_settings.explore.
 */
#ifndef CLAIMBENCH_OPTION_EXPLORE_H
#define CLAIMBENCH_OPTION_EXPLORE_H

#include <stddef.h>

#include "model/option.h"

/* --show KIND: a kind of --expect (explore_kind_of); NULL: none (-1). */
int parse_explore_show(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --show as text, "" when not given. */
void format_explore_show(const struct option_def *o, const void *base, char *buf, size_t len);

/* --expect 'KIND OP N': appends one expectation, at most EXPLORE_MAX_EXPECTS; NULL: none yet. */
int parse_explore_expect(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --expect as text: the expectations as written, joined by "; ". */
void format_explore_expect(const struct option_def *o, const void *base, char *buf, size_t len);

#endif
