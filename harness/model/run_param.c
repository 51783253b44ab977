#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/run_param.h"

int run_param_add(struct run_result *r, const char *name, const char *value)
{
	struct run_param *grown;
	char *n = strdup(name), *v = strdup(value);

	if (!n || !v)
		goto fail;
	grown = realloc(r->params, (r->n_params + 1) * sizeof(*grown));
	if (!grown)
		goto fail;
	r->params = grown;
	r->params[r->n_params++] = (struct run_param){ .name = n, .value = v };
	return 0;
fail:
	free(n);
	free(v);
	return -1;
}

void run_params_free(struct run_result *r)
{
	for (size_t i = 0; i < r->n_params; i++) {
		free(r->params[i].name);
		free(r->params[i].value);
	}
	free(r->params);
	r->params = NULL;
	r->n_params = 0;
}

const char *run_param_value(const struct run_result *r, const char *name)
{
	for (size_t i = 0; i < r->n_params; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return r->params[i].value;
	return NULL;
}

void run_strategy_label(const struct run_result *r, char *out, size_t len)
{
	const char *system = run_param_value(r, RUN_PARAM_ADAPTER_SYSTEM);
	const char *version = run_param_value(r, RUN_PARAM_ADAPTER_VERSION);
	const char *strategy = r->strategy ? r->strategy : "";

	if (system && version)
		snprintf(out, len, "%s (%s %s)", strategy, system, version);
	else
		snprintf(out, len, "%s", strategy);
}
