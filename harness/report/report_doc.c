/*
 * report.md and report.html of report_doc.h, written once, block by block, through a
 * markup (doc_markup.h). The figures table is the same table model as claimbench
 * show's (output/figures.h): the documents show exactly what it prints.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/doc_faults.h"
#include "report/doc_timeline.h"
#include "report/doc_markup.h"
#include "report/report_doc.h"
#include "report/doc_settings.h"
#include "report/doc_summary.h"
#include "report/out_dir.h"
#include "generated/version.h"
#include "output/diagnosis.h"
#include "model/metric_table.h"

/* The machine the report is made on. */
struct machine {
	char host[256];		/* host name */
	long cores;		/* processors online, -1 when unknown */
	double mem_gib;		/* MemTotal of /proc/meminfo in GiB, -1 when unknown */
};

/* Notes under the charts at most. */
#define DOC_MAX_NOTES 2

/* The most rows env_rows writes: six fixed ones and the settings. */
#define ENV_ROWS (6 + DB_MAX_SETTINGS)

/* What each chart shows and one sentence on how to read it, under its heading. */
static const struct {
	const char *what;	/* what it draws */
	const char *read;	/* how to read it */
} chart_captions[CHART_COUNT] = {
	[CHART_THROUGHPUT] = { "Completed jobs per second against the number of workers, a marker per strategy and "
			       "worker count (the mean over repeats, min-max bars), nudged sideways so that equal values "
			       "stay apart; no line joins them, since the worker counts between were not measured. The "
			       "dashed line is the ceiling the work time sets (workers / work time), the dotted one, in open-loop runs, the "
			       "arrival rate asked.",
			       "How to read it: the closer a strategy keeps to the dashed ceiling as workers grow, the "
			       "better it scales; markers that level off or fall show contention." },
	[CHART_MAKESPAN] = { "Start barrier to the last completion of each drain run, per strategy and worker count "
			     "(the mean over repeats, min-max bars); the dashed mark is the ideal, the total work divided "
			     "by the workers. Timed runs are left out: their makespan is their duration.",
			     "How to read it: a bar that ends at its dashed mark is perfect; the part above the mark is "
			     "time lost to claiming." },
	[CHART_SHARES] = { "Each worker's share of the completed jobs as a multiple of a fair share (1 / workers), a bar "
			   "per worker ranked largest first, averaged by rank over repeats.",
			   "How to read it: a fair strategy keeps every bar at the dashed 1; bars that fall from left to "
			   "right show a few workers taking most of the jobs." },
	[CHART_LATENCY] = { "Claim latency (start of a claim attempt to the job in hand, retries and lock waits "
			    "included) at p50, p90, p99, p99.9 and max, log scale.",
			    "How to read it: lower is better; a line that climbs steeply from p50 to p99 means a few "
			    "claims waited far longer than most." },
	[CHART_QUEUE_WAIT] = { "Queue wait of the open-loop runs (a job's arrival to its first claim; a job never "
			       "claimed waits to the run's end) at p50, p90, p99, p99.9 and max, log scale.",
			       "How to read it: lower is better; a wait that grows towards the run's length means the "
			       "workers fell behind the arrivals." },
	[CHART_TIMELINE] = { "Distinct jobs completed per second in each 100 ms bucket and, in the shared layout, "
			     "distinct jobs done so far, the first repetition of each strategy and worker count; "
			     "duplicate executions are dotted apart, never counted as completions. With many strategies, "
			     "a panel per strategy, its worker counts dashed apart. A fault is a dashed line in its own "
			     "run's panel, a restart's outage a grey span; panels take their own y scales when their "
			     "rates are far apart, their own time scales when their runs' lengths are, as the title says.",
			     "How to read it: gaps show blocking, bursts convoys, and a dotted line above zero a job "
			     "run twice; a gap inside a grey span is the server's, not the strategy's." },
	[CHART_BACKLOG] = { "Jobs enqueued and not yet in a worker's hand at the end of each 100 ms bucket, the "
			    "open-loop runs' first repetitions.",
			    "How to read it: a flat line means the workers keep up with the arrivals, a rising one that "
			    "they fall behind." },
	[CHART_ARRIVALS] = { "Jobs the producers inserted per second in each 100 ms bucket, against the rate asked "
			     "(dashed), the open-loop runs' first repetitions.",
			     "How to read it: the steps should hover at the dashed rate; a shortfall means the run "
			     "measured less load than it asked for." },
	[CHART_EMPTIES] = { "Claims that returned no job, and of them the spurious ones, made while a job the worker "
			    "could take was waiting, the mean over repeats.",
			    "How to read it: empty claims at the end of a drain are normal; spurious empties mean the "
			    "strategy hid waiting jobs from its workers." },
	[CHART_INTEGRITY] = { "Race duplicates (a job handed out while another still held it), overlapping "
			      "executions of one job, and lost jobs, the mean over repeats; redeliveries, a fault's "
			      "at-least-once cost, are in the faults table, not here.",
			      "How to read it: a correct strategy shows no bar at all; any bar is a job claimed twice "
			      "at once or never finished." },
	[CHART_RECOVERY] = { "Per strategy and worker count whose runs had faults (the mean over repeats): for a "
			     "restart, a grey bar for the server's outage (the fault to the server accepting "
			     "connections again) under a bar in the strategy's colour for its own recovery (the server "
			     "back to the strategy's first completion); for faults on a job (crash, stall, "
			     "kill-backend), the fault to that job's next commit, the median of the run's faults as the "
			     "bar and the slowest as a cross.",
			     "How to read it: the grey part is the same for every strategy and not theirs; compare the "
			     "coloured parts. A strategy missing a bar never completed after the fault." },
	[CHART_WAITS] = { "Where the run's worker backends were at each server sample (pg_stat_activity), a bar per "
			  "sampled strategy and worker count: each wait class's share of the sampled states, the mean "
			  "over repeats. cpu is running, lock a row or transaction lock, lwlock contention inside the "
			  "server, io a file, client the harness's side (work, round trips); each class keeps its "
			  "colour.",
			  "How to read it: the taller the red (lock) and orange (lwlock) parts, the more of the workers' "
			  "time went to waiting on each other rather than to work." },
	[CHART_PRESSURE] = { "A panel per sampled strategy and worker count, its first repetition: distinct jobs "
			     "completed per second in each 100 ms bucket (left axis, the case's colour) and the queue table's dead tuples "
			     "at each sample (right axis, black; on SQLite the -wal file's size); a held snapshot is "
			     "shaded, a VACUUM a dashed red line.",
			     "How to read it: throughput that sinks while the dead tuples climb is the claims walking "
			     "past dead entries; a vacuum that brings the dead tuples down should bring throughput back, "
			     "unless a held snapshot keeps them alive." },
	[CHART_BUFFERS] = { "Per strategy and worker count (the mean over repeats): the queue table's heap and "
			    "index blocks per claim over the first and the last 2 s sampled, and the buffers the head "
			    "lookup (the lowest claimable id) touched before and after the run, from EXPLAIN ANALYZE.",
			    "How to read it: a bar that grows from the start to the end, or from before to after, is "
			    "a claim that costs more as the queue ages; the head lookup's plans, in the server section "
			    "above, say why." },
	[CHART_HOLDERS] = { "A panel per guard, workload and worker count, its first repetition: per resource, the "
			    "most holders at once in each 100 ms bucket (a solid line per resource) and the most "
			    "acquisitions waiting for it (dashed, the same colour); the dotted black line is the most "
			    "holders the workload allows at once (1 for exclusive use, the limit X for resource).",
			    "How to read it: a solid line above the dotted one is a guard letting too many in; a dashed "
			    "line that climbs while the solid one stays low is waiters queueing behind a lock nobody "
			    "holds for long, or a guard that polls." },
	[CHART_GUARD_WAITS] = { "Wait for a grant (an acquisition's start to its grant, granted ones) per guard and "
				"worker count, grouped by workload: p50, p99 and max over all acquisitions, and the "
				"writers' p99, the mean over repeats, log scale; a wait of 0 draws no bar.",
				"How to read it: lower is better, but a guard that waits for nothing may be one that "
				"lets conflicting holders in (the violations column says); a max far above the p99 is "
				"an acquisition left behind." },
};

