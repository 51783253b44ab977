#include <math.h>
#include <stdlib.h>

#include "engine/workload.h"

/* splitmix64: a well-mixed 64-bit value from x, so job j's draw depends on (seed, j) only. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A uniform double in [0, 1) for job id under seed. */
static double uniform01(uint64_t seed, long id)
{
	return (double)(mix64(seed ^ mix64((uint64_t)id)) >> 11) * 0x1.0p-53;
}

bool workload_fails(uint64_t seed, long id, double fail_rate)
{
	return fail_rate > 0 && uniform01(seed ^ 0xfa11fa11fa11fa11ULL, id) < fail_rate;
}

int64_t *workload_make(long n, double mean_ms, enum work_dist dist, uint64_t seed)
{
	int64_t *work = malloc((size_t)(n > 0 ? n : 1) * sizeof(*work));
	double mean_ns = mean_ms * 1e6;

	if (!work)
		return NULL;
	for (long i = 0; i < n; i++) {
		double u = uniform01(seed, i + 1), ns = mean_ns;

		if (dist == WORK_UNIFORM)
			ns = 2 * mean_ns * u;
		else if (dist == WORK_EXP)
			ns = -mean_ns * log1p(-u);
		work[i] = (int64_t)llround(ns);
	}
	return work;
}
