#include <string.h>

#include "model/faults.h"

const char *const fault_kind_names[] = {
	[FAULT_CRASH] = "crash", [FAULT_STALL] = "stall", [FAULT_KILL_BACKEND] = "kill-backend",
	[FAULT_RESTART] = "restart", [FAULT_FAILOVER] = "failover", NULL,
};

const char *const fence_mode_names[] = {
	[FENCE_NONE] = "none", [FENCE_OWNER] = "owner", [FENCE_ATTEMPT] = "attempt", NULL,
};

const char *const standby_mode_names[] = {
	[STANDBY_NONE] = "none", [STANDBY_ASYNC] = "async", [STANDBY_SYNC] = "sync", [STANDBY_REMOTE_APPLY] = "remote-apply",
	NULL,
};

const char *fault_kind_name(int kind)
{
	return kind >= 0 && kind < FAULT_KIND_COUNT ? fault_kind_names[kind] : "unknown";
}

int fault_kind_find(const char *name)
{
	for (int k = 0; k < FAULT_KIND_COUNT; k++)
		if (strcmp(fault_kind_names[k], name) == 0)
			return k;
	return -1;
}
