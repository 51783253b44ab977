/* A run's parameters (struct run_param in result.h): an owned list of name/value text pairs. */
#ifndef CLAIMBENCH_RUN_PARAM_H
#define CLAIMBENCH_RUN_PARAM_H

#include <stddef.h>

#include "model/result.h"

/* The parameters an adapter's run carries (docs/adapters.md): the queue system it drove and its version. */
#define RUN_PARAM_ADAPTER_SYSTEM "adapter-system"
#define RUN_PARAM_ADAPTER_VERSION "adapter-version"

/* Appends copies of name and value to r's parameters. 0, or -1 when out of memory (r unchanged). */
int run_param_add(struct run_result *r, const char *name, const char *value);

/* The value of r's parameter name, or NULL when r has none of that name. */
const char *run_param_value(const struct run_result *r, const char *name);

/*
 * Writes into out the strategy's name as the outputs label its row: an adapter's run with its
 * system and version ("adapter:pg-boss (pg-boss 10.1.6)"), any other run its strategy alone
 * ("" when it has none).
 */
void run_strategy_label(const struct run_result *r, char *out, size_t len);

/* Frees r's parameters and empties the list; an empty list is fine. */
void run_params_free(struct run_result *r);

#endif