/* What a chart of percentiles says about the repeats, by its pooling. */
static const char *const pooling_notes[] = {
	[POOL_SINGLE] = "",
	[POOL_HISTOGRAMS] = " With repeats, the percentiles of their histograms merged.",
	[POOL_MEAN] = " With repeats, the mean of each repeat's percentile (the store keeps no histogram to merge).",
};

/* Room for a chart's caption. */
#define CAPTION_TEXT 1024

/* Room for a run's diagnosis. */
#define DIAGNOSIS_TEXT 2048

/* Room for one line of the glossary. */
#define ROW_TEXT 640

/* The level-2 headings, which the contents link to. */
#define DOC_SUMMARY "Summary"
#define DOC_FIGURES "Figures"
#define DOC_PHASES "Phases"
#define DOC_FAULTS "Faults and recovery"
#define DOC_CHARTS "Charts"
#define DOC_SETTINGS "Settings"
#define DOC_SERVER "The server, sampled"
#define DOC_ENVIRONMENT "Environment"

/* Reads the machine's name, processors and memory. */
static void machine_read(struct machine *m)
{
	char line[256];
	unsigned long long kib;
	FILE *f;

	m->host[0] = '\0';
	if (gethostname(m->host, sizeof(m->host) - 1) < 0)
		snprintf(m->host, sizeof(m->host), "unknown");
	m->host[sizeof(m->host) - 1] = '\0';
	m->cores = sysconf(_SC_NPROCESSORS_ONLN);
	m->mem_gib = -1;
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
			m->mem_gib = (double)kib / (1024.0 * 1024.0);
	fclose(f);
}

