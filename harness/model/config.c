/* The printed names of the enums that appear in output, and what follows from a run_config. */
#include <math.h>

#include "model/config.h"

const char *run_config_queue_of_job(const struct run_config *cfg, long id)
{
	return cfg->queues[(id - 1) % cfg->n_queues];
}

const char *claim_mode_name(enum claim_mode mode)
{
	return mode == MODE_HOLD ? "hold" : mode == MODE_FLIP ? "flip" : "none";
}

const char *work_dist_name(enum work_dist dist)
{
	return dist == WORK_UNIFORM ? "uniform" : dist == WORK_EXP ? "exp" : "fixed";
}

double run_config_arrival_s(const struct run_config *cfg)
{
	return cfg->arrival_s > 0 ? cfg->arrival_s : cfg->duration_s;
}

long run_config_arrivals(const struct run_config *cfg)
{
	if (cfg->arrival_rate <= 0)
		return 0;
	return (long)ceil(cfg->arrival_rate * run_config_arrival_s(cfg) - 1e-9);
}
