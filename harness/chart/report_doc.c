/*
 * report.md and report.html of report_doc.h, written once, block by block, through a
 * markup (doc_markup.h). The figures table is the same table model as claimbench
 * show's (output/figures.h): the documents show exactly what it prints.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/doc_markup.h"
#include "chart/report_doc.h"
#include "generated/version.h"

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

/* What each chart shows, under its heading. */
static const char *const chart_captions[CHART_COUNT] = {
	[CHART_THROUGHPUT] = "Completed jobs per second against the number of workers, a line per strategy; "
			     "the mean over repeats with min-max bars.",
	[CHART_MAKESPAN] = "Start barrier to the last completion, per strategy and worker count, the mean over "
			   "repeats; the dashed mark is the ideal, the total work divided by the workers.",
	[CHART_SHARES] = "Each worker's share of the completed jobs (a bar per worker); a fair strategy keeps every "
			 "bar at the dashed fair share.",
	[CHART_LATENCY] = "Claim latency (start of a claim attempt to the job in hand, retries and lock waits "
			  "included) at p50, p90, p99, p99.9 and max, log scale.",
	[CHART_TIMELINE] = "Completions per 100 ms bucket (above) and completed jobs so far (below), the first "
			   "repetition of each strategy and worker count: blocking shows as gaps, convoys as bursts.",
	[CHART_INTEGRITY] = "Duplicate executions, overlapping executions of one job, and lost jobs, the mean over "
			    "repeats: a correct strategy shows none.",
};

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

/*
 * Builds the figures of d's runs into f and, when a run met faults, the faults table into
 * faults (else left empty). 0, or -1 with err.
 */
static int build_figures(const struct report_doc *d, struct figures *f, struct figures *faults, char *err,
			 size_t errlen)
{
	const struct run_result **runs = calloc(d->n_runs + 1, sizeof(*runs));
	int rc = -1;

	memset(faults, 0, sizeof(*faults));
	if (runs) {
		for (size_t i = 0; i < d->n_runs; i++)
			runs[i] = &d->runs[i].run;
		rc = figures_build(f, runs, d->n_runs);
		if (rc == 0 && figures_any_faults(runs, d->n_runs) && figures_build_faults(faults, runs, d->n_runs) < 0) {
			figures_free(f);
			rc = -1;
		}
	}
	free(runs);
	if (rc < 0)
		snprintf(err, errlen, "out of memory");
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

/* The notes under the charts: runs without a time series, incomplete runs. */
static void write_notes(FILE *out, const struct report_doc *d, const struct doc_markup *mk)
{
	char notes[DOC_MAX_NOTES][256];
	size_t i, n = 0, incomplete = 0;

	if (d->set->runs_without_series == d->n_runs)
		snprintf(notes[n++], sizeof(notes[0]), "No run has a time series in the store (it was recorded by a "
			 "claimbench that did not keep one): the timeline is empty.");
	else if (d->set->runs_without_series)
		snprintf(notes[n++], sizeof(notes[0]), "%zu of %zu runs have no time series in the store: the timeline "
			 "shows the others.", d->set->runs_without_series, d->n_runs);
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

/* The environment of each invocation, then the machine the report was made on. */
static void write_environment(FILE *out, const struct report_doc *d, const struct doc_markup *mk)
{
	struct env_row rows[ENV_ROWS];
	struct machine m;
	char seed[32], text[512];

	mk->heading(out, 2, "Environment");
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct store_run *s = &d->runs[i];

		if (seen_before(d, i))
			continue;
		snprintf(text, sizeof(text), "Invocation %lld", s->report.invocation_id);
		mk->heading(out, 3, text);
		mk->pairs(out, rows, env_rows(s, rows, seed, sizeof(seed)));
		snprintf(text, sizeof(text), "Scenario text of invocation %lld:", s->report.invocation_id);
		mk->paragraph(out, text);
		mk->code(out, s->ctx.scenario_text ? s->ctx.scenario_text : "(none stored)");
	}
	machine_read(&m);
	mk->heading(out, 3, "Machine");
	snprintf(text, sizeof(text), "This report was made by claimbench %s (git revision %s) on host %s: "
		 "%ld processors online, %.1f GiB of memory.", CLAIMBENCH_VERSION, CLAIMBENCH_GIT_REVISION, m.host,
		 m.cores, m.mem_gib);
	mk->paragraph(out, text);
}

/* Writes the whole document of d in markup mk into d->dir. 0, or -1 with err. */
static int write_doc(const struct report_doc *d, const struct doc_markup *mk, char *err, size_t errlen)
{
	struct figures f, faults;
	char path[4096], title[512];
	FILE *out;
	int ret = -1;

	if (build_figures(d, &f, &faults, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", d->dir, mk->file);
	out = fopen(path, "w");
	if (!out) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	snprintf(title, sizeof(title), "claimbench report: %s", d->subject);
	mk->begin(out, title);
	mk->heading(out, 2, "Figures");
	mk->paragraph(out, "As `claimbench show RUN` prints them; a run marked * is incomplete.");
	mk->figures(out, d, &f);
	if (faults.n_rows) {
		mk->heading(out, 2, "Faults and recovery");
		mk->paragraph(out, "What the injected faults cost each run: lost and stuck jobs, redeliveries, zombie "
			      "completions, refused (fenced) completions, reconnects, recovery times (a fault on a job to "
			      "that job's next commit), and which delivery guarantee held. The timeline marks each "
			      "fault. docs/faults.md defines them.");
		mk->figures(out, d, &faults);
	}
	mk->heading(out, 2, "Charts");
	mk->paragraph(out, "Each strategy keeps its colour in every chart; its other claim modes, sections and "
		      "worker counts are shades of it.");
	for (size_t i = 0; i < d->n_charts; i++) {
		mk->heading(out, 3, d->charts[i].title);
		mk->paragraph(out, chart_captions[d->charts[i].kind]);
		if (mk->chart(out, d->dir, &d->charts[i], err, errlen) < 0) {
			fclose(out);
			goto out;
		}
	}
	write_notes(out, d, mk);
	write_environment(out, d, mk);
	mk->end(out);
	if (ferror(out) | (fclose(out) != 0)) {
		snprintf(err, errlen, "cannot write %s", path);
		goto out;
	}
	ret = 0;
out:
	figures_free(&faults);
	figures_free(&f);
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
