#include <stdio.h>
#include <string.h>

#include "model/engine_name.h"

void engine_name(char *buf, size_t size, const char *backend, const char *version)
{
	if (!size)
		return;
	if (!backend || !*backend)
		backend = "";
	if (!version || !*version || !*backend)
		snprintf(buf, size, "%s", backend);
	else
		snprintf(buf, size, "%s %.*s", backend, (int)strcspn(version, " "), version);
}
