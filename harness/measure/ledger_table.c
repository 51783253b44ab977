/*
 * The ledger against the table's final state (ledger_table.h). A job's final status
 * disagrees with its ledger when the committed execution that ended last is done and the
 * status is not, is failed and the status is not error, or there is none and the status is
 * done or error; a consumed job disagrees only when no execution of it is in the ledger.
 * Each disagreement is explained, in this order, or is an integrity error:
 *
 * lost in flight	consumed with no execution, the run having lost connections: the
 *			claim's DELETE committed and its answer was lost. An active job whose
 *			claimed_by has no execution of it, in such a run, is one too (no
 *			disagreement: it is lost, or stuck, all the same).
 * completion unknown	done or error with no committed execution but an uncommitted one (a
 *			connection lost around its completion, or an adapter's replica that died
 *			with the job in hand), the run having lost connections.
 * failover loss	a committed execution the status lacks, a failover having struck after it.
 * overwritten		a committed execution the status lacks, and a delivery of the job that
 *			did not commit was in hand after it: that claim may have written over
 *			the completion (a claim that does not check the row's status, naive's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/text.h"
#include "measure/ledger_table.h"
#include "model/faults.h"
#include "model/metric_table.h"

bool ledger_table_cut(const struct metrics_input *in)
{
	for (size_t i = 0; i < in->n_workers; i++)
		if (in->workers[i].errors[ERR_CONNECTION_LOST])
			return true;
	for (size_t i = 0; i < in->n_producers; i++)
		if (in->producers[i].errors[ERR_CONNECTION_LOST])
			return true;
	for (size_t i = 0; i < in->ledger->n_faults; i++) {
		int kind = in->ledger->faults[i].kind;

		if (kind == FAULT_RESTART || kind == FAULT_KILL_BACKEND || kind == FAULT_FAILOVER)
			return true;
	}
	return false;
}

/* Whether a failover struck after at_ns. */
static bool failover_after(const struct ledger *l, int64_t at_ns)
{
	for (size_t i = 0; i < l->n_faults; i++)
		if (l->faults[i].kind == FAULT_FAILOVER && l->faults[i].at_ns > at_ns)
			return true;
	return false;
}

bool ledger_table_disagrees(const struct job_summary *s, int32_t status)
{
	if (status == JOB_CONSUMED)
		return !s->executed;
	switch (s->expected) {
	case EXEC_DONE:
		return status != JOB_DONE;
	case EXEC_FAILED:
		return status != JOB_ERROR;
	default:
		return status == JOB_DONE || status == JOB_ERROR;
	}
}

enum table_verdict ledger_table_judge(const struct metrics_input *in, const struct job_summary *s, size_t j, bool cut)
{
	const struct job_state *f = &in->final[j];

	if (f->status == JOB_ACTIVE && f->claimed_by >= 0 && !s->by_final_owner && s->expected < 0 && cut)
		return TABLE_LOST_IN_FLIGHT;
	if (!ledger_table_disagrees(s, f->status))
		return TABLE_AGREES;
	if (f->status == JOB_CONSUMED)
		return cut ? TABLE_LOST_IN_FLIGHT : TABLE_UNEXPLAINED;
	if (s->expected >= 0 && failover_after(in->ledger, s->last_commit_ns))
		return TABLE_FAILOVER_LOSS;
	if (s->expected >= 0)
		return s->claimed_after_commit ? TABLE_OVERWRITTEN : TABLE_UNEXPLAINED;
	return cut && s->uncommitted ? TABLE_COMPLETION_UNKNOWN : TABLE_UNEXPLAINED;
}

int ledger_table_unexplained(const struct metrics_input *in, char *buf, size_t len)
{
	struct job_summary *jobs;
	struct run_metrics *scratch;
	bool cut;
	int ret = -1;

	buf[0] = '\0';
	if (!in->final)
		return 0;
	jobs = alloc_zeroed(in->n_jobs, sizeof(*jobs));
	scratch = alloc_zeroed(1, sizeof(*scratch));
	if (!jobs || !scratch)
		goto out;
	for (size_t j = 0; j < in->n_jobs; j++)
		job_summary_init(&jobs[j]);
	if (job_scan_ledger(in, scratch, jobs))
		goto out;
	cut = ledger_table_cut(in);
	for (size_t j = 0; j < in->n_jobs; j++)
		if (metrics_enqueued_at(in, j) != INT64_MAX && ledger_table_judge(in, &jobs[j], j, cut) == TABLE_UNEXPLAINED)
			text_list_append_id(buf, len, j + 1);
	ret = 0;
out:
	free(scratch);
	free(jobs);
	return ret;
}

int ledger_table_note_errors(const struct metrics_input *in, struct run_result *out)
{
	struct verify_difference d = { .ledger = (int64_t)out->metrics.integrity_errors };

	if (!out->metrics.integrity_errors || out->metrics.integrity_errors == METRIC_UNKNOWN)
		return 0;
	snprintf(d.figure, sizeof(d.figure), "%s", INTEGRITY_DIFFERENCE);
	if (ledger_table_unexplained(in, d.jobs, sizeof(d.jobs)) < 0)
		return -1;
	if (out->verify.n_diffs == VERIFY_MAX_DIFFS)
		out->verify.n_diffs--;	/* full: the integrity error takes the last one's place, never dropped */
	out->verify.diffs[out->verify.n_diffs++] = d;
	return 0;
}

void ledger_table_report_errors(const struct verify_outcome *v, const char *group, const char *label)
{
	for (size_t i = 0; i < v->n_diffs; i++)
		if (strcmp(v->diffs[i].figure, INTEGRITY_DIFFERENCE) == 0)
			fprintf(stderr, "claimbench: %s%s%s%s: integrity error: the ledger and the table's final state disagree "
				"on %lld jobs and no figure explains it; jobs %s\n", *group ? "section [" : "", group,
				*group ? "], " : "", label, (long long)v->diffs[i].ledger, v->diffs[i].jobs);
}
