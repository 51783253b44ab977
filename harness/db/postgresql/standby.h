/*
 * The throwaway primary's streaming standby (--standby): a second server in the primary's
 * temporary directory (<dir>/standby, its own socket and port), made with pg_basebackup
 * -R from the primary through a replication slot, and the failover that promotes it. The
 * primary's synchronous_standby_names and synchronous_commit are set for the standby mode
 * (model/faults.h) by ALTER SYSTEM; clients reach whichever of the two is the primary
 * through one multi-host conninfo with target_session_attrs=read-write, as real clients do.
 * After a failover the promoted standby stays the primary and the old primary's data
 * directory is made a new standby of it before the next run, as a cluster manager
 * reinitialises a failed primary as a replica.
 * Not thread-safe: called from the main thread between runs, and from the monitor for the
 * failover.
 */
#ifndef CLAIMBENCH_STANDBY_H
#define CLAIMBENCH_STANDBY_H

#include <stdbool.h>
#include <stddef.h>

#include "db/run_as.h"
#include "db/postgresql/tmp_postgres.h"

#define STANDBY_PORT (TMP_POSTGRES_PORT + 1)	/* its port, which only names its socket file */
#define STANDBY_SLOT "claimbench_standby"	/* the primary's replication slot for it */
#define STANDBY_NAME "claimbench_standby"	/* its application_name, which synchronous_standby_names names */
#define STANDBY_CONNINFO_MAX (2 * TMP_POSTGRES_CONNINFO_MAX) /* room for the multi-host conninfo */

/* A throwaway primary's standby and where the pair stands. */
struct standby {
	struct tmp_postgres node;		/* the second server, <dir>/standby; node.started: it may run */
	struct tmp_postgres *primary;		/* the pair's primary: the throwaway's own server or node */
	struct tmp_postgres *replica;		/* the other: the standby streaming from primary */
	bool promoted;				/* a failover promoted replica: it takes writes, primary is down */
	bool cut;				/* it was cut off the primary's WAL (standby_cut) */
	bool needs_rebuild;			/* a failover was tried: replica is made anew, the mode set again */
	int mode;				/* the enum standby_mode the primary's settings are for */
	char conninfo[STANDBY_CONNINFO_MAX];	/* both servers, the read-write one chosen: what clients connect to */
};

/*
 * Makes sb the pair of the running throwaway server pg (the primary) and a streaming
 * standby of it, asynchronous for now, and waits until it streams. 0, or -1 with err, sb
 * then holding nothing that runs.
 */
int standby_open(struct standby *sb, struct tmp_postgres *pg, char *err, size_t errlen);

/*
 * Makes the pair ready for a run with standby mode mode (an enum standby_mode): after a
 * failover the promoted standby is the primary and the old primary's directory is made a
 * new standby of it; after a cut the standby is made anew; then the primary's replication
 * settings are made mode's and waited for until in force (the standby's sync_state in
 * pg_stat_replication, a session's synchronous_commit). 0, or -1 with err.
 */
int standby_ready(struct standby *sb, int mode, char *err, size_t errlen);

/*
 * Cuts sb off its primary's WAL: its walreceiver stopped for good (no primary_conninfo
 * left), so that what commits on the primary from now on is there alone, a standby that
 * lags as far as a network cut makes it. Returns once it receives no more. 0, or -1 with err.
 */
int standby_cut(struct standby *sb, char *err, size_t errlen);

/*
 * Fails sb's primary over to its standby: stops the primary in immediate mode and keeps it
 * down, promotes the standby and waits until it accepts writes. 0, or -1 with err.
 */
int standby_failover(struct standby *sb, char *err, size_t errlen);

/* Whether the server that takes sb's writes (after a failover: the promoted one) was started and is gone. */
bool standby_primary_gone(const struct standby *sb);

/*
 * Stops sb's second server and removes its directory (the throwaway's own is tmp_postgres_stop's);
 * safe on a zeroed sb and twice.
 */
void standby_close(struct standby *sb);

#endif
