/*
 * How many faults a fault phase of a timeline (crash-workers, kill-backends, restart-server)
 * has due, counted from the instant its phase began: the monitor (queue/monitor.c) strikes
 * them with the fault machinery of --crash-at, --kill-backend-at and --restart-at.
 */
#ifndef CLAIMBENCH_TIMELINE_FAULTS_H
#define CLAIMBENCH_TIMELINE_FAULTS_H

#include "model/faults.h"
#include "model/timeline.h"

/* The fault kind a phase of kind strikes with, or -1 for a kind that strikes none. */
int timeline_fault_kind(enum timeline_kind kind);

/*
 * The faults step (a phase of a fault kind) has due since_s seconds after it began, in a
 * run of workers: crash-workers its N (or its share of workers, rounded up, at least 1) and
 * restart-server its one at once; kill-backends one at its start and one every 1/RATE s
 * after, ceil(RATE x its duration) in all. 0 for another kind, or before it began.
 */
long timeline_faults_due(const struct timeline_step *step, int workers, double since_s);

#endif
