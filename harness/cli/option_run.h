/*
 * `run`'s rows applied to a run group's struct run_config: the defaults, a value (in the
 * config itself or in the settings of every strategy that has the option), and the
 * parameters a stored run keeps.
 */
#ifndef CLAIMBENCH_OPTION_RUN_H
#define CLAIMBENCH_OPTION_RUN_H

#include <stddef.h>

#include "model/config.h"
#include "model/option.h"
#include "model/result.h"

struct strategy_ops;

/*
 * Sets every run row of table and every registered strategy's rows in cfg to their
 * defaults. 0, or -1 with err (a default a row cannot parse: a bug in the table).
 */
int run_config_defaults(struct run_config *cfg, const struct option_def *table, char *err, size_t errlen);

/*
 * Applies value to the run option row o in cfg: in cfg itself, or, for a strategy's row,
 * in the settings of every registered strategy that has an option of that name. 0, or -1 with err.
 */
int run_config_apply(struct run_config *cfg, const struct option_def *o, const char *value, char *err,
		     size_t errlen);

/*
 * Appends to r's parameters every stored run option of table (OPTION_IN_RUN, not
 * OPTION_NOT_STORED) with its value in cfg, then the options of r's strategy st (NULL: a guarded
 * run, whose guards have none) with their values for it: what the run measured under, as text. 0,
 * or -1 when out of memory.
 */
int run_params_fill(struct run_result *r, const struct option_def *table, const struct run_config *cfg,
		    const struct strategy_ops *st);

#endif
