#include <stdio.h>
#include <string.h>

#include "db/postgresql/autovacuum.h"
#include "db/postgresql/server_sql.h"
#include "model/config.h"

#define AUTOVACUUM_RELOAD_WAIT_MS 5000	/* how long a reload of the settings may take to be in force */

/* One setting of a mode: its name and the value pg_settings shows (NULL: PostgreSQL's default, RESET). */
struct autovacuum_setting {
	const char *name;	/* the GUC */
	const char *value;	/* as pg_settings.setting shows it, in the GUC's unit */
};

/* The settings every mode sets, in this order: those a mode leaves NULL are PostgreSQL's defaults. */
#define AUTOVACUUM_SETTINGS 4
static const char *const setting_names[AUTOVACUUM_SETTINGS] = {
	"autovacuum", "autovacuum_vacuum_scale_factor", "autovacuum_naptime", "autovacuum_vacuum_cost_limit",
};

/* Each mode's values of setting_names (aggressive's as the field's benchmarks run it; the naptime in seconds). */
static const char *const mode_values[][AUTOVACUUM_SETTINGS] = {
	[AUTOVACUUM_DEFAULT] = { NULL, NULL, NULL, NULL },
	[AUTOVACUUM_AGGRESSIVE] = { "on", "0.005", "10", "10000" },
	[AUTOVACUUM_OFF] = { "off", NULL, NULL, NULL },
};

int autovacuum_set(const struct tmp_postgres *pg, int mode, char *err, size_t errlen)
{
	const char *const *values = mode_values[mode];
	char sql[1024], what[160];
	size_t used;
	long reloaded;

	for (int i = 0; i < AUTOVACUUM_SETTINGS; i++) {
		if (values[i])
			snprintf(sql, sizeof(sql), "ALTER SYSTEM SET %s = '%s'", setting_names[i], values[i]);
		else
			snprintf(sql, sizeof(sql), "ALTER SYSTEM RESET %s", setting_names[i]);
		if (pg_server_sql(pg->conninfo, sql, NULL, err, errlen) < 0)
			return -1;
	}
	if (pg_server_sql(pg->conninfo, "SELECT pg_reload_conf()::int", &reloaded, err, errlen) < 0)
		return -1;
	used = (size_t)snprintf(sql, sizeof(sql), "SELECT count(*) FROM pg_settings WHERE false");
	for (int i = 0; i < AUTOVACUUM_SETTINGS && used < sizeof(sql); i++)
		used += (size_t)snprintf(sql + used, sizeof(sql) - used, " OR (name = '%s' AND setting = %s%s%s)",
					 setting_names[i], values[i] ? "'" : "", values[i] ? values[i] : "boot_val",
					 values[i] ? "'" : "");
	snprintf(what, sizeof(what), "the throwaway server's autovacuum settings for --autovacuum %s were not in force",
		 autovacuum_mode_names[mode]);
	return pg_server_wait(pg->conninfo, sql, AUTOVACUUM_SETTINGS, AUTOVACUUM_RELOAD_WAIT_MS, what, err, errlen);
}
