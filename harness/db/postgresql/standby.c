#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "db/leftovers.h"
#include "db/postgresql/server_sql.h"
#include "db/postgresql/standby.h"
#include "model/faults.h"

#define STANDBY_WAIT_MS 30000	/* how long the standby may take to stream, or to stop receiving */
#define STANDBY_RELOAD_WAIT_MS 5000 /* how long a reload of the primary's replication settings may take to be in force */

/*
 * Makes replica a new standby of primary, both servers of the pair: what replica's data
 * directory held is stopped and removed, the slot dropped on primary (a former standby's
 * of the same name), then pg_basebackup -R through the slot (the data directory as
 * primary's, its postgresql.auto.conf with it), started, and waited for until it streams.
 * 0, or -1 with err.
 */
static int make_replica(struct tmp_postgres *replica, const struct tmp_postgres *primary, char *err, size_t errlen)
{
	char data[PATH_MAX + 16], source[PATH_MAX + 128];
	const char *stop[] = { "stop", "-D", data, "-m", "immediate", "-w", "-t", "30", NULL };
	const char *basebackup[] = { "-D", data, "-d", source, "-R", "-C", "-S", STANDBY_SLOT, "-X", "stream", "-c", "fast",
				     "--no-sync", NULL };
	long dropped;

	snprintf(data, sizeof(data), "%s/data", replica->dir);
	/* -R writes this conninfo into the standby's primary_conninfo: its application_name is the name the primary syncs to. */
	snprintf(source, sizeof(source), "host=%s port=%d user=claimbench application_name=%s", primary->dir, primary->port,
		 STANDBY_NAME);
	if (replica->started && tmp_postgres_run(replica, "pg_ctl", stop, err, errlen) < 0 &&
	    leftovers_stop_server(data, &replica->as) < 0)
		return -1;
	replica->started = false;
	if ((access(data, F_OK) == 0 && leftovers_remove(data, &replica->as) < 0) || access(data, F_OK) == 0) {
		snprintf(err, errlen, "could not remove %s to make a new standby there", data);
		return -1;
	}
	if (pg_server_sql(primary->conninfo, "SELECT count(pg_drop_replication_slot(slot_name)) FROM pg_replication_slots "
		    "WHERE slot_name = '" STANDBY_SLOT "'", &dropped, err, errlen) < 0 ||
	    tmp_postgres_run(replica, "pg_basebackup", basebackup, err, errlen) < 0)
		return -1;
	replica->started = true;
	if (tmp_postgres_restart(replica, err, errlen) < 0)
		return -1;
	return pg_server_wait(primary->conninfo, "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'", 1,
			STANDBY_WAIT_MS, "the standby did not stream from the primary", err, errlen);
}

/* Sets the primary pg's replication settings for mode (an enum standby_mode) and reloads them. 0, or -1 with err. */
static int apply_mode(const struct tmp_postgres *pg, int mode, char *err, size_t errlen)
{
	bool sync = mode == STANDBY_SYNC || mode == STANDBY_REMOTE_APPLY;
	long reloaded;

	if (pg_server_sql(pg->conninfo, sync ? "ALTER SYSTEM SET synchronous_standby_names = '" STANDBY_NAME "'" :
		    "ALTER SYSTEM RESET synchronous_standby_names", NULL, err, errlen) < 0 ||
	    pg_server_sql(pg->conninfo, mode == STANDBY_REMOTE_APPLY ? "ALTER SYSTEM SET synchronous_commit = 'remote_apply'" :
		    "ALTER SYSTEM RESET synchronous_commit", NULL, err, errlen) < 0 ||
	    pg_server_sql(pg->conninfo, "SELECT pg_reload_conf()::int", &reloaded, err, errlen) < 0)
		return -1;
	return 0;
}

/*
 * Waits until the primary pg's settings for mode are in force, the reload that set them
 * being only a signal: its standby shown in pg_stat_replication as synchronous (sync,
 * remote-apply) or asynchronous, which a new session computes from its own settings, so
 * that once it shows, the postmaster has reloaded and a new session's synchronous_commit
 * is to be the mode's too. 0, or -1 with err saying which is not.
 */
static int mode_in_force(const struct tmp_postgres *pg, int mode, char *err, size_t errlen)
{
	bool sync = mode == STANDBY_SYNC || mode == STANDBY_REMOTE_APPLY;
	const char *commit = mode == STANDBY_REMOTE_APPLY ? "remote_apply" : "on";
	char sql[128];
	long as_set;

	if (pg_server_wait(pg->conninfo, sync ? "SELECT count(*) FROM pg_stat_replication WHERE application_name = '"
		     STANDBY_NAME "' AND sync_state = 'sync'" : "SELECT count(*) FROM pg_stat_replication WHERE "
		     "application_name = '" STANDBY_NAME "' AND sync_state = 'async'", 1, STANDBY_RELOAD_WAIT_MS, sync ?
		     "the standby did not become synchronous (pg_stat_replication.sync_state 'sync')" :
		     "the standby did not become asynchronous (pg_stat_replication.sync_state 'async')", err, errlen) < 0)
		return -1;
	snprintf(sql, sizeof(sql), "SELECT (current_setting('synchronous_commit') = '%s')::int", commit);
	if (pg_server_sql(pg->conninfo, sql, &as_set, err, errlen) < 0)
		return -1;
	if (!as_set) {
		snprintf(err, errlen, "a session's synchronous_commit is not %s, which --standby %s needs: it is set "
			 "elsewhere (PGOPTIONS, a role's or a database's setting?)", commit, standby_mode_names[mode]);
		return -1;
	}
	return 0;
}

