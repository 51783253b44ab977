#include "model/server_sample.h"

const char *const wait_class_names[WAIT_CLASS_COUNT] = {
	[WAIT_CPU] = "cpu", [WAIT_LOCK] = "lock", [WAIT_LWLOCK] = "lwlock",
	[WAIT_IO] = "io", [WAIT_CLIENT] = "client", [WAIT_OTHER] = "other",
};

const char *const phase_kind_names[PHASE_KIND_COUNT] = {
	[PHASE_SNAPSHOT] = "snapshot",
	[PHASE_VACUUM] = "vacuum",
};

const char *const probe_moment_names[PROBE_MOMENTS] = {
	[PROBE_BEFORE] = "before",
	[PROBE_AFTER] = "after",
};
