/* How far the primary's standby is behind, sampled from the harness's connection before a failover. */
#ifndef CLAIMBENCH_REPLICATION_LAG_H
#define CLAIMBENCH_REPLICATION_LAG_H

#include <stdint.h>

#include "engine/admin.h"

/* The standby's lag at one instant. */
struct replication_lag {
	uint64_t bytes;	/* WAL it had not replayed (pg_wal_lsn_diff of the primary's and its replay LSN); METRIC_UNKNOWN */
	double ms;	/* its replay_lag, ms; NaN when not known */
};

/* The lag before anything was sampled: unknown. */
struct replication_lag replication_lag_unknown(void);

/*
 * Samples into *lag, on a's connection (made anew once when it was lost), the most any
 * standby of the server is behind, by pg_stat_replication and its inactive physical
 * slots; leaves it unknown when that cannot be read or there is no standby.
 */
void replication_lag_sample(struct admin *a, struct replication_lag *lag);

#endif
