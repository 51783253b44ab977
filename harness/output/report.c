/*
 * The three output formats of a report: a table for a person, CSV for a
 * spreadsheet or gnuplot, and the JSON object of DESIGN.md's output contract.
 * Printers only read the report; they never fail other than by the stream's
 * own error state, which the caller checks with ferror().
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/report.h"
#include "analysis/expect.h"
#include "analysis/summary.h"

/* ---- JSON ---- */

/* Where a JSON writer is: its stream and its place in the nesting. */
struct json {
	FILE *out;	/* destination */
	int depth;	/* containers open */
	bool first;	/* nothing written yet in the innermost container */
};

/* Writes at most max bytes of s as a JSON string (null when s is NULL). */
static void json_quote(FILE *out, const char *s, size_t max)
{
	size_t i;

	if (!s) {
		fputs("null", out);
		return;
	}
	putc('"', out);
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

/* Starts a new member (key given) or array element (key NULL) on its own line. */
static void json_member(struct json *j, const char *key)
{
	if (!j->first)
		putc(',', j->out);
	fprintf(j->out, "\n%*s", 2 * j->depth, "");
	if (key) {
		json_quote(j->out, key, SIZE_MAX);
		fputs(": ", j->out);
	}
	j->first = false;
}

/* Opens an object ('{') or array ('[') as a member; the top level when depth is 0. */
static void json_open(struct json *j, const char *key, char bracket)
{
	if (j->depth > 0)
		json_member(j, key);
	putc(bracket, j->out);
	j->depth++;
	j->first = true;
}

/* Closes the innermost container with bracket; empty ones print as {} or []. */
static void json_close(struct json *j, char bracket)
{
	j->depth--;
	if (!j->first)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	putc(bracket, j->out);
	j->first = false;
}

/* A string member of at most max bytes (null when s is NULL). */
static void json_strn(struct json *j, const char *key, const char *s, size_t max)
{
	json_member(j, key);
	json_quote(j->out, s, max);
}

/* A NUL-terminated string member (null when s is NULL). */
static void json_str(struct json *j, const char *key, const char *s)
{
	json_strn(j, key, s, SIZE_MAX);
}

/* An unsigned integer member. */
static void json_u64(struct json *j, const char *key, uint64_t v)
{
	json_member(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

/* A signed integer member. */
static void json_int(struct json *j, const char *key, long long v)
{
	json_member(j, key);
	fprintf(j->out, "%lld", v);
}

/* A boolean member. */
static void json_bool(struct json *j, const char *key, bool v)
{
	json_member(j, key);
	fputs(v ? "true" : "false", j->out);
}

/* A number member with nine significant digits; null when v is NaN or infinite. */
static void json_dbl(struct json *j, const char *key, double v)
{
	json_member(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.9g", v);
	else
		fputs("null", j->out);
}

/* The errors object: one member per kind, every kind present. */
static void json_errors(struct json *j, const uint64_t *errors)
{
	int k;

	json_open(j, "errors", '{');
	for (k = 0; k < ERR_KIND_COUNT; k++)
		json_u64(j, error_kind_name((enum error_kind)k), errors[k]);
	json_close(j, '}');
}

/* An object of percentiles named key: p50, p90, p99, p999 and max. */
static void json_latency(struct json *j, const char *key, const struct latency_summary *l)
{
	json_open(j, key, '{');
	json_dbl(j, "p50", l->p50);
	json_dbl(j, "p90", l->p90);
	json_dbl(j, "p99", l->p99);
	json_dbl(j, "p999", l->p999);
	json_dbl(j, "max", l->max);
	json_close(j, '}');
}

/* The fairness, claim_latency_ms and queue_wait_ms objects of one run. */
static void json_shares_latency(struct json *j, const struct run_metrics *m)
{
	json_open(j, "fairness", '{');
	json_dbl(j, "jain", m->fairness.jain);
	json_u64(j, "min", m->fairness.min);
	json_u64(j, "max", m->fairness.max);
	json_dbl(j, "cv", m->fairness.cv);
	json_close(j, '}');

	json_latency(j, "claim_latency_ms", &m->claim_latency_ms);
	json_latency(j, "queue_wait_ms", &m->queue_wait_ms);
}

/* The per_worker array: one object per worker, indexed from 0 (empty when absent). */
static void json_per_worker(struct json *j, const struct run_result *run)
{
	const struct worker_stats *w;
	int i;

	json_open(j, "per_worker", '[');
	for (i = 0; run->per_worker && i < run->workers; i++) {
		w = &run->per_worker[i];
		json_open(j, NULL, '{');
		json_int(j, "worker", i);
		json_u64(j, "completed", w->completed);
		json_u64(j, "claims", w->claims);
		json_u64(j, "empty", w->empty);
		json_u64(j, "retries", w->retries);
		json_u64(j, "give_ups", w->give_ups);
		json_dbl(j, "busy_s", (double)w->busy_ns / 1e9);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* The series array: one object per 100 ms bucket (empty when absent). */
static void json_series(struct json *j, const struct run_result *run)
{
	const struct series_point *p;
	size_t i;

	json_open(j, "series", '[');
	for (i = 0; run->series && i < run->n_series; i++) {
		p = &run->series[i];
		json_open(j, NULL, '{');
		json_int(j, "t_ms", p->t_ms);
		json_u64(j, "completed", p->completed);
		json_u64(j, "empty_claims", p->empty_claims);
		json_u64(j, "errors", p->errors);
		json_u64(j, "enqueued", p->enqueued);
		json_u64(j, "backlog", p->backlog);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* One element of the results array. */
static void json_run(struct json *j, const struct run_result *run)
{
	const struct run_metrics *m = &run->metrics;

	json_open(j, NULL, '{');
	json_str(j, "strategy", run->strategy);
	json_str(j, "claim_mode", run->claim_mode);
	if (run->group && *run->group)
		json_str(j, "group", run->group);
	if (run->sweep && *run->sweep)
		json_str(j, "sweep", run->sweep);
	json_int(j, "workers", run->workers);
	json_int(j, "jobs", run->jobs);
	json_dbl(j, "work_ms", run->work_ms);
	json_str(j, "work_dist", run->work_dist);
	json_dbl(j, "duration_s", run->duration_s);
	json_dbl(j, "arrival_rate", run->arrival_rate);
	json_int(j, "repeat", run->repeat);
	json_bool(j, "complete", run->complete);
	json_dbl(j, "makespan_s", m->makespan_s);
	json_dbl(j, "ideal_s", m->ideal_s);
	json_dbl(j, "throughput_jps", m->throughput_jps);
	json_u64(j, "completed", m->completed);
	json_u64(j, "executions", m->executions);
	json_u64(j, "failed", m->failed);
	json_u64(j, "duplicates", m->duplicates);
	json_u64(j, "dup_jobs", m->dup_jobs);
	json_u64(j, "overlaps", m->overlaps);
	json_u64(j, "lost", m->lost);
	json_u64(j, "empty_claims", m->empty_claims);
	json_u64(j, "spurious_empties", m->spurious_empties);
	json_u64(j, "retries", m->retries);
	json_u64(j, "give_ups", m->give_ups);
	json_u64(j, "ledger_mismatches", m->ledger_mismatches);
	json_u64(j, "arrivals", m->arrivals);
	json_u64(j, "arrivals_late", m->arrivals_late);
	json_dbl(j, "arrival_late_max_ms", m->arrival_late_max_ms);
	json_errors(j, m->errors);
	json_shares_latency(j, m);
	json_per_worker(j, run);
	json_series(j, run);
	json_close(j, '}');
}

/* The settings object: one string member per server setting (empty when none were read). */
static void json_settings(struct json *j, const struct report *r)
{
	size_t i;

	json_open(j, "settings", '{');
	for (i = 0; i < r->n_settings && i < DB_MAX_SETTINGS; i++)
		json_strn(j, r->settings[i].name, r->settings[i].value, sizeof(r->settings[i].value));
	json_close(j, '}');
}

/*
 * The repetitions' summaries, when any point was repeated: one object per point with its
 * strategy, claim_mode, workers, group, sweep, runs and, per metric, mean, sd and ci95.
 */
static void json_summaries(struct json *j, const struct report *r)
{
	struct summary_row *rows = calloc(r->n_results ? r->n_results : 1, sizeof(*rows));
	size_t n = rows ? summary_build(r, rows) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct run_result *f = rows[i].first;

		if (i == 0)
			json_open(j, "summaries", '[');
		json_open(j, NULL, '{');
		json_str(j, "strategy", f->strategy);
		json_str(j, "claim_mode", f->claim_mode);
		json_int(j, "workers", f->workers);
		if (f->group && *f->group)
			json_str(j, "group", f->group);
		if (f->sweep && *f->sweep)
			json_str(j, "sweep", f->sweep);
		json_u64(j, "runs", rows[i].runs);
		for (size_t m = 0; m < metric_table_len; m++) {
			if (!metric_table[m].summarised)
				continue;
			json_open(j, metric_table[m].path, '{');
			json_dbl(j, "mean", rows[i].stats[m].mean);
			json_dbl(j, "sd", rows[i].stats[m].sd);
			json_dbl(j, "ci95", rows[i].stats[m].ci95);
			json_close(j, '}');
		}
		json_close(j, '}');
		if (i + 1 == n)
			json_close(j, ']');
	}
	free(rows);
}

void report_print_json(FILE *out, const struct report *r)
{
	struct json j = { .out = out };
	size_t i;

	json_open(&j, NULL, '{');
	json_str(&j, "claimbench", r->version);
	json_str(&j, "scenario", r->scenario);
	json_str(&j, "backend", r->backend);
	json_strn(&j, "server_version", r->server_version, sizeof(r->server_version));
	json_settings(&j, r);
	json_strn(&j, "started_at", r->started_at, sizeof(r->started_at));
	json_u64(&j, "seed", r->seed);
	json_open(&j, "results", '[');
	for (i = 0; i < r->n_results; i++)
		json_run(&j, &r->results[i]);
	json_close(&j, ']');
	json_summaries(&j, r);
	json_close(&j, '}');
	putc('\n', out);
}

/* ---- CSV ---- */

/* Where a CSV row is: its stream and whether a field has been written yet. */
struct csv {
	FILE *out;	/* destination */
	bool first;	/* no field written yet on this line */
};

/* Writes the comma that separates a field from the one before it. */
static void csv_sep(struct csv *c)
{
	if (!c->first)
		putc(',', c->out);
	c->first = false;
}

/* A text field, quoted per RFC 4180 when it holds a comma, quote or line break; empty when NULL. */
static void csv_str(struct csv *c, const char *s)
{
	csv_sep(c);
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, c->out);
		return;
	}
	putc('"', c->out);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', c->out);
		putc(*s, c->out);
	}
	putc('"', c->out);
}

/* An unsigned integer field. */
static void csv_u64(struct csv *c, uint64_t v)
{
	csv_sep(c);
	fprintf(c->out, "%" PRIu64, v);
}

/* A signed integer field. */
static void csv_int(struct csv *c, long long v)
{
	csv_sep(c);
	fprintf(c->out, "%lld", v);
}

/* A number field with nine significant digits; empty when v is NaN or infinite. */
static void csv_dbl(struct csv *c, double v)
{
	csv_sep(c);
	if (isfinite(v))
		fprintf(c->out, "%.9g", v);
}

/* Ends the current line. */
static void csv_end(struct csv *c)
{
	putc('\n', c->out);
	c->first = true;
}

/* Column names before the error kinds, in row order. */
static const char *const csv_head[] = {
	"strategy", "claim_mode", "workers", "jobs", "work_ms", "work_dist",
	"duration_s", "repeat", "complete", "makespan_s", "ideal_s",
	"throughput_jps", "completed", "executions", "duplicates", "dup_jobs",
	"overlaps", "lost", "empty_claims", "spurious_empties", "retries",
	"give_ups", "ledger_mismatches",
};

/* Column names after the error kinds, in row order. */
static const char *const csv_tail[] = {
	"jain", "fairness_min", "fairness_max", "fairness_cv",
	"latency_p50_ms", "latency_p90_ms", "latency_p99_ms",
	"latency_p999_ms", "latency_max_ms", "group", "sweep",
	"arrival_rate", "arrivals", "arrivals_late", "arrival_late_max_ms",
	"queue_wait_p50_ms", "queue_wait_p90_ms", "queue_wait_p99_ms",
	"queue_wait_p999_ms", "queue_wait_max_ms", "failed",
};

/* The header line: csv_head, errors_<kind> for every kind, csv_tail. */
static void csv_header(struct csv *c)
{
	size_t i;
	int k;

	for (i = 0; i < sizeof(csv_head) / sizeof(csv_head[0]); i++)
		csv_str(c, csv_head[i]);
	for (k = 0; k < ERR_KIND_COUNT; k++) {
		csv_sep(c);
		fprintf(c->out, "errors_%s", error_kind_name((enum error_kind)k));
	}
	for (i = 0; i < sizeof(csv_tail) / sizeof(csv_tail[0]); i++)
		csv_str(c, csv_tail[i]);
	csv_end(c);
}

/* One run's line, in the header's column order; complete is "true" or "false". */
static void csv_row(struct csv *c, const struct run_result *run)
{
	const struct run_metrics *m = &run->metrics;
	int k;

	csv_str(c, run->strategy);
	csv_str(c, run->claim_mode);
	csv_int(c, run->workers);
	csv_int(c, run->jobs);
	csv_dbl(c, run->work_ms);
	csv_str(c, run->work_dist);
	csv_dbl(c, run->duration_s);
	csv_int(c, run->repeat);
	csv_str(c, run->complete ? "true" : "false");
	csv_dbl(c, m->makespan_s);
	csv_dbl(c, m->ideal_s);
	csv_dbl(c, m->throughput_jps);
	csv_u64(c, m->completed);
	csv_u64(c, m->executions);
	csv_u64(c, m->duplicates);
	csv_u64(c, m->dup_jobs);
	csv_u64(c, m->overlaps);
	csv_u64(c, m->lost);
	csv_u64(c, m->empty_claims);
	csv_u64(c, m->spurious_empties);
	csv_u64(c, m->retries);
	csv_u64(c, m->give_ups);
	csv_u64(c, m->ledger_mismatches);
	for (k = 0; k < ERR_KIND_COUNT; k++)
		csv_u64(c, m->errors[k]);
	csv_dbl(c, m->fairness.jain);
	csv_u64(c, m->fairness.min);
	csv_u64(c, m->fairness.max);
	csv_dbl(c, m->fairness.cv);
	csv_dbl(c, m->claim_latency_ms.p50);
	csv_dbl(c, m->claim_latency_ms.p90);
	csv_dbl(c, m->claim_latency_ms.p99);
	csv_dbl(c, m->claim_latency_ms.p999);
	csv_dbl(c, m->claim_latency_ms.max);
	csv_str(c, run->group ? run->group : "");
	csv_str(c, run->sweep ? run->sweep : "");
	csv_dbl(c, run->arrival_rate);
	csv_u64(c, m->arrivals);
	csv_u64(c, m->arrivals_late);
	csv_dbl(c, m->arrival_late_max_ms);
	csv_dbl(c, m->queue_wait_ms.p50);
	csv_dbl(c, m->queue_wait_ms.p90);
	csv_dbl(c, m->queue_wait_ms.p99);
	csv_dbl(c, m->queue_wait_ms.p999);
	csv_dbl(c, m->queue_wait_ms.max);
	csv_u64(c, m->failed);
	csv_end(c);
}

void report_print_csv(FILE *out, const struct report *r)
{
	struct csv c = { .out = out, .first = true };
	size_t i;

	csv_header(&c);
	for (i = 0; i < r->n_results; i++)
		csv_row(&c, &r->results[i]);
}

/* ---- table ---- */

#define TABLE_CELL 200	/* room for one formatted cell, NUL included */

/* The table's columns, left to right. */
enum table_col {
	TC_STRATEGY, TC_MODE, TC_WORKERS, TC_MAKESPAN, TC_IDEAL, TC_THRU,
	TC_DONE, TC_DUP, TC_OVL, TC_LOST, TC_EMPTY, TC_SPUR, TC_RETRY,
	TC_GIVEUP, TC_ERR, TC_JAIN, TC_SHARES, TC_P50, TC_P99, TC_POINT, TC_COUNT
};

/* A column's two header lines and its alignment; short, so a row fits in 120 columns. */
struct table_head {
	const char *name;	/* first header line */
	const char *unit;	/* second header line: the unit, or "" */
	bool left;		/* left-aligned text rather than a right-aligned number */
};

/* Every column's header, indexed by enum table_col. */
static const struct table_head table_heads[TC_COUNT] = {
	[TC_STRATEGY] = { "strategy", "", true },
	[TC_MODE] = { "mode", "", true },
	[TC_WORKERS] = { "wrk", "", false },
	[TC_MAKESPAN] = { "makespan", "s", false },
	[TC_IDEAL] = { "ideal", "s", false },
	[TC_THRU] = { "thru", "jobs/s", false },
	[TC_DONE] = { "done", "jobs", false },
	[TC_DUP] = { "dup", "", false },
	[TC_OVL] = { "ovl", "", false },
	[TC_LOST] = { "lost", "", false },
	[TC_EMPTY] = { "empty", "", false },
	[TC_SPUR] = { "spur", "", false },
	[TC_RETRY] = { "retry", "", false },
	[TC_GIVEUP] = { "give-up", "", false },
	[TC_ERR] = { "err", "", false },
	[TC_JAIN] = { "jain", "", false },
	[TC_SHARES] = { "min-max", "jobs", false },
	[TC_P50] = { "p50", "ms", false },
	[TC_P99] = { "p99", "ms", false },
	[TC_POINT] = { "group/sweep", "", true },
};

/* Copies at most max bytes of s (or "-" when NULL) into buf, control characters shown as '?'. */
static void cell_text(char *buf, size_t size, const char *s, size_t max)
{
	size_t i;

	if (!s)
		s = "-";
	for (i = 0; i + 1 < size && i < max && s[i]; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
}

/* Formats v with decimals digits after the point; "-" when NaN or infinite. */
static void cell_fixed(char *buf, size_t size, double v, int decimals)
{
	if (isfinite(v))
		snprintf(buf, size, "%.*f", decimals, v);
	else
		snprintf(buf, size, "-");
}

/* Formats milliseconds with fewer decimals as they grow, so small ones keep their digits. */
static void cell_ms(char *buf, size_t size, double v)
{
	cell_fixed(buf, size, v, fabs(v) < 10 ? 3 : fabs(v) < 1000 ? 1 : 0);
}

/* Formats an unsigned count. */
static void cell_u64(char *buf, size_t size, uint64_t v)
{
	snprintf(buf, size, "%" PRIu64, v);
}

/* The sum of a run's errors over every kind. */
static uint64_t errors_total(const struct run_metrics *m)
{
	uint64_t sum = 0;
	int k;

	for (k = 0; k < ERR_KIND_COUNT; k++)
		sum += m->errors[k];
	return sum;
}

/* Whether run belongs to a scenario group or a sweep point. */
static bool has_point(const struct run_result *run)
{
	return (run->group && *run->group) || (run->sweep && *run->sweep);
}

/* The group/sweep column: "group", "sweep" or "group/sweep" (spaces shown as '_'), "-" when neither. */
static void point_cell(const struct run_result *run, char *buf, size_t size)
{
	const char *group = run->group ? run->group : "", *sweep = run->sweep ? run->sweep : "";

	if (!has_point(run)) {
		snprintf(buf, size, "-");
		return;
	}
	snprintf(buf, size, "%s%s%s", group, *group && *sweep ? "/" : "", sweep);
	for (char *c = buf; *c; c++)
		if (*c == ' ' || (unsigned char)*c < 0x20 || *c == 0x7f)
			*c = *c == ' ' ? '_' : '?';
}

/* Formats column col of run into buf. */
static void table_cell(const struct run_result *run, enum table_col col, char *buf, size_t size)
{
	const struct run_metrics *m = &run->metrics;

	switch (col) {
	case TC_STRATEGY:
		cell_text(buf, size, run->strategy, SIZE_MAX);
		break;
	case TC_POINT:
		point_cell(run, buf, size);
		break;
	case TC_MODE:
		cell_text(buf, size, run->claim_mode, SIZE_MAX);
		break;
	case TC_WORKERS:
		snprintf(buf, size, "%d", run->workers);
		break;
	case TC_MAKESPAN:
		cell_fixed(buf, size, m->makespan_s, 3);
		break;
	case TC_IDEAL:
		cell_fixed(buf, size, m->ideal_s, 3);
		break;
	case TC_THRU:
		cell_fixed(buf, size, m->throughput_jps, 1);
		break;
	case TC_DONE:
		cell_u64(buf, size, m->completed);
		break;
	case TC_DUP:
		cell_u64(buf, size, m->duplicates);
		break;
	case TC_OVL:
		cell_u64(buf, size, m->overlaps);
		break;
	case TC_LOST:
		cell_u64(buf, size, m->lost);
		break;
	case TC_EMPTY:
		cell_u64(buf, size, m->empty_claims);
		break;
	case TC_SPUR:
		cell_u64(buf, size, m->spurious_empties);
		break;
	case TC_RETRY:
		cell_u64(buf, size, m->retries);
		break;
	case TC_GIVEUP:
		cell_u64(buf, size, m->give_ups);
		break;
	case TC_ERR:
		cell_u64(buf, size, errors_total(m));
		break;
	case TC_JAIN:
		cell_fixed(buf, size, m->fairness.jain, 3);
		break;
	case TC_SHARES:
		snprintf(buf, size, "%" PRIu64 "-%" PRIu64, m->fairness.min, m->fairness.max);
		break;
	case TC_P50:
		cell_ms(buf, size, m->claim_latency_ms.p50);
		break;
	case TC_P99:
		cell_ms(buf, size, m->claim_latency_ms.p99);
		break;
	case TC_COUNT:
		buf[0] = '\0';
		break;
	}
}

/*
 * Fills width[] with each column's widest cell, header lines included; a column left
 * out of this table (group/sweep when no run has one) gets width -1.
 */
static void table_widths(const struct report *r, int *width)
{
	char buf[TABLE_CELL];
	bool points = false;
	size_t i;
	int c, len;

	for (i = 0; i < r->n_results; i++)
		points |= has_point(&r->results[i]);
	for (c = 0; c < TC_COUNT; c++) {
		if (c == TC_POINT && !points) {
			width[c] = -1;
			continue;
		}
		width[c] = (int)strlen(table_heads[c].name);
		len = (int)strlen(table_heads[c].unit);
		if (len > width[c])
			width[c] = len;
		for (i = 0; i < r->n_results; i++) {
			table_cell(&r->results[i], (enum table_col)c, buf, sizeof(buf));
			len = (int)strlen(buf);
			if (len > width[c])
				width[c] = len;
		}
	}
}

/* Prints one line of cells (the caller ends it), each aligned to its column's width. */
static void table_line(FILE *out, const int *width, const char *const *cells)
{
	int c;

	for (c = 0; c < TC_COUNT; c++) {
		if (width[c] < 0 || (c == TC_COUNT - 1 && !*cells[c]))
			continue;
		if (c > 0)
			putc(' ', out);
		if (c == TC_COUNT - 1 && table_heads[c].left)
			fputs(cells[c], out);
		else if (table_heads[c].left)
			fprintf(out, "%-*s", width[c], cells[c]);
		else
			fprintf(out, "%*s", width[c], cells[c]);
	}
}

/* Prints the two header lines: column names, then units. */
static void table_header(FILE *out, const int *width)
{
	const char *cells[TC_COUNT];
	int c;

	for (c = 0; c < TC_COUNT; c++)
		cells[c] = table_heads[c].name;
	table_line(out, width, cells);
	putc('\n', out);
	for (c = 0; c < TC_COUNT; c++)
		cells[c] = table_heads[c].unit;
	table_line(out, width, cells);
	putc('\n', out);
}

/* Prints one run's line, marked with a trailing '*' when the run did not finish cleanly. */
static void table_row(FILE *out, const int *width, const struct run_result *run)
{
	char buf[TC_COUNT][TABLE_CELL];
	const char *cells[TC_COUNT];
	int c;

	for (c = 0; c < TC_COUNT; c++) {
		table_cell(run, (enum table_col)c, buf[c], sizeof(buf[c]));
		cells[c] = buf[c];
	}
	table_line(out, width, cells);
	if (!run->complete)
		fputs(" *", out);
	putc('\n', out);
}

/* Prints the backend line, the settings line when there are settings, and a warning line when any run is incomplete. */
static void table_footer(FILE *out, const struct report *r)
{
	char backend[TABLE_CELL], server[sizeof(r->server_version) + 1];
	char name[sizeof(r->settings[0].name) + 1], value[sizeof(r->settings[0].value) + 1];
	size_t i, incomplete = 0;

	cell_text(backend, sizeof(backend), r->backend, SIZE_MAX);
	cell_text(server, sizeof(server), r->server_version[0] ? r->server_version : NULL,
		  sizeof(r->server_version));
	fprintf(out, "backend: %s, server version: %s\n", backend, server);
	for (i = 0; i < r->n_settings && i < DB_MAX_SETTINGS; i++) {
		cell_text(name, sizeof(name), r->settings[i].name, sizeof(r->settings[i].name));
		cell_text(value, sizeof(value), r->settings[i].value, sizeof(r->settings[i].value));
		fprintf(out, "%s%s=%s", i ? ", " : "settings: ", name, value);
	}
	if (r->n_settings)
		putc('\n', out);

	for (i = 0; i < r->n_results; i++)
		if (!r->results[i].complete)
			incomplete++;
	if (incomplete)
		fprintf(out, "results are incomplete: %zu of %zu runs (marked *) were interrupted or lost a worker\n",
			incomplete, r->n_results);
}

void report_print_table(FILE *out, const struct report *r)
{
	int width[TC_COUNT];
	size_t i;

	table_widths(r, width);
	table_header(out, width);
	for (i = 0; i < r->n_results; i++)
		table_row(out, width, &r->results[i]);
	table_footer(out, r);
}

/* ---- repetitions and expectations ---- */

/* "" for NULL. */
static const char *text(const char *s)
{
	return s ? s : "";
}

void summary_print_table(FILE *out, const struct report *r)
{
	struct summary_row *rows = calloc(r->n_results ? r->n_results : 1, sizeof(*rows));
	size_t n = rows ? summary_build(r, rows) : 0;

	if (n == 0)
		goto out;
	fprintf(out, "\nover the repetitions: mean +- 95%% confidence half-width (sd)\n");
	for (size_t i = 0; i < n; i++) {
		const struct run_result *f = rows[i].first;

		fprintf(out, "%s %s x%d%s%s%s%s%s, %zu runs\n", f->strategy, f->claim_mode, f->workers,
			text(f->group)[0] ? " [" : "", text(f->group), text(f->group)[0] ? "]" : "",
			text(f->sweep)[0] ? " " : "", text(f->sweep), rows[i].runs);
		for (size_t m = 0; m < metric_table_len; m++)
			if (metric_table[m].summarised)
				fprintf(out, "  %-22s %12.4g +- %-10.3g (sd %.3g)\n", metric_table[m].path,
					rows[i].stats[m].mean, rows[i].stats[m].ci95, rows[i].stats[m].sd);
	}
out:
	free(rows);
}

bool verdicts_print(FILE *out, const struct expectation *expects, size_t n, const struct report *r)
{
	bool all_pass = true;
	char err[512];

	if (n)
		fprintf(out, "\nexpectations:\n");
	for (size_t i = 0; i < n; i++) {
		double lhs, rhs;
		bool pass = false;

		if (expect_eval(&expects[i], r->results, r->n_results, &lhs, &rhs, &pass, err, sizeof(err)) < 0) {
			fprintf(out, "  FAIL  %s: %s (%s)\n", expects[i].name, expects[i].text, err);
			all_pass = false;
			continue;
		}
		fprintf(out, "  %s  %s: %s  (%.6g vs %.6g)\n", pass ? "PASS" : "FAIL", expects[i].name, expects[i].text,
			lhs, rhs);
		all_pass &= pass;
	}
	return all_pass;
}
