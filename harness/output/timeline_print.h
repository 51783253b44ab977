/*
 * A run's timeline phases (--phase) as output: the JSON array `timeline` of the output
 * contract, and the per-phase table of the text output.
 */
#ifndef CLAIMBENCH_TIMELINE_PRINT_H
#define CLAIMBENCH_TIMELINE_PRINT_H

#include <stdio.h>

#include <json-c/json.h>

#include "model/result.h"

/* The JSON array of run's timeline phases, one object each ([] when none). NULL when out of memory. */
json_object *timeline_json(const struct run_result *run);

/* Prints under "phases:" a row per phase of each of the n runs that has a timeline; nothing when none has. */
void timeline_print_table(FILE *out, const struct run_result *const *runs, size_t n);

#endif
