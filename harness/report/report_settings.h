/*
 * The settings of a report's runs side by side: those that differ between the runs, each
 * with its values, and those every run shared. A setting is a run parameter (the options
 * of `claimbench run`, as stored) or a fact of the run's invocation (backend, server
 * version, host, claimbench version, scenario).
 */
#ifndef CLAIMBENCH_REPORT_SETTINGS_H
#define CLAIMBENCH_REPORT_SETTINGS_H

#include <stddef.h>

#include "store/store.h"

/* Room for one setting's values, "8, 32, 64", NUL included; more are cut with "...". */
#define SETTING_VALUES 400

/* Settings a report compares at most. */
#define SETTINGS_MAX 128

/* One setting over a report's runs. */
struct setting_spread {
	const char *name;		/* its name (points into a run or a static string) */
	char values[SETTING_VALUES];	/* its distinct values in order of first appearance, ", "-separated */
	size_t n_values;		/* how many distinct values; a run without it counts "(not set)" */
};

/*
 * Fills out[] with every setting of the n runs (at most max), in order of first
 * appearance, the invocation's facts first. Their number.
 */
size_t report_settings(const struct store_run *runs, size_t n, struct setting_spread *out, size_t max);

#endif
