/*
 * The settings of a report's runs side by side: those that differ between the runs, each
 * value with the runs that had it, and those every run shared. A setting is a run
 * parameter (the options of `claimbench run`, as stored) or a fact of the run's invocation
 * (backend, server version, host, claimbench version, scenario).
 */
#ifndef CLAIMBENCH_REPORT_SETTINGS_H
#define CLAIMBENCH_REPORT_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

/* Settings a report compares at most. */
#define SETTINGS_MAX 128

/* One setting over a report's runs. */
struct setting_spread {
	const char *name;	/* its name (points into a run or a static string) */
	const char **value_of;	/* each run's value, in the runs' order; NULL when the run has none or it is
				   unknown (owned array; the values point into the runs) */
	size_t n_values;	/* how many distinct values, "none" counting as one */
};

/*
 * Fills out[] with every setting of the n runs (at most max), in order of first
 * appearance, the invocation's facts first, and their number into *count. 0, or -1 when
 * out of memory (nothing left to free). Free with report_settings_free.
 */
int report_settings(const struct store_run *runs, size_t n, struct setting_spread *out, size_t max, size_t *count);

/* Frees the count settings of out. */
void report_settings_free(struct setting_spread *out, size_t count);

/* Whether runs a and b of s have the same value (both none included). */
bool setting_same(const struct setting_spread *s, size_t a, size_t b);

/*
 * Writes into buf the runs among the n whose value of s is that of run k, by id in ranges
 * ("9-16", "2, 10, 18") and, when they are several and every run of some sections or
 * strategies and no other, those named ("9-16: every run of section crashes").
 */
void setting_runs_text(const struct store_run *runs, size_t n, const struct setting_spread *s, size_t k, char *buf,
		       size_t len);

#endif
