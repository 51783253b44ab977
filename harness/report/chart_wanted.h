/* Which charts a report draws for its runs. */
#ifndef CLAIMBENCH_CHART_WANTED_H
#define CLAIMBENCH_CHART_WANTED_H

#include <stdbool.h>

#include "report/chart.h"
#include "report/chart_set.h"

/*
 * Whether the report draws chart kind for set: the makespan only when a case is a drain
 * run, the queue wait, backlog and arrivals only when a case had arrivals; the wait shares
 * only when a run sampled its backends' wait events, the pressure chart when a run with a
 * time series sampled dead tuples or the -wal file, the buffers when a sampled run knows
 * blocks per claim or the head lookup's buffers; the holders when a run has a holders series,
 * the guard waits when set has a case; the recovery when a run had a fault; the others
 * always, but never for a set of no run.
 * The charts from CHART_FIRST_GUARDED on are meant for a set of guarded runs, the others
 * for a set of queue runs.
 */
bool chart_wanted(const struct chart_set *set, enum chart_kind kind);

#endif
