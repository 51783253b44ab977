#include "plugin/capabilities.h"

bool plugin_runs_on(unsigned backends, const unsigned needs_caps[BACKEND_COUNT], const struct backend_ops *db)
{
	return (backends & BACKEND_BIT(db->kind)) && !(needs_caps[db->kind] & ~db->caps);
}
