#include <math.h>

#include "model/timeline_faults.h"

int timeline_fault_kind(enum timeline_kind kind)
{
	switch (kind) {
	case TIMELINE_CRASH_WORKERS:
		return FAULT_CRASH;
	case TIMELINE_KILL_BACKENDS:
		return FAULT_KILL_BACKEND;
	case TIMELINE_RESTART_SERVER:
		return FAULT_RESTART;
	default:
		return -1;
	}
}

long timeline_faults_due(const struct timeline_step *step, int workers, double since_s)
{
	long all, so_far;

	if (since_s < 0)
		return 0;
	switch (step->kind) {
	case TIMELINE_CRASH_WORKERS:
		if (!step->arg_share)
			return (long)step->arg;
		all = (long)ceil(step->arg / 100 * workers - 1e-9);
		return all < 1 ? 1 : all;
	case TIMELINE_RESTART_SERVER:
		return 1;
	case TIMELINE_KILL_BACKENDS:
		all = (long)ceil(step->arg * step->duration_s - 1e-9);
		so_far = (long)floor(since_s * step->arg + 1e-9) + 1;
		return so_far < all ? so_far : all;
	default:
		return 0;
	}
}
