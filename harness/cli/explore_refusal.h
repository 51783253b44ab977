/*
 * The refusal of an explore invocation by the commands that work on runs' measurements
 * (compare, report): an explore's schedules and violations are counts of what can happen,
 * not measurements. One message for all of them; they exit 2 (EXIT_USAGE) with it.
 */
#ifndef CLAIMBENCH_EXPLORE_REFUSAL_H
#define CLAIMBENCH_EXPLORE_REFUSAL_H

#include <stddef.h>

#include "store/store.h"

/*
 * Whether invocation id of db holds explores. 1 when it does, err then saying that command
 * (its name) works on runs' measurements and that claimbench show inv:N prints the tables;
 * 0 when it holds none; -1 with err.
 */
int explore_refusal(struct store *db, long long id, const char *command, char *err, size_t errlen);

#endif
