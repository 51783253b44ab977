#include "plugin/capabilities.h"

bool plugin_runs_on(unsigned dialects, const unsigned needs_caps[DIALECT_COUNT], const struct backend_ops *db)
{
	return (dialects & DIALECT_BIT(db->dialect)) && !(needs_caps[db->dialect] & ~db->caps);
}
