/* The data of the recovery chart: how long each case took to recover from its faults. */
#ifndef CLAIMBENCH_CHART_RECOVERY_H
#define CLAIMBENCH_CHART_RECOVERY_H

#include <stdbool.h>
#include <stdio.h>

#include "report/chart.h"
#include "report/chart_set.h"

/* Whether a run of set had a fault: the recovery chart is drawn only then. */
bool chart_recovery_wanted(const struct chart_set *set);

/*
 * Writes the recovery chart's data into f (the format in scripts/charts/recovery.gp): per
 * case with faults, a bar for its restarts (the server's outage, then the strategy's own
 * time from the server back to its first completion) and one for its faults on a job
 * (crash, stall, kill-backend: the fault to that job's next commit, p50, and the slowest),
 * the means over the case's repeats. docs/faults.md defines both. c->layer lists the parts
 * some bar has: 1 an outage, 2 a slowest job.
 */
void chart_write_recovery(const struct chart_set *set, FILE *f, struct chart *c);

#endif
