/*
 * The data of the charts of the server's samples (chart_server.h): the worker backends'
 * wait shares, throughput beside dead tuples (or SQLite's -wal file) over time with the
 * pressure phases, and the queue table's blocks per claim and head lookup buffers. A chart
 * draws the cases that know its figures (a --sample-ms 0 run knows none but its head
 * lookup's buffers).
 */
#include <math.h>
#include <string.h>

#include "report/chart_block.h"
#include "report/chart_server.h"
#include "model/metric_table.h"

/* Each wait class's colour, indexed by enum wait_class, the same in every report: Paul Tol's vibrant, the client grey. */
static const char *const wait_colours[WAIT_CLASS_COUNT] = {
	[WAIT_CPU] = "#009988", [WAIT_LOCK] = "#cc3311", [WAIT_LWLOCK] = "#ee7733",
	[WAIT_IO] = "#0077bb", [WAIT_CLIENT] = "#bbbbbb", [WAIT_OTHER] = "#aa3377",
};

/* The pressure chart's image height: its title, and per panel. */
#define PRESSURE_TITLE_HEIGHT 80
#define PRESSURE_PANEL_HEIGHT 300

/* Panels the pressure chart stacks in one column at most; more go two a row, each row this high. */
#define PRESSURE_ONE_COLUMN 4
#define PRESSURE_ROW_HEIGHT 280

/* The buffers chart's image height. */
#define BUFFERS_HEIGHT 480

/*
 * The buffers chart's figures, two per panel (blocks per claim, then the head lookup's
 * buffers): panel p's rows are 2p and 2p + 1. Their labels and metrics.
 */
static const char *const buffers_names[4] = { "first 2 s", "last 2 s", "before the run", "after the run" };
static const char *const buffers_paths[4] = {
	"server.blocks_per_claim_start", "server.blocks_per_claim_end",
	"server.head_buffers_before", "server.head_buffers_after",
};

/* The wait shares' metric of the first class: a case knows the shares when it knows this one. */
static const char *const wait_known_path[] = { "server.wait_cpu_pct" };

/* Whether a run of case k knows a figure of the n at paths. */
static bool case_knows(const struct chart_set *set, size_t k, const char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (chart_case_stats(set, k, paths[i]).n > 0)
			return true;
	return false;
}

/*
 * Wait shares: a header of the classes' names, then a row per case that knows them: its
 * label and each class's share of the sampled states, % (the mean over repeats: 100 in
 * all). The classes' colours in c->colours; c->blocks counts the rows.
 */
static void write_waits(const struct chart_set *set, FILE *f, struct chart *c)
{
	char path[64];
	size_t k, len;
	int w;

	fputs("\"case\"", f);
	for (w = 0; w < WAIT_CLASS_COUNT; w++) {
		fprintf(f, "\t\"%s\"", wait_class_names[w]);
		len = strlen(c->colours);
		snprintf(c->colours + len, sizeof(c->colours) - len, "%s%s", w ? " " : "", wait_colours[w]);
	}
	putc('\n', f);
	for (k = 0; k < set->n_cases && c->blocks < CHART_MAX_BLOCKS; k++) {
		if (!case_knows(set, k, wait_known_path, 1))
			continue;
		fprintf(f, "\"%s\"", set->cases[k].label);
		for (w = 0; w < WAIT_CLASS_COUNT; w++) {
			snprintf(path, sizeof(path), "server.wait_%s_pct", wait_class_names[w]);
			putc('\t', f);
			chart_put_num(f, chart_case_stats(set, k, path).mean);
		}
		putc('\n', f);
		c->blocks++;
	}
	c->ymax = 100;
}

/* Whether a sample of run knows dead tuples (dead) or the -wal file's size. */
static bool samples_know(const struct run_result *run, bool dead)
{
	for (size_t i = 0; i < run->n_samples; i++)
		if ((dead ? run->samples[i].dead_tuples : run->samples[i].wal_bytes) != SAMPLE_UNKNOWN)
			return true;
	return false;
}