/* The tables of a report: its queue runs' and its guarded runs', each with its runs in row order. */
struct doc_tables {
	const struct run_result **queue;	/* the queue runs, in the order given (owned array) */
	size_t n_queue;				/* entries in queue */
	const struct run_result **guarded;	/* the runs of guarded workloads, in the order given (owned array) */
	size_t n_guarded;			/* entries in guarded */
	struct figures f;			/* the queue runs' figures; empty when none */
	struct figures faults;			/* the queue runs' faults table; empty when no run met a fault */
	struct figures server;			/* the queue runs' server table; empty when no run sampled it */
	struct figures guard;			/* the guarded-resources table; empty when no guarded run */
};

/* Frees what build_tables allocated in t and zeroes it. */
static void tables_free(struct doc_tables *t)
{
	figures_free(&t->f);
	figures_free(&t->faults);
	figures_free(&t->server);
	figures_free(&t->guard);
	free(t->queue);
	free(t->guarded);
	memset(t, 0, sizeof(*t));
}

/*
 * Splits d's runs into queue runs and guarded ones and builds their tables into t (zeroed
 * first): the queue runs' figures and, when a run met faults, the faults table, when a run
 * sampled the server, the server table; the guarded runs' guarded-resources table. With
 * sections_apart (the queue tables are shown a section at a time, under its heading) their
 * last column holds the sweep alone, not the section again. 0, or -1 with err (t freed).
 */
static int build_tables(const struct report_doc *d, struct doc_tables *t, bool sections_apart, char *err,
			size_t errlen)
{
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->queue = calloc(d->n_runs + 1, sizeof(*t->queue));
	t->guarded = calloc(d->n_runs + 1, sizeof(*t->guarded));
	if (!t->queue || !t->guarded)
		goto out;
	for (size_t i = 0; i < d->n_runs; i++) {
		if (figures_is_guarded(&d->runs[i].run))
			t->guarded[t->n_guarded++] = &d->runs[i].run;
		else
			t->queue[t->n_queue++] = &d->runs[i].run;
	}
	rc = t->n_queue ? figures_build(&t->f, t->queue, t->n_queue, sections_apart) : 0;
	if (rc == 0 && figures_any_faults(t->queue, t->n_queue))
		rc = figures_build_faults(&t->faults, t->queue, t->n_queue, sections_apart);
	if (rc == 0 && figures_any_server(t->queue, t->n_queue))
		rc = figures_build_server(&t->server, t->queue, t->n_queue, sections_apart);
	if (rc == 0 && t->n_guarded)
		rc = figures_build_guarded(&t->guard, t->guarded, t->n_guarded);
out:
	if (rc < 0) {
		tables_free(t);
		snprintf(err, errlen, "out of memory");
	}
	return rc;
}

/* Whether invocation d->invocations[i] appeared at an earlier run. */
static bool seen_before(const struct report_doc *d, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (d->runs[j].report.invocation_id == d->runs[i].report.invocation_id)
			return true;
	return false;
}

/* The notes under the charts: queue runs without a time series, incomplete runs. */
static void write_notes(FILE *out, const struct report_doc *d, const struct doc_markup *mk)
{
	char notes[DOC_MAX_NOTES][256];
	size_t i, n = 0, incomplete = 0;

	if (d->set->n_runs && d->set->runs_without_series == d->set->n_runs)
		snprintf(notes[n++], sizeof(notes[0]), "No run has a time series in the store (it was recorded by a "
			 "claimbench that did not keep one): the timeline is empty.");
	else if (d->set->runs_without_series)
		snprintf(notes[n++], sizeof(notes[0]), "%zu of %zu runs have no time series in the store: the timeline "
			 "shows the others.", d->set->runs_without_series, d->set->n_runs);
	for (i = 0; i < d->n_runs; i++)
		incomplete += !d->runs[i].run.complete;
	if (incomplete)
		snprintf(notes[n++], sizeof(notes[0]), "%zu of %zu runs are incomplete (marked *): interrupted, or a "
			 "worker aborted.", incomplete, d->n_runs);
	if (n)
		mk->list(out, notes, n);
}

