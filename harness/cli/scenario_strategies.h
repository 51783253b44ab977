/*
 * The strategies a scenario file defines in SQL: each [strategy NAME] section, read into
 * a strategy the scenario's groups may name beside the built-in ones.
 */
#ifndef CLAIMBENCH_SCENARIO_STRATEGIES_H
#define CLAIMBENCH_SCENARIO_STRATEGIES_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/scenario.h"
#include "plugin/sql_strategy.h"

/* The section name's prefix of a definition: "[strategy NAME]". */
#define SCENARIO_STRATEGY_PREFIX "strategy "

/* The definitions of one scenario file. */
struct scenario_strategies {
	struct sql_strategy *defs;		/* one per [strategy NAME] section, in file order (owned) */
	const struct strategy_ops **ops;	/* &defs[i].ops, as run_config.defined lists them (owned) */
	size_t n;				/* entries in both */
};

/* Whether sec defines a strategy ([strategy NAME]) rather than a group of runs. */
bool scenario_strategy_section(const struct scenario_section *sec);

/*
 * Reads every [strategy NAME] section of sc into out. 0, or -1 with "FILE:LINE: what"
 * in err: a name that is not a word of letters, digits, - and _, or is a built-in
 * strategy's; an unknown key; no claim; an unknown placeholder, or one the statement has
 * no value for; a mode or backend that does not exist.
 */
int scenario_strategies_load(const struct scenario *sc, struct scenario_strategies *out, char *err, size_t errlen);

/* Frees what ss holds. */
void scenario_strategies_free(struct scenario_strategies *ss);

#endif
