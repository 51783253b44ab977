#include <math.h>

#include "measure/costs.h"
#include "model/metric_table.h"

uint64_t costs_jobs_ended(const struct ledger *ledger)
{
	uint64_t n = 0;

	for (size_t i = 0; i < ledger->n_execs; i++)
		n += ledger->execs[i].outcome == EXEC_DONE || ledger->execs[i].outcome == EXEC_FAILED;
	return n;
}

/* after - before per job, or NaN when either was not read, the counter went back (reset) or no job ended. */
static double server_per_job(int64_t before, int64_t after, uint64_t jobs)
{
	if (before < 0 || after < before || !jobs)
		return NAN;
	return (double)(after - before) / (double)jobs;
}

/* after - before, or METRIC_UNKNOWN when either was not read or the counter went back (reset). */
static uint64_t server_delta(int64_t before, int64_t after)
{
	return before < 0 || after < before ? METRIC_UNKNOWN : (uint64_t)(after - before);
}

/* total per job, NaN when no job ended. */
static double per_job(double total, uint64_t jobs)
{
	return jobs ? total / (double)jobs : NAN;
}

void costs_compute(const struct costs_input *in, struct cost_figures *out)
{
	uint64_t jobs = costs_jobs_ended(in->ledger), statements = 0, round_trips = 0;
	uint64_t hit = 0, read = 0, written = 0;
	int64_t cpu_ns = 0;
	bool pages = false;
	const struct server_counts *b = &in->before, *a = &in->after;

	for (size_t i = 0; i < in->n_workers; i++) {
		statements += in->workers[i].statements;
		round_trips += in->workers[i].round_trips;
		cpu_ns += in->workers[i].cpu_ns;
		pages |= in->workers[i].waits_counted;
		hit += in->workers[i].pages_hit;
		read += in->workers[i].pages_read;
		written += in->workers[i].pages_written;
	}
	*out = (struct cost_figures){
		.statements_per_job = per_job((double)statements, jobs),
		.round_trips_per_job = per_job((double)round_trips, jobs),
		.buffers_hit_per_job = NAN,
		.buffers_read_per_job = NAN,
		.pages_written_per_job = NAN,
		.wal_records_per_job = NAN,
		.wal_bytes_per_job = NAN,
		.rows_examined_per_job = NAN,
		.cpu_us_per_job = per_job((double)cpu_ns / 1e3, jobs),
		.database_wide = METRIC_UNKNOWN,
		.innodb_row_lock_waits = METRIC_UNKNOWN,
		.innodb_row_lock_time_ms = METRIC_UNKNOWN,
		.innodb_deadlocks = METRIC_UNKNOWN,
	};
	if (pages) {
		out->buffers_hit_per_job = per_job((double)hit, jobs);
		out->buffers_read_per_job = per_job((double)read, jobs);
		out->pages_written_per_job = per_job((double)written, jobs);
	}
	if (!in->server_read)
		return;
	out->buffers_hit_per_job = server_per_job(b->buffers_hit, a->buffers_hit, jobs);
	out->buffers_read_per_job = server_per_job(b->buffers_read, a->buffers_read, jobs);
	out->wal_records_per_job = server_per_job(b->wal_records, a->wal_records, jobs);
	out->wal_bytes_per_job = server_per_job(b->wal_bytes, a->wal_bytes, jobs);
	out->rows_examined_per_job = server_per_job(b->rows_examined, a->rows_examined, jobs);
	out->database_wide = in->database_wide;
	out->innodb_row_lock_waits = server_delta(b->row_lock_waits, a->row_lock_waits);
	out->innodb_row_lock_time_ms = server_delta(b->row_lock_time_ms, a->row_lock_time_ms);
	out->innodb_deadlocks = server_delta(b->deadlocks, a->deadlocks);
}