/* Writes the environment rows of run s's invocation into rows (seed is room for the seed's text). Their number. */
static size_t env_rows(const struct store_run *s, struct env_row *rows, char *seed, size_t seed_len)
{
	size_t n = 0;

	snprintf(seed, seed_len, "%llu", s->report.seed);
	rows[n++] = (struct env_row){ "", "started at", s->report.started_at, "", "" };
	rows[n++] = (struct env_row){ "", "host", s->ctx.host, "", "" };
	rows[n++] = (struct env_row){ "", "claimbench", s->ctx.version, ", git revision ", s->ctx.git_revision };
	rows[n++] = (struct env_row){ "", "backend", s->report.backend, ", server version ", s->report.server_version };
	rows[n++] = (struct env_row){ "", "scenario", s->report.scenario, "", "" };
	rows[n++] = (struct env_row){ "", "seed", seed, "", "" };
	for (size_t k = 0; k < s->report.n_settings && n < ENV_ROWS; k++)
		rows[n++] = (struct env_row){ "setting ", s->report.settings[k].name, s->report.settings[k].value, "", "" };
	return n;
}

/*
 * Writes into buf what d's runs of invocation id say of the machine's load: the range of
 * their load averages at their starts and ends, the cores, the most CPU steal, and how many
 * ran on a machine busier than its cores; "" when none of them knows its load.
 */
static void load_note(const struct report_doc *d, long long id, char *buf, size_t size)
{
	double lo = INFINITY, hi = -INFINITY, steal = -1;
	size_t runs = 0, busy = 0;
	uint64_t cores = 0;
	char steal_text[32];

	buf[0] = '\0';
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct machine_figures *m = &d->runs[i].run.metrics.machine;

		if (d->runs[i].report.invocation_id != id || (isnan(m->load_start) && isnan(m->load_end)))
			continue;
		runs++;
		lo = fmin(lo, fmin(m->load_start, m->load_end));
		hi = fmax(hi, fmax(m->load_start, m->load_end));
		steal = isnan(m->steal_pct) ? steal : fmax(steal, m->steal_pct);
		cores = m->cores != METRIC_UNKNOWN ? m->cores : cores;
		busy += m->overloaded == 1;
	}
	if (!runs)
		return;
	if (steal < 0)
		snprintf(steal_text, sizeof(steal_text), "unknown");
	else
		snprintf(steal_text, sizeof(steal_text), "at most %.1f %%", steal);
	snprintf(buf, size, "The machine's 1-minute load average at its runs' starts and ends: %.2f to %.2f, on %llu "
		 "cores; CPU steal over a run %s.", lo, hi, (unsigned long long)cores, steal_text);
	if (busy)
		snprintf(buf + strlen(buf), size - strlen(buf), " %zu of its %zu runs started at a load average above "
			 "its %llu cores (the invocation's own run before counts in it for about a minute): other work "
			 "may have competed for the CPUs, and their timings may carry that noise.", busy, runs,
			 (unsigned long long)cores);
}

/* The environment of each invocation (its scenario text folded), then the machine the report was made on. */
static void write_environment(FILE *out, const struct report_doc *d, const struct doc_markup *mk)
{
	struct env_row rows[ENV_ROWS];
	struct machine m;
	char seed[32], text[512];

	mk->heading(out, 2, DOC_ENVIRONMENT);
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct store_run *s = &d->runs[i];

		if (seen_before(d, i))
			continue;
		snprintf(text, sizeof(text), "Invocation %lld", s->report.invocation_id);
		mk->heading(out, 3, text);
		mk->pairs(out, rows, env_rows(s, rows, seed, sizeof(seed)));
		load_note(d, s->report.invocation_id, text, sizeof(text));
		if (*text)
			mk->paragraph(out, text);
		snprintf(text, sizeof(text), "The scenario text of invocation %lld", s->report.invocation_id);
		mk->fold_begin(out, text);
		mk->code(out, s->ctx.scenario_text ? s->ctx.scenario_text : "(none stored)");
		mk->fold_end(out);
	}
	machine_read(&m);
	mk->heading(out, 3, "Machine");
	snprintf(text, sizeof(text), "This report was made by claimbench %s (git revision %s) on host %s: "
		 "%ld processors online, %.1f GiB of memory.", CLAIMBENCH_VERSION, CLAIMBENCH_GIT_REVISION, m.host,
		 m.cores, m.mem_gib);
	mk->paragraph(out, text);
}

/*
 * Writes into buf (size bytes) what, its "the mean over repeats" said as c's repeats have
 * it: "one run each" when every case is one run (", min-max bars" after it: "one run each:
 * no mean, no bars"), and the bars' "... where a case has one" when some are.
 */
