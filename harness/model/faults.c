#include "model/faults.h"

const char *const fault_kind_names[] = {
	[FAULT_CRASH] = "crash", [FAULT_STALL] = "stall", [FAULT_KILL_BACKEND] = "kill-backend",
	[FAULT_RESTART] = "restart", NULL,
};

const char *const fence_mode_names[] = { [FENCE_NONE] = "none", [FENCE_OWNER] = "owner", [FENCE_ATTEMPT] = "attempt", NULL };

bool fault_plan_any(const struct fault_plan *plan)
{
	for (int k = 0; k < FAULT_KIND_COUNT; k++)
		if (plan->when[k].n_at || plan->when[k].n_exec || plan->when[k].rate > 0)
			return true;
	return false;
}
