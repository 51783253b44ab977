/* A run's parameters (struct run_param in result.h): an owned list of name/value text pairs. */
#ifndef CLAIMBENCH_RUN_PARAM_H
#define CLAIMBENCH_RUN_PARAM_H

#include "model/result.h"

/* Appends copies of name and value to r's parameters. 0, or -1 when out of memory (r unchanged). */
int run_param_add(struct run_result *r, const char *name, const char *value);

/* Frees r's parameters and empties the list; an empty list is fine. */
void run_params_free(struct run_result *r);

#endif
