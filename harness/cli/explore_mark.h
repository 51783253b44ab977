/*
 * The step of a shown schedule where its violation happens, for a reviewer to read at
 * the line that breaks: read from the events as printed, a worker's claim of a job that
 * another worker already holds (claimed, and neither crashed nor let go by a lease's expiry).
 */
#ifndef CLAIMBENCH_EXPLORE_MARK_H
#define CLAIMBENCH_EXPLORE_MARK_H

#include <stddef.h>

#include "explore/explore.h"

/*
 * The index in o->events of the first step that claims a job another worker holds, with
 * what it violated in why (size bytes): "duplicate: job 2, already held by w0 since step
 * 3" (steps numbered from 1, as printed); -1 (why "") when o has no duplicate or no such
 * step is seen.
 */
long explore_mark_duplicate(const struct schedule_outcome *o, char *why, size_t size);

#endif
