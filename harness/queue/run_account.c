#include <stdio.h>
#include <string.h>

#include "queue/run_account.h"

bool run_account_wanted(const struct run_plan *plan, const struct run_shared *s)
{
	return s->strategy->origins && !plan->trust_scenario && s->db->account_create;
}

int run_account_make(struct run_account *acc, const struct run_shared *s, struct admin *a, char *err, size_t errlen)
{
	char why[512];
	int rc = s->db->account_create(a->conn, s->jobs_name, acc->target, sizeof(acc->target), why, sizeof(why));

	acc->made = rc == 0;
	if (rc > 0)
		snprintf(err, errlen, "strategy %s: a scenario file's SQL runs on %s as an account the run makes for it, "
			 "with privileges on the run's queue table %s alone, and this server does not let the harness's "
			 "user make it (%s): grant that user CREATE USER and GRANT OPTION on the database, or give "
			 "--trust-scenario to run the file's SQL as that user", s->strategy->name, s->db->name, s->jobs_name,
			 why);
	else if (rc < 0)
		snprintf(err, errlen, "strategy %s: making the run's account %s: %s", s->strategy->name, s->jobs_name,
			 s->db->error_message(a->conn));
	return rc;
}

void run_account_drop(struct run_account *acc, const struct run_shared *s, struct admin *a, const char *label)
{
	char err[512];

	if (!acc->made)
		return;
	memset(acc->target, 0, sizeof(acc->target));
	if ((a->conn || admin_open(a, err, sizeof(err)) == 0) && s->db->account_drop(a->conn, s->jobs_name) == 0)
		goto dropped;
	if (admin_reconnected(a) && s->db->account_drop(a->conn, s->jobs_name) == 0)
		goto dropped;
	if (!admin_server_gone(a))
		fprintf(stderr, "claimbench: %s: cannot drop the run's account %s (%s): drop it by hand with DROP USER\n",
			label, s->jobs_name, a->conn ? s->db->error_message(a->conn) : err);
	return;
dropped:
	acc->made = false;
}