static void say_repeats(char *buf, size_t size, const char *what, const struct chart *c)
{
	static const char mean[] = "the mean over repeats", bars[] = ", min-max bars";
	const char *at = strstr(what, mean), *rest;
	bool with_bars;

	if (!at || c->repeats == REPEATS_ALL) {
		snprintf(buf, size, "%s", what);
		return;
	}
	rest = at + sizeof(mean) - 1;
	with_bars = strncmp(rest, bars, sizeof(bars) - 1) == 0;
	if (c->repeats == REPEATS_SOME && !with_bars) {
		snprintf(buf, size, "%s", what);
		return;
	}
	snprintf(buf, size, "%.*s%s%s", (int)(at - what), what,
		 c->repeats == REPEATS_SOME ? "the mean over repeats, min-max bars; one run where a case has one" :
		 with_bars		    ? "one run each: no mean, no bars" : "one run each",
		 with_bars ? rest + sizeof(bars) - 1 : rest);
}

/* The caption of chart c: what it shows, notes on repeats and old data, how to read it. */
static void write_caption(FILE *out, const struct chart *c, const struct doc_markup *mk)
{
	char text[CAPTION_TEXT], what[CAPTION_TEXT / 2];

	say_repeats(what, sizeof(what), chart_captions[c->kind].what, c);
	snprintf(text, sizeof(text), "%s%s%s %s", what, pooling_notes[c->pooling],
		 c->kind == CHART_TIMELINE && c->blocks && !c->dups_known ?
			 " These runs were stored before first completions were kept: a duplicate counts here as a "
			 "completion." : "",
		 chart_captions[c->kind].read);
	mk->paragraph(out, text);
}

/* Whether f has a column headed header. */
static bool has_column(const struct figures *f, const char *header)
{
	for (size_t c = 0; c < f->n_columns; c++)
		if (strcmp(f->columns[c].header, header) == 0)
			return true;
	return false;
}

/*
 * The glossary of f's columns, those except does not have (NULL: all): each header (and
 * unit), its gloss and, for a metric, its definition, as the metric table has them; a
 * definition that starts with the gloss stands alone.
 */
static void write_glossary(FILE *out, const struct figures *f, const struct figures *except,
			   const struct doc_markup *mk)
{
	static char keys[FIGURES_MAX_COLUMNS][ROW_TEXT];
	struct env_row rows[FIGURES_MAX_COLUMNS];
	size_t n = 0;

	for (size_t c = 0; c < f->n_columns; c++) {
		const struct figures_column *col = &f->columns[c];

		if (except && has_column(except, col->header))
			continue;

		snprintf(keys[n], sizeof(keys[n]), "%s%s%s%s", col->header, col->unit[0] ? " (" : "", col->unit,
			 col->unit[0] ? ")" : "");
		rows[n] = (struct env_row){ "", keys[n], col->gloss ? col->gloss : "", "", "" };
		if (col->definition && col->gloss && strncmp(col->definition, col->gloss, strlen(col->gloss)) == 0)
			rows[n].value = col->definition;
		else if (col->definition)
			rows[n] = (struct env_row){ "", keys[n], col->gloss ? col->gloss : "", ": ", col->definition };
		n++;
	}
	if (n)
		mk->pairs(out, rows, n);
}

/* Writes run i of d's plan of the head lookup at moment m under a line naming it and its buffers, when it has one. */
static void write_plan(FILE *out, const struct report_doc *d, size_t i, enum probe_moment m,
		       const struct doc_markup *mk)
{
	const struct run_result *run = &d->runs[i].run;
	uint64_t buffers = m == PROBE_BEFORE ? run->metrics.server.head_buffers_before :
					       run->metrics.server.head_buffers_after;
	char text[ROW_TEXT];

	if (!run->probes[m].plan)
		return;
	if (buffers == METRIC_UNKNOWN)
		snprintf(text, sizeof(text), "The head lookup's plan %s the run:",
			 m == PROBE_BEFORE ? "before" : "after");
	else
		snprintf(text, sizeof(text), "The head lookup's plan %s the run (%llu buffers):",
			 m == PROBE_BEFORE ? "before" : "after", (unsigned long long)buffers);
	mk->paragraph(out, text);
	mk->code(out, run->probes[m].plan);
}

/* The scenario sections of a report's runs, in order of first appearance; "" for runs of none. */
struct doc_sections {
	const char **names;	/* the sections (owned array; the names point into the runs) */
	size_t n;		/* entries in names */
};

/* run's section, "" when none. */
static const char *section_of(const struct run_result *run)
{
	return run->group ? run->group : "";
}

/* Fills s with the sections of d's runs. 0, or -1 when out of memory. */
static int sections_build(const struct report_doc *d, struct doc_sections *s)
{
	s->n = 0;
	s->names = calloc(d->n_runs + 1, sizeof(*s->names));
	if (!s->names)
		return -1;
	for (size_t i = 0; i < d->n_runs; i++) {
		const char *g = section_of(&d->runs[i].run);
		size_t k = 0;

		while (k < s->n && strcmp(s->names[k], g) != 0)
			k++;
		if (k == s->n)
			s->names[s->n++] = g;
	}
	return 0;
}

