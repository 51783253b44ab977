/* The printed names of the enums that appear in output. */
#include "backend.h"
#include "config.h"

const char *claim_mode_name(enum claim_mode mode)
{
	return mode == MODE_HOLD ? "hold" : mode == MODE_FLIP ? "flip" : "none";
}

const char *work_dist_name(enum work_dist dist)
{
	return dist == WORK_UNIFORM ? "uniform" : dist == WORK_EXP ? "exp" : "fixed";
}

const char *backend_kind_name(enum backend_kind kind)
{
	return kind == BACKEND_POSTGRESQL ? "postgresql" : kind == BACKEND_SQLITE ? "sqlite" : "unknown";
}
