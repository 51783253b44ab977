#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/costs.h"
#include "measure/failover.h"
#include "measure/ledger_table.h"
#include "measure/server_metrics.h"
#include "measure/timeline_figures.h"
#include "model/metric_table.h"
#include "queue/run_measure.h"

/*
 * Whether the server restarted or failed over during the run of ledger: crash recovery throws
 * its cumulative statistics away, and a promoted standby has its own, so that the readings
 * after it do not follow on from those before.
 */
static bool restarted(const struct ledger *ledger)
{
	for (size_t i = 0; i < ledger->n_faults; i++)
		if (ledger->faults[i].kind == FAULT_RESTART || ledger->faults[i].kind == FAULT_FAILOVER)
			return true;
	return false;
}

int run_keep_timeline(const struct timeline_runner *timeline, const char *label, struct run_result *out, char *err,
		      size_t errlen)
{
	if (timeline->failed)
		fprintf(stderr, "claimbench: %s: %s; the run is incomplete\n", label, timeline->failure);
	if (!timeline->n_begun)
		return 0;
	out->timeline = malloc(timeline->n_begun * sizeof(*out->timeline));
	if (!out->timeline) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(out->timeline, timeline->phases, timeline->n_begun * sizeof(*out->timeline));
	out->n_timeline = timeline->n_begun;
	return 0;
}

int run_keep_diagnostics(struct monitor *m, const struct pressure *pressure, const char *label, struct run_result *out,
			 char *err, size_t errlen)
{
	if (m->sampler.failed)
		fprintf(stderr, "claimbench: %s: the server's sampling stopped: %s\n", label, m->sampler.failure);
	if (pressure->failed)
		fprintf(stderr, "claimbench: %s: %s\n", label, pressure->failure);
	sampler_take_samples(&m->sampler, &out->samples, &out->n_samples);
	if (pressure->n_phases) {
		out->phases = malloc(pressure->n_phases * sizeof(*out->phases));
		if (!out->phases) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		memcpy(out->phases, pressure->phases, pressure->n_phases * sizeof(*out->phases));
		out->n_phases = pressure->n_phases;
	}
	server_metrics_compute(out);
	timeline_sample_figures(out->samples, out->n_samples, out->timeline, out->n_timeline);
	return 0;
}

int run_measure(const struct run_shared *s, const struct monitor *m, const struct job_state *final,
		const struct audit_record *audit, struct run_result *out, char *err, size_t errlen)
{
	const struct run_config *cfg = s->cfg;
	const struct run_threads *t = m->t;
	size_t n_parts = (size_t)t->n_workers + (size_t)t->n_producers + 1;
	struct ledger merged;
	struct ledger *parts = calloc(n_parts, sizeof(*parts));
	struct producer_stats *producers = calloc((size_t)t->n_producers + 1, sizeof(*producers));
	int rc = -1;

	memset(&merged, 0, sizeof(merged));
	if (!parts || !producers || !(out->per_worker = calloc((size_t)t->n_workers, sizeof(*out->per_worker))))
		goto out_free_parts;
	for (int i = 0; i < t->n_workers; i++) {
		parts[i] = t->w[i].ledger;
		out->per_worker[i] = t->w[i].stats;
	}
	for (int i = 0; i < t->n_producers; i++) {
		parts[t->n_workers + i] = t->p[i].ledger;
		producers[i] = t->p[i].stats;
	}
	parts[n_parts - 1] = m->ledger;
	if (ledger_merge(&merged, parts, n_parts) < 0)
		goto out_free_merged;
	struct metrics_input in = {
		.ledger = &merged,
		.workers = out->per_worker,
		.n_workers = (size_t)t->n_workers,
		.producers = producers,
		.n_producers = (size_t)t->n_producers,
		.n_jobs = (size_t)(s->backlog + s->arrivals),
		.n_backlog = (size_t)s->backlog,
		.work_ns = s->work_ns,
		.enqueued_ns = s->enqueued_ns,
		.final = final,
		.n_queues = (size_t)cfg->n_queues,
		.drain = cfg->duration_s <= 0 && !run_stopping(&s->gate),
		.stopped = run_stopping(&s->gate),
		.duration_ns = (int64_t)(cfg->duration_s * 1e9),
		.warmup_ns = (int64_t)(cfg->warmup_s * 1e9),
		.reaped = m->reaped,
		.claim_in_session = s->mode == MODE_HOLD || s->strategy->claim_in_session,
		.lease_ns = s->mode == MODE_FLIP ? MS_TO_NS(cfg->recovery.lease_ms) : 0,
		.reaper = s->mode == MODE_FLIP && cfg->recovery.reaper_ms > 0,
	};
	rc = metrics_compute(&in, &out->metrics);
	failover_account(&in, &out->metrics.failover, out->failover_jobs, sizeof(out->failover_jobs));
	out->metrics.failover.lag_bytes = m->lag.bytes;
	out->metrics.failover.lag_ms = m->lag.ms;
	if (rc == 0) {
		struct costs_input c = {
			.ledger = &merged,
			.workers = out->per_worker,
			.n_workers = in.n_workers,
			.server_read = s->costs.read_before && s->costs.read_after && !restarted(&merged),
			.database_wide = !s->costs.by_statement,
			.before = s->costs.before,
			.after = s->costs.after,
		};

		costs_compute(&c, &out->metrics.costs);
	}
	if (rc == 0)
		rc = metrics_series(&in, &out->series, &out->n_series);
	if (rc == 0)
		rc = timeline_figures(&in, out->series, out->n_series, out->timeline, out->n_timeline);
	if (rc == 0)
		rc = ledger_keep_faults(&merged, out);
	if (rc == 0 && audit->events) {
		struct verify_input v = {
			.events = audit->events,
			.n_events = audit->n,
			.ledger = &merged,
			.final = final,
			.metrics = &out->metrics,
			.n_jobs = in.n_jobs,
			.n_backlog = in.n_backlog,
			.hold = s->mode == MODE_HOLD,
			.claim_size = s->strategy->batch_max ? s->strategy->batch_max(s->strategy_config) : 1,
			.lease_ns = in.reaper ? 0 : in.lease_ns,
			.clock_tick_ns = s->db->sql->clock_tick_ns,
			.drain = in.drain,
		};

		rc = verify_run(&v, &out->verify);
	}
	if (rc == 0)
		rc = ledger_table_note_errors(&in, out);
out_free_merged:
	ledger_free(&merged);
out_free_parts:
	free(producers);
	free(parts);
	if (rc < 0)
		snprintf(err, errlen, "out of memory computing the metrics");
	return rc;
}
