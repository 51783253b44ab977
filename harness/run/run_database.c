/* The database an invocation's runs share (run_database.h): the user's, noted, or a throwaway. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_database.h"

int run_database_prepare(struct run_database *d, const struct backend_ops *db, const char *target, bool with_pooler,
			 char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->db = db;
	d->target = target;
	if (target && !with_pooler)
		return 0;
	if (throwaway_prepare(&d->throwaway, err, errlen) < 0)
		return -1;
	d->throwaway_ready = true;
	return 0;
}

/* Notes what a run changes in the user's database at d->target, when its driver notes it. 0, or -1 with err. */
static int note_user_database(struct run_database *d, char *err, size_t errlen)
{
	if (!d->db->target_note)
		return 0;
	if (d->db->target_note(d->target, &d->user_note, err, errlen) < 0) {
		free(d->user_note);
		d->user_note = NULL;
		return -1;
	}
	d->user_noted = true;
	return 0;
}

/* Makes d's throwaway server (and its standby when with_standby), and points plan at it. 0, or -1 with err. */
static int open_throwaway(struct run_database *d, struct run_plan *plan, int connections, bool with_standby,
			  bool defaulted, char *err, size_t errlen)
{
	const struct backend_throwaway *ops = d->db->throwaway;
	char why[768];

	if (throwaway_open(&d->throwaway, d->db, connections, &plan->target, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s%s%s", ops ? ops->start_failed : "cannot make a throwaway database", why,
			 ops && ops->start_hint ? "\n" : "", ops && ops->start_hint ? ops->start_hint : "");
		return -1;
	}
	throwaway_announce(&d->throwaway, defaulted);
	plan->restart = (struct server_restart){ .fn = throwaway_restart, .ctx = &d->throwaway };
	plan->server_gone = throwaway_server_gone;
	plan->server_ctx = &d->throwaway;
	plan->set_autovacuum = throwaway_set_autovacuum;
	if (!with_standby)
		return 0;
	if (throwaway_add_standby(&d->throwaway, &plan->target, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot start the throwaway server's standby: %s", why);
		return -1;
	}
	plan->failover = (struct server_restart){ .fn = throwaway_failover, .ctx = &d->throwaway };
	plan->standby_ready = throwaway_standby_ready;
	plan->standby_cut = throwaway_standby_cut;
	plan->standby_ctx = &d->throwaway;
	return 0;
}

int run_database_open(struct run_database *d, struct run_plan *plan, int connections, bool with_standby,
		      bool defaulted, char *err, size_t errlen)
{
	plan->db = d->db;
	plan->target = d->target;
	if (d->target)
		return note_user_database(d, err, errlen);
	return open_throwaway(d, plan, connections, with_standby, defaulted, err, errlen);
}

void run_database_close(struct run_database *d)
{
	char err[1024];

	if (d->user_noted && d->db->target_restore(d->target, d->user_note, err, sizeof(err)) != 0)
		fprintf(stderr, "claimbench: %s\n", err);
	d->user_noted = false;
	if (d->throwaway_ready)
		throwaway_close(&d->throwaway);
	d->throwaway_ready = false;
}
