#include <math.h>

#include "model/metric_table.h"
#include "queue/replication_lag.h"

/*
 * The bytes behind and replay_lag in microseconds, -1 each when unknown, of the standby
 * furthest behind: a streaming one's replay position, or the position an inactive
 * physical slot kept for one that was cut off.
 */
static const char lag_sql[] =
	"SELECT coalesce(max(behind), -1)::bigint, coalesce(max(lag_us), -1)::bigint FROM ("
	"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) AS behind, "
	"extract(epoch FROM replay_lag) * 1000000 AS lag_us FROM pg_stat_replication UNION ALL "
	"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), NULL FROM pg_replication_slots "
	"WHERE slot_type = 'physical' AND NOT active) AS standbys";

/* Keeps the one row of lag_sql in the struct replication_lag at ctx. */
static int keep_lag(void *ctx, const int64_t *cols, int ncols)
{
	struct replication_lag *lag = ctx;

	if (ncols == 2 && cols[0] >= 0)
		lag->bytes = (uint64_t)cols[0];
	if (ncols == 2 && cols[1] >= 0)
		lag->ms = (double)cols[1] / 1000.0;
	return 0;
}

struct replication_lag replication_lag_unknown(void)
{
	return (struct replication_lag){ .bytes = METRIC_UNKNOWN, .ms = NAN };
}

void replication_lag_sample(struct admin *a, struct replication_lag *lag)
{
	*lag = replication_lag_unknown();
	if ((a->conn && a->db->query(a->conn, lag_sql, keep_lag, lag) >= 0) || !admin_reconnected(a))
		return;
	a->db->query(a->conn, lag_sql, keep_lag, lag);
}