int standby_open(struct standby *sb, struct tmp_postgres *pg, char *err, size_t errlen)
{
	memset(sb, 0, sizeof(*sb));
	if (snprintf(sb->conninfo, sizeof(sb->conninfo),
		     "host=%s,%s/%s port=%d,%d dbname=postgres user=claimbench target_session_attrs=read-write", pg->dir,
		     pg->dir, STANDBY_DIR, pg->port, STANDBY_PORT) >= (int)sizeof(sb->conninfo)) {
		snprintf(err, errlen, "the conninfo for the standby of %s does not fit", pg->dir);
		return -1;
	}
	sb->primary = pg;
	sb->replica = &sb->node;
	/* The standby copies the primary's postgresql.auto.conf: once promoted it is to name no synchronous standby. */
	if (apply_mode(pg, STANDBY_ASYNC, err, errlen) < 0 ||
	    tmp_postgres_node(&sb->node, pg, STANDBY_DIR, STANDBY_PORT, err, errlen) < 0 ||
	    make_replica(sb->replica, sb->primary, err, errlen) < 0) {
		standby_close(sb);
		return -1;
	}
	sb->mode = STANDBY_ASYNC;
	return 0;
}

int standby_ready(struct standby *sb, int mode, char *err, size_t errlen)
{
	if (sb->promoted) {
		struct tmp_postgres *old_primary = sb->primary;

		sb->primary = sb->replica;
		sb->replica = old_primary;
		sb->promoted = false;
	}
	if (sb->cut || sb->needs_rebuild || !sb->replica->started) {
		if (!sb->primary->started) {
			snprintf(err, errlen, "the standby pair has no primary: the last failover stopped %s and its standby "
				 "was not promoted", sb->primary->dir);
			return -1;
		}
		if (apply_mode(sb->primary, STANDBY_ASYNC, err, errlen) < 0 ||
		    make_replica(sb->replica, sb->primary, err, errlen) < 0)
			return -1;
		sb->cut = false;
		sb->needs_rebuild = false;
		sb->mode = STANDBY_ASYNC;
	}
	if (mode != sb->mode && apply_mode(sb->primary, mode, err, errlen) < 0)
		return -1;
	sb->mode = mode;
	return mode_in_force(sb->primary, mode, err, errlen);
}

int standby_cut(struct standby *sb, char *err, size_t errlen)
{
	long reloaded;

	if (!sb->replica || !sb->replica->started || sb->promoted) {
		snprintf(err, errlen, "there is no standby to cut off");
		return -1;
	}
	sb->cut = true;
	if (pg_server_sql(sb->replica->conninfo, "ALTER SYSTEM SET primary_conninfo = ''", NULL, err, errlen) < 0 ||
	    pg_server_sql(sb->replica->conninfo, "SELECT pg_reload_conf()::int", &reloaded, err, errlen) < 0)
		return -1;
	return pg_server_wait(sb->replica->conninfo, "SELECT count(*) FROM pg_stat_wal_receiver", 0, STANDBY_WAIT_MS,
			"the standby did not stop receiving WAL", err, errlen);
}

int standby_failover(struct standby *sb, char *err, size_t errlen)
{
	char primary_data[PATH_MAX + 16], standby_data[PATH_MAX + 16];
	const char *stop[] = { "stop", "-D", primary_data, "-m", "immediate", "-w", "-t", "60", NULL };
	const char *promote[] = { "promote", "-D", standby_data, "-w", "-t", "60", NULL };

	if (!sb->replica || !sb->replica->started || sb->promoted) {
		snprintf(err, errlen, "there is no standby to promote%s", sb->promoted ? " (it was promoted already)" : "");
		return -1;
	}
	snprintf(primary_data, sizeof(primary_data), "%s/data", sb->primary->dir);
	snprintf(standby_data, sizeof(standby_data), "%s/data", sb->replica->dir);
	sb->needs_rebuild = true;
	if (tmp_postgres_run(sb->primary, "pg_ctl", stop, err, errlen) < 0)
		return -1;
	sb->primary->started = false;
	if (tmp_postgres_run(sb->replica, "pg_ctl", promote, err, errlen) < 0)
		return -1;
	sb->promoted = true;
	return 0;
}

bool standby_primary_gone(const struct standby *sb)
{
	const struct tmp_postgres *primary = sb->promoted ? sb->replica : sb->primary;
	char data[PATH_MAX + 8];

	if (!primary || !primary->started || snprintf(data, sizeof(data), "%s/data", primary->dir) >= (int)sizeof(data))
		return false;
	return leftovers_server_runs(data) == 0;
}

void standby_close(struct standby *sb)
{
	tmp_postgres_stop(&sb->node);
	sb->primary = sb->replica = NULL;
}
