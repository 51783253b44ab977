/*
 * A run's engine as one name: its backend and its server's version, "postgresql 16.4".
 * Runs of two engines are never repeats of one case (report, compare, ab group by it).
 */
#ifndef CLAIMBENCH_ENGINE_NAME_H
#define CLAIMBENCH_ENGINE_NAME_H

#include <stddef.h>

/*
 * Writes "BACKEND VERSION" into buf (size bytes), the version's first word only
 * ("15.18 (Debian 15.18-0+deb12u1)" is 15.18): backend alone when version is NULL or
 * empty, "" when backend is NULL or empty; truncated to fit.
 */
void engine_name(char *buf, size_t size, const char *backend, const char *version);

#endif