/* Whether run met a fault the harness recorded. */
static bool met_faults(const struct run_result *run)
{
	return run->n_faults > 0;
}

/*
 * Writes figures f of set's runs, those that keep (NULL: all) keeps: one table when the
 * runs are of one section, else under a level-3 heading per section the table of its runs
 * (a section with none kept has none).
 */
static void write_by_section(FILE *out, const struct chart_set *set, const struct figures *f,
			     const struct doc_sections *secs, bool (*keep)(const struct run_result *),
			     const struct doc_markup *mk)
{
	size_t *rows = secs->n > 1 || keep ? calloc(set->n_runs + 1, sizeof(*rows)) : NULL;
	char text[ROW_TEXT];

	if (!rows) {
		mk->figures(out, set, f, NULL, 0);
		return;
	}
	for (size_t k = 0; k < secs->n; k++) {
		size_t n = 0;

		for (size_t r = 0; r < set->n_runs; r++)
			if (strcmp(section_of(&set->runs[r].run), secs->names[k]) == 0 && (!keep || keep(&set->runs[r].run)))
				rows[n++] = r;
		if (!n)
			continue;
		snprintf(text, sizeof(text), *secs->names[k] ? "Section %s" : "Runs of no section", secs->names[k]);
		if (secs->n > 1)
			mk->heading(out, 3, text);
		mk->figures(out, set, f, rows, n);
	}
	free(rows);
}

/* The glossary of f's columns but except's (NULL: all), folded under summary. */
static void write_folded_glossary(FILE *out, const char *summary, const struct figures *f,
				  const struct figures *except, const struct doc_markup *mk)
{
	mk->fold_begin(out, summary);
	write_glossary(out, f, except, mk);
	mk->fold_end(out);
}

/* One sentence of the runs' diagnoses and the runs it was said of. */
struct diagnosis_sentence {
	char *text;		/* the sentence, its full stop included (owned) */
	char runs[ROW_TEXT];	/* "runs 3, 4, 7" or "run 3" */
	size_t n_runs;		/* runs it was said of */
};

/* Adds the sentence of len bytes at s, said of run, to the n in list (grown). 0, or -1 when out of memory. */
static int sentence_add(struct diagnosis_sentence **list, size_t *n, const char *s, size_t len, long long run)
{
	struct diagnosis_sentence *e = NULL, *grown;
	size_t used;

	for (size_t i = 0; i < *n && !e; i++)
		if (strlen((*list)[i].text) == len && strncmp((*list)[i].text, s, len) == 0)
			e = &(*list)[i];
	if (!e) {
		grown = realloc(*list, (*n + 1) * sizeof(**list));
		if (!grown)
			return -1;
		*list = grown;
		e = &grown[*n];
		memset(e, 0, sizeof(*e));
		e->text = strndup(s, len);
		if (!e->text)
			return -1;
		(*n)++;
	}
	used = strlen(e->runs);
	if (used + 32 < sizeof(e->runs))
		snprintf(e->runs + used, sizeof(e->runs) - used, "%s%lld", e->n_runs ? ", " : "", run);
	else if (!strstr(e->runs, "..."))
		snprintf(e->runs + used, sizeof(e->runs) - used, ", ...");
	e->n_runs++;
	return 0;
}

/*
 * The runs' diagnoses, a sentence once with the runs it fits ("(runs 3, 4)"), in the order
 * first said: a sentence ends at a full stop followed by a space. 0, or -1
 * when out of memory.
 */
static int write_diagnoses(FILE *out, const struct report_doc *d, const struct doc_markup *mk)
{
	static char diagnosis[DIAGNOSIS_TEXT];
	struct diagnosis_sentence *list = NULL;
	char text[DIAGNOSIS_TEXT + ROW_TEXT];
	size_t n = 0, silent = 0, sampled = 0;
	int ret = -1;

	for (size_t i = 0; i < d->n_runs; i++) {
		const char *s = diagnosis;

		if (!diagnosis_write(&d->runs[i].run, d->runs[i].report.backend, diagnosis, sizeof(diagnosis)))
			continue;
		sampled++;
		silent += !*diagnosis;
		while (*s) {
			const char *e = s;

			while (*e && !(e[0] == '.' && e[1] == ' '))
				e++;
			if (*e)
				e++;
			if (e > s && sentence_add(&list, &n, s, (size_t)(e - s), d->runs[i].run.run_id) < 0)
				goto out;
			s = e + (*e == ' ');
		}
	}
	if (!sampled) {
		ret = 0;
		goto out;
	}
	mk->heading(out, 3, "The diagnosis");
	snprintf(text, sizeof(text), "What the samples say of the %zu sampled run%s, each sentence once with the runs "
		 "it fits%s.", sampled, sampled == 1 ? "" : "s",
		 silent ? "; the samples of the others say nothing worth a sentence" : "");
	mk->prose(out, text);
	for (size_t k = 0; k < n; k++) {
		snprintf(text, sizeof(text), "%s (%s %s)", list[k].text, list[k].n_runs == 1 ? "run" : "runs",
			 list[k].runs);
		mk->prose(out, text);
	}
	ret = 0;
out:
	for (size_t k = 0; k < n; k++)
		free(list[k].text);
	free(list);
	return ret;
}

