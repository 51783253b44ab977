#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/run_descriptor.h"

/* A row's name, column, type and offset. */
#define DESC(name, column, type, member) name, column, type, offsetof(struct run_result, member)

const struct run_descriptor run_descriptors[] = {
	{ DESC("strategy", "strategy", DESC_TEXT, strategy), true, false },
	{ DESC("claim_mode", "claim_mode", DESC_TEXT, claim_mode), true, false },
	{ DESC("workers", "workers", DESC_INT, workers), true, false },
	{ DESC("jobs", "jobs", DESC_LONG, jobs), false, false },
	{ DESC("work_ms", "work_ms", DESC_DOUBLE, work_ms), false, false },
	{ DESC("work_dist", "work_dist", DESC_TEXT, work_dist), false, false },
	{ DESC("duration_s", "duration_s", DESC_DOUBLE, duration_s), false, false },
	{ DESC("repeat", "repeat", DESC_INT, repeat), false, false },
	{ DESC("complete", "complete", DESC_BOOL, complete), false, false },
	{ DESC("group", "run_group", DESC_TEXT, group), false, true },
	{ DESC("sweep", "sweep", DESC_TEXT, sweep), false, true },
	{ DESC("arrival_rate", "arrival_rate", DESC_DOUBLE, arrival_rate), false, false },
};

const size_t run_descriptors_len = sizeof(run_descriptors) / sizeof(run_descriptors[0]);

const char *descriptor_text(const struct run_descriptor *d, const struct run_result *r)
{
	const char *s;

	memcpy(&s, (const char *)r + d->offset, sizeof(s));
	return s;
}

long long descriptor_int(const struct run_descriptor *d, const struct run_result *r)
{
	const char *at = (const char *)r + d->offset;
	bool b;
	long l;
	int i;

	switch (d->type) {
	case DESC_INT:
		memcpy(&i, at, sizeof(i));
		return i;
	case DESC_LONG:
		memcpy(&l, at, sizeof(l));
		return l;
	case DESC_BOOL:
		memcpy(&b, at, sizeof(b));
		return b;
	case DESC_TEXT:
	case DESC_DOUBLE:
		break;
	}
	return 0;
}

double descriptor_double(const struct run_descriptor *d, const struct run_result *r)
{
	double v;

	memcpy(&v, (const char *)r + d->offset, sizeof(v));
	return v;
}

void descriptor_set_text(const struct run_descriptor *d, struct run_result *r, const char *s)
{
	memcpy((char *)r + d->offset, &s, sizeof(s));
}

void descriptor_set_int(const struct run_descriptor *d, struct run_result *r, long long v)
{
	char *at = (char *)r + d->offset;
	bool b = v != 0;
	long l = (long)v;
	int i = (int)v;

	if (d->type == DESC_INT)
		memcpy(at, &i, sizeof(i));
	else if (d->type == DESC_LONG)
		memcpy(at, &l, sizeof(l));
	else if (d->type == DESC_BOOL)
		memcpy(at, &b, sizeof(b));
}

void descriptor_set_double(const struct run_descriptor *d, struct run_result *r, double v)
{
	memcpy((char *)r + d->offset, &v, sizeof(v));
}

void engine_name(char *buf, size_t size, const char *backend, const char *version)
{
	if (!size)
		return;
	if (!backend || !*backend)
		backend = "";
	if (!version || !*version || !*backend)
		snprintf(buf, size, "%s", backend);
	else
		snprintf(buf, size, "%s %.*s", backend, (int)strcspn(version, " "), version);
}

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
