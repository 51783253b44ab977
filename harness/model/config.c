/* The names of the enums that options take and output prints, and what follows from a run_config. */
#include <math.h>

#include "model/config.h"

const char *run_config_queue_of_job(const struct run_config *cfg, long id)
{
	return cfg->queues[(id - 1) % cfg->n_queues];
}

const char *const claim_mode_names[] = { [MODE_HOLD] = "hold", [MODE_FLIP] = "flip", NULL };
const char *const work_dist_names[] = {
	[WORK_FIXED] = "fixed", [WORK_UNIFORM] = "uniform", [WORK_EXP] = "exp", [WORK_LOGNORMAL] = "lognormal",
	[WORK_PARETO] = "pareto", NULL,
};
const char *const output_format_names[] = {
	[FORMAT_TABLE] = "table", [FORMAT_CSV] = "csv", [FORMAT_JSON] = "json", NULL,
};
const char *const pooler_mode_names[] = {
	[POOLER_NONE] = "none", [POOLER_SESSION] = "session", [POOLER_TRANSACTION] = "transaction", NULL,
};
const char *const autovacuum_mode_names[] = {
	[AUTOVACUUM_DEFAULT] = "default", [AUTOVACUUM_AGGRESSIVE] = "aggressive", [AUTOVACUUM_OFF] = "off", NULL,
};
const char *const workload_names[] = {
	[WORKLOAD_QUEUE] = "queue", [WORKLOAD_REFRESH] = "refresh", [WORKLOAD_EXCLUSIVE_USE] = "exclusive-use",
	[WORKLOAD_RESOURCE] = "resource", NULL,
};
const char *const sqlite_journal_modes[] = { "delete", "truncate", "persist", "memory", "wal", "off", NULL };
const char *const sqlite_synchronous_levels[] = { "off", "normal", "full", "extra", NULL };
const char *const isolation_names[] = {
	[ISOLATION_SERVER] = "server", [ISOLATION_REPEATABLE_READ] = "repeatable-read",
	[ISOLATION_READ_COMMITTED] = "read-committed", NULL,
};
const char *const isolation_sql[ISOLATION_COUNT] = {
	[ISOLATION_REPEATABLE_READ] = "REPEATABLE READ", [ISOLATION_READ_COMMITTED] = "READ COMMITTED",
};

const char *claim_mode_name(enum claim_mode mode)
{
	return (unsigned)mode < MODE_COUNT ? claim_mode_names[mode] : "none";
}

const char *workload_name(enum workload w)
{
	return (unsigned)w < WORKLOAD_COUNT ? workload_names[w] : "unknown";
}

const char *work_dist_name(enum work_dist dist)
{
	return (unsigned)dist <= WORK_PARETO ? work_dist_names[dist] : "unknown";
}

int run_config_repeat_cap(const struct run_config *cfg)
{
	return cfg->repeat > 0 ? cfg->repeat : cfg->repeat_max;
}

double run_config_arrival_s(const struct run_config *cfg)
{
	return cfg->arrival_s > 0 ? cfg->arrival_s : cfg->duration_s;
}

long run_config_arrivals(const struct run_config *cfg)
{
	if (cfg->arrival_rate <= 0)
		return 0;
	if (cfg->timeline.n)
		return timeline_arrivals(&cfg->timeline, cfg->arrival_rate);
	return (long)ceil(cfg->arrival_rate * run_config_arrival_s(cfg) - 1e-9);
}
