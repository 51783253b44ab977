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

double workload_draw(uint64_t seed, uint64_t stream, uint64_t a, uint64_t b)
{
	return (double)(mix64(seed ^ mix64(stream ^ mix64(a ^ mix64(b)))) >> 11) * 0x1.0p-53;
}

bool workload_fails(uint64_t seed, long id, double fail_rate)
{
	return fail_rate > 0 && uniform01(seed ^ 0xfa11fa11fa11fa11ULL, id) < fail_rate;
}

struct work_spec workload_spec(const struct run_config *cfg)
{
	return (struct work_spec){
		.mean_ms = cfg->work_ms, .dist = (enum work_dist)cfg->work_dist, .sigma = cfg->work_sigma,
		.alpha = cfg->work_alpha, .min_ms = cfg->work_min_ms, .max_ms = cfg->work_max_ms,
	};
}

/* A standard normal draw for job id under seed (Box-Muller on two of its uniform draws). */
static double normal01(uint64_t seed, long id)
{
	double u1 = 1 - uniform01(seed ^ 0x6e6f726d616c3031ULL, id), u2 = uniform01(seed ^ 0x6e6f726d616c3032ULL, id);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* One work time in ns for job id: a draw of spec's distribution under seed. */
static double draw_ns(const struct work_spec *spec, uint64_t seed, long id)
{
	double mean_ns = spec->mean_ms * 1e6, u = uniform01(seed, id), ns;

	switch (spec->dist) {
	case WORK_UNIFORM:
		if (spec->max_ms > 0)
			return (spec->min_ms + (spec->max_ms - spec->min_ms) * u) * 1e6;
		return 2 * mean_ns * u;
	case WORK_EXP:
		return -mean_ns * log1p(-u);
	case WORK_LOGNORMAL:
		return exp(log(mean_ns) - spec->sigma * spec->sigma / 2 + spec->sigma * normal01(seed, id));
	case WORK_PARETO:
		ns = mean_ns * (spec->alpha - 1) / spec->alpha / pow(1 - u, 1 / spec->alpha);
		return ns < WORK_TAIL_CAP * mean_ns ? ns : WORK_TAIL_CAP * mean_ns;
	case WORK_FIXED:
		break;
	}
	return mean_ns;
}

int64_t *workload_make(long n, const struct work_spec *spec, uint64_t seed)
{
	int64_t *work = malloc((size_t)(n > 0 ? n : 1) * sizeof(*work));

	if (!work)
		return NULL;
	for (long i = 0; i < n; i++)
		work[i] = spec->mean_ms > 0 ? (int64_t)llround(draw_ns(spec, seed, i + 1)) : 0;
	return work;
}