bool chart_pressure_drawable(const struct run_result *run)
{
	return run->n_series && (samples_know(run, true) || samples_know(run, false));
}

/* The first run of case k (by repetition number) the pressure chart can draw, or NULL. */
static const struct run_result *pressure_run(const struct chart_set *set, size_t k)
{
	const struct run_result *best = NULL, *run;

	for (size_t i = 0; i < set->n_runs; i++) {
		run = &set->runs[i].run;
		if (set->case_of[i] == k && chart_pressure_drawable(run) && (!best || run->repeat < best->repeat))
			best = run;
	}
	return best;
}

/* Whether every bucket of run's series knows its first completions (distinct jobs). */
static bool distinct_known(const struct run_result *run)
{
	for (size_t i = 0; i < run->n_series; i++)
		if (run->series[i].first_completed == METRIC_UNKNOWN)
			return false;
	return true;
}

/*
 * Writes run's throughput block: a row per bucket of its series, its start (s) and the
 * distinct jobs completed in it per second (when distinct; else every completion), then a
 * row at the last bucket's end repeating the rate. The end (s).
 */
static double write_throughput_steps(FILE *f, const struct run_result *run, bool distinct)
{
	double width = SERIES_BUCKET_NS / 1e6, rate = 0;

	for (size_t i = 0; i < run->n_series; i++) {
		const struct series_point *p = &run->series[i];

		width = i + 1 < run->n_series && run->series[i + 1].t_ms > p->t_ms ?
				(double)(run->series[i + 1].t_ms - p->t_ms) : SERIES_BUCKET_NS / 1e6;
		rate = (double)(distinct ? p->first_completed : p->completed) * 1000.0 / width;
		fprintf(f, "%.3f\t%.9g\n", p->t_ms / 1000.0, rate);
	}
	fprintf(f, "%.3f\t%.9g\n", (run->series[run->n_series - 1].t_ms + width) / 1000.0, rate);
	return (run->series[run->n_series - 1].t_ms + width) / 1000.0;
}

/*
 * Writes, when a run of the n panels had phases, the last block: a row per phase, its
 * panel (from 1), kind, from and to (s); each also in c->phases for drawing.
 */
static void write_phases(FILE *f, struct chart *c, const struct run_result *const *runs, size_t n)
{
	bool opened = false;
	size_t len;

	for (size_t p = 0; p < n; p++) {
		for (size_t i = 0; i < runs[p]->n_phases; i++) {
			const struct phase_record *ph = &runs[p]->phases[i];
			double from = (double)ph->at_ns / 1e9, to = (double)(ph->at_ns + ph->duration_ns) / 1e9;

			len = strlen(c->phases);
			snprintf(c->phases + len, sizeof(c->phases) - len, "%s%zu %d %.3f %.3f", len ? " " : "", p + 1,
				 ph->kind == PHASE_VACUUM, from, to);
			if (!opened)
				fprintf(f, "\n\n\"panel\"\t\"phase\"\t\"from_s\"\t\"to_s\"\n");
			opened = true;
			fprintf(f, "%zu\t\"%s\"\t%.3f\t%.3f\n", p + 1, phase_kind_names[ph->kind], from, to);
		}
	}
}

/*
 * Pressure: per sampled case with a time series (its first repetition), up to
 * CHART_PRESSURE_PANELS (the others counted in c->left_out), a panel of two blocks: its
 * throughput (write_throughput_steps: distinct jobs when every panel's series tells them,
 * c->dups_known), then a row per sample: its instant (s) and the queue table's dead
 * tuples, or the -wal file in MB when the samples know no dead tuples (those panels listed
 * in c->layer). The phases' block last (write_phases). Two panels a row beyond
 * PRESSURE_ONE_COLUMN.
 */
