#include <stdio.h>

#include "base/clock.h"
#include "queue/reconnect.h"

/* The back-off between two tries to connect anew: from the first to the last, doubling. */
#define RECONNECT_FIRST_NS 50000000LL
#define RECONNECT_LAST_NS 1000000000LL

int run_reconnect(const struct run_shared *s, int (*connect)(void *ctx, char *err, size_t errlen), void *ctx,
		  char *err, size_t errlen)
{
	int64_t give_up = clock_now_ns() + (int64_t)(s->cfg->faults.reconnect_limit_s * 1e9);
	int64_t wait = RECONNECT_FIRST_NS;
	char why[400] = "";

	while (!run_stopping(&s->gate)) {
		if (connect(ctx, why, sizeof(why)) == 0)
			return 0;
		if (clock_now_ns() + wait > give_up) {
			snprintf(err, errlen, "could not connect anew within %g s: %s", s->cfg->faults.reconnect_limit_s,
				 why);
			return -1;
		}
		run_pause_ns(&s->gate, wait);
		wait = wait * 2 < RECONNECT_LAST_NS ? wait * 2 : RECONNECT_LAST_NS;
	}
	snprintf(err, errlen, "%s", "");
	return -1;
}
