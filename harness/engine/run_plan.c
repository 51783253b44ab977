#include <stdio.h>
#include <stdlib.h>

#include "engine/run_plan.h"
#include "engine/signals.h"
#include "model/run_param.h"

bool run_leaves_tables(const struct run_plan *plan)
{
	return !plan->cfg->target && signals_interrupted();
}

void run_label(char *buf, size_t len, const struct run_config *cfg, const char *plugin, const char *mode,
	       int workers, int repeat)
{
	snprintf(buf, len, "%s %s x%d #%d%s%s%s", plugin, mode, workers, repeat, *cfg->sweep ? " (" : "", cfg->sweep,
		 *cfg->sweep ? ")" : "");
}

void run_result_free(struct run_result *r)
{
	free(r->per_worker);
	r->per_worker = NULL;
	free(r->series);
	r->series = NULL;
	r->n_series = 0;
	free(r->holders);
	r->holders = NULL;
	r->n_holders = 0;
	free(r->faults);
	r->faults = NULL;
	r->n_faults = 0;
	free(r->samples);
	r->samples = NULL;
	r->n_samples = 0;
	free(r->phases);
	r->phases = NULL;
	r->n_phases = 0;
	free(r->timeline);
	r->timeline = NULL;
	r->n_timeline = 0;
	for (int k = 0; k < PROBE_MOMENTS; k++) {
		free(r->probes[k].plan);
		r->probes[k].plan = NULL;
	}
	run_params_free(r);
}
