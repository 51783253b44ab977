#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "model/metric_path.h"

/* How a metric is stored in struct run_metrics. */
enum metric_type {
	METRIC_DOUBLE,	/* a double */
	METRIC_COUNT,	/* a uint64_t */
};

/* One named metric. */
struct metric_field {
	const char *path;	/* its name in JSON, with dots for nesting */
	enum metric_type type;	/* how it is stored */
	size_t offset;		/* where, in struct run_metrics */
};

#define DBL(path, member) { path, METRIC_DOUBLE, offsetof(struct run_metrics, member) }
#define CNT(path, member) { path, METRIC_COUNT, offsetof(struct run_metrics, member) }

static const struct metric_field fields[] = {
	DBL("makespan_s", makespan_s),
	DBL("ideal_s", ideal_s),
	DBL("throughput_jps", throughput_jps),
	CNT("completed", completed),
	CNT("executions", executions),
	CNT("duplicates", duplicates),
	CNT("dup_jobs", dup_jobs),
	CNT("failed", failed),
	CNT("overlaps", overlaps),
	CNT("lost", lost),
	CNT("empty_claims", empty_claims),
	CNT("spurious_empties", spurious_empties),
	CNT("retries", retries),
	CNT("give_ups", give_ups),
	CNT("ledger_mismatches", ledger_mismatches),
	CNT("errors.lock_not_available", errors[ERR_LOCK_NOT_AVAILABLE]),
	CNT("errors.deadlock", errors[ERR_DEADLOCK]),
	CNT("errors.serialization", errors[ERR_SERIALIZATION]),
	CNT("errors.sqlite_busy", errors[ERR_SQLITE_BUSY]),
	CNT("errors.sqlite_busy_snapshot", errors[ERR_SQLITE_BUSY_SNAPSHOT]),
	CNT("errors.connection_lost", errors[ERR_CONNECTION_LOST]),
	CNT("errors.other", errors[ERR_OTHER]),
	DBL("fairness.jain", fairness.jain),
	CNT("fairness.min", fairness.min),
	CNT("fairness.max", fairness.max),
	DBL("fairness.cv", fairness.cv),
	DBL("claim_latency_ms.p50", claim_latency_ms.p50),
	DBL("claim_latency_ms.p90", claim_latency_ms.p90),
	DBL("claim_latency_ms.p99", claim_latency_ms.p99),
	DBL("claim_latency_ms.p999", claim_latency_ms.p999),
	DBL("claim_latency_ms.max", claim_latency_ms.max),
	DBL("queue_wait_ms.p50", queue_wait_ms.p50),
	DBL("queue_wait_ms.p90", queue_wait_ms.p90),
	DBL("queue_wait_ms.p99", queue_wait_ms.p99),
	DBL("queue_wait_ms.p999", queue_wait_ms.p999),
	DBL("queue_wait_ms.max", queue_wait_ms.max),
	CNT("arrivals", arrivals),
	CNT("arrivals_late", arrivals_late),
	DBL("arrival_late_max_ms", arrival_late_max_ms),
};

#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))

/* The field called path, or NULL. */
static const struct metric_field *find(const char *path)
{
	for (size_t i = 0; i < N_FIELDS; i++)
		if (strcmp(fields[i].path, path) == 0)
			return &fields[i];
	return NULL;
}

int metric_value(const struct run_result *r, const char *path, double *out)
{
	const struct metric_field *f = find(path);
	const char *base = (const char *)&r->metrics;

	if (!f)
		return -1;
	if (f->type == METRIC_DOUBLE)
		memcpy(out, base + f->offset, sizeof(double));
	else
		*out = (double)*(const uint64_t *)(const void *)(base + f->offset);
	return 0;
}

bool metric_path_valid(const char *path)
{
	return find(path) != NULL;
}

void metric_paths_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_FIELDS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", fields[i].path);
}
