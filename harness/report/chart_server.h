/* The data of the charts of the server's samples: wait shares, pressure and buffers. */
#ifndef CLAIMBENCH_CHART_SERVER_H
#define CLAIMBENCH_CHART_SERVER_H

#include <stdbool.h>
#include <stdio.h>

#include "report/chart.h"
#include "report/chart_set.h"
#include "model/result.h"

/*
 * Whether the pressure chart can draw run: it has a time series, and a sample of it knows
 * the queue table's dead tuples or the -wal file's size.
 */
bool chart_pressure_drawable(const struct run_result *run);

/* Writes the wait shares, pressure or buffers chart's data into f. */
void chart_write_server(const struct chart_set *set, FILE *f, struct chart *c);

#endif
