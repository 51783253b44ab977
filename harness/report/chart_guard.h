/* The data of the guarded-resource charts: holders and waiters over time, the waits for a grant. */
#ifndef CLAIMBENCH_CHART_GUARD_H
#define CLAIMBENCH_CHART_GUARD_H

#include <stdio.h>

#include "report/chart.h"
#include "report/chart_set.h"

/* Writes the holders or the guard waits chart's data into f. */
void chart_write_guarded(const struct chart_set *set, FILE *f, struct chart *c);

#endif
