#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "db/ownership.h"
#include "engine/run_plan.h"
#include "engine/signals.h"
#include "model/run_descriptor.h"

bool run_leaves_tables(const struct run_plan *plan)
{
	return !plan->cfg->target && signals_interrupted();
}

void run_label(char *buf, size_t len, const struct run_config *cfg, const char *plugin, const char *mode,
	       int workers, int repeat)
{
	snprintf(buf, len, "%s %s x%d #%d%s%s%s", plugin, mode, workers, repeat, *cfg->sweep ? " (" : "", cfg->sweep,
		 *cfg->sweep ? ")" : "");
}

void run_result_free(struct run_result *r)
{
	free(r->per_worker);
	r->per_worker = NULL;
	free(r->series);
	r->series = NULL;
	r->n_series = 0;
	free(r->holders);
	r->holders = NULL;
	r->n_holders = 0;
	free(r->faults);
	r->faults = NULL;
	r->n_faults = 0;
	free(r->samples);
	r->samples = NULL;
	r->n_samples = 0;
	free(r->phases);
	r->phases = NULL;
	r->n_phases = 0;
	free(r->timeline);
	r->timeline = NULL;
	r->n_timeline = 0;
	for (int k = 0; k < PROBE_MOMENTS; k++) {
		free(r->probes[k].plan);
		r->probes[k].plan = NULL;
	}
	run_params_free(r);
}

void run_tables_prefix(const char *configured, char *buf, size_t len)
{
	if (configured)
		snprintf(buf, len, "%s", configured);
	else
		snprintf(buf, len, "claimbench_%ld_", (long)getpid());
}

int run_table_name(const struct backend_ops *db, struct db_conn *conn, const char *prefix, const char *suffix,
		   char *name, size_t namelen, char *quoted, size_t quotedlen, char *err, size_t errlen)
{
	snprintf(name, namelen, "%s%s", prefix, suffix);
	if (db->quote_identifier(conn, name, quoted, quotedlen) < 0) {
		snprintf(err, errlen, "cannot quote the table names of prefix %s", prefix);
		return -1;
	}
	return 0;
}

int run_tables_exec(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names,
		    const char *tmpl, const char *what, char *err, size_t errlen)
{
	char sql[RUN_TABLES_SQL_MAX];

	if (sql_expand(tmpl, names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "%s: statement too long", what);
		return -1;
	}
	if (db->exec(conn, sql) < 0) {
		snprintf(err, errlen, "%s: %s", what, db->error_message(conn));
		return -1;
	}
	return 0;
}

int run_tables_create(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names,
		      const char *tmpl, const char *name, const char *what, char *err, size_t errlen)
{
	char sql[RUN_TABLES_SQL_MAX];

	if (sql_expand(tmpl, names, sql, sizeof(sql)) < 0) {
		snprintf(err, errlen, "%s: statement too long", what);
		return -1;
	}
	return owner_create_table(db, conn, sql, name, what, err, errlen);
}