/*
 * The server section: the server table of t by section, the glossary of its own columns,
 * the diagnoses' sentences grouped (write_diagnoses), then, each folded, per run with plans
 * the head lookup's plans before and after it. 0, or -1 when out of memory.
 */
static int write_server(FILE *out, const struct report_doc *d, const struct doc_tables *t,
			const struct doc_sections *secs, const struct doc_markup *mk)
{
	char text[ROW_TEXT];

	mk->heading(out, 2, DOC_SERVER);
	mk->paragraph(out, "What the harness read of the server while each run went (docs/server.md): where the "
		      "workers' server backends were, blocks per claim, dead tuples, vacuums, the oldest transaction, "
		      "the head lookup's buffers, and the throughput around a held snapshot.");
	write_by_section(out, d->set, &t->server, secs, NULL, mk);
	write_folded_glossary(out, "What its columns that the figures table does not have mean", &t->server, &t->f, mk);
	if (write_diagnoses(out, d, mk) < 0)
		return -1;
	mk->heading(out, 3, "Each run's plans");
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct run_result *run = &d->runs[i].run;

		if (!run->probes[PROBE_BEFORE].plan && !run->probes[PROBE_AFTER].plan)
			continue;
		snprintf(text, sizeof(text), "Run %lld: %s %s, %d workers%s%s", run->run_id, run->strategy,
			 run->claim_mode, run->workers, *section_of(run) ? ", section " : "", section_of(run));
		mk->fold_begin(out, text);
		write_plan(out, d, i, PROBE_BEFORE, mk);
		write_plan(out, d, i, PROBE_AFTER, mk);
		mk->fold_end(out);
	}
	return 0;
}

/*
 * The figures section: the queue runs' figures by section and their glossary, then the
 * guarded-resources table and the glossary of its columns (under a heading of its own when
 * queue runs came first).
 */
static void write_figures(FILE *out, const struct report_doc *d, const struct doc_tables *t,
			  const struct doc_sections *secs, const struct doc_markup *mk)
{
	mk->heading(out, 2, DOC_FIGURES);
	mk->paragraph(out, "As `claimbench show RUN` prints them; a run marked * is incomplete.");
	if (t->n_queue) {
		write_by_section(out, d->set, &t->f, secs, NULL, mk);
		write_folded_glossary(out, "What each column means, from the metric table", &t->f, NULL, mk);
	}
	if (!t->n_guarded)
		return;
	if (t->n_queue)
		mk->heading(out, 3, "Guarded resources");
	mk->paragraph(out, "The runs of guarded-resource workloads (refresh, exclusive-use, resource): a row per "
		      "guard, workload and worker count; docs/metrics.md defines their figures.");
	mk->figures(out, d->guarded, &t->guard, NULL, 0);
	write_folded_glossary(out, "What each of its columns means, from the metric table", &t->guard, NULL, mk);
}

/* The faults section: the faults table by section, its glossary, the table of each fault. 0, or -1 when out of memory. */
static int write_faults(FILE *out, const struct report_doc *d, const struct doc_tables *t,
			const struct doc_sections *secs, const struct doc_markup *mk)
{
	mk->heading(out, 2, DOC_FAULTS);
	mk->paragraph(out, "What the injected faults cost each run that met one: lost and stuck jobs, redeliveries (and their "
		      "causes: a crash, a lease run out, the reaper, a ticket expired as stale), zombie completions, "
		      "refused (fenced) completions, reconnects, recovery times (a fault on a job to that job's next "
		      "commit), and which delivery guarantee held. The timeline marks each fault. docs/faults.md "
		      "defines them.");
	write_by_section(out, d->set, &t->faults, secs, met_faults, mk);
	write_folded_glossary(out, "What its columns that the figures table does not have mean", &t->faults, &t->f, mk);
	return doc_write_fault_list(out, d, mk);
}

/*
 * One set of charts under a level-3 heading (none when heading is NULL), each chart under
 * a level-4 heading with its caption: the charts of one section, or of every run. 0, or -1
 * with err.
 */
