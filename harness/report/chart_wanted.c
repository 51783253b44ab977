/* Which charts a report draws for its runs (chart_wanted.h). */
#include <math.h>

#include "report/chart_recovery.h"
#include "report/chart_server.h"
#include "report/chart_wanted.h"
#include "model/metric_table.h"

/*
 * Whether a run of set that sampled the server has what chart kind draws: wait shares, dead
 * tuples or the -wal file beside a time series, blocks per claim or head lookup buffers.
 */
static bool any_sampled(const struct chart_set *set, enum chart_kind kind)
{
	for (size_t i = 0; i < set->n_runs; i++) {
		const struct run_result *run = &set->runs[i].run;
		const struct server_figures *f = &run->metrics.server;

		if (!run->n_samples)
			continue;
		if (kind == CHART_WAITS && isfinite(f->wait_pct[WAIT_CPU]))
			return true;
		if (kind == CHART_PRESSURE && chart_pressure_drawable(run))
			return true;
		if (kind == CHART_BUFFERS &&
		    (isfinite(f->blocks_per_claim_start) || isfinite(f->blocks_per_claim_end) ||
		     f->head_buffers_before != METRIC_UNKNOWN || f->head_buffers_after != METRIC_UNKNOWN))
			return true;
	}
	return false;
}

bool chart_wanted(const struct chart_set *set, enum chart_kind kind)
{
	bool drain = false, open_loop = false, holders = false;

	if (!set->n_runs)
		return false;
	for (size_t i = 0; i < set->n_runs; i++)
		holders |= set->runs[i].run.n_holders > 0;
	for (size_t k = 0; k < set->n_cases; k++) {
		drain |= !set->cases[k].timed;
		open_loop |= set->cases[k].open_loop;
	}
	switch (kind) {
	case CHART_WAITS:
	case CHART_PRESSURE:
	case CHART_BUFFERS:
		return any_sampled(set, kind);
	case CHART_MAKESPAN:
		return drain;
	case CHART_QUEUE_WAIT:
	case CHART_BACKLOG:
	case CHART_ARRIVALS:
		return open_loop;
	case CHART_HOLDERS:
		return holders;
	case CHART_RECOVERY:
		return chart_recovery_wanted(set);
	default:
		return kind < CHART_COUNT;
	}
}
