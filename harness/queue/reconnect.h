/*
 * Making a lost connection anew, for workers and producers alike: at once, then with a
 * back-off from 50 ms doubling to 1 s, until the run's reconnect limit has passed.
 */
#ifndef CLAIMBENCH_RECONNECT_H
#define CLAIMBENCH_RECONNECT_H

#include <stddef.h>

#include "queue/run_shared.h"

/*
 * Calls connect(ctx, err, errlen) until it returns 0, pausing between tries, for at most
 * s's reconnect limit. 0 when it connected; -1 when the run is stopping (err empty) or the
 * limit passed (err says so, and the last reason).
 */
int run_reconnect(const struct run_shared *s, int (*connect)(void *ctx, char *err, size_t errlen), void *ctx,
		  char *err, size_t errlen);

#endif