static int write_chart_set(FILE *out, const struct report_doc *d, const char *heading, const struct chart *charts,
			   size_t n, const struct doc_markup *mk, char *err, size_t errlen)
{
	if (heading)
		mk->heading(out, 3, heading);
	for (size_t i = 0; i < n; i++) {
		mk->heading(out, heading ? 4 : 3, charts[i].title);
		write_caption(out, &charts[i], mk);
		if (mk->chart(out, d->dir, &charts[i], err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The charts section: the sets of charts, then the notes under them. 0, or -1 with err. */
static int write_charts(FILE *out, const struct report_doc *d, const struct doc_sections *secs,
			const struct doc_markup *mk, char *err, size_t errlen)
{
	mk->heading(out, 2, DOC_CHARTS);
	mk->paragraph(out, "Each strategy keeps its colour in every chart, its other claim mode a darker shade of "
		      "it; its worker counts, sections and sweep points differ by dash and marker (bars: solid, "
		      "half-filled, hollow).");
	for (size_t i = 0, n; i < d->n_charts; i += n) {
		char heading[CHART_SECTION + 16];

		for (n = 1; i + n < d->n_charts && strcmp(d->charts[i + n].section, d->charts[i].section) == 0; n++)
			;
		snprintf(heading, sizeof(heading), "Section %s", d->charts[i].section);
		if (write_chart_set(out, d, d->charts[i].section[0] ? heading : secs->n > 1 ? "Runs of no section" : NULL,
				    &d->charts[i], n, mk, err, errlen) < 0)
			return -1;
	}
	write_notes(out, d, mk);
	return 0;
}

/*
 * The paragraph under the title: how many runs, of which sections, and where the parts
 * are; then the contents, whose titles are the level-2 headings write_doc writes.
 */
static void write_intro(FILE *out, const struct report_doc *d, const struct doc_tables *t,
			const struct doc_sections *secs, const struct doc_markup *mk)
{
	const char *titles[7];
	char text[ROW_TEXT];
	size_t n = 0, used, named = 0;

	used = (size_t)snprintf(text, sizeof(text), "%zu run%s", d->n_runs, d->n_runs == 1 ? "" : "s");
	for (size_t k = 0; k < secs->n; k++)
		named += *secs->names[k] != '\0';
	for (size_t k = 0, shown = 0; k < secs->n && used < sizeof(text); k++)
		if (*secs->names[k])
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s", shown++ ? ", " :
						 named > 1 ? " of the sections " : " of section ", secs->names[k]);
	if (used < sizeof(text))
		snprintf(text + used, sizeof(text) - used, ". The summary above, then the figures and the charts; each run's "
			 "details (its plans, the scenario text) are folded further down.");
	mk->prose(out, text);
	titles[n++] = DOC_FIGURES;
	if (doc_has_timeline(d))
		titles[n++] = DOC_PHASES;
	if (t->faults.n_rows)
		titles[n++] = DOC_FAULTS;
	titles[n++] = DOC_CHARTS;
	titles[n++] = DOC_SETTINGS;
	if (t->server.n_rows)
		titles[n++] = DOC_SERVER;
	titles[n++] = DOC_ENVIRONMENT;
	mk->toc(out, titles, n);
}

/* Writes the whole document of d in markup mk into d->dir. 0, or -1 with err. */
static int write_doc(const struct report_doc *d, const struct doc_markup *mk, char *err, size_t errlen)
{
	struct doc_sections secs = { .names = NULL };
	struct doc_tables t;
	char path[4096], title[512];
	FILE *out = NULL;
	int ret = -1;

	memset(&t, 0, sizeof(t));
	if (sections_build(d, &secs) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (build_tables(d, &t, secs.n > 1, err, errlen) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/%s", d->dir->path, mk->file);
	out = out_dir_fopen(d->dir, mk->file, err, errlen);
	if (!out)
		goto out;
	snprintf(title, sizeof(title), "claimbench report: %s", d->subject);
	mk->begin(out, title);
	if (doc_write_summary(out, d, DOC_SUMMARY, mk) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	write_intro(out, d, &t, &secs, mk);
	write_figures(out, d, &t, &secs, mk);
	if (doc_has_timeline(d) && doc_write_timeline(out, d, DOC_PHASES, mk) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (t.faults.n_rows && write_faults(out, d, &t, &secs, mk) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (write_charts(out, d, &secs, mk, err, errlen) < 0)
		goto out;
	if (doc_write_settings(out, d, DOC_SETTINGS, mk) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (t.server.n_rows && write_server(out, d, &t, &secs, mk) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	write_environment(out, d, mk);
	mk->end(out);
	ret = 0;
out:
	if (out && ((ferror(out) | (fclose(out) != 0)) && ret == 0)) {
		snprintf(err, errlen, "cannot write %s", path);
		ret = -1;
	}
	free(secs.names);
	tables_free(&t);
	return ret;
}

int report_doc_markdown(const struct report_doc *d, char *err, size_t errlen)
{
	return write_doc(d, &doc_markdown, err, errlen);
}

int report_doc_html(const struct report_doc *d, char *err, size_t errlen)
{
	return write_doc(d, &doc_html, err, errlen);
}
