/*
 * How busy the machine is: its 1-minute load average (getloadavg) and the CPU time a
 * hypervisor stole (/proc/stat's steal column), taken at a run's start and end so that
 * a run says what noise it ran under.
 */
#ifndef CLAIMBENCH_MACHINE_LOAD_H
#define CLAIMBENCH_MACHINE_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "model/result.h"

/* One reading of the machine. */
struct machine_sample {
	double load1;		/* the 1-minute load average; NaN when getloadavg failed */
	bool cpu_known;		/* /proc/stat's cpu line was read */
	uint64_t steal;		/* its steal ticks, summed over the CPUs */
	uint64_t total;		/* all its ticks (user to steal) */
};

/* Reads the machine now into s. */
void machine_sample_take(struct machine_sample *s);

/*
 * The figures of a run between readings start and end: both load averages, the steal
 * over the interval in % of its ticks (NaN unless both read /proc/stat and ticks passed),
 * the processors online, and whether a load average exceeded them.
 */
struct machine_figures machine_figures_between(const struct machine_sample *start, const struct machine_sample *end);

#endif
