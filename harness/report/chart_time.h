/* The data of the charts over time: the timeline of completions, the backlog and the arrivals. */
#ifndef CLAIMBENCH_CHART_TIME_H
#define CLAIMBENCH_CHART_TIME_H

#include <stdio.h>

#include "report/chart.h"
#include "report/chart_set.h"

/* Writes the timeline, backlog or arrivals chart's data into f. */
void chart_write_time(const struct chart_set *set, FILE *f, struct chart *c);

#endif
