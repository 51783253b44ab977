/* Each job's simulated work time, drawn from a seeded RNG so that every strategy, */
/* worker count and repetition of an invocation gets the very same jobs. */
#ifndef CLAIMBENCH_WORKLOAD_H
#define CLAIMBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "model/config.h"

/* How work times are drawn. */
struct work_spec {
	double mean_ms;		/* the mean work time */
	enum work_dist dist;	/* the distribution */
	double sigma;		/* WORK_LOGNORMAL: sigma of the underlying normal */
	double alpha;		/* WORK_PARETO: the tail index, > 1 */
	double min_ms;		/* WORK_UNIFORM with a range: the shortest work time */
	double max_ms;		/* WORK_UNIFORM with a range: the longest; 0: no range, 0 to twice mean_ms */
};

/* The work_spec cfg asks for. */
struct work_spec workload_spec(const struct run_config *cfg);

/* An array of n work times in ns (job id-1), drawn as spec says under seed. NULL when out of memory. */
int64_t *workload_make(long n, const struct work_spec *spec, uint64_t seed);

/* A uniform draw in [0, 1) that depends on (seed, stream, a, b) only: the same for the same four. */
double workload_draw(uint64_t seed, uint64_t stream, uint64_t a, uint64_t b);

/* Whether job id's first pass fails under fail_rate (0..1): a draw of its own, fixed by (seed, id). */
bool workload_fails(uint64_t seed, long id, double fail_rate);

#endif
