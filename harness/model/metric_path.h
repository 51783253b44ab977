/* Metrics by name, as expectations and comparisons refer to them: "makespan_s", "fairness.jain". */
#ifndef CLAIMBENCH_METRIC_PATH_H
#define CLAIMBENCH_METRIC_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "model/result.h"

/* The value of the metric at path in run r. 0, or -1 when path names no metric. */
int metric_value(const struct run_result *r, const char *path, double *out);

/* True when path names a metric. */
bool metric_path_valid(const char *path);

/* Writes every metric path, comma-separated, into buf (for error messages). */
void metric_paths_list(char *buf, size_t len);

#endif