static void write_pressure(const struct chart_set *set, FILE *f, struct chart *c)
{
	const struct run_result *runs[CHART_PRESSURE_PANELS], *run;
	double end;
	bool dead;
	size_t k, i, len;
	int64_t v;

	c->dups_known = true;
	for (k = 0; k < set->n_cases; k++)
		if ((run = pressure_run(set, k)))
			c->dups_known &= distinct_known(run);
	for (k = 0; k < set->n_cases; k++) {
		run = pressure_run(set, k);
		if (!run)
			continue;
		if (c->panels == CHART_PRESSURE_PANELS) {
			c->left_out++;
			continue;
		}
		dead = samples_know(run, true);
		chart_open_block(f, c, set->cases[k].label, c->dups_known ? "\"jobs_per_s\"" : "\"completions_per_s\"");
		end = write_throughput_steps(f, run, c->dups_known);
		c->xhi = end > c->xhi ? end : c->xhi;
		chart_add_case_block(set, c, k);
		chart_open_block(f, c, dead ? "dead tuples" : "-wal file (MB)", dead ? "\"dead_tuples\"" : "\"wal_mb\"");
		for (i = 0; i < run->n_samples; i++) {
			v = dead ? run->samples[i].dead_tuples : run->samples[i].wal_bytes;
			fprintf(f, "%.3f\t", run->samples[i].t_ms / 1000.0);
			chart_put_num(f, v == SAMPLE_UNKNOWN ? NAN : dead ? (double)v : (double)v / 1e6);
			putc('\n', f);
		}
		runs[c->panels++] = run;
		if (!dead) {
			len = strlen(c->layer);
			snprintf(c->layer + len, sizeof(c->layer) - len, "%s%zu", len ? " " : "", c->panels);
		}
	}
	write_phases(f, c, runs, c->panels);
	if (c->panels > PRESSURE_ONE_COLUMN)
		c->height = PRESSURE_TITLE_HEIGHT + PRESSURE_ROW_HEIGHT * (int)((c->panels + 1) / 2);
	else
		c->height = PRESSURE_TITLE_HEIGHT + PRESSURE_PANEL_HEIGHT * (int)(c->panels ? c->panels : 1);
}

/*
 * Buffers: per panel (blocks per claim, the head lookup's buffers) some case knows a figure
 * of, a block: a header of the labels of the cases that know one of the four, then a row
 * per figure, its name and each case's mean over repeats. c->layer lists the panels
 * written (1, 2); c->blocks counts the cases.
 */
static void write_buffers(const struct chart_set *set, FILE *f, struct chart *c)
{
	size_t k, p, r, n = 0, cases[CHART_MAX_BLOCKS], len;
	bool known;

	for (k = 0; k < set->n_cases && n < CHART_MAX_BLOCKS; k++)
		if (case_knows(set, k, buffers_paths, 4))
			cases[n++] = k;
	for (p = 0; p < 2; p++) {
		known = false;
		for (k = 0; k < n; k++)
			known |= case_knows(set, cases[k], buffers_paths + 2 * p, 2);
		if (!known)
			continue;
		fprintf(f, "%s\"figure\"", c->layer[0] ? "\n\n" : "");
		for (k = 0; k < n; k++)
			fprintf(f, "\t\"%s\"", set->cases[cases[k]].label);
		putc('\n', f);
		for (r = 0; r < 2; r++) {
			fprintf(f, "\"%s\"", buffers_names[2 * p + r]);
			for (k = 0; k < n; k++) {
				putc('\t', f);
				chart_put_num(f, chart_case_stats(set, cases[k], buffers_paths[2 * p + r]).mean);
			}
			putc('\n', f);
		}
		len = strlen(c->layer);
		snprintf(c->layer + len, sizeof(c->layer) - len, "%s%zu", len ? " " : "", p + 1);
	}
	for (k = 0; k < n; k++)
		chart_add_case_block(set, c, cases[k]);
	c->height = BUFFERS_HEIGHT;
}

void chart_write_server(const struct chart_set *set, FILE *f, struct chart *c)
{
	if (c->kind == CHART_WAITS)
		write_waits(set, f, c);
	else if (c->kind == CHART_PRESSURE)
		write_pressure(set, f, c);
	else
		write_buffers(set, f, c);
}
